#include "ui/live/overlay_window.hpp"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

namespace referee::live {

namespace {

// Fonts sized for the screen: readable from two metres on 1080p, not huge on a laptop. Returns
// the big font (banners); the first font added is ImGui's default.
ImFont* LoadFonts(float scale) {
  ImGuiIO& io = ImGui::GetIO();
  const char* ttf = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
  if (std::filesystem::is_regular_file(ttf)) {
    io.Fonts->AddFontFromFileTTF(ttf, 18.0f * scale);
    return io.Fonts->AddFontFromFileTTF(ttf, 34.0f * scale);
  }
  ImFontConfig cfg;
  cfg.SizePixels = 13.0f * scale;
  io.Fonts->AddFontDefault(&cfg);
  cfg.SizePixels = 26.0f * scale;
  return io.Fonts->AddFontDefault(&cfg);
}

}  // namespace

OverlayWindow::OverlayWindow(const OverlayWindowOptions& o) {
  if (!glfwInit()) {
    throw std::runtime_error("cannot start GLFW: no display? (headless: xvfb-run -a referee " +
                             o.command + " ...)");
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
  window_ = glfwCreateWindow(o.width_px, o.height_px, o.title.c_str(), nullptr, nullptr);
  if (!window_) {
    glfwTerminate();
    throw std::runtime_error("cannot open an OpenGL 3 window");
  }
  glfwMakeContextCurrent(window_);
  glfwSwapInterval(o.vsync ? 1 : 0);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // the layout is computed, nothing to remember
  ImGui::StyleColorsDark();
  float xscale = 1, yscale = 1;
  glfwGetWindowContentScale(window_, &xscale, &yscale);
  scale_ = o.ui_scale > 0
               ? o.ui_scale
               : std::clamp(static_cast<float>(o.height_px) / 900.0f, 0.85f, 2.5f) * yscale;
  big_font_ = LoadFonts(scale_);
  ImGui::GetStyle().ScaleAllSizes(scale_);
  ImGui_ImplGlfw_InitForOpenGL(window_, true);
  ImGui_ImplOpenGL3_Init("#version 130");
}

OverlayWindow::~OverlayWindow() {
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(window_);
  glfwTerminate();
}

bool OverlayWindow::ShouldClose() const { return glfwWindowShouldClose(window_) != 0; }

cv::Size OverlayWindow::NewFrame(const std::function<void(ImGuiIO&)>& override_input) {
  int w = 0, h = 0;
  glfwGetFramebufferSize(window_, &w, &h);
  framebuffer_px_ = {w, h};
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  if (override_input) override_input(ImGui::GetIO());
  ImGui::NewFrame();
  return framebuffer_px_;
}

void OverlayWindow::Render() {
  ImGui::Render();
  glViewport(0, 0, framebuffer_px_.width, framebuffer_px_.height);
  glClearColor(0.08f, 0.08f, 0.09f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

void OverlayWindow::Swap() { glfwSwapBuffers(window_); }

}  // namespace referee::live
