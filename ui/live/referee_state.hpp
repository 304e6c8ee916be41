// The live referee's flow as a plain value: what phase the table is in, what the players have
// chosen, and which log events their actions produce. No window, no camera, no rules: the
// overlay feeds it observations (vision) and rulings (engine) and draws what it says, so the
// whole flow is unit-tested without a screen (tests/ui/live_state_test.cpp).
//
//   calibrating -> ready -> armed -> waiting-for-rest -> verdict -> choose casualty
//                    ^                                         \          |
//                    +------------ confirm removal <------------+---------+
//
// A hand in frame pauses every automatic step; a bumped camera refuses shots until the table is
// recalibrated; every overrule is logged as a correction.
#pragma once

#include <array>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/geometry.hpp"
#include "ui/live/shortcuts.hpp"

namespace referee::live {

enum class Phase {
  kCalibrating,
  kReady,
  kArmed,
  kWaitingForRest,
  kVerdict,
  kChooseCasualty,
  kConfirmRemoval,
};
std::string PhaseName(Phase phase);

// What the overlay lets a mouse click mean right now.
enum class OverruleMode { kNone, kMoveStand, kReassignUnit, kChangeImpact };
std::string OverruleModeName(OverruleMode mode);

// One event for the game log. `correction` marks a human overruling an automatic decision.
struct LiveEvent {
  int seq = 0;  // 1, 2, ... in the order produced; compensating events name the seq they undo
  std::string type;
  bool correction = false;
  nlohmann::json data = nlohmann::json::object();
};

struct CalibrationSummary {
  double rms_px = 0;
  double rms_mm = 0;
  double coverage = 0;  // 0..1
  int intersections_found = 0;
  int intersections_total = 0;
};

// A stand the ruling considered, as the overlay shows it.
struct CandidateView {
  std::string stand_id;
  std::string unit;
  double distance_in = 0;  // from the impact point to the base
  bool hit = false;        // inside the circle (or whatever the ruleset's test says)
};

// A side's colour in or beside the hit circle that no found stand explains
// (vision/unfound_base_check): a base the camera may have missed, for the players to look at.
struct CheckView {
  std::string side;
  std::string reason;
  Vec2 point_in;
};

// The engine's ruling on one shot, reduced to what the panels show. Built by the controller from
// engine/shot_adjudication.hpp's Verdict; the UI never decides any of these fields itself.
struct VerdictView {
  Vec2 impact_in;
  double circle_radius_in = 0.5;
  std::vector<CandidateView> candidates;
  std::vector<std::string> must_remove;  // removals decided by the rules alone
  int firer_chooses = 0;                 // further stands the firer picks among the hits
  std::string ruling;                    // one line for the verdict panel
  std::vector<CheckView> checks;         // look there before accepting the ruling
  // How the camera placed the impact when not on its mark ("dot unseen: centre of the shell
  // used"); empty when on its mark or placed by the players.
  std::string impact_note;
};

class RefereeState {
 public:
  RefereeState() = default;

  Phase phase() const { return phase_; }
  bool paused() const { return hand_in_frame_; }
  bool camera_bumped() const { return bumped_; }
  OverruleMode overrule_mode() const { return overrule_mode_; }
  bool help_visible() const { return help_visible_; }
  bool top_view() const { return top_view_; }
  bool quit_requested() const { return quit_; }
  // Why the last action was refused ("" if it was accepted); shown in the status bar.
  const std::string& notice() const { return notice_; }

  // --- calibration wizard ---
  void OnCalibrationFound(const CalibrationSummary& summary);
  void OnCalibrationFailed(const std::string& why);
  const std::optional<CalibrationSummary>& calibration() const { return calibration_; }
  bool AcceptCalibration();
  bool RetryCalibration();  // asks the controller to detect again (see retry_requested)
  bool retry_requested() const { return retry_requested_; }
  void ClearRetryRequest() { retry_requested_ = false; }
  bool Recalibrate();
  // Side names in the order "S" samples them; the sampled colours are logged.
  void SetSides(std::vector<std::string> sides) { sides_ = std::move(sides); }
  bool SampleSideColour(int r, int g, int b);
  // The side the next sample is for (a click on that side's button in the wizard).
  bool SetNextSide(const std::string& side);
  const std::map<std::string, std::array<int, 3>>& side_colours() const { return side_colours_; }

  // --- observations from the vision worker ---
  void SetHandInFrame(bool in_frame);
  void SetCameraBumped(bool bumped);
  bool OnProjectileMoving();    // armed -> waiting-for-rest
  bool OnRest(Vec2 impact_in);  // waiting-for-rest: the ruling is now needed
  bool needs_ruling() const { return needs_ruling_; }
  const std::optional<Vec2>& impact() const { return impact_; }

  // --- rulings from the engine ---
  bool OnVerdict(const VerdictView& verdict);
  const std::optional<VerdictView>& verdict() const { return verdict_; }

  // --- shot flow (players) ---
  void SetBatteries(std::vector<std::string> batteries);  // "" = infer from nearest gun
  void SetShotTypes(std::vector<std::string> shot_types);
  const std::string& battery() const;
  const std::string& shot_type() const;
  const std::vector<std::string>& batteries() const { return batteries_; }
  const std::vector<std::string>& shot_types() const { return shot_types_; }
  void NextBattery();
  void NextShotType();
  // Selects a shot type by name; false (nothing changes) when it is not offered.
  bool SelectShotType(const std::string& shot_type);
  bool Arm();
  // The rules' say on arming, installed by the controller (LiveSession): called by Arm once
  // the table is ready, it declares the shot to the rules engine and returns nullopt, or
  // returns why the rules refuse the shot (Arm then refuses with that reason).
  using ArmCheck = std::function<std::optional<std::string>()>;
  void SetArmCheck(ArmCheck check) { arm_check_ = std::move(check); }
  // Why the rules refused the last Arm ("" when they did not); cleared by a new choice.
  const std::string& arm_refusal() const { return arm_refusal_; }
  void ClearArmRefusal() { arm_refusal_.clear(); }
  // The players overrule the rules' refusal and arm anyway; logged as a correction.
  bool ArmOverruled();
  bool CancelShot();
  bool AcceptVerdict();
  void NextCandidate();
  const std::string& selected_candidate() const { return selected_candidate_; }
  bool ChooseCasualty(const std::string& stand_id);
  const std::vector<std::string>& chosen() const { return chosen_; }
  // Stands that must leave the table for the current verdict (rules' and firer's together).
  std::vector<std::string> PendingRemovals() const;
  bool ConfirmRemoval();
  const std::set<std::string>& removed_stands() const { return removed_; }
  // The stands removed for the last confirmed verdict (what UndoVerdict would put back).
  const std::vector<std::string>& last_removed() const { return last_removed_; }

  // --- overrules: each logged as a correction ---
  bool UndoVerdict();
  bool MoveStand(const std::string& stand_id, const OrientedRect& from, const OrientedRect& to);
  bool ReassignUnit(const std::string& stand_id, const std::string& from_unit,
                    const std::string& to_unit);
  bool ChangeImpactPoint(Vec2 impact_in);
  // The stands under the ruling on screen were corrected (a base size the camera could not
  // tell, named by the players): the engine rules again on the same point. Logs nothing (the
  // correction is logged); false when no ruling is on screen.
  bool RuleAgain();
  // The stand tracked as `current_id` is really `true_id` (ids swap when both exist): the
  // overrules kept per stand follow the stand to its new id.
  bool RenameStand(const std::string& current_id, const std::string& true_id);
  // The players say what a base is ("<id> is a <kind>": the camera cannot tell kinds of one
  // base size apart); the controller checks the kind fits the base.
  bool SetStandKind(const std::string& stand_id, const std::string& from_kind,
                    const std::string& to_kind);
  // The players say which way a base faces (their answer to CONFIRM FACING; `from` is the
  // facing the camera's outline gave it, "?" when no front stripe was seen).
  bool SetStandFacing(const std::string& stand_id, const std::string& from, const std::string& to);
  // A correction the controller refused, with why (shown in the status bar).
  bool RefuseKind(std::string why) { return Refuse(std::move(why)); }
  const std::map<std::string, OrientedRect>& moved_stands() const { return moved_; }
  const std::map<std::string, std::string>& unit_overrides() const { return unit_of_; }

  // A keyboard command from the shortcut table. Commands that need a position (sampling a
  // colour, moving a stand) only switch modes here; the window supplies the position.
  bool Apply(Command command);

  // The log events produced since the last call, in order; the controller writes them.
  std::vector<LiveEvent> TakeEvents();
  bool log_dirty() const { return !pending_events_.empty() || unsaved_; }
  void MarkLogSaved() { unsaved_ = false; }

 private:
  // The ruling on screen dropped: the engine rules again on impact_ at the next step.
  void ClearRulingForAnother();
  bool Refuse(std::string why);
  void Accept() { notice_.clear(); }
  int Emit(std::string type, nlohmann::json data, bool correction = false);
  // The players' word on a stand's `what` (kind, facing), logged as the correction `event`.
  bool SetStandAttribute(const char* event, const char* what, const std::string& stand_id,
                         const std::string& from, const std::string& to);
  void ResetShot();
  void AfterVerdictAccepted();

  Phase phase_ = Phase::kCalibrating;
  bool hand_in_frame_ = false;
  bool bumped_ = false;
  bool help_visible_ = false;
  bool top_view_ = false;
  bool quit_ = false;
  bool retry_requested_ = false;
  OverruleMode overrule_mode_ = OverruleMode::kNone;
  std::string notice_;

  std::optional<CalibrationSummary> calibration_;
  std::vector<std::string> sides_ = {"red", "blue"};
  std::map<std::string, std::array<int, 3>> side_colours_;
  size_t next_side_ = 0;

  ArmCheck arm_check_;
  std::string arm_refusal_;
  std::vector<std::string> batteries_ = {""};
  std::vector<std::string> shot_types_ = {""};
  size_t battery_index_ = 0;
  size_t shot_type_index_ = 0;

  bool needs_ruling_ = false;
  std::optional<Vec2> impact_;
  std::optional<VerdictView> verdict_;
  int verdict_seq_ = 0;       // seq of the verdict event on screen
  int last_verdict_seq_ = 0;  // seq of the last verdict whose removals were confirmed
  std::vector<std::string> last_removed_;
  std::string selected_candidate_;
  std::vector<std::string> chosen_;
  std::set<std::string> removed_;
  std::map<std::string, OrientedRect> moved_;
  std::map<std::string, std::string> unit_of_;

  int next_seq_ = 1;
  std::vector<LiveEvent> pending_events_;
  bool unsaved_ = false;
};

}  // namespace referee::live
