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

#include "calibration/calibrate_table.hpp"
#include "engine/stand.hpp"
#include "vision/frame_source.hpp"
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
  bool finished() const { return finished_; }

 private:
  void Run();
  FrameResult Process(cv::Mat frame, int index);

  FrameSource source_;
  bool lockstep_;
  std::mutex mutex_;
  std::condition_variable cv_;
  PipelineConfig config_;                    // guarded by mutex_
  std::shared_ptr<const TopView> top_view_;  // guarded by mutex_
  bool calibrate_next_ = true;               // guarded by mutex_
  std::optional<FrameResult> latest_;        // guarded by mutex_
  std::atomic<bool> stop_{false};
  std::atomic<bool> finished_{false};
  std::thread thread_;
};

}  // namespace referee::live
