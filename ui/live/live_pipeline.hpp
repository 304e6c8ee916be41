// What the live referee does with each camera frame, without threads (VisionWorker runs it on
// its own thread; `referee bench speed` and the tests drive it directly).
//
// Per frame, once calibrated: rectify straight into a coarse top view of ~1.6 mm cells (cached
// fixed-point maps; vision/change_meter's ShrinkFrame) and compare it with the previous frame
// (motion) and with the last still view the stands were found on (what changed since, and
// whether a hand or arm reaches in over the edge). The full-resolution top view is made only
// where it is needed: for the stand search, for the projectile (crops of the frames at arming
// and at rest, the same pixels as the full view's) and, when asked, for display. The camera
// frame itself is checked for an arm crossing the board's outline (vision/hand_detector: the
// arm is outside the top view, often only fingertips are inside). While a hand is in frame
// everything waits: no rest is declared, nothing is adjudicated, the stands are not looked for
// and no new still view is taken; stillness counts from when the hand has left. The expensive
// detectors run only when their answer can have changed:
// - stands: when the view has been still for stand_still_s after something changed, with no
//   hand in frame (and never while a shot is armed: stands do not move during a shot);
// - projectile: once, when an armed shot has come to rest, on a crop around what changed since
//   arming (the stands are already known), so rest-to-verdict is milliseconds;
// - camera bump: every bump_interval_s of source time; re-calibration after a bump when the
//   grid is visible enough and the view is still.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "calibration/bump_detector.hpp"
#include "calibration/calibrate_table.hpp"
#include "engine/board.hpp"
#include "engine/stand.hpp"
#include "vision/change_meter.hpp"
#include "vision/hand_detector.hpp"
#include "vision/projectile_detector.hpp"
#include "vision/side_color_model.hpp"
#include "vision/stand_detector.hpp"
#include "vision/top_view.hpp"

namespace referee::live {

struct PipelineConfig {
  Grid board;
  // The board file's terrain (house, water and bridge squares, features), in the calibrated
  // table frame, for the stand search: a red roof or blue water there is not taken for a base
  // (vision/stand_detector's terrain test). Empty: no terrain is known.
  std::optional<Board> terrain;
  StandKindCatalog catalog;
  SideColorModel colors;
  StandDetectorOptions stands;
  // A camera frame of the table before the armies were deployed (optional; DetectStands'
  // empty_top, rectified through the calibration in use). Ignored, with one line on stderr
  // naming empty_table_file, when its size is not the camera's.
  cv::Mat empty_table;
  std::string empty_table_file;
  TopViewOptions top_view;
  std::optional<LensModel> lens;
  ProjectileOptions projectile;
  ChangeOptions change;
  HandOptions hand;  // the camera-frame hand and arm test
  BumpOptions bump;
  // Stillness before a shot is adjudicated, seconds of source time. Default 0.5; raise for
  // bouncy tables or projectiles that roll slowly.
  double rest_seconds = 0.5;
  // The largest connected change between consecutive frames below this counts as still, mm^2
  // of table. Default 20 (scattered JPEG noise and a flicker stay below it; a rolling Q-tip
  // does not); raise for a noisy camera.
  double still_area_mm2 = 20.0;
  // Stillness before the stands are looked for again after something changed, seconds.
  // Default 0.3: a player's hand has left and the stand is put down. Raise if stands are
  // found while still being placed.
  double stand_still_s = 0.3;
  // A changed region at least this large that reaches in over the edge of the table is a hand
  // or an arm, mm^2. Default 3000 (a hand is ~15000; a Q-tip, even blurred in flight, ~500).
  double hand_area_mm2 = 3000.0;
  // A "hand" that has not moved at all for this long is taken for something put down at the
  // table's edge (a drink, a rule book) and becomes part of the scene, seconds. Default 3.
  double scenery_after_s = 3.0;
  // How often the camera is checked for a bump once calibrated, seconds of source time.
  // Default 0.5, so a bump is reported within one second. Raise to save time on slow machines.
  double bump_interval_s = 0.5;
  // Margin around the changed region the projectile detector is given at rest, mm. Default 25:
  // more than a Q-tip head, so faint ends of the change and the background around it are in.
  double crop_margin_mm = 25.0;
  // Rectify every frame into the full top view (FrameResult::top_view), for a window that
  // shows it. Default true. Set false while the top view is not displayed: the full view is
  // then made only on the frames whose stands are searched (top_view is empty on the others),
  // which saves most of a frame's cost (~10 ms at 1080p on one core). What the referee decides
  // is the same either way: motion, hands and rest are judged on the coarse view, stands and
  // projectiles on full-resolution pixels.
  bool top_view_every_frame = true;
};

// The armed shot as the worker watches it: the top view at arming is `before`; once the view
// holds still for rest_seconds the projectile detector explains the change since `before`.
struct ShotWatch {
  bool armed = false;
  bool moving = false;         // something changed since the previous frame
  bool hand_in_frame = false;  // a hand or arm is in the picture: the shot is not judged now
  int still_frames = 0;
  std::optional<ProjectileObservation> rest;  // set once, on the frame it came to rest
  std::string refusal;                        // why the last still frame was not adjudicated
};

// Time spent per stage on one frame: CPU ms of the calling thread (0 for stages that did not run).
struct StageTimes {
  double calibrate_ms = 0;
  double rectify_ms = 0;  // the coarse view, and the full view where it was made
  double change_ms = 0;   // coarse view, motion, top-view hand and "changed since" tests
  double hand_ms = 0;     // the camera-frame hand and arm test
  double stands_ms = 0;
  double bump_ms = 0;  // bump check and any re-calibration
  double projectile_ms = 0;
};

// What the pipeline saw in one frame.
struct FrameResult {
  int index = 0;                                 // 0-based frame number from the source
  double t_s = 0;                                // source time of the frame, seconds
  cv::Mat frame;                                 // BGR camera frame
  cv::Mat top_view;                              // BGR rectified view (see below)
  std::optional<CalibrationResult> calibration;  // set on frames where the grid was sought
  std::vector<DetectedStand> stands;             // empty until calibrated
  bool stands_fresh = false;                     // the stand detector ran on this frame
  bool empty_table = false;  // a picture of the empty table is known (PipelineConfig::empty_table)
  // On the frames the stand detector ran: its whole search (side masks, colour) and the view it
  // looked through, for a later look at the same picture (vision/unfound_base_check at a
  // verdict). Shared, not copied: the other frames carry nothing.
  std::shared_ptr<const StandDetection> stand_search;
  std::shared_ptr<const TopView> stand_search_view;
  double process_ms = 0;  // pipeline time for this frame
  StageTimes stage_ms;
  bool end_of_source = false;  // the file or folder has no more frames
  ShotWatch shot;              // the armed shot, as of this frame
  // Camera bump check against the calibration reference (set on the frames where it ran, about
  // once a second once calibrated); the status bar warns when bump->bumped.
  std::optional<BumpReport> bump;
  // A fresh calibration found after a bump, for the session to accept (logged as such).
  std::optional<TableCalibration> recalibrated;
  // A hand or arm over the table in this frame (armed or not): the overlay pauses and says so.
  bool hand_in_frame = false;
  // The camera-frame hand test on this frame (where the arm is, how far it reaches in).
  HandReport hand;
  // Calibrated: the frame was looked at through the top view. top_view is empty until then,
  // and when PipelineConfig::top_view_every_frame is false, on the frames that did not need it.
  bool calibrated = false;
};

// What ShotWatch::refusal says while a hand or arm is over the table.
inline constexpr const char* kHandPaused = "hand in frame: paused until it leaves the table";

class LivePipeline {
 public:
  explicit LivePipeline(PipelineConfig config);

  void RequestCalibration();  // look for the grid on the next frame
  // Accepted: rectify, track stands and watch for bumps from now on. Builds the top-view maps
  // (a fraction of a second at 2160p).
  void SetCalibration(const TableCalibration& cal);
  void SetSideColours(const SideColorModel& colors);
  // Start watching for a shot ("qtip", "shell" or "any") from the next frame; Disarm stops.
  void Arm(const std::string& expect);
  void Disarm();
  // The user says the table is clear: what the hand test holds for a hand that does not leave
  // (an object left lying across the board's edge, a lamp's light moved) becomes part of the
  // table from the next frame on. Clears the pause at once.
  void ClearHand();
  // Take the next frame as the picture of the table before the armies are deployed
  // (PipelineConfig::empty_table) and look for the stands again with it: the player says the
  // table shows its terrain and no stand.
  void RememberNextFrameAsEmptyTable();
  // PipelineConfig::top_view_every_frame, from the next frame (e.g. when the window switches
  // between the camera picture and the top view).
  void SetTopViewEveryFrame(bool every_frame);

  // One frame at source time t_s (seconds, increasing).
  FrameResult Process(cv::Mat frame, int index, double t_s);

  const PipelineConfig& config() const { return config_; }
  const TopView* top_view() const { return view_.get(); }

 private:
  struct Scene;  // what the change tests found on this frame
  Scene Look(const cv::Mat& coarse, const HandReport& camera_hand, double t_s);
  const cv::Mat& FullView(FrameResult& r);  // r.top_view, rectified now if not yet
  // config_.empty_table through the calibration in use (again after a re-calibration), or
  // empty when there is none or its size is not the frames'.
  const cv::Mat& EmptyTableTop(const cv::Mat& frame);
  void TrackStands(FrameResult& r, const cv::Mat& coarse, const Scene& scene, double t_s);
  void WatchShot(FrameResult& r, const cv::Mat& coarse, const Scene& scene, double t_s);
  void CheckBump(FrameResult& r, const Scene& scene, double t_s);

  PipelineConfig config_;
  bool calibrate_next_ = true;
  std::shared_ptr<const TopView> view_;
  ChangeMeter meter_;
  HandDetector hands_;
  std::optional<BumpDetector> bump_;
  // Motion and scene state.
  cv::Mat prev_coarse_;  // previous frame
  double last_motion_t_ = 0;
  cv::Mat scene_coarse_;          // the still view the stands were last found on
  bool scene_changed_ = true;     // something changed since scene_coarse_ (or none yet)
  double hand_still_since_ = -1;  // source time the current "hand" stopped moving
  std::vector<DetectedStand> stands_;
  std::shared_ptr<const TopView> empty_top_view_;  // the view empty_top_ was made through
  cv::Mat empty_top_;
  bool empty_table_refused_ = false;  // its size was not the camera's (said once)
  bool remember_empty_next_ = false;  // RememberNextFrameAsEmptyTable
  // The armed shot.
  bool arm_pending_ = false;
  std::string expect_ = "any";
  ShotWatch watch_;
  cv::Mat before_frame_, before_coarse_;  // the camera frame and coarse view at arming
  double armed_motion_t_ = 0;             // last motion seen since arming
  bool judged_ = false;                   // this still picture was already judged (not for a hand)
  bool detector_saw_hand_ = false;        // the projectile detector refused this picture as a hand
  // Camera bump state.
  double next_bump_t_ = 0;
  bool bumped_ = false;  // the last check found the camera moved
  double next_recalibrate_t_ = 0;
  std::optional<cv::Point2d> recalibrated_at_;  // bump vector a re-calibration was made for
};

}  // namespace referee::live
