// The live referee's controller: takes the vision worker's results, feeds them to the
// RefereeState as observations, asks the engine for rulings (AdjudicateShot, unit grouping) and
// writes the state's events to the game log. No window: the overlay reads it and draws.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "calibration/calibrate_table.hpp"
#include "engine/board_file.hpp"
#include "engine/game_log.hpp"
#include "engine/kind_resolution.hpp"
#include "engine/shot_adjudication.hpp"
#include "engine/stand.hpp"
#include "engine/unit_grouping.hpp"
#include "ui/live/log_frames.hpp"
#include "ui/live/referee_state.hpp"
#include "ui/live/turn_flow.hpp"
#include "ui/live/vision_worker.hpp"
#include "vision/stand_detector.hpp"
#include "vision/stand_tracker.hpp"
#include "vision/top_view.hpp"

namespace referee::live {

// A stand as the overlay shows it: what vision saw, with the humans' corrections applied.
struct ShownStand {
  Stand stand;
  std::string unit;  // unit label (from the engine's grouping, or a correction)
  bool corrected = false;
  bool removed = false;  // taken off after a verdict (kept greyed until it leaves the view)
  // Where the kind came from: the base size alone, the ruleset's organisations (inferred: the
  // camera cannot tell which of a square's 40 x 40 bases is the gun) or the players.
  KindSource kind_source = KindSource::kSize;
  // The detector saw one of its sides run on under tall terrain (DetectedStand::partly_hidden):
  // its size and kind are for the players to check. Cleared once they move it.
  bool partly_hidden = false;
  // ... or found only on a faint border where the table changed since it was seen empty
  // (DetectedStand::faint_border): its place and size are for the players to check.
  bool faint_border = false;
};

struct SessionConfig {
  BoardFile board;
  StandKindCatalog catalog;
  ShotOptions shot;
  std::optional<std::filesystem::path> log_path;
  bool resume = false;
  // How far each kind of stand may move between two snapshots (the ruleset's move allowances,
  // MoveAllowanceFromRuleset). Without one, any move keeps the identity of the nearest stand.
  std::optional<MoveAllowance> move_allowance;
  StandTrackerOptions tracker;
};

class LiveSession {
 public:
  explicit LiveSession(SessionConfig config);
  // The state's arm check calls back into this session: it stays where it was built.
  LiveSession(const LiveSession&) = delete;
  LiveSession& operator=(const LiveSession&) = delete;

  // The rules-engine game the shots are declared to (owned by the window; nullptr or not
  // started: shots are adjudicated without the turn's rules). A shot armed with a chosen
  // battery is declared when armed, aimed at aim(); the rules' refusal keeps it unarmed (the
  // players may overrule). A shot whose gun is inferred is declared when it comes to rest,
  // aimed at the square it rests in; a refusal makes the verdict void.
  void SetTurnFlow(TurnFlow* turn) { turn_ = turn; }
  // `--resume`: the turn flow (SetTurnFlow first) plays again the game the log holds
  // (TurnFlow::Resume). A last shot armed but never judged has its declaration taken back (the
  // players fire it again); a last hit whose stands were never taken off is named in the Turn
  // panel. False when there is no log to resume or it holds no started game (then only the
  // stands are resumed).
  bool ResumeGame();
  // The enemy unit the chosen battery aims at; "" (or a unit not offered): the first target
  // the rules allow (TurnFlow::AimOptions).
  void SetAim(const std::string& unit);
  const std::string& aim() const { return aim_; }
  // Whether the shot on screen was declared to the engine.
  bool shot_declared() const { return shot_declared_; }

  RefereeState& state() { return state_; }
  const RefereeState& state() const { return state_; }
  const BoardFile& board() const { return config_.board; }
  const StandKindCatalog& catalog() const { return config_.catalog; }
  const ShotOptions& shot_options() const { return config_.shot; }

  // A new vision result: update calibration candidates, stands and observations.
  void OnFrame(const FrameResult& result);
  // A fresh stand detection (OnFrame calls it when the detector ran): the stand tracker gives
  // each stand the id it had in the last snapshot, so ids survive moves the rules allow.
  void OnStandsSeen(const std::vector<DetectedStand>& seen);
  // The whole stand search behind a fresh detection (OnFrame passes the pipeline's): its stands
  // as OnStandsSeen, and its side masks and colour kept for the verdict's unfound-base check.
  void OnStandSearch(std::shared_ptr<const StandDetection> search,
                     std::shared_ptr<const TopView> view);
  const TrackingUpdate& last_tracking() const { return last_tracking_; }
  const StandTracker& tracker() const { return tracker_; }
  // Rest of a projectile reported by the shot watcher (vision), table inches.
  void OnProjectileAtRest(Vec2 impact_in);
  // Asks the engine for the ruling whenever the state wants one; then writes pending events.
  void Step();

  // Calibration wizard.
  const std::optional<CalibrationResult>& last_calibration() const { return last_calibration_; }
  const std::optional<TableCalibration>& accepted_calibration() const { return accepted_; }
  // Accept the grid on screen; the worker switches to stand detection.
  bool AcceptCalibration(VisionWorker& worker);

  const std::vector<ShownStand>& stands() const { return shown_; }
  const ShownStand* FindStand(const std::string& id) const;
  const std::optional<Verdict>& engine_verdict() const { return engine_verdict_; }
  // What the projectile detector last said while a shot was armed.
  const std::string& shot_refusal() const { return shot_refusal_; }
  const std::optional<ProjectileObservation>& projectile() const { return projectile_; }
  // "qtip" or "shell": what the detector should look for with the chosen shot type.
  std::string ExpectedProjectile() const;
  // The gun firing the armed shot (chosen, or inferred from the nearest gun facing the impact).
  std::optional<std::string> firing_stand() const;

  // Overrules from the window (mouse), logged as corrections.
  bool MoveStandTo(const std::string& id, Vec2 center_in);
  bool CycleUnit(const std::string& id);
  // The stand the tracker calls `current_id` is really `true_id` (same side; the two swap ids
  // when both exist). Logged as a correction of subject "stand_identity".
  bool ReassignStandId(const std::string& current_id, const std::string& true_id);
  // Ids a stand may be re-assigned to: the other tracks of its side, seen or missing.
  std::vector<std::string> IdsOfSide(const std::string& side) const;
  // "<id> is a <kind>": the players say what a base is, among KindsFor(id). The tracker keeps
  // it across re-detections, the other stands of its square are read again around it, a
  // started game plays on with it (TurnFlow::CorrectStandKind); logged as a correction of
  // subject "stand_kind". False (with the reason in state().notice()) when refused.
  bool SetStandKind(const std::string& id, const std::string& kind);
  // The kinds a stand's base size fits in the ruleset (the turn flow's; without one, the
  // catalogue's kinds of that size).
  std::vector<std::string> KindsFor(const std::string& id) const;
  // "<id> faces <N|E|...>": the players' answer to CONFIRM FACING (one overhead camera cannot
  // tell the front of a base without a seen front stripe). The base is turned to present that
  // front, the tracker keeps it while the base stays where it is, the ruling on screen is made
  // again on the same point; logged as a correction of subject "stand_facing". False (with the
  // reason in state().notice()) when the base cannot face that way.
  bool SetStandFacing(const std::string& id, const std::string& facing);
  // The facings a stand's base may present (FacingsItMayPresent), by name, the way the camera
  // outlined it first.
  std::vector<std::string> FacingsFor(const std::string& id) const;
  // Which way a stand faces as shown, with where that came from: "N (front stripe)", "N (the
  // players)", "N?" (the camera's outline; no front stripe seen).
  std::string FacingLabel(const std::string& id) const;
  bool SetImpact(Vec2 impact_in) { return state_.ChangeImpactPoint(impact_in); }
  // The verdict on screen says the tip touches something inflammable (6D) and the game has not
  // rolled for it yet: the Shot panel offers the roll.
  bool FireRollOffered() const;
  std::optional<Square> fire_square() const;
  // Rolls for fire through the turn flow (the firing gun's unit, the verdict's square), once
  // per shot; false with the rules' reason in the turn flow's notice.
  bool RollForFire();

  // Camera bump and automatic recalibration (the status bar shows them; Enter accepts).
  const std::optional<BumpReport>& last_bump() const { return last_bump_; }
  const std::optional<TableCalibration>& recalibration_offer() const { return recal_offer_; }
  // Use the recalibration found after a bump; logged as a calibration event.
  bool AcceptRecalibration(VisionWorker& worker);

  // Game log.
  bool log_open() const { return writer_ != nullptr; }
  // Writes one event (the turn flow's dice, melees, ...); returns its seq, 0 without a log.
  int64_t AppendEvent(const EventPayload& payload);
  std::string log_status() const;
  int64_t events_written() const { return events_written_; }
  const std::filesystem::path* log_path() const {
    return config_.log_path ? &*config_.log_path : nullptr;
  }

 private:
  // The state's arm check: declares the armed shot of a chosen battery (see SetTurnFlow).
  std::optional<std::string> DeclareArmedShot();
  // A shot of an inferred gun, declared at rest; the rules' refusal, if any.
  std::optional<std::string> DeclareInferredShot(const Shot& shot);
  void RebuildShown();
  void RefreshBatteries();
  // Kinds of one base size chosen by the ruleset's organisations, per side and square
  // (engine/kind_resolution.hpp); written to the tracker so re-detections keep them. Kinds
  // chosen before the game started are not changed once it has.
  void ResolveKinds();
  // A newly chosen battery (or a new kind of its gun) sets the shot type its gun fires: a
  // field gun a Q-tip ("field"), a howitzer a shell ("howitzer").
  void FollowBatteryShotType();
  VerdictView MakeView(const Verdict& v) const;
  // Once per ruling, on the stand search the ruled stands came from: a side's colour in or
  // beside the circle that none of them explains (vision/unfound_base_check).
  std::vector<UnfoundBaseCheck> CheckForUnfoundBases(const Verdict& v) const;
  // Where the height the camera's projectile is ruled at decides who is hit (a shot on a stand):
  // the height at which it changes, for the players to measure.
  std::optional<RestHeightCheck> CheckShotHeight(const std::vector<Stand>& stands,
                                                 const Shot& shot) const;
  // Where a stand lies within the camera's error of the circle's edge: the players measure.
  std::optional<CloseCallCheck> CheckCloseCall(const std::vector<Stand>& stands,
                                               const Shot& shot) const;
  // Whether the impact ruled is the one the camera saw (the checks above ask only then).
  bool ImpactFromCamera() const;
  void WriteEvents();
  void Append(const LiveEvent& e);

  SessionConfig config_;
  RefereeState state_;
  std::optional<CalibrationResult> last_calibration_;
  std::optional<TableCalibration> pending_;
  std::optional<TableCalibration> accepted_;
  std::vector<DetectedStand> detected_;  // the last detection, with track ids
  // The search detected_ came from and its view (none when the stands came without one).
  std::shared_ptr<const StandDetection> stand_search_;
  std::shared_ptr<const TopView> stand_search_view_;
  // What the camera found of the verdict on screen's shot (its projectile, none when the players
  // placed the impact) and the checks raised on the ruling: the evidence draws them, the log and
  // the panel say them (LoggedChecks).
  ShotAnalysis shot_found_;
  StandTracker tracker_;
  TrackingUpdate last_tracking_;
  std::vector<ShownStand> shown_;
  std::optional<Verdict> engine_verdict_;
  std::optional<ProjectileObservation> projectile_;
  std::string shot_refusal_;
  std::string verdict_firer_side_;
  TurnFlow* turn_ = nullptr;
  std::optional<SquareStacking> stacking_;            // the turn flow's ruleset's, loaded once
  std::pair<std::string, std::string> battery_kind_;  // chosen battery and its kind, last seen
  std::optional<Vec2> fire_rolled_at_;  // impact of the verdict the fire roll was made for
  std::string aim_;
  bool shot_declared_ = false;   // the shot on screen is declared to the engine
  std::string verdict_refusal_;  // the rules' refusal that voided the verdict on screen

  std::optional<BumpReport> last_bump_;
  std::optional<TableCalibration> recal_offer_;
  std::unique_ptr<GameLogWriter> writer_;
  std::optional<LogFrames> log_frames_;  // frames and evidence beside the log
  cv::Mat last_frame_;                   // newest camera frame (calibration, snapshots, before)
  cv::Mat shot_before_, shot_after_;     // camera frames of the shot on screen
  int64_t events_written_ = 0;
  int shot_counter_ = 0;
  bool snapshot_due_ = false;  // write where the stands are at the next chance
  std::string shot_id_;
  std::map<int, int64_t> log_seq_of_;          // LiveEvent seq -> game log seq
  std::map<int, int64_t> removal_log_seq_of_;  // verdict LiveEvent seq -> removal log seq
  std::vector<GameEvent> resumed_events_;      // the resumed log, until ResumeGame has run
};

}  // namespace referee::live
