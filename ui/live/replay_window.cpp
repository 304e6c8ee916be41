// The replay window: the picture the referee stored (frame or evidence) above a map of the
// table with the units where the log says they were, and a panel with the event, the turn, the
// shot's verdict and the corrections. Keys move through the log (ReplayController).
#include "ui/live/replay_window.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <stdexcept>

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>
#include <nlohmann/json.hpp>

#include "engine/board_file.hpp"
#include "engine/input_error.hpp"
#include "ui/live/gl_image.hpp"
#include "ui/live/replay_controller.hpp"
#include "ui/live/screenshots.hpp"
#include "ui/live/view_mapping.hpp"
#include "vision/frame_store.hpp"

namespace referee::live {

namespace {

namespace fs = std::filesystem;

constexpr std::array<int, 3> kCircleRgb{255, 0, 255};  // magenta, as the live overlay
constexpr std::array<int, 3> kHitRgb{255, 200, 0};     // amber, as the live overlay's candidates
constexpr std::array<int, 3> kUnknownSideRgb{160, 160, 160};

ImU32 Rgb(const std::array<int, 3>& c, int alpha = 255) {
  return IM_COL32(c[0], c[1], c[2], alpha);
}

// The schematic map: table inches -> screen px, the board fitted into its panel.
struct MapView {
  double x0 = 0, y0 = 0, px_per_in = 1;
  ImVec2 operator()(Vec2 p) const {
    return {static_cast<float>(x0 + p.x * px_per_in), static_cast<float>(y0 + p.y * px_per_in)};
  }
};

MapView FitBoard(const ReplayBoard& b, const ScreenRect& panel) {
  const double w = b.cols * b.square_in, h = b.rows * b.square_in;
  const double margin = 12;
  const double s = std::max(0.1, std::min((panel.w - 2 * margin) / w, (panel.h - 2 * margin) / h));
  return {panel.x + (panel.w - w * s) / 2, panel.y + (panel.h - h * s) / 2, s};
}

std::string Fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

class ReplayApp {
 public:
  ReplayApp(const ReplayOptions& options, GLFWwindow* window, ReplayController controller)
      : opt_(options),
        window_(window),
        controller_(std::move(controller)),
        store_(FrameStore::ForLog(controller_.log().path)),
        shots_(options.screenshot_dir),
        side_rgb_(DefaultSideColors()) {}

  void SetScale(float scale) { scale_ = scale; }
  int Loop();

 private:
  void HandleKeys();
  void Move(ReplayCommand c) {
    if (controller_.Apply(c)) step_frames_ = 0;
  }
  void LoadPicture();
  void DrawUi(nlohmann::json& notes);
  void DrawPicture(ImDrawList* dl, const ScreenRect& area, nlohmann::json& notes);
  void DrawMap(ImDrawList* dl, const ScreenRect& area, nlohmann::json& notes);
  void DrawPanel();
  void MaybeScreenshot(int fb_w, int fb_h, const nlohmann::json& notes);
  std::array<int, 3> SideRgb(const std::string& side) const {
    const auto it = side_rgb_.find(side);
    return it == side_rgb_.end() ? kUnknownSideRgb : it->second;
  }

  const ReplayOptions& opt_;
  GLFWwindow* window_;
  ReplayController controller_;
  FrameStore store_;
  Screenshots shots_;
  std::map<std::string, std::array<int, 3>> side_rgb_;
  GlTexture picture_tex_;
  std::string picture_loaded_;    // frame store name now in picture_tex_
  bool picture_missing_ = false;  // the log names a picture the store no longer has intact
  int step_frames_ = 0;           // frames the current step has been shown
  bool quit_ = false;
  float scale_ = 1;
};

void ReplayApp::HandleKeys() {
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantTextInput) return;
  auto pressed = [](int key) { return ImGui::IsKeyPressed(key, true); };
  const bool shift = io.KeyShift;
  if (pressed(GLFW_KEY_RIGHT) || pressed(GLFW_KEY_N) || pressed(GLFW_KEY_SPACE))
    Move(ReplayCommand::kNextEvent);
  if (pressed(GLFW_KEY_LEFT) || pressed(GLFW_KEY_P) || pressed(GLFW_KEY_BACKSPACE))
    Move(ReplayCommand::kPreviousEvent);
  if (pressed(GLFW_KEY_S)) Move(shift ? ReplayCommand::kPreviousShot : ReplayCommand::kNextShot);
  if (pressed(GLFW_KEY_T)) Move(shift ? ReplayCommand::kPreviousTurn : ReplayCommand::kNextTurn);
  if (pressed(GLFW_KEY_HOME)) Move(ReplayCommand::kFirst);
  if (pressed(GLFW_KEY_END)) Move(ReplayCommand::kLast);
  if (pressed(GLFW_KEY_ESCAPE) || pressed(GLFW_KEY_Q)) quit_ = true;
}

void ReplayApp::LoadPicture() {
  const std::string& name = controller_.step().picture;
  if (name == picture_loaded_) return;
  picture_loaded_ = name;
  picture_missing_ = false;
  if (name.empty()) return;
  const cv::Mat img = store_.Load(name);
  if (img.empty()) {
    picture_missing_ = true;
    return;
  }
  picture_tex_.Upload(img);
}

void ReplayApp::DrawPicture(ImDrawList* dl, const ScreenRect& area, nlohmann::json& notes) {
  const ReplayStep& s = controller_.step();
  const ImU32 text = IM_COL32(230, 230, 230, 255);
  if (s.picture.empty() || picture_missing_ || picture_tex_.empty()) {
    const std::string why = s.picture.empty() ? "no frame recorded up to this event"
                                              : "frame " + s.picture + " missing or damaged in " +
                                                    store_.dir().string();
    dl->AddText(ImGui::GetFont(), ImGui::GetFontSize() * 1.2f,
                ImVec2(static_cast<float>(area.x + 20), static_cast<float>(area.y + 20)), text,
                why.c_str());
    notes["picture"] = {{"name", s.picture}, {"shown", false}};
    return;
  }
  const float label_h = ImGui::GetFontSize() * 1.6f;
  const ScreenRect r =
      FitImage(picture_tex_.size(), {area.x, area.y + label_h, area.w, area.h - label_h});
  dl->AddImage(picture_tex_.id(), ImVec2(static_cast<float>(r.x), static_cast<float>(r.y)),
               ImVec2(static_cast<float>(r.x + r.w), static_cast<float>(r.y + r.h)));
  const std::string label =
      s.picture_kind + " (stored by event " + std::to_string(s.picture_seq) + "): " + s.picture;
  dl->AddText(ImVec2(static_cast<float>(area.x + 8), static_cast<float>(area.y + 4)), text,
              label.c_str());
  notes["picture"] = {{"name", s.picture},
                      {"kind", s.picture_kind},
                      {"shown", true},
                      {"rect", {r.x, r.y, r.w, r.h}},
                      {"image_size", {picture_tex_.size().width, picture_tex_.size().height}}};
}

void ReplayApp::DrawMap(ImDrawList* dl, const ScreenRect& area, nlohmann::json& notes) {
  const ReplayStep& s = controller_.step();
  const ReplayBoard& b = controller_.board();
  const MapView m = FitBoard(b, area);
  const Vec2 size{b.cols * b.square_in, b.rows * b.square_in};
  dl->AddRectFilled(m({0, 0}), m(size), IM_COL32(52, 84, 52, 255));
  for (int c = 0; c <= b.cols; ++c)
    dl->AddLine(m({c * b.square_in, 0}), m({c * b.square_in, size.y}), IM_COL32(25, 40, 25, 255),
                1.5f * scale_);
  for (int r = 0; r <= b.rows; ++r)
    dl->AddLine(m({0, r * b.square_in}), m({size.x, r * b.square_in}), IM_COL32(25, 40, 25, 255),
                1.5f * scale_);
  std::set<std::string> hits;
  if (s.shot && s.shot->verdict_seq > 0)
    hits.insert(s.shot->hit_stand_ids.begin(), s.shot->hit_stand_ids.end());
  nlohmann::json stands = nlohmann::json::array();
  for (const auto& [id, st] : s.state.stands) {
    const auto corners = st.footprint.Corners();
    std::array<ImVec2, 4> pts;
    for (size_t i = 0; i < 4; ++i) pts[i] = m(corners[i]);
    const auto rgb = SideRgb(st.side);
    dl->AddConvexPolyFilled(pts.data(), 4, Rgb(rgb));
    const bool hit = hits.contains(id);
    dl->AddPolyline(pts.data(), 4, hit ? Rgb(kHitRgb) : IM_COL32(240, 240, 240, 255),
                    ImDrawFlags_Closed, (hit ? 3.0f : 1.0f) * scale_);
    // Facing: a tick from the centre to the front edge.
    const Vec2 front = st.footprint.center + st.footprint.FacingDir() * (st.footprint.depth_in / 2);
    if (st.facing_known)
      dl->AddLine(m(st.footprint.center), m(front), IM_COL32(255, 255, 255, 255), 1.5f * scale_);
    const ImVec2 c = m(st.footprint.center);
    stands.push_back({{"id", id},
                      {"side", st.side},
                      {"center_px", {c.x, c.y}},
                      {"side_rgb", rgb},
                      {"hit", hit}});
    if (m.px_per_in > 8)
      dl->AddText(ImVec2(c.x + 6, c.y + 4), IM_COL32(255, 255, 255, 220), id.c_str());
  }
  nlohmann::json map_notes = {{"rect", {area.x, area.y, area.w, area.h}},
                              {"px_per_in", m.px_per_in},
                              {"origin_px", {m.x0, m.y0}},
                              {"stands", stands}};
  if (s.shot && s.shot->impact_in) {
    // The verdict's circle; a log without it gets the rule books' 1" radius.
    const double radius_in =
        s.shot->verdict.is_object() ? s.shot->verdict.value("hit_radius_in", 1.0) : 1.0;
    const ImVec2 c = m(*s.shot->impact_in);
    const float r = static_cast<float>(radius_in * m.px_per_in);
    dl->AddCircle(c, r, Rgb(kCircleRgb), 48, 2.5f * scale_);
    dl->AddLine(ImVec2(c.x - 5, c.y), ImVec2(c.x + 5, c.y), Rgb(kCircleRgb), 2);
    dl->AddLine(ImVec2(c.x, c.y - 5), ImVec2(c.x, c.y + 5), Rgb(kCircleRgb), 2);
    map_notes["impact"] = {{"center_px", {c.x, c.y}},
                           {"radius_px", r},
                           {"circle_rgb", kCircleRgb},
                           {"shot_id", s.shot->shot_id}};
  }
  notes["map"] = map_notes;
}

void ReplayApp::DrawPanel() {
  const ReplayStep& s = controller_.step();
  const GameState& g = s.state;
  ImGui::TextWrapped("%s", controller_.log().path.filename().string().c_str());
  ImGui::Text("Event %zu of %zu  (seq %lld)", s.index + 1, s.count,
              static_cast<long long>(s.event.seq));
  ImGui::TextDisabled("%s", s.event.time_utc.c_str());
  ImGui::Separator();
  ImGui::Text("%s", s.event.type().c_str());
  ImGui::TextWrapped("%s", s.summary.c_str());
  if (s.undone_by > 0) {
    ImGui::TextColored(ImVec4(1, 0.35f, 0.35f, 1), "UNDONE later by event %lld",
                       static_cast<long long>(s.undone_by));
  }
  ImGui::Separator();
  if (g.turn > 0) {
    ImGui::Text("Turn %d  %s  %s", g.turn, g.active_side.c_str(), g.phase.c_str());
  } else {
    ImGui::Text("Set-up (before the first turn)");
  }
  for (const auto& [side, pts] : g.points_by_side)
    ImGui::Text("  %s: %s points", side.c_str(), Fixed(pts, 1).c_str());
  ImGui::Text("%zu stands on the table", g.stands.size());

  if (s.shot) {
    const ShotRecord& shot = *s.shot;
    ImGui::Separator();
    ImGui::Text("Shot %s", shot.shot_id.c_str());
    ImGui::TextWrapped("%s %s %s%s", shot.side.c_str(), shot.weapon.c_str(), shot.stand_id.c_str(),
                       shot.player.empty() ? "" : (" (" + shot.player + ")").c_str());
    if (shot.verdict_seq == 0) {
      ImGui::Text("no verdict yet");
    } else {
      if (shot.impact_in)
        ImGui::Text("impact (%s, %s) in", Fixed(shot.impact_in->x, 2).c_str(),
                    Fixed(shot.impact_in->y, 2).c_str());
      std::string hits;
      for (const auto& h : shot.hit_stand_ids) hits += (hits.empty() ? "" : ", ") + h;
      if (hits.empty()) {
        ImGui::Text("MISS");
      } else {
        ImGui::TextColored(ImVec4(1, 0.8f, 0, 1), "HIT: %s", hits.c_str());
      }
      if (shot.corrected) ImGui::TextColored(ImVec4(1, 0.6f, 0.2f, 1), "corrected by the players");
      if (const auto near = shot.verdict.find("stands_near");
          shot.verdict.is_object() && near != shot.verdict.end() && near->is_array()) {
        for (const auto& n : *near) {
          ImGui::BulletText(
              "%s  %s mm / %s\"  margin %s\"%s", n.value("id", "").c_str(),
              Fixed(n.value("distance_mm", 0.0), 1).c_str(),
              Fixed(n.value("distance_in", 0.0), 2).c_str(),
              Fixed(n.value("margin_in", 0.0), 2).c_str(),
              n.value("candidate", false) || n.value("destroyed", false) ? "  HIT" : "");
        }
      }
      if (const auto ex = shot.verdict.find("explanation");
          shot.verdict.is_object() && ex != shot.verdict.end() && ex->is_array()) {
        for (const auto& line : *ex)
          if (line.is_string()) ImGui::TextWrapped("%s", line.get<std::string>().c_str());
      }
    }
    for (const auto& c : shot.firer_choices) ImGui::TextWrapped("firer: %s", c.c_str());
  }

  ImGui::Separator();
  ImGui::Text("Corrections so far: %zu", s.corrections.size());
  const size_t from = s.corrections.size() > 8 ? s.corrections.size() - 8 : 0;
  for (size_t i = from; i < s.corrections.size(); ++i) {
    ImGui::TextWrapped("%lld %s: %s", static_cast<long long>(s.corrections[i].seq),
                       s.corrections[i].type.c_str(), s.corrections[i].summary.c_str());
  }

  ImGui::Separator();
  auto button = [&](const char* label, ReplayCommand c) {
    if (ImGui::Button(label)) Move(c);
  };
  button("|<", ReplayCommand::kFirst);
  ImGui::SameLine();
  button("< event", ReplayCommand::kPreviousEvent);
  ImGui::SameLine();
  button("event >", ReplayCommand::kNextEvent);
  ImGui::SameLine();
  button(">|", ReplayCommand::kLast);
  button("< shot", ReplayCommand::kPreviousShot);
  ImGui::SameLine();
  button("shot >", ReplayCommand::kNextShot);
  ImGui::SameLine();
  button("< turn", ReplayCommand::kPreviousTurn);
  ImGui::SameLine();
  button("turn >", ReplayCommand::kNextTurn);
  ImGui::TextDisabled("Right/N/Space next event, Left/P previous");
  ImGui::TextDisabled("S next shot, Shift+S previous shot");
  ImGui::TextDisabled("T next turn, Shift+T previous turn");
  ImGui::TextDisabled("Home first, End last, Esc/Q quit");
}

void ReplayApp::DrawUi(nlohmann::json& notes) {
  const ImGuiIO& io = ImGui::GetIO();
  const float panel_w = std::max(420.0f * scale_, io.DisplaySize.x * 0.3f);
  const double left_w = io.DisplaySize.x - panel_w;
  const double picture_h = io.DisplaySize.y * 0.6;
  ImDrawList* dl = ImGui::GetBackgroundDrawList();
  LoadPicture();
  DrawPicture(dl, {0, 0, left_w, picture_h}, notes);
  DrawMap(dl, {0, picture_h, left_w, io.DisplaySize.y - picture_h}, notes);

  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x - panel_w, 0));
  ImGui::SetNextWindowSize(ImVec2(panel_w, io.DisplaySize.y));
  ImGui::Begin("Replay", nullptr,
               ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                   ImGuiWindowFlags_NoSavedSettings);
  DrawPanel();
  ImGui::End();
  const ReplayStep& s = controller_.step();
  notes["index"] = s.index;
  notes["seq"] = s.event.seq;
  notes["type"] = s.event.type();
  notes["display"] = {io.DisplaySize.x, io.DisplaySize.y};
}

void ReplayApp::MaybeScreenshot(int fb_w, int fb_h, const nlohmann::json& notes) {
  // The second frame of a step: the first one has settled the panel's layout.
  if (step_frames_ < 1) return;
  const ReplayStep& s = controller_.step();
  if (shots_.Wants("first") && s.index == 0) shots_.Save("first", fb_w, fb_h, notes);
  if (shots_.Wants("evidence") && s.picture_kind == "evidence" && !picture_missing_)
    shots_.Save("evidence", fb_w, fb_h, notes);
  if (shots_.Wants("last") && controller_.at_end()) shots_.Save("last", fb_w, fb_h, notes);
}

int ReplayApp::Loop() {
  int rendered = 0;
  auto last_step = std::chrono::steady_clock::now();
  while (!glfwWindowShouldClose(window_) && !quit_) {
    glfwPollEvents();
    const auto now = std::chrono::steady_clock::now();
    if (opt_.frames > 0) {
      if (step_frames_ >= 2) Move(ReplayCommand::kNextEvent);
    } else if (opt_.autoplay_seconds > 0 &&
               std::chrono::duration<double>(now - last_step).count() >= opt_.autoplay_seconds) {
      Move(ReplayCommand::kNextEvent);
      last_step = now;
    }
    int fb_w = 0, fb_h = 0;
    glfwGetFramebufferSize(window_, &fb_w, &fb_h);
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    HandleKeys();
    nlohmann::json notes = nlohmann::json::object();
    DrawUi(notes);
    ImGui::Render();
    glViewport(0, 0, fb_w, fb_h);
    glClearColor(0.08f, 0.08f, 0.09f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    MaybeScreenshot(fb_w, fb_h, notes);
    glfwSwapBuffers(window_);
    ++rendered;
    ++step_frames_;
    if (opt_.frames > 0 && (rendered >= opt_.frames || (controller_.at_end() && step_frames_ >= 2)))
      break;
  }
  return 0;
}

}  // namespace

void ReplayOptions::Check() const {
  if (log.empty()) throw InputError("referee replay", "LOG", "missing game log file");
  if (frames < 0) throw InputError("referee replay", "--frames", "must be >= 0");
  if (width_px < 320 || height_px < 240)
    throw InputError("referee replay", "--width/--height", "window must be at least 320x240");
  if (autoplay_seconds < 0) throw InputError("referee replay", "--autoplay", "must be >= 0 s");
}

int RunReplay(const ReplayOptions& o) {
  o.Check();
  // The whole log is read and checked before any window opens.
  ReplayController controller(ReadGameLog(o.log));  // refuses a log with no complete event
  for (const auto& p : controller.log().problems)
    std::cerr << o.log << ":" << p.line << ": " << p.what << " (skipped)\n";

  if (!glfwInit()) {
    throw std::runtime_error(
        "cannot start GLFW: no display? (headless: xvfb-run -a referee replay ...)");
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
  GLFWwindow* window =
      glfwCreateWindow(o.width_px, o.height_px, "Tabletop Referee - replay", nullptr, nullptr);
  if (!window) {
    glfwTerminate();
    throw std::runtime_error("cannot open an OpenGL 3 window");
  }
  glfwMakeContextCurrent(window);
  glfwSwapInterval(o.frames > 0 ? 0 : 1);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;
  ImGui::StyleColorsDark();
  float xscale = 1, yscale = 1;
  glfwGetWindowContentScale(window, &xscale, &yscale);
  const float scale =
      o.ui_scale > 0 ? o.ui_scale
                     : std::clamp(static_cast<float>(o.height_px) / 900.0f, 0.85f, 2.5f) * yscale;
  const char* ttf = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
  if (fs::is_regular_file(ttf)) {
    ImGui::GetIO().Fonts->AddFontFromFileTTF(ttf, 18.0f * scale);
  } else {
    ImFontConfig cfg;
    cfg.SizePixels = 13.0f * scale;
    ImGui::GetIO().Fonts->AddFontDefault(&cfg);
  }
  ImGui::GetStyle().ScaleAllSizes(scale);
  ImGui_ImplGlfw_InitForOpenGL(window, true);
  ImGui_ImplOpenGL3_Init("#version 130");

  int rc = 0;
  {
    ReplayApp app(o, window, std::move(controller));
    app.SetScale(scale);
    rc = app.Loop();
  }
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(window);
  glfwTerminate();
  return rc;
}

}  // namespace referee::live
