// The one GLFW window, OpenGL 3 context and Dear ImGui set-up that `referee live` and
// `referee replay` share: opened in the constructor (fonts sized for the screen), torn down in
// the destructor, and the start and end of each rendered frame around the app's drawing.
#pragma once

#include <functional>
#include <string>

#include <opencv2/core.hpp>

struct GLFWwindow;
struct ImFont;
struct ImGuiIO;

namespace referee::live {

struct OverlayWindowOptions {
  std::string title = "Tabletop Referee";
  std::string command = "live";  // the subcommand, named in the "no display?" error
  int width_px = 1600;           // initial window size; fonts scale with the height
  int height_px = 900;
  float ui_scale = 0;  // font scale; 0 = from the window height and the monitor's DPI
  bool vsync = true;   // false for --frames runs, which render as fast as they can
};

class OverlayWindow {
 public:
  // Throws std::runtime_error when there is no display or no OpenGL 3.
  explicit OverlayWindow(const OverlayWindowOptions& options);
  ~OverlayWindow();
  OverlayWindow(const OverlayWindow&) = delete;
  OverlayWindow& operator=(const OverlayWindow&) = delete;

  GLFWwindow* glfw() const { return window_; }
  float scale() const { return scale_; }
  ImFont* big_font() const { return big_font_; }  // banners; twice the body size
  bool ShouldClose() const;

  // Starts an ImGui frame; returns the framebuffer size in px. `override_input` runs after the
  // GLFW backend has written this frame's mouse and keys into ImGuiIO and before ImGui reads
  // them: scripted input replaces them there.
  cv::Size NewFrame(const std::function<void(ImGuiIO&)>& override_input = {});
  // Draws the frame's ImGui data over a cleared framebuffer; a screenshot may read it back
  // before Swap().
  void Render();
  void Swap();

 private:
  GLFWwindow* window_ = nullptr;
  float scale_ = 1;
  ImFont* big_font_ = nullptr;
  cv::Size framebuffer_px_;
};

}  // namespace referee::live
