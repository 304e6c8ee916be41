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
