// The replay window: the game drawn over the camera frame the referee stored (camera view or
// rectified top view through the log's calibration), a schematic map of the table where there
// is no frame or no calibration to draw on, and a panel with the event, the turn, the shot's
// verdict, its evidence picture and the corrections. Keys move through the log
// (ReplayController).
#include "ui/live/replay_window.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <set>
#include <stdexcept>

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <nlohmann/json.hpp>

#include "engine/board_file.hpp"
#include "engine/input_error.hpp"
#include "engine/logged_json.hpp"
#include "ui/live/gl_image.hpp"
#include "ui/live/log_frames.hpp"
#include "ui/live/overlay.hpp"
#include "ui/live/overlay_window.hpp"
#include "ui/live/replay_controller.hpp"
#include "ui/live/screenshots.hpp"
#include "ui/live/view_mapping.hpp"
#include "vision/frame_store.hpp"
#include "vision/top_view.hpp"

namespace referee::live {

namespace {

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

// What the table view shows at a step.
enum class TableMode {
  kCamera,      // the stored camera frame, the game drawn through the calibrated camera
  kTop,         // the same frame rectified to a top view, the game drawn on it to scale
  kPictureMap,  // a frame but no calibration to draw with: the frame above a schematic map
  kSchematic,   // no frame stored up to here: the schematic map alone
};

const char* ModeName(TableMode m) {
  switch (m) {
    case TableMode::kCamera:
      return "camera";
    case TableMode::kTop:
      return "top";
    case TableMode::kPictureMap:
      return "picture+schematic";
    case TableMode::kSchematic:
      return "schematic";
  }
  return "";
}

class ReplayApp {
 public:
  ReplayApp(const ReplayOptions& options, OverlayWindow& window, ReplayController controller)
      : opt_(options),
        window_(window),
        controller_(std::move(controller)),
        store_(FrameStore::ForLog(controller_.log().path)),
        shots_(options.screenshot_dir),
        side_rgb_(DefaultSideColors()),
        top_view_(options.top_view),
        scale_(window.scale()) {
    style_.line_px = 2.5f * scale_;
    style_.font_px = 18.0f * scale_;
  }

  int Loop();

 private:
  void HandleKeys();
  void Move(ReplayCommand c) {
    if (controller_.Apply(c)) step_frames_ = 0;
  }
  void LoadFrame();
  void LoadEvidence();
  void DrawUi(nlohmann::json& notes);
  void DrawTable(ImDrawList* dl, const ScreenRect& area, nlohmann::json& notes);
  void DrawOverFrame(ImDrawList* dl, const ScreenRect& area, nlohmann::json& notes);
  void DrawFrameOnly(ImDrawList* dl, const ScreenRect& area, nlohmann::json& notes);
  void DrawMap(ImDrawList* dl, const ScreenRect& area, nlohmann::json& notes);
  void DrawBanner(ImDrawList* dl, const ScreenRect& area, const std::string& text, bool warn);
  void DrawPanel(nlohmann::json& notes);
  void DrawEvidence(nlohmann::json& notes);
  void MaybeScreenshot(cv::Size fb, const nlohmann::json& notes);
  std::array<int, 3> SideRgb(const std::string& side) const {
    const auto it = side_rgb_.find(side);
    return it == side_rgb_.end() ? kUnknownSideRgb : it->second;
  }

  const ReplayOptions& opt_;
  OverlayWindow& window_;
  ReplayController controller_;
  FrameStore store_;
  Screenshots shots_;
  std::map<std::string, std::array<int, 3>> side_rgb_;
  OverlayStyle style_;
  bool top_view_ = false;  // the user's choice (V); used when a calibrated frame is shown

  // The frame shown and what it could be drawn with, reloaded when the step's frame, its
  // calibration or the view changes.
  std::string frame_key_;
  TableMode mode_ = TableMode::kSchematic;
  std::string mode_why_;  // why the view fell back to the schematic map ("" when it did not)
  cv::Mat frame_bgr_;     // the stored camera frame as decoded
  GlTexture frame_tex_;   // that frame, or its top view
  int64_t calibration_seq_ = -1;  // calibration event parsed into calibration_ (-1: none yet)
  std::optional<TableCalibration> calibration_;
  std::string calibration_why_;
  std::optional<TopView> top_;  // built on first use per calibration (remap tables)

  GlTexture evidence_tex_;
  std::string evidence_loaded_;    // frame store name now in evidence_tex_
  bool evidence_missing_ = false;  // the log names an evidence picture the store lacks intact

  int step_frames_ = 0;  // frames the current step has been shown
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
  if (pressed(GLFW_KEY_V)) top_view_ = !top_view_;
  if (pressed(GLFW_KEY_ESCAPE) || pressed(GLFW_KEY_Q)) quit_ = true;
}

void ReplayApp::LoadFrame() {
  const ReplayStep& s = controller_.step();
  const std::string key = s.frame + "|" + std::to_string(s.frame_calibration_seq) + "|" +
                          (top_view_ ? "top" : "camera");
  if (key == frame_key_) return;
  const bool new_frame = frame_key_.substr(0, frame_key_.find('|')) != s.frame;
  frame_key_ = key;
  if (new_frame) frame_bgr_ = s.frame.empty() ? cv::Mat() : store_.Load(s.frame);
  if (s.frame_calibration_seq != calibration_seq_) {
    calibration_seq_ = s.frame_calibration_seq;
    top_.reset();
    calibration_.reset();
    calibration_why_.clear();
    if (s.frame_calibration) {
      std::string why;
      calibration_ = CalibrationFromLog(s.frame_calibration->calibration, &why);
      if (!calibration_) {
        calibration_why_ = "calibration event " + std::to_string(s.frame_calibration_seq) +
                           " holds no camera model (" + why + ")";
      }
    } else {
      calibration_why_ = "the log has no calibration before this frame";
    }
  }
  mode_why_.clear();
  if (s.frame.empty()) {
    mode_ = TableMode::kSchematic;
    mode_why_ = "No camera frame stored up to this event: schematic map of the table";
    return;
  }
  if (frame_bgr_.empty()) {
    mode_ = TableMode::kSchematic;
    mode_why_ = "Frame " + s.frame + " missing or damaged in " + store_.dir().string() +
                ": schematic map of the table";
    return;
  }
  if (calibration_ && frame_bgr_.size() != calibration_->camera.image_size) {
    calibration_why_ = "the frame is " + std::to_string(frame_bgr_.cols) + "x" +
                       std::to_string(frame_bgr_.rows) + " px but the calibration is for " +
                       std::to_string(calibration_->camera.image_size.width) + "x" +
                       std::to_string(calibration_->camera.image_size.height);
    calibration_.reset();
    top_.reset();
  }
  if (!calibration_) {
    mode_ = TableMode::kPictureMap;
    mode_why_ = "Cannot draw on this frame: " + calibration_why_ + ". Schematic map below";
    frame_tex_.Upload(frame_bgr_);
    return;
  }
  if (top_view_) {
    if (!top_) top_.emplace(*calibration_);
    mode_ = TableMode::kTop;
    frame_tex_.Upload(top_->Rectify(frame_bgr_));
  } else {
    mode_ = TableMode::kCamera;
    frame_tex_.Upload(frame_bgr_);
  }
}

void ReplayApp::LoadEvidence() {
  const ReplayStep& s = controller_.step();
  const std::string name = s.shot ? s.shot->evidence : "";
  if (name == evidence_loaded_) return;
  evidence_loaded_ = name;
  evidence_missing_ = false;
  if (name.empty()) return;
  const cv::Mat img = store_.Load(name);
  if (img.empty()) {
    evidence_missing_ = true;
    return;
  }
  evidence_tex_.Upload(img);
}

void ReplayApp::DrawBanner(ImDrawList* dl, const ScreenRect& area, const std::string& text,
                           bool warn) {
  const float size = ImGui::GetFontSize();
  const ImVec2 at(static_cast<float>(area.x + 8), static_cast<float>(area.y + 4));
  const ImVec2 extent = ImGui::GetFont()->CalcTextSizeA(size, FLT_MAX, 0, text.c_str());
  dl->AddRectFilled(ImVec2(at.x - 4, at.y - 2), ImVec2(at.x + extent.x + 4, at.y + extent.y + 2),
                    warn ? IM_COL32(120, 60, 0, 230) : IM_COL32(0, 0, 0, 170));
  dl->AddText(ImGui::GetFont(), size, at, IM_COL32(240, 240, 240, 255), text.c_str());
}

// Where the table view shows the game over the stored frame: the same drawing as the live
// overlay (stands in their side colour with facing and unit, hit candidates, the hit circle
// through the camera), mapped by the calibration the log holds for that frame.
void ReplayApp::DrawOverFrame(ImDrawList* dl, const ScreenRect& area, nlohmann::json& notes) {
  const ReplayStep& s = controller_.step();
  const float label_h = ImGui::GetFontSize() * 1.6f;
  const ViewMapping map(*calibration_, top_ ? &*top_ : nullptr, mode_ == TableMode::kTop,
                        frame_tex_.size(), {area.x, area.y + label_h, area.w, area.h - label_h});
  const ScreenRect& r = map.image_rect();
  dl->PushClipRect(ImVec2(static_cast<float>(r.x), static_cast<float>(r.y)),
                   ImVec2(static_cast<float>(r.x + r.w), static_cast<float>(r.y + r.h)), true);
  dl->AddImage(frame_tex_.id(), ImVec2(static_cast<float>(r.x), static_cast<float>(r.y)),
               ImVec2(static_cast<float>(r.x + r.w), static_cast<float>(r.y + r.h)));

  std::vector<ShownStand> shown;
  for (const auto& [id, st] : s.state.stands) {
    ShownStand shown_stand;
    shown_stand.stand = {id, st.side, st.kind, st.footprint, st.facing_known, {}};
    shown_stand.unit = st.unit;
    shown.push_back(shown_stand);
  }
  std::optional<VerdictView> verdict;
  if (s.shot && s.shot->verdict_seq > 0 && s.shot->impact_in) {
    VerdictView v;
    v.impact_in = *s.shot->impact_in;
    v.circle_radius_in = LoggedHitRadiusIn(s.shot->verdict);
    const std::set<std::string> hits(s.shot->hit_stand_ids.begin(), s.shot->hit_stand_ids.end());
    for (const LoggedStandNear& n : LoggedStandsNear(s.shot->verdict)) {
      CandidateView c;
      c.stand_id = n.id;
      c.distance_in = n.distance_in;
      c.hit = hits.contains(c.stand_id);
      v.candidates.push_back(c);
    }
    for (const auto& c : s.shot->check) v.checks.push_back({c.side, c.reason, c.point_in});
    verdict = v;
  }
  nlohmann::json overlay = nlohmann::json::object();
  // The grid as the live overlay draws it, so a replayed ruling can be checked square by square.
  const ReplayBoard& b = controller_.board();
  nlohmann::json grid_notes = nlohmann::json::object();
  DrawGridOverlay(dl, map, Grid{b.cols, b.rows, b.square_in}, style_, &grid_notes);
  overlay["grid"] = grid_notes;
  DrawStandsOverlay(dl, map, shown, side_rgb_, verdict, "", style_, &overlay);
  if (verdict) {
    DrawImpact(dl, map, verdict->impact_in, verdict->circle_radius_in, style_, &overlay);
    DrawChecks(dl, map, verdict->checks, style_, &overlay);
  }
  dl->PopClipRect();

  const std::string label = s.frame_kind + " frame (stored by event " +
                            std::to_string(s.frame_seq) + "), " +
                            (mode_ == TableMode::kTop ? "top view" : "camera view") +
                            " - V: " + (mode_ == TableMode::kTop ? "camera view" : "top view");
  DrawBanner(dl, area, label, false);
  overlay["frame"] = {{"name", s.frame},
                      {"kind", s.frame_kind},
                      {"seq", s.frame_seq},
                      {"calibration_seq", s.frame_calibration_seq},
                      {"rect", {r.x, r.y, r.w, r.h}},
                      {"image_size", {frame_tex_.size().width, frame_tex_.size().height}}};
  notes["table"].update(overlay);
}

// A frame the game cannot be drawn on (no usable calibration): the frame as stored, above the
// schematic map.
void ReplayApp::DrawFrameOnly(ImDrawList* dl, const ScreenRect& area, nlohmann::json& notes) {
  const ReplayStep& s = controller_.step();
  const float label_h = ImGui::GetFontSize() * 1.6f;
  const ScreenRect r =
      FitImage(frame_tex_.size(), {area.x, area.y + label_h, area.w, area.h - label_h});
  dl->AddImage(frame_tex_.id(), ImVec2(static_cast<float>(r.x), static_cast<float>(r.y)),
               ImVec2(static_cast<float>(r.x + r.w), static_cast<float>(r.y + r.h)));
  notes["table"]["frame"] = {{"name", s.frame},
                             {"kind", s.frame_kind},
                             {"seq", s.frame_seq},
                             {"rect", {r.x, r.y, r.w, r.h}},
                             {"image_size", {frame_tex_.size().width, frame_tex_.size().height}}};
}

void ReplayApp::DrawTable(ImDrawList* dl, const ScreenRect& area, nlohmann::json& notes) {
  LoadFrame();
  notes["table"] = {{"mode", ModeName(mode_)}, {"message", mode_why_}};
  switch (mode_) {
    case TableMode::kCamera:
    case TableMode::kTop:
      DrawOverFrame(dl, area, notes);
      return;
    case TableMode::kPictureMap: {
      const double picture_h = area.h * 0.55;
      DrawFrameOnly(dl, {area.x, area.y, area.w, picture_h}, notes);
      DrawMap(dl, {area.x, area.y + picture_h, area.w, area.h - picture_h}, notes);
      DrawBanner(dl, area, mode_why_, true);
      return;
    }
    case TableMode::kSchematic: {
      const float label_h = ImGui::GetFontSize() * 1.6f;
      DrawMap(dl, {area.x, area.y + label_h, area.w, area.h - label_h}, notes);
      DrawBanner(dl, area, mode_why_, true);
      return;
    }
  }
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
    const double radius_in = LoggedHitRadiusIn(s.shot->verdict);
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

void ReplayApp::DrawPanel(nlohmann::json& notes) {
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
    DrawEvidence(notes);
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
      for (const auto& c : shot.check) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 0, 1, 1));
        ImGui::TextWrapped("%s", CheckLine({c.side, c.reason, c.point_in}).c_str());
        ImGui::PopStyleColor();
      }
      for (const LoggedStandNear& n : LoggedStandsNear(shot.verdict)) {
        ImGui::BulletText("%s  %s mm / %s\"  margin %s\"%s", n.id.c_str(),
                          Fixed(n.distance_mm, 1).c_str(), Fixed(n.distance_in, 2).c_str(),
                          Fixed(n.margin_in, 2).c_str(), n.candidate || n.destroyed ? "  HIT" : "");
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

// The shot's evidence picture (rectified before/after crops with the circle), as wide as the
// panel, so a disputed hit is settled on the picture the referee ruled on.
void ReplayApp::DrawEvidence(nlohmann::json& notes) {
  const ReplayStep& s = controller_.step();
  LoadEvidence();
  if (!s.shot || s.shot->evidence.empty()) {
    if (s.shot && s.shot->verdict_seq > 0) ImGui::TextDisabled("no evidence picture stored");
    return;
  }
  if (evidence_missing_ || evidence_tex_.empty()) {
    ImGui::TextColored(ImVec4(1, 0.35f, 0.35f, 1), "evidence %s missing or damaged",
                       s.shot->evidence.c_str());
    notes["evidence"] = {{"name", s.shot->evidence}, {"shown", false}};
    return;
  }
  const float w = ImGui::GetContentRegionAvail().x;
  const cv::Size px = evidence_tex_.size();
  const float h = w * static_cast<float>(px.height) / static_cast<float>(px.width);
  ImGui::Image(evidence_tex_.id(), ImVec2(w, h));
  const ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
  notes["evidence"] = {{"name", s.shot->evidence},
                       {"shown", true},
                       {"rect", {lo.x, lo.y, hi.x - lo.x, hi.y - lo.y}},
                       {"image_size", {px.width, px.height}}};
}

void ReplayApp::DrawUi(nlohmann::json& notes) {
  const ImGuiIO& io = ImGui::GetIO();
  const float panel_w = std::max(420.0f * scale_, io.DisplaySize.x * 0.3f);
  const double left_w = io.DisplaySize.x - panel_w;
  ImDrawList* dl = ImGui::GetBackgroundDrawList();
  DrawTable(dl, {0, 0, left_w, io.DisplaySize.y}, notes);

  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x - panel_w, 0));
  ImGui::SetNextWindowSize(ImVec2(panel_w, io.DisplaySize.y));
  ImGui::Begin("Replay", nullptr,
               ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                   ImGuiWindowFlags_NoSavedSettings);
  DrawPanel(notes);
  ImGui::End();
  const ReplayStep& s = controller_.step();
  notes["index"] = s.index;
  notes["seq"] = s.event.seq;
  notes["type"] = s.event.type();
  notes["display"] = {io.DisplaySize.x, io.DisplaySize.y};
}

void ReplayApp::MaybeScreenshot(cv::Size fb, const nlohmann::json& notes) {
  // The second frame of a step: the first one has settled the panel's layout.
  if (step_frames_ < 1) return;
  const ReplayStep& s = controller_.step();
  auto save = [&](const char* name) { shots_.Save(name, fb.width, fb.height, notes); };
  if (shots_.Wants("first") && s.index == 0) save("first");
  if (shots_.Wants("verdict") && s.event.As<ShotVerdict>()) save("verdict");
  if (shots_.Wants("evidence") && notes.contains("evidence") && notes["evidence"]["shown"])
    save("evidence");
  if (shots_.Wants("last") && controller_.at_end()) save("last");
}

int ReplayApp::Loop() {
  int rendered = 0;
  auto last_step = std::chrono::steady_clock::now();
  while (!window_.ShouldClose() && !quit_) {
    glfwPollEvents();
    const auto now = std::chrono::steady_clock::now();
    if (opt_.frames > 0) {
      if (step_frames_ >= 2) Move(ReplayCommand::kNextEvent);
    } else if (opt_.autoplay_seconds > 0 &&
               std::chrono::duration<double>(now - last_step).count() >= opt_.autoplay_seconds) {
      Move(ReplayCommand::kNextEvent);
      last_step = now;
    }
    const cv::Size fb = window_.NewFrame();
    HandleKeys();
    nlohmann::json notes = nlohmann::json::object();
    DrawUi(notes);
    window_.Render();
    MaybeScreenshot(fb, notes);
    window_.Swap();
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

  OverlayWindowOptions w;
  w.title = "Tabletop Referee - replay";
  w.command = "replay";
  w.width_px = o.width_px;
  w.height_px = o.height_px;
  w.ui_scale = o.ui_scale;
  w.vsync = o.frames == 0;
  OverlayWindow window(w);
  ReplayApp app(o, window, std::move(controller));
  return app.Loop();
}

}  // namespace referee::live
