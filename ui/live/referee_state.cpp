#include "ui/live/referee_state.hpp"

#include <algorithm>

namespace referee::live {

namespace {
nlohmann::json PointJson(Vec2 p) { return {{"x_in", p.x}, {"y_in", p.y}}; }
nlohmann::json RectJson(const OrientedRect& r) {
  return {{"x_in", r.center.x},
          {"y_in", r.center.y},
          {"width_in", r.width_in},
          {"depth_in", r.depth_in},
          {"angle_deg", r.angle_deg}};
}
}  // namespace

std::string PhaseName(Phase phase) {
  switch (phase) {
    case Phase::kCalibrating:
      return "calibrating";
    case Phase::kReady:
      return "ready";
    case Phase::kArmed:
      return "armed";
    case Phase::kWaitingForRest:
      return "waiting-for-rest";
    case Phase::kVerdict:
      return "verdict";
    case Phase::kChooseCasualty:
      return "choose-casualty";
    case Phase::kConfirmRemoval:
      return "confirm-removal";
  }
  return "?";
}

std::string OverruleModeName(OverruleMode mode) {
  switch (mode) {
    case OverruleMode::kNone:
      return "";
    case OverruleMode::kMoveStand:
      return "move stand";
    case OverruleMode::kReassignUnit:
      return "re-assign unit";
    case OverruleMode::kChangeImpact:
      return "change impact point";
  }
  return "?";
}

bool RefereeState::Refuse(std::string why) {
  notice_ = std::move(why);
  return false;
}

int RefereeState::Emit(std::string type, nlohmann::json data, bool correction) {
  LiveEvent e;
  e.seq = next_seq_++;
  e.type = std::move(type);
  e.correction = correction;
  e.data = std::move(data);
  pending_events_.push_back(std::move(e));
  unsaved_ = true;
  return pending_events_.back().seq;
}

std::vector<LiveEvent> RefereeState::TakeEvents() {
  std::vector<LiveEvent> out;
  out.swap(pending_events_);
  return out;
}

// --- calibration ---

void RefereeState::OnCalibrationFound(const CalibrationSummary& summary) {
  calibration_ = summary;
  retry_requested_ = false;
}

void RefereeState::OnCalibrationFailed(const std::string& why) {
  calibration_.reset();
  retry_requested_ = false;
  notice_ = "grid not found: " + why;
}

bool RefereeState::AcceptCalibration() {
  if (phase_ != Phase::kCalibrating) return Refuse("not calibrating");
  if (!calibration_) return Refuse("no grid found yet: retry or adjust the camera");
  phase_ = Phase::kReady;
  bumped_ = false;
  Emit("calibration_accepted", {{"rms_px", calibration_->rms_px},
                                {"rms_mm", calibration_->rms_mm},
                                {"coverage", calibration_->coverage}});
  Accept();
  return true;
}

bool RefereeState::RetryCalibration() {
  if (phase_ != Phase::kCalibrating) return Refuse("not calibrating");
  calibration_.reset();
  retry_requested_ = true;
  Accept();
  return true;
}

bool RefereeState::Recalibrate() {
  if (phase_ == Phase::kCalibrating) return Refuse("already calibrating");
  if (phase_ == Phase::kArmed || phase_ == Phase::kWaitingForRest) ResetShot();
  if (phase_ == Phase::kVerdict || phase_ == Phase::kChooseCasualty ||
      phase_ == Phase::kConfirmRemoval) {
    return Refuse("finish or undo the verdict before recalibrating");
  }
  phase_ = Phase::kCalibrating;
  calibration_.reset();
  retry_requested_ = true;
  Accept();
  return true;
}

bool RefereeState::SampleSideColour(int r, int g, int b) {
  if (sides_.empty()) return Refuse("no sides configured");
  const std::string& side = sides_[next_side_ % sides_.size()];
  side_colours_[side] = {r, g, b};
  next_side_++;
  Emit("side_colour_sampled", {{"side", side}, {"rgb", {r, g, b}}});
  Accept();
  return true;
}

bool RefereeState::SetNextSide(const std::string& side) {
  const auto it = std::ranges::find(sides_, side);
  if (it == sides_.end()) return Refuse("no side called " + side);
  next_side_ = static_cast<size_t>(it - sides_.begin());
  Accept();
  return true;
}

// --- observations ---

void RefereeState::SetHandInFrame(bool in_frame) { hand_in_frame_ = in_frame; }

void RefereeState::SetCameraBumped(bool bumped) {
  if (bumped && !bumped_ && phase_ != Phase::kCalibrating) Emit("camera_bumped", {});
  bumped_ = bumped;
}

bool RefereeState::OnProjectileMoving() {
  if (hand_in_frame_) return Refuse("hand in frame: paused");
  if (phase_ != Phase::kArmed) return false;
  phase_ = Phase::kWaitingForRest;
  return true;
}

bool RefereeState::OnRest(Vec2 impact_in) {
  if (hand_in_frame_) return Refuse("hand in frame: paused");
  if (bumped_) return Refuse("camera bumped: recalibrate before adjudicating");
  // A projectile can land before we saw it fly (a fast shot between two frames).
  if (phase_ != Phase::kWaitingForRest && phase_ != Phase::kArmed) return false;
  phase_ = Phase::kWaitingForRest;
  impact_ = impact_in;
  needs_ruling_ = true;
  Emit("projectile_at_rest",
       {{"impact", PointJson(impact_in)}, {"battery", battery()}, {"shot_type", shot_type()}});
  return true;
}

bool RefereeState::OnVerdict(const VerdictView& verdict) {
  if (!needs_ruling_) return false;
  if (hand_in_frame_) return Refuse("hand in frame: paused");
  needs_ruling_ = false;
  verdict_ = verdict;
  impact_ = verdict.impact_in;
  chosen_.clear();
  selected_candidate_.clear();
  for (const auto& c : verdict.candidates) {
    if (c.hit) {
      selected_candidate_ = c.stand_id;
      break;
    }
  }
  nlohmann::json hits = nlohmann::json::array();
  for (const auto& c : verdict.candidates) {
    if (c.hit) hits.push_back(c.stand_id);
  }
  verdict_seq_ = Emit("verdict", {{"impact", PointJson(verdict.impact_in)},
                                  {"circle_radius_in", verdict.circle_radius_in},
                                  {"hits", hits},
                                  {"must_remove", verdict.must_remove},
                                  {"firer_chooses", verdict.firer_chooses},
                                  {"ruling", verdict.ruling}});
  phase_ = Phase::kVerdict;
  return true;
}

// --- shot flow ---

void RefereeState::SetBatteries(std::vector<std::string> batteries) {
  batteries_ = std::move(batteries);
  if (batteries_.empty()) batteries_.push_back("");
  battery_index_ = 0;
}

void RefereeState::SetShotTypes(std::vector<std::string> shot_types) {
  shot_types_ = std::move(shot_types);
  if (shot_types_.empty()) shot_types_.push_back("");
  shot_type_index_ = 0;
}

const std::string& RefereeState::battery() const { return batteries_[battery_index_]; }
const std::string& RefereeState::shot_type() const { return shot_types_[shot_type_index_]; }

void RefereeState::NextBattery() {
  if (phase_ != Phase::kReady) return;
  battery_index_ = (battery_index_ + 1) % batteries_.size();
  arm_refusal_.clear();
}

bool RefereeState::SelectShotType(const std::string& shot_type) {
  if (phase_ != Phase::kReady) return false;
  const auto it = std::ranges::find(shot_types_, shot_type);
  if (it == shot_types_.end()) return false;
  shot_type_index_ = static_cast<size_t>(it - shot_types_.begin());
  return true;
}

void RefereeState::NextShotType() {
  if (phase_ != Phase::kReady) return;
  shot_type_index_ = (shot_type_index_ + 1) % shot_types_.size();
  arm_refusal_.clear();
}

bool RefereeState::Arm() {
  if (phase_ == Phase::kCalibrating) return Refuse("accept the calibration first");
  if (phase_ != Phase::kReady) return Refuse("finish the current shot first");
  if (hand_in_frame_) return Refuse("hand in frame: clear the table to arm");
  if (bumped_) return Refuse("camera bumped: recalibrate (K) before the next shot");
  if (arm_check_) {
    if (auto why = arm_check_()) {
      arm_refusal_ = *why;
      return Refuse("the rules refuse this shot: " + *why);
    }
  }
  arm_refusal_.clear();
  phase_ = Phase::kArmed;
  impact_.reset();
  verdict_.reset();
  Emit("shot_armed", {{"battery", battery()}, {"shot_type", shot_type()}});
  Accept();
  return true;
}

bool RefereeState::ArmOverruled() {
  if (arm_refusal_.empty()) return Refuse("the rules have refused no shot to overrule");
  if (phase_ != Phase::kReady) return Refuse("finish the current shot first");
  if (hand_in_frame_) return Refuse("hand in frame: clear the table to arm");
  if (bumped_) return Refuse("camera bumped: recalibrate (K) before the next shot");
  const std::string refusal = std::move(arm_refusal_);
  arm_refusal_.clear();
  phase_ = Phase::kArmed;
  impact_.reset();
  verdict_.reset();
  Emit("shot_armed", {{"battery", battery()}, {"shot_type", shot_type()}});
  Emit("arm_overruled", {{"battery", battery()}, {"shot_type", shot_type()}, {"refusal", refusal}},
       true);
  Accept();
  return true;
}

void RefereeState::ResetShot() {
  phase_ = Phase::kReady;
  needs_ruling_ = false;
  impact_.reset();
  verdict_.reset();
  chosen_.clear();
  selected_candidate_.clear();
  if (overrule_mode_ == OverruleMode::kChangeImpact) overrule_mode_ = OverruleMode::kNone;
}

bool RefereeState::CancelShot() {
  if (phase_ != Phase::kArmed && phase_ != Phase::kWaitingForRest) {
    if (overrule_mode_ != OverruleMode::kNone) {
      overrule_mode_ = OverruleMode::kNone;
      return true;
    }
    return Refuse("no armed shot to cancel");
  }
  ResetShot();
  Emit("shot_cancelled", {});
  Accept();
  return true;
}

void RefereeState::AfterVerdictAccepted() {
  if (verdict_->firer_chooses > 0 &&
      std::ranges::any_of(verdict_->candidates, [](const auto& c) { return c.hit; })) {
    phase_ = Phase::kChooseCasualty;
  } else if (!verdict_->must_remove.empty()) {
    phase_ = Phase::kConfirmRemoval;
  } else {
    last_verdict_seq_ = verdict_seq_;
    last_removed_.clear();
    ResetShot();
  }
}

bool RefereeState::AcceptVerdict() {
  if (phase_ != Phase::kVerdict) return Refuse("no verdict to accept");
  if (hand_in_frame_) return Refuse("hand in frame: paused");
  AfterVerdictAccepted();
  Accept();
  return true;
}

void RefereeState::NextCandidate() {
  if (!verdict_) return;
  std::vector<std::string> hits;
  for (const auto& c : verdict_->candidates) {
    if (c.hit) hits.push_back(c.stand_id);
  }
  if (hits.empty()) return;
  auto it = std::ranges::find(hits, selected_candidate_);
  selected_candidate_ =
      (it == hits.end() || std::next(it) == hits.end()) ? hits.front() : *std::next(it);
}

bool RefereeState::ChooseCasualty(const std::string& stand_id) {
  if (phase_ != Phase::kChooseCasualty) return Refuse("the firer has no choice to make now");
  const auto it = std::ranges::find_if(verdict_->candidates,
                                       [&](const auto& c) { return c.stand_id == stand_id; });
  if (it == verdict_->candidates.end() || !it->hit) return Refuse(stand_id + " was not hit");
  if (std::ranges::find(verdict_->must_remove, stand_id) != verdict_->must_remove.end() ||
      std::ranges::find(chosen_, stand_id) != chosen_.end()) {
    return Refuse(stand_id + " is already removed");
  }
  chosen_.push_back(stand_id);
  Emit("casualty_chosen", {{"stand", stand_id}, {"verdict_seq", verdict_seq_}});
  const int hits = static_cast<int>(std::ranges::count_if(verdict_->candidates, [&](const auto& c) {
    return c.hit &&
           std::ranges::find(verdict_->must_remove, c.stand_id) == verdict_->must_remove.end();
  }));
  if (static_cast<int>(chosen_.size()) >= std::min(verdict_->firer_chooses, hits)) {
    phase_ = Phase::kConfirmRemoval;
  }
  Accept();
  return true;
}

std::vector<std::string> RefereeState::PendingRemovals() const {
  std::vector<std::string> out;
  if (!verdict_) return out;
  out = verdict_->must_remove;
  out.insert(out.end(), chosen_.begin(), chosen_.end());
  return out;
}

bool RefereeState::ConfirmRemoval() {
  if (phase_ != Phase::kConfirmRemoval) return Refuse("nothing to remove");
  if (hand_in_frame_) return Refuse("hand in frame: confirm when the table is clear");
  last_removed_ = PendingRemovals();
  for (const auto& s : last_removed_) removed_.insert(s);
  Emit("stands_removed", {{"stands", last_removed_}, {"verdict_seq", verdict_seq_}});
  last_verdict_seq_ = verdict_seq_;
  ResetShot();
  Accept();
  return true;
}

// --- overrules ---

bool RefereeState::UndoVerdict() {
  const bool on_screen = phase_ == Phase::kVerdict || phase_ == Phase::kChooseCasualty ||
                         phase_ == Phase::kConfirmRemoval;
  if (on_screen) {
    Emit("verdict_undone", {{"undoes", verdict_seq_}, {"restored", nlohmann::json::array()}}, true);
    ResetShot();
    Accept();
    return true;
  }
  if (phase_ == Phase::kReady && last_verdict_seq_ != 0) {
    for (const auto& s : last_removed_) removed_.erase(s);
    Emit("verdict_undone", {{"undoes", last_verdict_seq_}, {"restored", last_removed_}}, true);
    last_verdict_seq_ = 0;
    last_removed_.clear();
    Accept();
    return true;
  }
  return Refuse("no verdict to undo");
}

bool RefereeState::MoveStand(const std::string& stand_id, const OrientedRect& from,
                             const OrientedRect& to) {
  if (phase_ == Phase::kCalibrating) return Refuse("accept the calibration first");
  if (!IsFinite(to.center)) return Refuse("bad stand position");
  moved_[stand_id] = to;
  Emit("stand_moved", {{"stand", stand_id}, {"from", RectJson(from)}, {"to", RectJson(to)}}, true);
  Accept();
  return true;
}

bool RefereeState::ReassignUnit(const std::string& stand_id, const std::string& from_unit,
                                const std::string& to_unit) {
  if (phase_ == Phase::kCalibrating) return Refuse("accept the calibration first");
  if (to_unit.empty() || to_unit == from_unit) return Refuse("same unit");
  unit_of_[stand_id] = to_unit;
  Emit("unit_reassigned", {{"stand", stand_id}, {"from", from_unit}, {"to", to_unit}}, true);
  Accept();
  return true;
}

namespace {
// Swaps what `map` holds under keys a and b (either may be absent).
template <typename Map>
void SwapKeys(Map& map, const std::string& a, const std::string& b) {
  auto na = map.extract(a);
  auto nb = map.extract(b);
  if (na) {
    na.key() = b;
    map.insert(std::move(na));
  }
  if (nb) {
    nb.key() = a;
    map.insert(std::move(nb));
  }
}
}  // namespace

bool RefereeState::RenameStand(const std::string& current_id, const std::string& true_id) {
  if (phase_ == Phase::kCalibrating) return Refuse("accept the calibration first");
  if (true_id.empty() || true_id == current_id) return Refuse("same stand");
  SwapKeys(moved_, current_id, true_id);
  SwapKeys(unit_of_, current_id, true_id);
  const bool a_removed = removed_.erase(current_id) > 0;
  const bool b_removed = removed_.erase(true_id) > 0;
  if (a_removed) removed_.insert(true_id);
  if (b_removed) removed_.insert(current_id);
  Emit("stand_renamed", {{"stand", current_id}, {"to", true_id}}, true);
  Accept();
  return true;
}

bool RefereeState::SetStandKind(const std::string& stand_id, const std::string& from_kind,
                                const std::string& to_kind) {
  return SetStandAttribute("stand_kind_set", "kind", stand_id, from_kind, to_kind);
}

bool RefereeState::SetStandFacing(const std::string& stand_id, const std::string& from,
                                  const std::string& to) {
  return SetStandAttribute("stand_facing_set", "facing", stand_id, from, to);
}

bool RefereeState::SetStandAttribute(const char* event, const char* what,
                                     const std::string& stand_id, const std::string& from,
                                     const std::string& to) {
  if (phase_ == Phase::kCalibrating) return Refuse("accept the calibration first");
  if (to.empty()) return Refuse(std::string("no ") + what + " given");
  Emit(event, {{"stand", stand_id}, {"from", from}, {"to", to}}, true);
  Accept();
  return true;
}

void RefereeState::ClearRulingForAnother() {
  verdict_.reset();
  chosen_.clear();
  selected_candidate_.clear();
  needs_ruling_ = true;
  phase_ = Phase::kWaitingForRest;
  overrule_mode_ = OverruleMode::kNone;
}

bool RefereeState::RuleAgain() {
  const bool ruled = phase_ == Phase::kVerdict || phase_ == Phase::kChooseCasualty ||
                     phase_ == Phase::kConfirmRemoval;
  if (!ruled || !impact_) return false;
  ClearRulingForAnother();
  return true;
}

bool RefereeState::ChangeImpactPoint(Vec2 impact_in) {
  const bool has_shot = phase_ == Phase::kVerdict || phase_ == Phase::kChooseCasualty ||
                        phase_ == Phase::kConfirmRemoval ||
                        (phase_ == Phase::kWaitingForRest && impact_);
  if (!has_shot) return Refuse("no impact point to change");
  if (!IsFinite(impact_in)) return Refuse("bad impact point");
  const Vec2 from = impact_ ? *impact_ : impact_in;
  Emit("impact_changed",
       {{"from", PointJson(from)}, {"to", PointJson(impact_in)}, {"verdict_seq", verdict_seq_}},
       true);
  // The old ruling no longer applies: the engine rules again on the corrected point.
  impact_ = impact_in;
  ClearRulingForAnother();
  Accept();
  return true;
}

bool RefereeState::Apply(Command command) {
  auto toggle = [&](OverruleMode m) {
    if (phase_ == Phase::kCalibrating) return Refuse("accept the calibration first");
    overrule_mode_ = overrule_mode_ == m ? OverruleMode::kNone : m;
    Accept();
    return true;
  };
  switch (command) {
    case Command::kAcceptCalibration:
      return AcceptCalibration();
    case Command::kRetryCalibration:
      return RetryCalibration();
    case Command::kRecalibrate:
      return Recalibrate();
    case Command::kSampleSideColour:
      return false;  // needs the pixel under the mouse
    case Command::kNextBattery:
      NextBattery();
      return true;
    case Command::kNextShotType:
      NextShotType();
      return true;
    case Command::kArm:
      return Arm();
    case Command::kCancelShot:
      return CancelShot();
    case Command::kAcceptVerdict:
      return AcceptVerdict();
    case Command::kNextCandidate:
      NextCandidate();
      return true;
    case Command::kChooseCasualty:
      return ChooseCasualty(selected_candidate_);
    case Command::kConfirmRemoval:
      return ConfirmRemoval();
    case Command::kUndoVerdict:
      return UndoVerdict();
    case Command::kMoveStandMode:
      return toggle(OverruleMode::kMoveStand);
    case Command::kReassignUnitMode:
      return toggle(OverruleMode::kReassignUnit);
    case Command::kChangeImpactMode:
      return toggle(OverruleMode::kChangeImpact);
    case Command::kRollDice:
    case Command::kNextPhase:
    case Command::kStartGame:
    case Command::kNextFirer:
    case Command::kNextTarget:
    case Command::kReadMoves:
    case Command::kToggleDiceMode:
    case Command::kMdiAttacker:
    case Command::kMdiDefender:
    case Command::kDie1:
    case Command::kDie2:
    case Command::kDie3:
    case Command::kDie4:
    case Command::kDie5:
    case Command::kDie6:
    case Command::kCoinHeads:
    case Command::kCoinTails:
    case Command::kUndoTurnAction:
      return false;  // the turn flow (ui/live/turn_flow.hpp) owns the turn and its dice
    case Command::kToggleView:
      top_view_ = !top_view_;
      return true;
    case Command::kToggleHelp:
      help_visible_ = !help_visible_;
      return true;
    case Command::kSaveLog:       // the controller flushes the log
    case Command::kTableIsClear:  // the vision worker holds the hand detector
      return false;
    case Command::kQuit:
      quit_ = true;
      return true;
  }
  return false;
}

}  // namespace referee::live
