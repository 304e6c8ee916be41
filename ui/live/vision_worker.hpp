// The vision pipeline on its own thread: read a frame, find the grid (while calibrating) or the
// stands (once calibrated), publish the result. The ImGui frame only takes the latest result
// and draws it, so a slow detector never freezes the window.
#pragma once

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include <opencv2/core.hpp>

#include "calibration/bump_detector.hpp"
#include "calibration/calibrate_table.hpp"
#include "engine/stand.hpp"
#include "vision/frame_source.hpp"
#include "vision/projectile_detector.hpp"
#include "vision/side_color_model.hpp"
#include "vision/stand_detector.hpp"
#include "vision/top_view.hpp"

namespace referee::live {

struct PipelineConfig {
  Grid board;
  StandKindCatalog catalog;
  SideColorModel colors;
  StandDetectorOptions stands;
  TopViewOptions top_view;
  std::optional<LensModel> lens;
  ProjectileOptions projectile;
  // Stillness before a shot is adjudicated, seconds of source time. Default 0.5; raise for
  // bouncy tables or projectiles that roll slowly.
  double rest_seconds = 0.5;
  // Change between consecutive frames below this counts as still, mm^2 of table. Default 20
  // (JPEG noise and a flicker stay below it; a rolling Q-tip does not).
  double still_area_mm2 = 20.0;
};

// The armed shot as the worker watches it: the top view at arming is `before`; once the view
// holds still for rest_seconds the projectile detector explains the change since `before`.
struct ShotWatch {
  bool armed = false;
  bool moving = false;         // something changed since the previous frame
  bool hand_in_frame = false;  // the detector refused the frame as a hand or an arm
  int still_frames = 0;
  std::optional<ProjectileObservation> rest;  // set once, on the frame it came to rest
  std::string refusal;                        // why the last still frame was not adjudicated
};

// What the pipeline saw in one frame.
struct FrameResult {
  int index = 0;                                 // 0-based frame number from the source
  cv::Mat frame;                                 // BGR camera frame
  cv::Mat top_view;                              // BGR rectified view (empty until calibrated)
  std::optional<CalibrationResult> calibration;  // set on frames where the grid was sought
  std::vector<DetectedStand> stands;             // empty until calibrated
  double process_ms = 0;                         // pipeline time for this frame
  bool end_of_source = false;                    // the file or folder has no more frames
  ShotWatch shot;                                // the armed shot, as of this frame
  // Camera bump check against the calibration reference (set on the frames where it ran, about
  // once a second once calibrated); the status bar warns when bump->bumped.
  std::optional<BumpReport> bump;
  // A fresh calibration found after a bump, for the session to accept (logged as such).
  std::optional<TableCalibration> recalibrated;
  // A hand or arm over the table in this frame (armed or not): the overlay pauses and says so.
  bool hand_in_frame = false;
};

class VisionWorker {
 public:
  // lockstep: the worker reads frame k+1 only after the UI took result k (deterministic runs,
  // --frames); otherwise it runs free at the source's pace and the UI sees the latest.
  VisionWorker(FrameSource source, PipelineConfig config, bool lockstep);
  ~VisionWorker();
  VisionWorker(const VisionWorker&) = delete;
  VisionWorker& operator=(const VisionWorker&) = delete;

  // The newest result not yet taken, if any.
  std::optional<FrameResult> Take();
  // In lockstep mode: block until the next result is ready (or the source ended).
  std::optional<FrameResult> WaitNext();

  void RequestCalibration();                         // look for the grid on the next frame
  void SetCalibration(const TableCalibration& cal);  // accepted: detect stands from now on
  void SetSideColours(const SideColorModel& colors);
  // Start watching for a shot ("qtip", "shell" or "any") from the next frame; Disarm stops.
  void Arm(const std::string& expect);
  void Disarm();
  bool finished() const { return finished_; }

 private:
  void Run();
  FrameResult Process(cv::Mat frame, int index);
  void Watch(const cv::Mat& top, const TopView& view, const PipelineConfig& config,
             const std::string& expect);

  FrameSource source_;
  bool lockstep_;
  std::mutex mutex_;
  std::condition_variable cv_;
  PipelineConfig config_;                    // guarded by mutex_
  std::shared_ptr<const TopView> top_view_;  // guarded by mutex_
  bool calibrate_next_ = true;               // guarded by mutex_
  std::optional<FrameResult> latest_;        // guarded by mutex_
  bool arm_request_ = false;                 // guarded by mutex_
  bool disarm_request_ = false;              // guarded by mutex_
  std::string expect_ = "any";               // guarded by mutex_
  // Worker-thread only: the watch in progress.
  ShotWatch watch_;
  cv::Mat before_top_, prev_top_;
  std::vector<DetectedStand> watch_stands_;
  std::atomic<bool> stop_{false};
  std::atomic<bool> finished_{false};
  std::thread thread_;
};

}  // namespace referee::live
