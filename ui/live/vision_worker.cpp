#include "ui/live/vision_worker.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <utility>

#include "engine/input_error.hpp"

namespace referee::live {

VisionWorker::VisionWorker(FrameSource source, PipelineConfig config, bool lockstep)
    : source_(std::move(source)),
      lockstep_(lockstep),
      camera_report_(source_.settings_report()),
      pipeline_(std::move(config)) {
  thread_ = std::thread([this] { Run(); });
}

VisionWorker::~VisionWorker() {
  stop_ = true;
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

std::optional<FrameResult> VisionWorker::Take() {
  std::optional<FrameResult> out;
  {
    std::lock_guard lock(mutex_);
    out.swap(latest_);
  }
  cv_.notify_all();
  return out;
}

std::optional<FrameResult> VisionWorker::WaitNext() {
  std::optional<FrameResult> out;
  {
    std::unique_lock lock(mutex_);
    cv_.wait(lock, [&] { return latest_.has_value() || finished_ || stop_; });
    out.swap(latest_);
  }
  cv_.notify_all();
  return out;
}

void VisionWorker::RequestClearHand() {
  std::lock_guard lock(mutex_);
  clear_hand_request_ = true;
}

void VisionWorker::ShowTopView(bool shown) {
  std::lock_guard lock(mutex_);
  top_view_request_ = shown;
}

void VisionWorker::RequestCalibration() {
  std::lock_guard lock(mutex_);
  calibrate_request_ = true;
}

void VisionWorker::SetCalibration(const TableCalibration& cal) {
  std::lock_guard lock(mutex_);
  calibration_request_ = cal;
  calibrate_request_ = false;
}

void VisionWorker::RememberEmptyTable() {
  std::lock_guard lock(mutex_);
  remember_empty_request_ = true;
}

void VisionWorker::SetSideColours(const SideColorModel& colors) {
  std::lock_guard lock(mutex_);
  colours_request_ = colors;
}

void VisionWorker::Arm(const std::string& expect) {
  std::lock_guard lock(mutex_);
  arm_request_ = true;
  disarm_request_ = false;
  expect_ = expect;
}

void VisionWorker::Disarm() {
  std::lock_guard lock(mutex_);
  disarm_request_ = true;
  arm_request_ = false;
}

void VisionWorker::RequestCameraSettings(const CameraSettings& settings) {
  std::lock_guard lock(mutex_);
  camera_request_ = settings;
}

std::vector<std::string> VisionWorker::camera_report() const {
  std::lock_guard lock(mutex_);
  return camera_report_;
}

void VisionWorker::ApplyRequests() {
  std::optional<TableCalibration> cal;
  std::optional<SideColorModel> colours;
  bool calibrate = false, arm = false, disarm = false, clear_hand = false, remember_empty = false;
  std::string expect;
  std::optional<CameraSettings> camera;
  std::optional<bool> top_view;
  {
    std::lock_guard lock(mutex_);
    camera.swap(camera_request_);
    cal.swap(calibration_request_);
    colours.swap(colours_request_);
    calibrate = std::exchange(calibrate_request_, false);
    arm = std::exchange(arm_request_, false);
    disarm = std::exchange(disarm_request_, false);
    clear_hand = std::exchange(clear_hand_request_, false);
    remember_empty = std::exchange(remember_empty_request_, false);
    top_view.swap(top_view_request_);
    expect = expect_;
  }
  if (camera) {
    std::vector<std::string> report = source_.ApplySettings(*camera);
    {
      std::lock_guard lock(mutex_);
      camera_report_ = std::move(report);
    }
    ++camera_applied_;
  }
  // Heavy parts (the top-view maps) are built here, on the worker thread, not in the UI's.
  if (cal) pipeline_.SetCalibration(*cal);
  if (colours) pipeline_.SetSideColours(*colours);
  if (calibrate) pipeline_.RequestCalibration();
  if (disarm) pipeline_.Disarm();
  if (arm) pipeline_.Arm(expect);
  if (clear_hand) pipeline_.ClearHand();
  if (remember_empty) pipeline_.RememberNextFrameAsEmptyTable();
  if (top_view) pipeline_.SetTopViewEveryFrame(*top_view);
}

void VisionWorker::Run() {
  int index = 0;
  const double frame_period_s = source_.live() ? 0.0 : 1.0 / source_.fps();
  const auto started = std::chrono::steady_clock::now();
  auto next_due = started;
  while (!stop_) {
    if (lockstep_) {
      std::unique_lock lock(mutex_);
      cv_.wait(lock, [&] { return !latest_.has_value() || stop_; });
      if (stop_) break;
    } else if (frame_period_s > 0) {
      // Files play at their own frame rate, not as fast as the detector runs.
      std::this_thread::sleep_until(next_due);
      next_due += std::chrono::duration_cast<std::chrono::steady_clock::duration>(
          std::chrono::duration<double>(frame_period_s));
    }
    cv::Mat frame;
    bool ok = false;
    try {
      ok = source_.Read(frame);
    } catch (const InputError& e) {
      // A bad file in a folder of frames (cut short, not an image) is named and skipped: the
      // source has moved past it, and the game goes on with the next frame.
      std::cerr << "referee live: " << e.what() << " (frame skipped)\n";
      continue;
    } catch (const std::exception&) {
      // Anything else (a camera backend failing) ends the stream as before: reading again
      // could fail again for ever.
      ok = false;
    }
    if (!ok) break;
    // Source time: a camera's frames are timed as they arrive; a file's by its frame rate.
    const double t_s =
        source_.live()
            ? std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count()
            : index * frame_period_s;
    ApplyRequests();
    FrameResult r = pipeline_.Process(std::move(frame), index++, t_s);
    {
      std::lock_guard lock(mutex_);
      latest_ = std::move(r);
    }
    cv_.notify_all();
  }
  finished_ = true;
  cv_.notify_all();
}

}  // namespace referee::live
