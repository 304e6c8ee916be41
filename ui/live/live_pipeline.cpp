#include "ui/live/live_pipeline.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <utility>

#include "vision/flat_terrain_mask.hpp"
#include "vision/tall_terrain_mask.hpp"

namespace referee::live {

namespace {

using Clock = std::chrono::steady_clock;

double MsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// The calling thread's CPU time, ms: what a stage costs whatever else the machine runs (wall
// time on a loaded machine mostly measures the other processes).
double ThreadCpuMs() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

// Times one stage in CPU time of this thread (StageTimes).
class StageClock {
 public:
  StageClock() : start_ms_(ThreadCpuMs()) {}
  double Ms() const { return ThreadCpuMs() - start_ms_; }

 private:
  double start_ms_;
};

// Re-calibration after a bump costs a full grid search: try at most this often, seconds.
constexpr double kRecalibrateRetryS = 2.0;

}  // namespace

struct LivePipeline::Scene {
  bool moving = false;  // changed since the previous frame
  double still_s = 0;   // how long nothing has moved, seconds
  bool hand = false;    // a hand or arm over the table (top view or camera frame)
  // Largest connected change since the still view the stands were found on: scattered sensor
  // and JPEG noise cells never add up to a moved stand.
  double since_scene_mm2 = 0;
};

LivePipeline::LivePipeline(PipelineConfig config) : config_(std::move(config)) {}

void LivePipeline::RequestCalibration() { calibrate_next_ = true; }

void LivePipeline::SetCalibration(const TableCalibration& cal) {
  view_ = std::make_shared<const TopView>(cal, config_.top_view);
  meter_ = ChangeMeter(*view_, config_.change);
  hands_ = HandDetector(cal, config_.hand);
  bump_.emplace(cal, config_.bump);
  calibrate_next_ = false;
  prev_coarse_.release();
  scene_coarse_.release();
  scene_changed_ = true;
  hand_still_since_ = -1;
  stands_.clear();
  watch_ = {};
  arm_pending_ = false;
  before_frame_.release();
  before_coarse_.release();
  next_bump_t_ = -1e9;
  bumped_ = false;
  next_recalibrate_t_ = -1e9;
  recalibrated_at_.reset();
}

void LivePipeline::SetSideColours(const SideColorModel& colors) {
  config_.colors = colors;
  scene_changed_ = true;  // find the stands again with the new colours
}

void LivePipeline::RememberNextFrameAsEmptyTable() { remember_empty_next_ = true; }

void LivePipeline::Arm(const std::string& expect) {
  arm_pending_ = true;
  expect_ = expect;
}

void LivePipeline::Disarm() {
  arm_pending_ = false;
  watch_ = {};
}

void LivePipeline::SetTopViewEveryFrame(bool every_frame) {
  config_.top_view_every_frame = every_frame;
}

void LivePipeline::ClearHand() {
  hands_.Reset();
  // The top-view test compares with the last still view: take a new one at once.
  scene_coarse_.release();
  scene_changed_ = true;
  hand_still_since_ = -1;
}

FrameResult LivePipeline::Process(cv::Mat frame, int index, double t_s) {
  const auto start = Clock::now();
  FrameResult r;
  r.index = index;
  r.t_s = t_s;
  r.frame = std::move(frame);
  if (std::exchange(remember_empty_next_, false)) {
    config_.empty_table = r.frame.clone();
    config_.empty_table_file = "the frame remembered as the empty table";
    empty_top_view_.reset();
    empty_table_refused_ = false;
    scene_changed_ = true;
  }
  r.empty_table = !config_.empty_table.empty();
  if (calibrate_next_) {
    calibrate_next_ = false;
    const StageClock t0;
    r.calibration = CalibrateTable(r.frame, config_.board, config_.lens);
    r.stage_ms.calibrate_ms = t0.Ms();
  }
  if (view_ && view_->calibration().camera.image_size == r.frame.size()) {
    r.calibrated = true;
    StageClock t0;
    const cv::Mat coarse = meter_.ShrinkFrame(r.frame);
    r.stage_ms.rectify_ms = t0.Ms();
    if (config_.top_view_every_frame) FullView(r);
    t0 = StageClock();
    r.hand = hands_.Update(r.frame, t_s);
    r.stage_ms.hand_ms = t0.Ms();
    t0 = StageClock();
    const Scene scene = Look(coarse, r.hand, t_s);
    r.hand_in_frame = scene.hand;
    r.stage_ms.change_ms = t0.Ms();
    if (arm_pending_ || watch_.armed) {
      WatchShot(r, coarse, scene, t_s);
    } else {
      TrackStands(r, coarse, scene, t_s);
    }
    r.stands = stands_;
    CheckBump(r, scene, t_s);
    prev_coarse_ = coarse;
  }
  r.shot = watch_;
  if (watch_.rest) watch_ = {};  // reported once; the UI re-arms for the next shot
  r.process_ms = MsSince(start);
  return r;
}

const cv::Mat& LivePipeline::FullView(FrameResult& r) {
  if (r.top_view.empty()) {
    const StageClock t0;
    view_->Rectify(r.frame, r.top_view);
    r.stage_ms.rectify_ms += t0.Ms();
  }
  return r.top_view;
}

const cv::Mat& LivePipeline::EmptyTableTop(const cv::Mat& frame) {
  if (empty_top_view_ != view_) {
    empty_top_view_ = view_;
    empty_top_.release();
    if (view_ && config_.empty_table.size() == frame.size()) {
      view_->Rectify(config_.empty_table, empty_top_);
    } else if (view_ && !config_.empty_table.empty() && !empty_table_refused_) {
      empty_table_refused_ = true;
      std::fprintf(
          stderr,
          "referee live: %s: the empty table is %dx%d but the camera sends %dx%d: not used\n",
          config_.empty_table_file.empty() ? "the empty table's picture"
                                           : config_.empty_table_file.c_str(),
          config_.empty_table.cols, config_.empty_table.rows, frame.cols, frame.rows);
    }
  }
  return empty_top_;
}

LivePipeline::Scene LivePipeline::Look(const cv::Mat& coarse, const HandReport& camera_hand,
                                       double t_s) {
  Scene s;
  if (prev_coarse_.size() != coarse.size()) {
    last_motion_t_ = t_s;  // nothing to compare with yet: not still
  } else {
    // Motion is a connected change: sensor and JPEG noise flip scattered cells, which must not
    // keep a resting shot "moving" however many of them there are.
    const std::vector<ChangeRegion> regions = meter_.Regions(meter_.Changed(prev_coarse_, coarse));
    s.moving = !regions.empty() && regions.front().area_mm2 > config_.still_area_mm2;
    if (s.moving) last_motion_t_ = t_s;
  }
  s.still_s = t_s - last_motion_t_;
  // A hand is judged against the last still view (a hand held still is still a hand); before
  // any, or while the camera is bumped (the whole view moved), against the previous frame
  // (only a moving hand shows).
  const bool use_scene = !scene_coarse_.empty() && !bumped_;
  const cv::Mat& reference = use_scene ? scene_coarse_ : prev_coarse_;
  if (reference.size() == coarse.size()) {
    const std::vector<ChangeRegion> regions = meter_.Regions(meter_.Changed(reference, coarse));
    if (use_scene && !regions.empty()) s.since_scene_mm2 = regions.front().area_mm2;
    for (const ChangeRegion& region : regions) {
      if (region.area_mm2 < config_.hand_area_mm2) break;  // largest first
      if (region.touches_edge) s.hand = true;
    }
  }
  if (s.hand && !s.moving) {
    if (hand_still_since_ < 0) hand_still_since_ = t_s;
    // Perfectly still for long: something put down at the edge, not a hand.
    if (t_s - hand_still_since_ >= config_.scenery_after_s) s.hand = false;
  } else if (s.moving || !s.hand) {
    hand_still_since_ = -1;
  }
  // The arm carrying a hand is mostly outside the top view: the camera frame sees it (its
  // detector has its own rule for things put down at the edge).
  s.hand = s.hand || camera_hand.hand;
  if (s.hand) {
    // Everything waits for the hand: stillness counts from when it has left.
    last_motion_t_ = t_s;
    s.still_s = 0;
  }
  return s;
}

void LivePipeline::TrackStands(FrameResult& r, const cv::Mat& coarse, const Scene& scene,
                               double /*t_s*/) {
  if (scene_coarse_.empty() || scene.since_scene_mm2 > config_.still_area_mm2) {
    scene_changed_ = true;
  }
  if (!scene_changed_ || scene.hand || scene.still_s < config_.stand_still_s) return;
  const cv::Mat& top = FullView(r);
  const StageClock t0;
  auto search = std::make_shared<const StandDetection>(
      DetectStands(top, *view_, config_.colors, config_.catalog, config_.stands,
                   config_.terrain ? &*config_.terrain : nullptr, EmptyTableTop(r.frame)));
  stands_ = search->stands;
  r.stand_search = std::move(search);
  r.stand_search_view = view_;
  r.stage_ms.stands_ms = t0.Ms();
  r.stands_fresh = true;
  scene_coarse_ = coarse;
  scene_changed_ = false;
}

void LivePipeline::WatchShot(FrameResult& r, const cv::Mat& coarse, const Scene& scene,
                             double t_s) {
  if (arm_pending_) {
    arm_pending_ = false;
    watch_ = {};
    watch_.armed = true;
    // The frame, not its top view: only the crop around what changed is rectified at rest
    // (the caller may reuse the frame's buffer, so it is copied).
    before_frame_ = r.frame.clone();
    before_coarse_ = coarse;
    armed_motion_t_ = t_s;
    judged_ = false;
    detector_saw_hand_ = false;
  }
  watch_.moving = scene.moving;
  watch_.still_frames = scene.moving ? 0 : watch_.still_frames + 1;
  if (scene.moving || scene.hand) {
    // A new picture, judged once it is still and no hand is over the table.
    armed_motion_t_ = t_s;
    judged_ = false;
    detector_saw_hand_ = false;
  }
  watch_.hand_in_frame = scene.hand || detector_saw_hand_;
  if (scene.hand) {
    watch_.refusal = kHandPaused;
    return;
  }
  if (watch_.refusal == kHandPaused) watch_.refusal.clear();
  if (judged_ || t_s - armed_motion_t_ < config_.rest_seconds) return;
  judged_ = true;
  const StageClock t0;
  // Only the region that changed since arming can hold the projectile: the detector gets
  // that region (with a margin) of both views; the stands are those found before arming.
  cv::Rect box = meter_.Around(meter_.Changed(before_coarse_, coarse),
                               config_.projectile.ignore_area_mm2, config_.crop_margin_mm);
  ProjectileResult found = Refusal{"no projectile found: nothing changed between before and after"};
  if (!box.empty()) {
    const TopView crop = view_->Crop(box);
    box = crop.region();
    ProjectileOptions options = config_.projectile;
    options.expect = expect_;
    // A crop rectifies to the same pixels as the same part of the full view.
    const cv::Mat before = crop.Rectify(before_frame_);
    const cv::Mat after = r.top_view.empty() ? crop.Rectify(r.frame) : r.top_view(box);
    // Where the board's tall terrain may hide a stick, as the stand search reads it.
    const cv::Mat tall_terrain =
        config_.terrain
            ? TallTerrainMask(*config_.terrain, crop, before.size(),
                              MmToInches(config_.stands.tall_terrain_height_mm),
                              static_cast<int>(std::lround(config_.stands.tall_terrain_margin_mm /
                                                           crop.MmPerPx())))
            : cv::Mat();
    const cv::Mat flat_terrain = config_.terrain
                                     ? FlatTerrainMask(*config_.terrain, crop, before.size(),
                                                       FlatTerrainMarginPx(crop.MmPerPx()))
                                     : cv::Mat();
    found = DetectProjectile(before, after, crop, stands_, options, tall_terrain, flat_terrain);
    if (auto* obs = std::get_if<ProjectileObservation>(&found)) {
      obs->point_px += cv::Point2d(box.tl());  // back to full top-view pixels
      obs->region_px += box.tl();
    }
  }
  r.stage_ms.projectile_ms = t0.Ms();
  if (const auto* obs = std::get_if<ProjectileObservation>(&found)) {
    watch_.rest = *obs;
    watch_.refusal.clear();
  } else {
    watch_.refusal = std::get<Refusal>(found).reason;
    // The detector names hands and arms in its refusals; those pause the referee too.
    detector_saw_hand_ = watch_.refusal.find("hand") != std::string::npos;
    watch_.hand_in_frame = watch_.hand_in_frame || detector_saw_hand_;
  }
}

void LivePipeline::CheckBump(FrameResult& r, const Scene& scene, double t_s) {
  if (!bump_ || t_s < next_bump_t_) return;
  next_bump_t_ = t_s + config_.bump_interval_s;
  const StageClock t0;
  r.bump = bump_->Check(r.frame);
  const BumpReport& rep = *r.bump;
  const bool new_shift = !recalibrated_at_ || cv::norm(rep.median_vector - *recalibrated_at_) > 1.0;
  // The whole picture moved: the hand test's reference is taken again from the moved view.
  if (rep.bumped && !bumped_) hands_.Reset();
  bumped_ = rep.bumped;
  // The bump detector's own visibility test decides whether the grid is visible enough; a
  // hand covering part of it is the calibration's business (it refuses when too much is hidden).
  if (rep.bumped && new_shift && scene.still_s >= config_.stand_still_s &&
      t_s >= next_recalibrate_t_) {
    next_recalibrate_t_ = t_s + kRecalibrateRetryS;
    r.recalibrated = bump_->Recalibrate(r.frame, rep);
    if (r.recalibrated) recalibrated_at_ = rep.median_vector;
  }
  r.stage_ms.bump_ms = t0.Ms();
}

}  // namespace referee::live
