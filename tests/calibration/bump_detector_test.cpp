#include <gtest/gtest.h>

#include <opencv2/imgproc.hpp>

#include "calibration/bump_detector.hpp"
#include "calibration/calibrate_table.hpp"
#include "tests/calibration/test_render.hpp"

namespace referee {
namespace {

class BumpTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    spec_.board = Grid{12, 8, 4.0};
    spec_.occluders = 4;
    camera_ = test::TestCamera({1280, 720}, 10.0, -0.1, 3.0, 50.0, spec_.board);
    image_ = test::RenderGrid(camera_, spec_);
    const CalibrationResult r = CalibrateTable(image_, spec_.board, std::nullopt);
    ASSERT_TRUE(std::holds_alternative<TableCalibration>(r))
        << std::get<CalibrationRefusal>(r).message;
    cal_ = std::get<TableCalibration>(r);
  }
  static cv::Mat Shift(const cv::Mat& img, double dx, double dy) {
    cv::Mat out;
    const cv::Matx23d m(1, 0, dx, 0, 1, dy);
    cv::warpAffine(img, out, m, img.size(), cv::INTER_LINEAR, cv::BORDER_REPLICATE);
    return out;
  }
  static test::RenderSpec spec_;
  static CameraModel camera_;
  static cv::Mat image_;
  static TableCalibration cal_;
};
test::RenderSpec BumpTest::spec_;
CameraModel BumpTest::camera_;
cv::Mat BumpTest::image_;
TableCalibration BumpTest::cal_;

TEST_F(BumpTest, SameFrameIsNotABump) {
  const BumpReport r = BumpDetector(cal_).Check(image_);
  EXPECT_TRUE(r.reliable);
  EXPECT_FALSE(r.bumped);
  EXPECT_LT(r.median_shift_px, 0.2);
}

TEST_F(BumpTest, TwoPixelShiftIsABump) {
  const BumpReport r = BumpDetector(cal_).Check(Shift(image_, 2.0, 0.0));
  EXPECT_TRUE(r.bumped);
  EXPECT_NEAR(r.median_vector.x, 2.0, 0.25);
  EXPECT_NEAR(r.median_vector.y, 0.0, 0.25);
}

TEST_F(BumpTest, LargeShiftIsFoundAndRecalibrated) {
  const cv::Mat moved = Shift(image_, -9.0, 6.0);
  const BumpDetector det(cal_);
  const BumpReport r = det.Check(moved);
  EXPECT_TRUE(r.bumped);
  EXPECT_NEAR(r.median_vector.x, -9.0, 0.5);
  EXPECT_NEAR(r.median_vector.y, 6.0, 0.5);
  const auto recal = det.Recalibrate(moved, r);
  ASSERT_TRUE(recal.has_value());
  const cv::Point2d a = cal_.ImageFromTable({20, 12}), b = recal->ImageFromTable({20, 12});
  EXPECT_NEAR(b.x - a.x, -9.0, 0.3);
  EXPECT_NEAR(b.y - a.y, 6.0, 0.3);
}

TEST_F(BumpTest, StandsHandsAndLightDoNotFire) {
  // Same camera, a different set of stands, a dark arm across the board and dimmer light.
  test::RenderSpec other = spec_;
  other.seed = 99;
  other.occluders = 25;
  other.light_gradient = 0.55;
  cv::Mat frame = test::RenderGrid(camera_, other);
  cv::line(frame, {0, 500}, {700, 300}, cv::Scalar(60, 80, 120), 80);
  cv::ellipse(frame, {700, 300}, {70, 50}, 20, 0, 360, cv::Scalar(70, 90, 140), -1);
  frame.convertTo(frame, -1, 0.75, 0);
  const BumpReport r = BumpDetector(cal_).Check(frame);
  EXPECT_TRUE(r.reliable);
  EXPECT_FALSE(r.bumped) << "median shift " << r.median_shift_px;
}

}  // namespace
}  // namespace referee

// The same checks on the dataset generator's scenes, re-rendered rather than shifted as an
// image: a camera turned by 2 px worth, stands moved to other places, a hand reaching in.
#include "datasets/scene_renderer.hpp"
#include "datasets/scene_truth.hpp"
#include "engine/data_paths.hpp"

namespace referee {
namespace {

class GeneratedBumpTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const Scenario sc = LoadScenario(DatasetsDir() / "scenarios" / "napoleonic.json");
    SynthOptions o;
    o.seed = 11;
    o.size = {1280, 720};
    o.supersample = 1;
    layout_ = LayOutScene(sc, o, 2).layout;
    reference_ = Render(layout_, StaticSolids(layout_, true), 1);
    const CalibrationResult r = CalibrateTable(reference_, layout_.board.grid, std::nullopt);
    ASSERT_TRUE(std::holds_alternative<TableCalibration>(r))
        << std::get<CalibrationRefusal>(r).message;
    cal_ = std::get<TableCalibration>(r);
  }
  // A fresh photo (its own sensor noise) of the layout with these solids.
  static cv::Mat Render(const SceneLayout& l, const std::vector<Solid>& solids, uint64_t shot) {
    SynthRandom photo(77, shot);
    return SceneRenderer(l, 1).Render(solids, photo);
  }
  // The camera turned about its own centre so the image moves by about (dx, dy) px.
  static SceneLayout Turned(double dx_px, double dy_px) {
    SceneLayout l = layout_;
    const double f = l.camera.camera_matrix(0, 0);
    const cv::Vec3d turn(-dy_px / f, dx_px / f, 0);  // about the camera's x and y axes
    cv::Matx33d r, dr;
    cv::Rodrigues(l.camera.rvec_cam_from_table, r);
    cv::Rodrigues(turn, dr);
    cv::Vec3d rvec;
    cv::Rodrigues(dr * r, rvec);
    l.camera.rvec_cam_from_table = rvec;
    l.camera.tvec_cam_from_table = dr * l.camera.tvec_cam_from_table;
    return l;
  }
  static SceneLayout layout_;
  static cv::Mat reference_;
  static TableCalibration cal_;
};
SceneLayout GeneratedBumpTest::layout_;
cv::Mat GeneratedBumpTest::reference_;
TableCalibration GeneratedBumpTest::cal_;

TEST_F(GeneratedBumpTest, CameraTurnedByTwoPixelsFires) {
  const BumpDetector det(cal_);
  for (const cv::Point2d shift : {cv::Point2d(2, 0), cv::Point2d(0, -2), cv::Point2d(1.5, 1.5)}) {
    const SceneLayout l = Turned(shift.x, shift.y);
    const cv::Mat frame = Render(l, StaticSolids(l, true), 2);
    const BumpReport r = det.Check(frame);
    // What the turn really did to the board, from the true cameras at the board centre.
    const Vec2 mid{layout_.board.grid.Width() / 2, layout_.board.grid.Height() / 2};
    const cv::Point2d moved = l.camera.ImageFromTable(mid) - layout_.camera.ImageFromTable(mid);
    EXPECT_TRUE(r.reliable);
    EXPECT_TRUE(r.bumped) << "shift " << shift << " median " << r.median_shift_px;
    EXPECT_NEAR(r.median_vector.x, moved.x, 0.3) << shift;
    EXPECT_NEAR(r.median_vector.y, moved.y, 0.3) << shift;
  }
}

TEST_F(GeneratedBumpTest, UnmovedCameraNeverFires) {
  const BumpDetector det(cal_);
  // A new photo of the same table (fresh noise).
  const BumpReport same = det.Check(Render(layout_, StaticSolids(layout_, true), 3));
  EXPECT_TRUE(same.reliable);
  EXPECT_FALSE(same.bumped) << same.median_shift_px;
  EXPECT_LT(same.median_shift_px, 0.3);

  // Every other stand moved by an inch and a half and turned: the crossings they uncover or
  // cover change, the camera does not.
  SceneLayout moved = layout_;
  for (size_t i = 0; i < moved.stands.size(); i += 2) {
    StandLook& s = moved.stands[i];
    const Vec2 d{1.5, -1.0};
    s.stand.footprint.center = s.stand.footprint.center + d;
    s.stand.footprint.angle_deg += 30;
    for (auto& fig : s.figures) {
      for (auto& p : fig.footprint) p = p + d;
    }
  }
  const BumpReport stands = det.Check(Render(moved, StaticSolids(moved, true), 4));
  EXPECT_TRUE(stands.reliable);
  EXPECT_FALSE(stands.bumped) << stands.median_shift_px;

  // A hand and arm reaching to the middle of the board.
  SynthRandom rng(5, 5);
  const Vec2 mid{layout_.board.grid.Width() / 2, layout_.board.grid.Height() / 2};
  std::vector<Solid> solids = StaticSolids(layout_, true);
  const auto hand = HandSolids(SampleHand(layout_, mid, rng));
  solids.insert(solids.end(), hand.begin(), hand.end());
  const cv::Mat hand_frame = Render(layout_, solids, 5);
  const BumpReport h = det.Check(hand_frame);
  EXPECT_FALSE(h.bumped) << h.median_shift_px;
  EXPECT_LT(h.median_shift_px, 0.3);
}

}  // namespace
}  // namespace referee
