#include "ui/live/vision_worker.hpp"

#include <chrono>

namespace referee::live {

VisionWorker::VisionWorker(FrameSource source, PipelineConfig config, bool lockstep)
    : source_(std::move(source)), lockstep_(lockstep), config_(std::move(config)) {
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

void VisionWorker::RequestCalibration() {
  std::lock_guard lock(mutex_);
  calibrate_next_ = true;
}

void VisionWorker::SetCalibration(const TableCalibration& cal) {
  auto view = std::make_shared<const TopView>(cal, config_.top_view);
  std::lock_guard lock(mutex_);
  top_view_ = std::move(view);
  calibrate_next_ = false;
}

void VisionWorker::SetSideColours(const SideColorModel& colors) {
  std::lock_guard lock(mutex_);
  config_.colors = colors;
}

FrameResult VisionWorker::Process(cv::Mat frame, int index) {
  const auto start = std::chrono::steady_clock::now();
  FrameResult r;
  r.index = index;
  r.frame = std::move(frame);
  bool calibrate = false;
  std::shared_ptr<const TopView> view;
  PipelineConfig config;
  {
    std::lock_guard lock(mutex_);
    calibrate = calibrate_next_;
    calibrate_next_ = false;
    view = top_view_;
    config = config_;
  }
  if (calibrate) {
    r.calibration = CalibrateTable(r.frame, config.board, config.lens);
  }
  if (view && view->calibration().camera.image_size == r.frame.size()) {
    r.top_view = view->Rectify(r.frame);
    r.stands = DetectStands(r.top_view, *view, config.colors, config.catalog, config.stands).stands;
  }
  r.process_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return r;
}

void VisionWorker::Run() {
  int index = 0;
  const double frame_period_s = source_.live() ? 0.0 : 1.0 / source_.fps();
  auto next_due = std::chrono::steady_clock::now();
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
    } catch (const std::exception&) {
      ok = false;
    }
    if (!ok) break;
    FrameResult r = Process(std::move(frame), index++);
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
