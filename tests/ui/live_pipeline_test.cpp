// The live pipeline, frame by frame with no window and no thread, on the committed sample shot
// sequence (real JPEG frames): stands found once while still, the shot adjudicated at rest on
// a crop, hands flagged, a bumped camera reported within one second of source time and
// re-calibrated, a moved stand re-found and never taken for a bump. One test runs the same
// frames through VisionWorker's thread.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <optional>

#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "engine/board_file.hpp"
#include "engine/data_paths.hpp"
#include "engine/stand_kind_catalog_loader.hpp"
#include "ui/live/live_pipeline.hpp"
#include "ui/live/vision_worker.hpp"
#include "vision/frame_source.hpp"

namespace referee::live {
namespace {

namespace fs = std::filesystem;

fs::path SampleDir() { return DatasetsDir() / "sample" / "sequence_0001"; }

class LivePipelineTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    for (const auto& f : NumberedImages(SampleDir())) frames_.push_back(cv::imread(f.string()));
    std::ifstream in(SampleDir() / "frames.json");
    meta_ = nlohmann::json::parse(in);
    std::ifstream tin(SampleDir() / "truth.json");
    truth_ = nlohmann::json::parse(tin);
    board_ = LoadBoardFile(DatasetsDir() / "sample" / "board.json");
    const CalibrationResult r = CalibrateTable(frames_.at(0), board_.board.grid, std::nullopt);
    ASSERT_TRUE(std::holds_alternative<TableCalibration>(r))
        << std::get<CalibrationRefusal>(r).message;
    cal_ = std::get<TableCalibration>(r);
  }
  static void TearDownTestSuite() { frames_.clear(); }

  static PipelineConfig Config() {
    PipelineConfig c;
    c.board = board_.board.grid;
    c.terrain = board_.board;
    c.catalog = LoadStandKinds();
    for (const auto& [side, rgb] : board_.side_colors_srgb) {
      c.colors.AddSideFromSrgb(side,
                               cv::Vec3b(static_cast<uchar>(rgb[0]), static_cast<uchar>(rgb[1]),
                                         static_cast<uchar>(rgb[2])));
    }
    return c;
  }
  // A pipeline already calibrated (no grid search on its first frame). Without the full top
  // view made every frame (for display only) unless asked: what it decides is the same.
  static LivePipeline Calibrated(bool top_view_every_frame = false) {
    PipelineConfig c = Config();
    c.top_view_every_frame = top_view_every_frame;
    LivePipeline p(c);
    p.SetCalibration(cal_);
    return p;
  }
  static double Fps() { return meta_["fps"].get<double>(); }
  // The stands of the first fresh stand search over the sample's first 8 frames, if any.
  static std::optional<std::vector<DetectedStand>> FirstStandSnapshot() {
    LivePipeline p = Calibrated();
    const auto& info = meta_["frames"];
    for (size_t i = 0; i < 8; ++i) {
      FrameResult r =
          p.Process(frames_[i].clone(), static_cast<int>(i), info[i]["t_s"].get<double>());
      if (r.stands_fresh) return std::move(r.stands);
    }
    return std::nullopt;
  }

  static std::vector<cv::Mat> frames_;
  static nlohmann::json meta_, truth_;
  static BoardFile board_;
  static TableCalibration cal_;
};
std::vector<cv::Mat> LivePipelineTest::frames_;
nlohmann::json LivePipelineTest::meta_;
nlohmann::json LivePipelineTest::truth_;
BoardFile LivePipelineTest::board_;
TableCalibration LivePipelineTest::cal_;

TEST_F(LivePipelineTest, SampleShotStandsOnceRestOnceHandsFlagged) {
  LivePipeline p = Calibrated(/*top_view_every_frame=*/true);
  const auto& info = meta_["frames"];
  ASSERT_EQ(info.size(), frames_.size());
  const double rest_from = meta_["rest_from_s"].get<double>();
  int stand_runs_before_arm = 0, rests = 0, hand_frames = 0, hand_flagged = 0;
  int false_hands = 0, last_hand = -1;
  std::optional<ProjectileObservation> rest;
  double rest_t = -1;
  size_t stands_at_arm = 0;
  const int arm_index = 8;  // still "before" frames: stands are found by then
  for (size_t i = 0; i < frames_.size(); ++i) {
    const double t = info[i]["t_s"].get<double>();
    if (static_cast<int>(i) == arm_index) p.Arm("qtip");
    const FrameResult r = p.Process(frames_[i].clone(), static_cast<int>(i), t);
    ASSERT_FALSE(r.top_view.empty());
    if (static_cast<int>(i) < arm_index) stand_runs_before_arm += r.stands_fresh;
    if (static_cast<int>(i) == arm_index) stands_at_arm = r.stands.size();
    if (r.shot.rest) {
      ++rests;
      rest = r.shot.rest;
      rest_t = t;
      EXPECT_GT(r.stage_ms.projectile_ms, 0);
    }
    const bool hand = info[i]["hand_in_view"].get<bool>();
    if (hand) {
      ++hand_frames;
      hand_flagged += r.hand_in_frame;
      last_hand = static_cast<int>(i);
    } else if (r.hand_in_frame && (last_hand < 0 || static_cast<int>(i) >= last_hand + 2)) {
      ++false_hands;  // the first frame after the hand left may still show it leaving
    }
  }
  // The still table before arming: the stand detector ran exactly once and found the stands.
  EXPECT_EQ(stand_runs_before_arm, 1);
  EXPECT_GE(stands_at_arm, truth_["stands"].size() - 1);
  // One rest, after the projectile stopped and rest_seconds passed, at the true tip.
  ASSERT_EQ(rests, 1);
  EXPECT_GE(rest_t, rest_from + 0.5 - 1e-6);
  // Within a few frames of rest_from + 0.5 (scattered JPEG noise is not motion), so well
  // before the hand comes in.
  EXPECT_LE(rest_t, rest_from + 0.5 + 0.15);
  EXPECT_LT(rest_t, meta_["hand_from_s"].get<double>());
  ASSERT_TRUE(rest.has_value());
  EXPECT_EQ(rest->kind, "qtip");
  const Vec2 truth{truth_["projectile"]["point"][0].get<double>(),
                   truth_["projectile"]["point"][1].get<double>()};
  EXPECT_LT(InchesToMm(Distance(rest->point, truth)), 3.0);
  // Hands: flagged on most frames a hand is over the table, never without one.
  EXPECT_EQ(false_hands, 0);
  EXPECT_GE(hand_flagged, hand_frames * 2 / 3) << hand_flagged << " of " << hand_frames;
}

TEST_F(LivePipelineTest, BumpedCameraReportedWithinOneSecondAndRecalibrated) {
  LivePipeline p = Calibrated();
  const double fps = 30.0;
  const cv::Mat still = frames_.at(0);
  cv::Mat bumped;
  const double dx = 3.0, dy = -2.0;  // an elbow on the mount: a few pixels
  cv::warpAffine(still, bumped, cv::Matx23d(1, 0, dx, 0, 1, dy), still.size(), cv::INTER_LINEAR,
                 cv::BORDER_REPLICATE);
  const int bump_at = 20;
  int checks_before = 0;
  double reported_after_s = -1;
  std::optional<TableCalibration> recal;
  for (int i = 0; i < bump_at + 60; ++i) {
    const double t = i / fps;
    const FrameResult r = p.Process((i < bump_at ? still : bumped).clone(), i, t);
    if (r.bump && i < bump_at) {
      ++checks_before;
      EXPECT_TRUE(r.bump->reliable);
      EXPECT_FALSE(r.bump->bumped) << "frame " << i;
    }
    if (r.bump && r.bump->bumped && reported_after_s < 0) {
      reported_after_s = t - bump_at / fps;
      EXPECT_NEAR(r.bump->median_vector.x, dx, 0.5);
      EXPECT_NEAR(r.bump->median_vector.y, dy, 0.5);
    }
    if (r.recalibrated && !recal) recal = r.recalibrated;
  }
  EXPECT_GE(checks_before, 1);
  ASSERT_GE(reported_after_s, 0) << "bump never reported";
  EXPECT_LE(reported_after_s, 1.0);
  ASSERT_TRUE(recal.has_value()) << "no re-calibration after the bump";
  const cv::Point2d a = cal_.ImageFromTable({20, 12}), b = recal->ImageFromTable({20, 12});
  EXPECT_NEAR(b.x - a.x, dx, 0.5);
  EXPECT_NEAR(b.y - a.y, dy, 0.5);
}

// The sample frame with one stand lifted off and put down `offset_px` away.
cv::Mat MoveStand(const cv::Mat& frame, const std::vector<cv::Point>& hull, cv::Point offset_px) {
  cv::Mat mask(frame.size(), CV_8U, cv::Scalar(0));
  cv::fillConvexPoly(mask, hull, cv::Scalar(255));
  // The figures on the base lean outward in the picture: take a few pixels around the base.
  cv::dilate(mask, mask, cv::getStructuringElement(cv::MORPH_ELLIPSE, {13, 13}));
  // Where it stood, the mat: the mean colour of a ring around the base.
  cv::Mat ring;
  cv::dilate(mask, ring, cv::getStructuringElement(cv::MORPH_ELLIPSE, {9, 9}));
  ring &= ~mask;
  cv::Mat out = frame.clone();
  out.setTo(cv::mean(frame, ring), mask);
  cv::Mat moved_mask;
  cv::warpAffine(mask, moved_mask, cv::Matx23d(1, 0, offset_px.x, 0, 1, offset_px.y), mask.size());
  cv::Mat moved;
  cv::warpAffine(frame, moved, cv::Matx23d(1, 0, offset_px.x, 0, 1, offset_px.y), frame.size());
  moved.copyTo(out, moved_mask);
  return out;
}

TEST_F(LivePipelineTest, MovedStandIsFoundAgainAndIsNotABump) {
  // Pick a stand whose base, moved 3 squares' worth of pixels sideways, lands on open mat.
  const auto& stands = truth_["stands"];
  std::vector<std::vector<cv::Point>> hulls;
  for (const auto& s : stands) {
    std::vector<cv::Point> h;
    for (const auto& c : s["corners_px"]) {
      h.emplace_back(static_cast<int>(c[0].get<double>()), static_cast<int>(c[1].get<double>()));
    }
    hulls.push_back(h);
  }
  const cv::Rect inside(80, 80, frames_[0].cols - 160, frames_[0].rows - 160);
  int pick = -1;
  cv::Point offset;
  for (size_t i = 0; i < hulls.size() && pick < 0; ++i) {
    for (const cv::Point o :
         {cv::Point(70, 0), cv::Point(-70, 0), cv::Point(0, 60), cv::Point(0, -60)}) {
      const cv::Rect dest = cv::boundingRect(hulls[i]) + o;
      if ((dest & inside) != dest) continue;
      bool free = true;
      for (size_t j = 0; j < hulls.size(); ++j) {
        const cv::Rect other = cv::boundingRect(hulls[j]);
        const cv::Rect grown(other.x - 25, other.y - 25, other.width + 50, other.height + 50);
        if ((grown & dest).area() > 0) free = false;
      }
      if (free) {
        pick = static_cast<int>(i);
        offset = o;
        break;
      }
    }
  }
  ASSERT_GE(pick, 0) << "no stand with free mat beside it";
  const cv::Mat still = frames_.at(0);
  const cv::Mat moved = MoveStand(still, hulls[static_cast<size_t>(pick)], offset);
  LivePipeline p = Calibrated();
  const double fps = 30.0;
  const int move_at = 20;
  int bump_checks = 0, stand_runs_after = 0;
  std::vector<DetectedStand> last;
  for (int i = 0; i < move_at + 45; ++i) {
    const FrameResult r = p.Process((i < move_at ? still : moved).clone(), i, i / fps);
    if (r.bump) {
      ++bump_checks;
      EXPECT_TRUE(r.bump->reliable);
      EXPECT_FALSE(r.bump->bumped) << "frame " << i << " shift " << r.bump->median_shift_px;
    }
    if (i >= move_at) stand_runs_after += r.stands_fresh;
    last = r.stands;
  }
  EXPECT_GE(bump_checks, 4);
  EXPECT_EQ(stand_runs_after, 1);  // found again once, when the view was still
  // The moved stand is found at its new place.
  const auto& c = stands[static_cast<size_t>(pick)]["center_px"];
  const cv::Point2d new_px(c[0].get<double>() + offset.x, c[1].get<double>() + offset.y);
  const double h = stands[static_cast<size_t>(pick)]["height_in"].get<double>();
  const Vec2 expected = cal_.TableFromImage(new_px, h);
  double best = 1e9;
  for (const auto& d : last) best = std::min(best, Distance(d.stand.footprint.center, expected));
  EXPECT_LT(best, 0.25) << "no stand found near the moved one";
}

// The board file's terrain reaches the live stand search: the demo's red roof (house-5) and
// the blue water under its bridge are not taken for bases (both were, 3 false bases, when the
// pipeline searched without the board's terrain). Every stand found is a true stand.
TEST_F(LivePipelineTest, SampleStandsAreTrueStandsNotTerrain) {
  const std::optional<std::vector<DetectedStand>> first = FirstStandSnapshot();
  ASSERT_TRUE(first.has_value()) << "no stand search within the first 8 frames";
  const std::vector<DetectedStand>& found = *first;
  for (const auto& d : found) {
    double best_in = 1e9;
    for (const auto& t : truth_["stands"]) {
      if (t["side"].get<std::string>() != d.stand.side) continue;
      const Vec2 c{t["center"][0].get<double>(), t["center"][1].get<double>()};
      best_in = std::min(best_in, Distance(d.stand.footprint.center, c));
    }
    EXPECT_LT(best_in, 0.25) << d.stand.id << " at (" << d.stand.footprint.center.x << ", "
                             << d.stand.footprint.center.y << ") is no true stand";
  }
  EXPECT_GE(found.size(), truth_["stands"].size() - 1);
}

// The demo's field gun runs on under a tree crown: the live search (the referee's own
// calibration) finds it whole, 40 x 40, and marks it partly hidden for the players to check;
// nothing else is marked, and every stand found has its true size. (The light cavalry beside
// the rock is not found in this first snapshot at all; `adjudicate` with the committed
// calibration finds it 40 x 18 and completes it: StandDetectorRenderTest.)
TEST_F(LivePipelineTest, SampleBasesUnderWoodsAndRocksHaveTheirTrueSize) {
  const std::optional<std::vector<DetectedStand>> first = FirstStandSnapshot();
  ASSERT_TRUE(first.has_value()) << "no stand search within the first 8 frames";
  const std::vector<DetectedStand>& found = *first;
  int partly_hidden = 0;
  for (const auto& t : truth_["stands"]) {
    const Vec2 c{t["center"][0].get<double>(), t["center"][1].get<double>()};
    const auto it = std::find_if(found.begin(), found.end(), [&](const DetectedStand& d) {
      return d.stand.side == t["side"].get<std::string>() &&
             Distance(d.stand.footprint.center, c) < 0.25;
    });
    const std::string id = t["id"].get<std::string>();
    if (it == found.end()) continue;  // a miss is SampleStandsAreTrueStandsNotTerrain's to count
    EXPECT_NEAR(it->stand.footprint.width_in, t["size"][0].get<double>(), MmToInches(3.0)) << id;
    EXPECT_NEAR(it->stand.footprint.depth_in, t["size"][1].get<double>(), MmToInches(3.0)) << id;
    partly_hidden += it->partly_hidden ? 1 : 0;
    if (id == "red-8") {
      EXPECT_TRUE(it->partly_hidden) << id;
    }
  }
  EXPECT_EQ(partly_hidden, 1) << "only the gun under the crown runs on under tall terrain";
}

TEST_F(LivePipelineTest, WorkerThreadCalibratesAndFindsStands) {
  VisionWorker worker(FrameSource::OpenImages(SampleDir()), Config(), /*lockstep=*/true);
  bool accepted = false;
  size_t stands = 0;
  for (int i = 0; i < 12; ++i) {
    const std::optional<FrameResult> r = worker.WaitNext();
    ASSERT_TRUE(r.has_value());
    if (r->calibration) {
      ASSERT_TRUE(std::holds_alternative<TableCalibration>(*r->calibration));
      worker.SetCalibration(std::get<TableCalibration>(*r->calibration));
      accepted = true;
    }
    stands = r->stands.size();
  }
  EXPECT_TRUE(accepted);
  EXPECT_GE(stands, truth_["stands"].size() - 1);
}

}  // namespace
}  // namespace referee::live
