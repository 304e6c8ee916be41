// `referee live`: the GLFW window, the ImGui frame loop and what the mouse and keys do. The
// vision pipeline runs on VisionWorker's thread; each ImGui frame takes the latest result,
// lets LiveSession turn it into rulings, and draws.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>
#include <stdexcept>

#include <GLFW/glfw3.h>
#include <imgui.h>

#include "calibration/calibration_file.hpp"
#include "engine/board_file.hpp"
#include "engine/data_paths.hpp"
#include "engine/input_error.hpp"
#include "engine/rules/ruleset.hpp"
#include "engine/stand_kind_catalog_loader.hpp"
#include "ui/live/demo_data.hpp"
#include "ui/live/gl_image.hpp"
#include "ui/live/input_script.hpp"
#include "ui/live/live_options.hpp"
#include "ui/live/live_session.hpp"
#include "ui/live/overlay.hpp"
#include "ui/live/overlay_window.hpp"
#include "ui/live/panels.hpp"
#include "ui/live/screenshots.hpp"
#include "ui/live/table_setup.hpp"
#include "ui/live/turn_flow.hpp"
#include "ui/live/view_mapping.hpp"
#include "ui/live/vision_worker.hpp"
#include "vision/image_file.hpp"
#include "vision/shot_analysis.hpp"

namespace referee::live {

namespace {

namespace fs = std::filesystem;

int GlfwKeyOf(Key k) {
  switch (k) {
    case Key::kEnter:
      return GLFW_KEY_ENTER;
    case Key::kEscape:
      return GLFW_KEY_ESCAPE;
    case Key::kTab:
      return GLFW_KEY_TAB;
    case Key::kBackspace:
      return GLFW_KEY_BACKSPACE;
    case Key::kF1:
      return GLFW_KEY_F1;
    default:
      return static_cast<int>(k);  // letters and space: GLFW uses their ASCII codes
  }
}

class LiveApp {
 public:
  LiveApp(const LiveOptions& options, OverlayWindow& window, SessionConfig config,
          FrameSource source, PipelineConfig pipeline, const rules::DeGreSweetRuleset& ruleset,
          std::uint64_t dice_seed)
      : opt_(options),
        window_(window),
        source_name_(source.Describe()),
        camera_choice_(source.settings()),
        camera_live_(source.live()),
        turn_(ruleset, dice_seed),
        pipeline_(pipeline),
        session_(std::move(config)),
        worker_(std::move(source), std::move(pipeline), options.frames > 0),
        shots_(options.screenshot_dir),
        autoplay_(options.input_script.empty() &&
                  (options.autoplay || options.demo || options.frames > 0)) {
    for (const auto& [side, rgb] : session_.board().side_colors_srgb) side_rgb_[side] = rgb;
    if (options.physical_dice) turn_.SetDiceMode(DiceMode::kPhysical);
    session_.SetTurnFlow(&turn_);  // shots are declared to the game's rules when armed
    session_.ResumeGame();         // --resume: the game goes on where the log stopped
  }

  void SetScale(float scale, ImFont* big) {
    big_font_ = big;
    style_.line_px = 3.0f * scale;
    style_.font_px = 20.0f * scale;
    scale_ = scale;
  }
  int Loop();
  void UseScript(InputScript script) { script_.emplace(std::move(script)); }
  // A calibration from a file: accepted at once (the wizard stays available to recalibrate).
  void UseCalibration(const TableCalibration& cal) {
    FrameResult r;
    r.calibration = cal;
    session_.OnFrame(r);
    Do(Command::kAcceptCalibration);
  }

 private:
  void TakeVisionResult();
  void Do(Command c);
  bool DoTurn(Command c);
  void StepTurn();
  std::vector<Stand> StandsOnTable() const;
  void HandleKeys();
  void HandleTableMouse(const ViewMapping* map);
  void SampleColourAt(cv::Point2d image_px, bool top);
  void Autoplay();
  void AutoplayTurn();
  void WatchArming();
  void DrawUi(nlohmann::json& notes);
  void DrawTable(ImDrawList* dl, const ViewMapping& map, nlohmann::json& notes);
  void MaybeScreenshot(int fb_w, int fb_h, const nlohmann::json& notes);
  std::string StandAt(Vec2 p) const;
  void ApplyScriptInput(ImGuiIO& io);
  void NoteItem(const std::string& name);
  void NoteHeader(const std::string& name);
  // After the frame: the script's next step; false when the script failed.
  bool AdvanceScript(int fb_w, int fb_h, const nlohmann::json& notes);

  const LiveOptions& opt_;
  OverlayWindow& window_;
  std::string source_name_;
  CameraSettings camera_choice_;  // what the camera panel edits
  bool camera_live_ = false;
  TurnFlow turn_;
  std::optional<TableSetup> preview_;  // the game the table would start, until it starts
  int first_attacker_ = 0;
  std::optional<MeleeRole> mdi_picker_;
  bool sample_on_click_ = false;  // the next click on the picture samples a side colour
  bool autoplay_shot_done_ = false;
  bool autoplay_turn_done_ = false;
  int turn_frames_ = 0;
  PipelineConfig pipeline_;  // the UI's copy, to rebuild the colour model after sampling
  LiveSession session_;
  VisionWorker worker_;
  Screenshots shots_;
  bool autoplay_;
  std::map<std::string, std::array<int, 3>> side_rgb_;
  std::map<std::string, std::vector<cv::Vec3b>> side_samples_;
  GlTexture camera_tex_;
  GlTexture top_tex_;
  std::optional<TopView> top_view_;
  cv::Mat last_frame_, last_top_;
  bool empty_table_known_ = false;  // the vision has the table before deployment
  double vision_ms_ = 0;
  double fps_ = 0;
  int rendered_ = 0;
  bool worker_top_view_ = false;  // what the worker was last told about the view shown
  int phase_frames_ = 0;          // frames spent in the current phase (autoplay pacing)
  Phase last_phase_ = Phase::kCalibrating;
  bool worker_armed_ = false;
  bool fresh_calibration_ = false;  // the last vision result carried a calibration attempt
  std::string selected_;
  std::string dragging_;
  bool sample_requested_ = false;
  bool source_done_ = false;
  ImFont* big_font_ = nullptr;
  float scale_ = 1;
  OverlayStyle style_;
  std::optional<InputScript> script_;
  std::optional<int> script_key_;  // the GLFW key the script holds down this frame
  ScriptView view_;                // what this frame drew, for the script to aim at
};

void LiveApp::TakeVisionResult() {
  std::optional<FrameResult> r;
  if (opt_.frames > 0 && !source_done_) {
    r = worker_.WaitNext();  // deterministic runs: one source frame per rendered frame
    if (!r) source_done_ = true;
  } else {
    r = worker_.Take();
  }
  fresh_calibration_ = r && r->calibration;
  if (!r) return;
  vision_ms_ = r->process_ms;
  empty_table_known_ = r->empty_table;
  last_frame_ = r->frame;
  camera_tex_.Upload(r->frame);
  if (!r->top_view.empty()) {
    last_top_ = r->top_view;
    top_tex_.Upload(r->top_view);
  }
  session_.OnFrame(*r);
  if (std::getenv("REFEREE_LIVE_TRACE")) {
    std::fprintf(stderr, "frame %d phase %s armed %d moving %d still %d hand %d rest %d %s\n",
                 r->index, PhaseName(session_.state().phase()).c_str(), r->shot.armed,
                 r->shot.moving, r->shot.still_frames, r->hand_in_frame || r->shot.hand_in_frame,
                 r->shot.rest.has_value(), r->shot.refusal.c_str());
    if (r->calibration) {
      const auto* ref = std::get_if<CalibrationRefusal>(&*r->calibration);
      std::fprintf(stderr, "  calibration: %s\n", ref ? ref->message.c_str() : "found");
    }
  }
}

std::vector<Stand> LiveApp::StandsOnTable() const {
  std::vector<Stand> out;
  for (const auto& s : session_.stands()) {
    if (!s.removed) out.push_back(s.stand);
  }
  return out;
}

// The turn panel's commands; false when `c` is not one of them.
bool LiveApp::DoTurn(Command c) {
  switch (c) {
    case Command::kStartGame:
      if (preview_) turn_.Start(*preview_, first_attacker_);
      return true;
    case Command::kRollDice:
      turn_.Resolve();
      return true;
    case Command::kNextPhase:
      turn_.EndPhase();
      return true;
    case Command::kNextFirer:
      turn_.NextFirer();
      return true;
    case Command::kNextTarget:
      turn_.NextTarget();
      return true;
    case Command::kReadMoves:
      turn_.ApplyTableMoves(StandsOnTable(), session_.catalog());
      return true;
    case Command::kToggleDiceMode:
      turn_.SetDiceMode(turn_.dice_mode() == DiceMode::kProgram ? DiceMode::kPhysical
                                                                : DiceMode::kProgram);
      return true;
    case Command::kMdiAttacker:
    case Command::kMdiDefender:
      if (!turn_.melee()) turn_.NextFirer();  // the first waiting melee
      if (turn_.melee()) {
        mdi_picker_ = c == Command::kMdiAttacker ? MeleeRole::kAttacker : MeleeRole::kDefender;
      }
      return true;
    case Command::kDie1:
    case Command::kDie2:
    case Command::kDie3:
    case Command::kDie4:
    case Command::kDie5:
    case Command::kDie6:
      turn_.EnterDie(1 + static_cast<int>(c) - static_cast<int>(Command::kDie1));
      return true;
    case Command::kCoinHeads:
    case Command::kCoinTails:
      turn_.EnterCoin(c == Command::kCoinHeads);
      return true;
    case Command::kUndoTurnAction:
      turn_.UndoLast();
      return true;
    default:
      return false;
  }
}

// The turn flow's events go to the game log as they happen; before the start, the table's
// units are offered as the game to play.
void LiveApp::StepTurn() {
  for (const auto& e : turn_.TakeTurnEvents()) {
    turn_.NoteLogged(e.action, session_.AppendEvent(e.payload));
  }
  if (turn_.started() && turn_.table_changes().empty()) {
    turn_.RefreshStandIds(StandsOnTable(), session_.catalog());
  }
  if (!turn_.started() && session_.accepted_calibration()) {
    preview_ = SetupFromTable(turn_.ruleset().data(), session_.board().board, StandsOnTable(),
                              session_.catalog(), 8);
  } else {
    preview_.reset();
  }
}

void LiveApp::Do(Command c) {
  auto& st = session_.state();
  if (DoTurn(c)) return;
  switch (c) {
    case Command::kAcceptCalibration:
      if (st.phase() != Phase::kCalibrating && session_.recalibration_offer()) {
        if (session_.AcceptRecalibration(worker_)) {
          top_view_.emplace(*session_.accepted_calibration(), pipeline_.top_view);
        }
        return;
      }
      if (session_.AcceptCalibration(worker_)) {
        top_view_.emplace(*session_.accepted_calibration(), pipeline_.top_view);
      }
      return;
    case Command::kUndoVerdict: {
      const bool after_removal = st.phase() == Phase::kReady;
      const auto restored = st.last_removed();
      if (st.UndoVerdict() && after_removal && !restored.empty()) {
        turn_.UndoShotCasualties(restored);
      }
      return;
    }
    case Command::kConfirmRemoval:
      if (st.phase() == Phase::kConfirmRemoval) {
        // The gun and the stands are read before the state forgets the shot.
        const auto gun = session_.firing_stand();
        const auto removed = st.PendingRemovals();
        if (st.ConfirmRemoval() && gun) turn_.OnShotCasualties(*gun, removed);
      } else {
        turn_.ConfirmTableMatches();
      }
      return;
    case Command::kSampleSideColour:
      sample_requested_ = true;
      return;
    case Command::kSaveLog:
      session_.Step();
      return;
    case Command::kTableIsClear:
      worker_.RequestClearHand();
      return;
    case Command::kChooseCasualty:
      if (!st.ChooseCasualty(st.selected_candidate()) && !selected_.empty()) {
        st.ChooseCasualty(selected_);
      }
      return;
    default:
      st.Apply(c);
      return;
  }
}

void LiveApp::HandleKeys() {
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantTextInput) return;
  for (const auto& s : Shortcuts()) {
    if (ImGui::IsKeyPressed(GlfwKeyOf(s.key), false)) Do(s.command);
  }
}

std::string LiveApp::StandAt(Vec2 p) const {
  std::string best;
  double best_d = 0.5;  // inches: a click this close to a base picks it
  for (const auto& s : session_.stands()) {
    const double d = DistanceToRect(p, s.stand.footprint);
    if (d < best_d) {
      best_d = d;
      best = s.stand.id;
    }
  }
  return best;
}

void LiveApp::SampleColourAt(cv::Point2d image_px, bool top) {
  const cv::Mat& img = top ? last_top_ : last_frame_;
  if (img.empty()) return;
  const int x = static_cast<int>(std::lround(image_px.x));
  const int y = static_cast<int>(std::lround(image_px.y));
  std::vector<cv::Vec3b> samples;
  cv::Vec3d sum(0, 0, 0);
  for (int dy = -2; dy <= 2; ++dy) {
    for (int dx = -2; dx <= 2; ++dx) {
      const int px = std::clamp(x + dx, 0, img.cols - 1);
      const int py = std::clamp(y + dy, 0, img.rows - 1);
      const cv::Vec3b v = img.at<cv::Vec3b>(py, px);
      samples.push_back(v);
      sum += cv::Vec3d(v[0], v[1], v[2]);
    }
  }
  sum /= static_cast<double>(samples.size());
  auto& st = session_.state();
  const size_t before = st.side_colours().size();
  if (!st.SampleSideColour(static_cast<int>(sum[2]), static_cast<int>(sum[1]),
                           static_cast<int>(sum[0]))) {
    return;
  }
  (void)before;
  // Which side was just sampled: the one whose stored colour now equals this mean.
  for (const auto& [side, rgb] : st.side_colours()) {
    if (rgb == std::array<int, 3>{static_cast<int>(sum[2]), static_cast<int>(sum[1]),
                                  static_cast<int>(sum[0])}) {
      side_samples_[side] = samples;
      side_rgb_[side] = rgb;
    }
  }
  SideColorModel model(pipeline_.colors.options());
  for (const auto& [side, rgb] : session_.board().side_colors_srgb) {
    if (auto it = side_samples_.find(side); it != side_samples_.end()) {
      model.AddSideFromSamples(side, it->second);
    } else {
      model.AddSideFromSrgb(side, cv::Vec3b(rgb[0], rgb[1], rgb[2]));
    }
  }
  pipeline_.colors = model;
  worker_.SetSideColours(model);
}

// Scripted input goes where the GLFW backend puts the real mouse and keys, so every widget,
// shortcut and table click sees it exactly as a player's.
void LiveApp::ApplyScriptInput(ImGuiIO& io) {
  if (!script_) return;
  if (script_key_) io.KeysDown[*script_key_] = false;
  script_key_.reset();
  const ScriptInput in = script_->Input();
  if (in.mouse) {
    io.MousePos = ImVec2(static_cast<float>(in.mouse->x), static_cast<float>(in.mouse->y));
    io.MouseDown[ImGuiMouseButton_Left] = in.mouse_down;
  }
  if (in.key_down) {
    script_key_ = GlfwKeyOf(*in.key_down);
    io.KeysDown[*script_key_] = true;
  }
}

// Only items a player could click: drawn whole inside their window's visible area. One the
// script is about to click that lies (partly) scrolled out of it is scrolled into view first,
// as a player would: its centre may otherwise lie outside the panel (s60: a longer check above
// left "Change impact" half under the panel's bottom edge).
void LiveApp::NoteItem(const std::string& name) {
  if (!script_) return;
  const ImVec2 lo = ImGui::GetItemRectMin();
  const ImVec2 hi = ImGui::GetItemRectMax();
  const float top = ImGui::GetWindowPos().y;
  const float bottom = top + ImGui::GetWindowHeight();
  if (!ImGui::IsItemVisible() || lo.y < top || hi.y > bottom) {
    if (script_->PendingClick() == name) {
      ImGui::SetScrollFromPosY(0.5f * (lo.y + hi.y) - top, 0.5f);
    }
    return;
  }
  view_.items.try_emplace(name, ScreenPoint{lo.x, lo.y}, ScreenPoint{hi.x, hi.y});
}

// A panel's collapsing header is its first item: it is drawn at the cursor, one frame high.
void LiveApp::NoteHeader(const std::string& name) {
  if (!script_) return;
  const ImVec2 lo = ImGui::GetCursorScreenPos();
  const float w = ImGui::GetContentRegionAvail().x;
  const float bottom = ImGui::GetWindowPos().y + ImGui::GetWindowHeight();
  if (lo.y + ImGui::GetFrameHeight() > bottom) return;  // scrolled out of the panel
  view_.items.try_emplace(name, ScreenPoint{lo.x, lo.y},
                          ScreenPoint{lo.x + w, lo.y + ImGui::GetFrameHeight()});
}

bool LiveApp::AdvanceScript(int fb_w, int fb_h, const nlohmann::json& notes) {
  if (!script_) return true;
  const auto& st = session_.state();
  view_.phase = PhaseName(st.phase());
  view_.grid_found = st.phase() == Phase::kCalibrating && st.calibration().has_value();
  if (const auto shot = script_->Advance(view_)) {
    if (opt_.screenshot_dir.empty()) {
      std::fprintf(stderr, "input script: screenshot %s needs --screenshot-dir\n", shot->c_str());
    } else {
      shots_.Save(*shot, fb_w, fb_h, notes);
    }
  }
  return script_->failure().empty();
}

void LiveApp::HandleTableMouse(const ViewMapping* map) {
  const ImGuiIO& io = ImGui::GetIO();
  if (!map) return;
  const cv::Point2d mouse(io.MousePos.x, io.MousePos.y);
  const ScreenRect& r = map->image_rect();
  const bool over_image = !io.WantCaptureMouse && mouse.x >= r.x && mouse.y >= r.y &&
                          mouse.x < r.x + r.w && mouse.y < r.y + r.h;
  if (sample_requested_) {
    sample_requested_ = false;
    if (over_image) SampleColourAt(map->ImageFromScreen(mouse), map->top_view());
  }
  if (sample_on_click_ && over_image && ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
    sample_on_click_ = false;
    SampleColourAt(map->ImageFromScreen(mouse), map->top_view());
    return;
  }
  if (!over_image || !session_.accepted_calibration()) return;
  const Vec2 p = map->TableFromScreen(mouse);
  auto& st = session_.state();
  if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
    switch (st.overrule_mode()) {
      case OverruleMode::kNone:
        selected_ = StandAt(p);
        // The firer picks a casualty by clicking it (a stand that was not hit is refused).
        if (st.phase() == Phase::kChooseCasualty && !selected_.empty()) {
          st.ChooseCasualty(selected_);
        }
        break;
      case OverruleMode::kChangeImpact:
        session_.SetImpact(p);
        break;
      case OverruleMode::kReassignUnit:
        if (const auto id = StandAt(p); !id.empty()) session_.CycleUnit(id);
        break;
      case OverruleMode::kMoveStand:
        dragging_ = StandAt(p);
        break;
    }
  }
  if (!dragging_.empty() && ImGui::IsMouseReleased(ImGuiMouseButton_Left)) {
    session_.MoveStandTo(dragging_, p);
    selected_ = dragging_;
    dragging_.clear();
  }
}

// The worker watches for a shot exactly while the state is armed or waiting for rest.
void LiveApp::WatchArming() {
  const Phase p = session_.state().phase();
  const bool watching = p == Phase::kArmed || p == Phase::kWaitingForRest;
  if (watching && !worker_armed_ && !session_.state().needs_ruling()) {
    worker_.Arm(session_.ExpectedProjectile());
    worker_armed_ = true;
  } else if (!watching && worker_armed_) {
    worker_.Disarm();
    worker_armed_ = false;
  }
}

void LiveApp::Autoplay() {
  auto& st = session_.state();
  if (st.phase() != last_phase_) {
    last_phase_ = st.phase();
    phase_frames_ = 0;
  } else {
    ++phase_frames_;
  }
  // Frames to leave each decision on screen before the autoplayer takes it.
  const int hold = opt_.frames > 0 ? 6 : 90;
  switch (st.phase()) {
    case Phase::kCalibrating:
      if (st.calibration()) {
        Do(Command::kAcceptCalibration);
      } else if (fresh_calibration_) {
        st.RetryCalibration();
      }
      break;
    case Phase::kReady:
      if (session_.stands().empty() || phase_frames_ < 2 || st.paused()) break;
      if (!turn_.started() && preview_ && !preview_->setup.units.empty()) {
        // The game starts before the first shot, so the shot counts in the artillery phase.
        if (!turn_.Start(*preview_, first_attacker_)) autoplay_turn_done_ = true;
      }
      if (!autoplay_shot_done_) {
        Do(Command::kArm);
      } else {
        AutoplayTurn();
      }
      break;
    case Phase::kVerdict:
      if (phase_frames_ >= hold) {
        Do(Command::kAcceptVerdict);
        autoplay_shot_done_ = true;
      }
      break;
    case Phase::kChooseCasualty:
      if (phase_frames_ >= hold / 2) Do(Command::kChooseCasualty);
      break;
    case Phase::kConfirmRemoval:
      if (phase_frames_ >= hold / 2) {
        Do(Command::kConfirmRemoval);
        autoplay_shot_done_ = true;
      }
      break;
    default:
      break;
  }
}

// After the shot: end the artillery phase and fire one volley of musketry, so the turn panel,
// its dice and the stands to remove are on screen.
void LiveApp::AutoplayTurn() {
  if (autoplay_turn_done_ || !turn_.started() || ++turn_frames_ % 4 != 0) return;
  if (!turn_.table_changes().empty()) return;  // leave the removals on screen
  if (turn_.PhaseName() == "artillery") {
    turn_.EndPhase();
  } else if (turn_.PhaseName() == "musketry") {
    if (turn_.firer().empty()) turn_.NextFirer();
    if (turn_.firer().empty() || !turn_.Resolve() || turn_.table_changes().empty()) {
      if (turn_.firer().empty()) autoplay_turn_done_ = true;
    } else {
      autoplay_turn_done_ = true;
    }
  } else {
    autoplay_turn_done_ = true;
  }
}

void LiveApp::DrawTable(ImDrawList* dl, const ViewMapping& map, nlohmann::json& notes) {
  auto& st = session_.state();
  const Grid& grid = session_.board().board.grid;
  nlohmann::json grid_notes = nlohmann::json::object();
  DrawGridOverlay(dl, map, grid, style_, &grid_notes);
  notes["grid"] = grid_notes;
  if (st.phase() == Phase::kCalibrating) {
    if (const auto& last = session_.last_calibration()) {
      if (const auto* cal = std::get_if<TableCalibration>(&*last)) {
        DrawCalibrationFixes(dl, map, cal->intersections, style_);
      }
    }
    return;
  }
  nlohmann::json stand_notes = nlohmann::json::object();
  DrawStandsOverlay(dl, map, session_.stands(), side_rgb_, st.verdict(),
                    st.verdict() ? st.selected_candidate() : selected_, style_, &stand_notes);
  notes["stands"] = stand_notes.value("stands", nlohmann::json::array());
  std::string shooter = selected_;
  if (shooter.empty() && (st.phase() == Phase::kArmed || st.phase() == Phase::kWaitingForRest)) {
    shooter = session_.firing_stand().value_or("");
  }
  if (const ShownStand* s = session_.FindStand(shooter); s && !st.verdict()) {
    DrawFiringArc(dl, map, grid, s->stand, style_);
  }
  if (turn_.started()) {
    TurnMarks marks;
    auto ids_of = [&](const std::string& unit) {
      const auto it = turn_.stand_ids().find(unit);
      return it == turn_.stand_ids().end() ? std::vector<std::string>{} : it->second;
    };
    marks.firer_stands = ids_of(turn_.firer());
    marks.target_stands = ids_of(turn_.target());
    for (const auto& c : turn_.table_changes()) {
      marks.remove_stands.insert(marks.remove_stands.end(), c.remove_stand_ids.begin(),
                                 c.remove_stand_ids.end());
    }
    nlohmann::json turn_notes = nlohmann::json::object();
    DrawTurnOverlay(dl, map, session_.stands(), marks, style_, &turn_notes);
    notes["turn_overlay"] = turn_notes;
  }
  if (st.impact()) {
    nlohmann::json impact_notes = nlohmann::json::object();
    const double radius =
        st.verdict() ? st.verdict()->circle_radius_in : session_.shot_options().hit_radius_in;
    DrawImpact(dl, map, *st.impact(), radius, style_, &impact_notes);
    if (st.verdict()) DrawChecks(dl, map, st.verdict()->checks, style_, &impact_notes);
    notes["impact"] = impact_notes;
  }
}

void LiveApp::DrawUi(nlohmann::json& notes) {
  const ImGuiIO& io = ImGui::GetIO();
  auto& st = session_.state();
  view_ = ScriptView{};
  view_.display_w = io.DisplaySize.x;
  view_.display_h = io.DisplaySize.y;
  const float panel_w = std::max(400.0f * scale_, io.DisplaySize.x * 0.27f);
  const float status_h = ImGui::GetFontSize() * 2.0f;
  const ScreenRect table_area{0, 0, io.DisplaySize.x - panel_w, io.DisplaySize.y - status_h};

  // The picture and its overlay, behind every window.
  ImDrawList* dl = ImGui::GetBackgroundDrawList();
  const bool top = st.top_view() && top_view_ && !top_tex_.empty();
  const GlTexture& tex = top ? top_tex_ : camera_tex_;
  std::optional<ViewMapping> map;
  const TableCalibration* cal = nullptr;
  if (session_.accepted_calibration()) {
    cal = &*session_.accepted_calibration();
  } else if (session_.last_calibration()) {
    cal = std::get_if<TableCalibration>(&*session_.last_calibration());
  }
  if (!tex.empty()) {
    const ScreenRect r = FitImage(tex.size(), table_area);
    dl->AddImage(tex.id(), ImVec2(static_cast<float>(r.x), static_cast<float>(r.y)),
                 ImVec2(static_cast<float>(r.x + r.w), static_cast<float>(r.y + r.h)));
    notes["image_rect"] = {r.x, r.y, r.w, r.h};
    notes["view"] = top ? "top" : "camera";
    if (cal) {
      map.emplace(*cal, top_view_ ? &*top_view_ : nullptr, top, tex.size(), table_area);
      DrawTable(dl, *map, notes);
      if (st.phase() != Phase::kCalibrating) {
        for (const auto& s : session_.stands()) {
          if (s.removed) continue;
          const cv::Point2d c = map->ScreenFromTable(s.stand.footprint.center);
          view_.stands[s.stand.id] = ScreenPoint{c.x, c.y};
        }
      }
    }
  } else {
    dl->AddText(ImGui::GetFont(), style_.font_px, ImVec2(20, 20), IM_COL32(220, 220, 220, 255),
                "waiting for the first frame...");
  }
  // Banners readable from across the table.
  ImFont* banner_font = big_font_ ? big_font_ : ImGui::GetFont();
  const float bsize = banner_font->FontSize;
  float by = static_cast<float>(table_area.y) + 10;
  auto banner = [&](const std::string& text, ImU32 bg) {
    const ImVec2 ts = banner_font->CalcTextSizeA(bsize, FLT_MAX, 0, text.c_str());
    const float x = static_cast<float>(table_area.x + (table_area.w - ts.x) / 2);
    dl->AddRectFilled({x - 12, by - 6}, {x + ts.x + 12, by + ts.y + 6}, bg, 8);
    dl->AddText(banner_font, bsize, {x, by}, IM_COL32(255, 255, 255, 255), text.c_str());
    by += ts.y + 18;
  };
  if (st.paused()) banner("HAND IN FRAME - PAUSED", IM_COL32(200, 30, 30, 230));
  if (st.camera_bumped())
    banner("CAMERA BUMPED - press K to recalibrate", IM_COL32(200, 90, 0, 230));
  if (st.phase() == Phase::kCalibrating) {
    banner(st.calibration() ? "Grid found - Enter to accept, Backspace to retry"
                            : "Calibrating: looking for the grid",
           IM_COL32(20, 80, 160, 220));
  }
  if (const auto& v = st.verdict()) banner(v->ruling, IM_COL32(120, 0, 120, 230));
  if (st.phase() == Phase::kConfirmRemoval) {
    std::string list;
    for (const auto& s : st.PendingRemovals()) list += (list.empty() ? "" : ", ") + s;
    banner("REMOVE " + list + " - R when done", IM_COL32(160, 20, 20, 230));
  }
  if (st.phase() == Phase::kArmed) banner("ARMED - fire!", IM_COL32(20, 120, 40, 220));
  if (const auto& need = turn_.needed()) {
    banner(
        std::string(need->coin ? "FLIP A COIN (H/Z)" : "ROLL A DIE (1-6)") + ": " + need->purpose,
        IM_COL32(170, 120, 0, 230));
  }
  if (!turn_.table_changes().empty()) {
    std::string list;
    for (const auto& c : turn_.table_changes()) {
      for (const auto& id : c.remove_stand_ids) list += (list.empty() ? "" : ", ") + id;
      if (c.move_to) list += (list.empty() ? "" : ", ") + c.unit + " to " + SquareName(*c.move_to);
    }
    banner("TABLE: " + list + " - R when done", IM_COL32(160, 20, 20, 230));
  }
  if (st.overrule_mode() != OverruleMode::kNone) {
    banner("OVERRULE: " + OverruleModeName(st.overrule_mode()) + " (Esc to stop)",
           IM_COL32(200, 120, 0, 230));
  }

  HandleTableMouse(map ? &*map : nullptr);

  PanelContext ctx{session_,
                   [this](Command c) { Do(c); },
                   source_name_,
                   fps_,
                   vision_ms_,
                   big_font_,
                   selected_,
                   &turn_,
                   preview_ ? &*preview_ : nullptr,
                   &first_attacker_,
                   &mdi_picker_,
                   worker_.camera_report(),
                   [this](const std::string& side) {
                     session_.state().SetNextSide(side);
                     sample_on_click_ = true;
                   },
                   camera_live_ ? &camera_choice_ : nullptr,
                   [this](const CameraSettings& c) { worker_.RequestCameraSettings(c); },
                   [this](const std::string& name) { NoteItem(name); },
                   [this]() { worker_.RememberEmptyTable(); },
                   empty_table_known_};
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x - panel_w, 0));
  ImGui::SetNextWindowSize(ImVec2(panel_w, io.DisplaySize.y - status_h));
  ImGui::Begin("Referee", nullptr,
               ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                   ImGuiWindowFlags_NoSavedSettings);
  const bool toggle_view = ImGui::Button(st.top_view() ? "Camera view  [V]" : "Top view  [V]");
  NoteItem(st.top_view() ? "Camera view" : "Top view");
  if (toggle_view) Do(Command::kToggleView);
  ImGui::SameLine();
  const bool help = ImGui::Button("Help  [F1]");
  NoteItem("Help");
  if (help) Do(Command::kToggleHelp);
  NoteHeader("Calibration");
  DrawCalibrationPanel(ctx);
  NoteHeader("Camera settings");
  DrawCameraPanel(ctx);
  NoteHeader("Shot");
  DrawShotPanel(ctx);
  // Overrule right under the shot it corrects: below the turn panel it was pushed off a 900 px
  // screen while a verdict was shown.
  NoteHeader("Overrule");
  DrawOverrulePanel(ctx);
  NoteHeader("Turn");
  DrawTurnPanel(ctx);
  ImGui::End();
  // A panel may have changed which id the selected stand goes by ("is really"): follow it.
  selected_ = ctx.selected_stand;
  DrawMdiPicker(ctx);
  DrawHelpWindow(ctx);
  DrawStatusBar(ctx, ImVec2(0, io.DisplaySize.y - status_h), ImVec2(io.DisplaySize.x, status_h));
  notes["display"] = {io.DisplaySize.x, io.DisplaySize.y};
  notes["framebuffer_scale"] = {io.DisplayFramebufferScale.x, io.DisplayFramebufferScale.y};
  notes["phase"] = PhaseName(st.phase());
  notes["selected"] = selected_;
  notes["paused"] = st.paused();
  notes["empty_table"] = empty_table_known_;
  notes["notice"] = st.notice();
  if (turn_.started()) notes["turn_notice"] = turn_.notice();
}

void LiveApp::MaybeScreenshot(int fb_w, int fb_h, const nlohmann::json& notes) {
  const auto& st = session_.state();
  if (shots_.Wants("calibration") && session_.accepted_calibration() && notes.contains("grid")) {
    shots_.Save("calibration", fb_w, fb_h, notes);
  }
  if (shots_.Wants("stands") && notes.contains("stands") && !notes["stands"].empty()) {
    shots_.Save("stands", fb_w, fb_h, notes);
  }
  if (shots_.Wants("verdict") && st.verdict() && notes.contains("impact")) {
    shots_.Save("verdict", fb_w, fb_h, notes);
  }
  // The turn panel once the engine has a result on screen (or has nothing left to do).
  if (shots_.Wants("turn") && turn_.started() &&
      (!turn_.table_changes().empty() || autoplay_turn_done_)) {
    nlohmann::json n = notes;
    n["turn"] = {{"turn", turn_.turn()},
                 {"phase", turn_.PhaseName()},
                 {"attacker", turn_.attacker()},
                 {"results", turn_.last_results()},
                 {"changes", turn_.table_changes().size()}};
    shots_.Save("turn", fb_w, fb_h, n);
  }
}

int LiveApp::Loop() {
  auto last = std::chrono::steady_clock::now();
  while (!window_.ShouldClose() && !session_.state().quit_requested()) {
    glfwPollEvents();
    TakeVisionResult();
    if (autoplay_) Autoplay();
    WatchArming();
    if (const bool top = session_.state().top_view(); top != worker_top_view_) {
      worker_.ShowTopView(top);
      worker_top_view_ = top;
    }
    if (session_.state().retry_requested()) {
      worker_.RequestCalibration();
      session_.state().ClearRetryRequest();
    }
    session_.Step();
    StepTurn();

    const cv::Size fb = window_.NewFrame([this](ImGuiIO& io) { ApplyScriptInput(io); });
    HandleKeys();
    nlohmann::json notes = nlohmann::json::object();
    DrawUi(notes);
    window_.Render();
    MaybeScreenshot(fb.width, fb.height, notes);
    const bool script_ok = AdvanceScript(fb.width, fb.height, notes);
    window_.Swap();
    if (!script_ok) break;

    ++rendered_;
    const auto now = std::chrono::steady_clock::now();
    const double dt = std::chrono::duration<double>(now - last).count();
    last = now;
    if (dt > 0) fps_ = fps_ == 0 ? 1 / dt : 0.9 * fps_ + 0.1 / dt;
    if (opt_.frames > 0 && rendered_ >= opt_.frames) break;
    // A scripted run ends with its script: --frames is then only the cap on a stuck script.
    if (script_ && script_->done()) break;
  }
  if (script_ && !script_->failure().empty()) {
    std::fprintf(stderr, "%s\n", script_->failure().c_str());
    return 1;
  }
  if (script_ && script_->done()) {
    std::fprintf(stderr, "%s: finished after %d frames\n", opt_.input_script.c_str(), rendered_);
  }
  if (script_ && !script_->done()) {
    std::fprintf(stderr, "%s: the script was not finished after %d frames (stopped at line %d)\n",
                 opt_.input_script.c_str(), rendered_, script_->current_line());
    return 1;
  }
  return 0;
}

}  // namespace

void LiveOptions::Check() const {
  const int sources = (camera ? 1 : 0) + (!video.empty()) + (!images.empty()) + (demo ? 1 : 0);
  if (sources != 1) {
    throw InputError("referee live", "", "give exactly one of --camera, --video, --images, --demo");
  }
  if (camera && *camera < 0) throw InputError("referee live", "--camera", "must be >= 0");
  if (!log.empty() && !resume.empty()) {
    throw InputError("referee live", "--resume", "give either --log (new) or --resume (continue)");
  }
  if (frames < 0) throw InputError("referee live", "--frames", "must be >= 0");
  if (width_px < 320 || height_px < 240) {
    throw InputError("referee live", "--width/--height", "window must be at least 320x240");
  }
  if (!calibration.empty() && !fs::is_regular_file(calibration)) {
    throw InputError(calibration, "", "no such calibration file");
  }
  if (!lens.empty()) {
    throw InputError(lens, "", "lens files are not read by `live` yet: calibrate on screen");
  }
}

int RunLive(const LiveOptions& o) {
  o.Check();
  std::optional<DemoData> demo;
  if (o.demo) demo = FindDemoData(DatasetsDir() / "sample");

  BoardFile board;
  if (!o.board.empty()) {
    board = LoadBoardFile(o.board);
    if (const std::string note = IgnoredKeysNote(board, o.board); !note.empty())
      std::fprintf(stderr, "referee live: %s\n", note.c_str());
  } else if (demo && demo->board) {
    board = LoadBoardFile(*demo->board);
  } else {
    board.side_colors_srgb = DefaultSideColors();
  }
  SessionConfig config{
      board, LoadStandKinds(), LoadShotOptions(o.ruleset), std::nullopt, false, std::nullopt, {}};
  if (!o.log.empty()) config.log_path = o.log;
  if (!o.resume.empty()) {
    config.log_path = o.resume;
    config.resume = true;
  }
  PipelineConfig pipeline;
  pipeline.board = board.board.grid;
  pipeline.terrain = board.board;
  // The full top view costs a rectify per frame: made only while the window shows it (and for
  // the stand search and the projectile, which ask for it themselves).
  pipeline.top_view_every_frame = false;
  pipeline.catalog = config.catalog;
  if (!o.empty.empty()) {
    pipeline.empty_table = ReadImageFileOrThrow(o.empty, "--empty");
    pipeline.empty_table_file = o.empty;
  }
  // A base's size names the ruleset's kinds (a 40 x 40 base is a catapult in an Ancient game).
  pipeline.stands.kind_preference = KindPreference(o.ruleset);
  ApplyBoardKit(board, pipeline.stands, pipeline.projectile);
  pipeline.colors.AddSidesFromSrgb(board.side_colors_srgb);
  CameraSettings camera;
  camera.width_px = o.camera_width_px;
  camera.height_px = o.camera_height_px;
  camera.fps = o.camera_fps;
  camera.exposure = o.exposure;
  camera.lock_exposure = camera.lock_white_balance = camera.lock_focus = !o.camera_auto;
  FrameSource source = o.camera            ? FrameSource::OpenCamera(*o.camera, camera)
                       : !o.video.empty()  ? FrameSource::OpenVideo(o.video)
                       : !o.images.empty() ? FrameSource::OpenImages(o.images)
                                           : FrameSource::OpenImages(demo->frames_dir);

  // Read before the window opens: a bad script is one line and exit 2 like any bad input.
  std::optional<InputScript> script;
  if (!o.input_script.empty()) script = InputScript::Load(o.input_script);

  OverlayWindowOptions window_options;
  window_options.width_px = o.width_px;
  window_options.height_px = o.height_px;
  window_options.ui_scale = o.ui_scale;
  window_options.vsync = o.frames == 0;
  OverlayWindow window(window_options);
  int rc = 0;
  {
    const auto ruleset = rules::MakeRuleset(o.ruleset);
    config.move_allowance = MoveAllowanceFromRuleset(ruleset->data(), config.catalog);
    // --frames runs are tests and demos: the same dice every time unless a seed is given.
    const std::uint64_t seed =
        o.dice_seed != 0 ? o.dice_seed
        : o.frames > 0   ? 1
                         : static_cast<std::uint64_t>(
                             std::chrono::system_clock::now().time_since_epoch().count());
    LiveApp app(o, window, std::move(config), std::move(source), std::move(pipeline), *ruleset,
                seed);
    app.SetScale(window.scale(), window.big_font());
    if (!o.calibration.empty()) app.UseCalibration(LoadCalibration(o.calibration));
    if (script) app.UseScript(std::move(*script));
    rc = app.Loop();
  }
  return rc;
}

}  // namespace referee::live
