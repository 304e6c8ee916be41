// The vision pipeline (LivePipeline) on its own thread: read a frame, process it, publish the
// result. The ImGui frame only takes the latest result and draws it, so a slow detector never
// freezes the window. Requests from the UI thread are queued and applied before the next frame.
#pragma once

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "ui/live/live_pipeline.hpp"
#include "vision/frame_source.hpp"

namespace referee::live {

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

  void RememberEmptyTable();  // the next frame is the table before deployment
  void RequestCalibration();  // look for the grid on the next frame
  void SetCalibration(const TableCalibration& cal);  // accepted: detect stands from now on
  void SetSideColours(const SideColorModel& colors);
  // Start watching for a shot ("qtip", "shell" or "any") from the next frame; Disarm stops.
  void Arm(const std::string& expect);
  void Disarm();
  // The players say nothing is in the way: the hand detector takes this frame as clear.
  void RequestClearHand();
  // The window shows the rectified top view: make it on every frame (else only when needed).
  void ShowTopView(bool shown);
  bool finished() const { return finished_; }
  // Camera settings changed at run time (the panel): applied on the worker thread, which owns
  // the source, before the next frame is read.
  void RequestCameraSettings(const CameraSettings& settings);
  // What the device accepted (FrameSource::settings_report), updated after each request.
  std::vector<std::string> camera_report() const;
  // Requests applied so far (the panel waits for a new report after Apply).
  int camera_settings_applied() const { return camera_applied_; }

 private:
  void Run();
  void ApplyRequests();

  FrameSource source_;
  bool lockstep_;
  mutable std::mutex mutex_;
  std::condition_variable cv_;
  std::optional<FrameResult> latest_;  // guarded by mutex_
  // Requests from the UI thread, guarded by mutex_, applied on the worker thread.
  bool calibrate_request_ = false;
  std::optional<TableCalibration> calibration_request_;
  std::optional<SideColorModel> colours_request_;
  bool arm_request_ = false;
  bool disarm_request_ = false;
  bool clear_hand_request_ = false;
  bool remember_empty_request_ = false;
  std::optional<bool> top_view_request_;
  std::string expect_ = "any";
  std::optional<CameraSettings> camera_request_;
  std::vector<std::string> camera_report_;
  std::atomic<int> camera_applied_{0};
  LivePipeline pipeline_;  // worker thread only
  std::atomic<bool> stop_{false};
  std::atomic<bool> finished_{false};
  std::thread thread_;
};

}  // namespace referee::live
