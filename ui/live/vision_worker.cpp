#include "ui/live/vision_worker.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

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

FrameResult VisionWorker::Process(cv::Mat frame, int index) {
  const auto start = std::chrono::steady_clock::now();
  FrameResult r;
  r.index = index;
  r.frame = std::move(frame);
  bool calibrate = false;
  std::shared_ptr<const TopView> view;
  PipelineConfig config;
  bool arm = false, disarm = false;
  std::string expect;
  {
    std::lock_guard lock(mutex_);
    calibrate = calibrate_next_;
    calibrate_next_ = false;
    view = top_view_;
    config = config_;
    arm = arm_request_;
    disarm = disarm_request_;
    arm_request_ = disarm_request_ = false;
    expect = expect_;
  }
  if (disarm) watch_ = {};
  if (calibrate) {
    r.calibration = CalibrateTable(r.frame, config.board, config.lens);
  }
  if (view && view->calibration().camera.image_size == r.frame.size()) {
    r.top_view = view->Rectify(r.frame);
    if (arm) {
      watch_ = {};
      watch_.armed = true;
      before_top_ = r.top_view;
      prev_top_ = r.top_view;
    }
    if (watch_.armed) {
      // Stands do not move during a shot: keep the ones seen at arming, spend the time on
      // watching the projectile.
      r.stands = watch_stands_;
      Watch(r.top_view, *view, config, expect);
    } else {
      r.stands =
          DetectStands(r.top_view, *view, config.colors, config.catalog, config.stands).stands;
      watch_stands_ = r.stands;
    }
    r.shot = watch_;
    if (watch_.rest) watch_ = {};  // reported once; the UI re-arms for the next shot
  }
  r.process_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return r;
}

void VisionWorker::Watch(const cv::Mat& top, const TopView& view, const PipelineConfig& config,
                         const std::string& expect) {
  const double mm2_per_px = view.MmPerPx() * view.MmPerPx();
  const cv::Mat step = ChangeMask(prev_top_, top, config.projectile.min_change);
  prev_top_ = top;
  watch_.moving = cv::countNonZero(step) * mm2_per_px > config.still_area_mm2;
  watch_.still_frames = watch_.moving ? 0 : watch_.still_frames + 1;
  const int rest_frames =
      std::max(1, static_cast<int>(std::ceil(config.rest_seconds * source_.fps())));
  if (watch_.still_frames < rest_frames) return;
  if (watch_.still_frames > rest_frames && !watch_.hand_in_frame && !watch_.refusal.empty()) {
    return;  // this still picture was already judged; wait for the next change
  }
  ProjectileOptions options = config.projectile;
  options.expect = expect;
  const ProjectileResult found = DetectProjectile(before_top_, top, view, watch_stands_, options);
  if (const auto* obs = std::get_if<ProjectileObservation>(&found)) {
    watch_.rest = *obs;
    watch_.refusal.clear();
    watch_.hand_in_frame = false;
  } else {
    watch_.refusal = std::get<Refusal>(found).reason;
    // The detector names hands and arms in its refusals; those pause the referee.
    watch_.hand_in_frame = watch_.refusal.find("hand") != std::string::npos;
  }
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
