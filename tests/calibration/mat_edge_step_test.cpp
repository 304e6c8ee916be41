// The mat's own edge, a blurred step from the dark mat to a lighter table, may run about a square
// outside the grid. Where the line coverage looks for a grid line beyond the border, such a step
// must not pass for one (`hard` 43 scene 9 was refused "grid lines were found beyond the border":
// 0.27-0.31 of the four beyond lines' samples against a typical line's 0.59, the labels right),
// while a thin line on a lighting ramp still does.
#include <gtest/gtest.h>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "calibration/intersection_refine.hpp"
#include "generated_table.hpp"

namespace referee {
namespace {

// A thin line 15 grey deep at x = 200 on a mat brightening by 0.1 grey per pixel.
cv::Mat LineOnARamp() {
  cv::Mat img(200, 400, CV_32F);
  for (int y = 0; y < img.rows; ++y) {
    for (int x = 0; x < img.cols; ++x) {
      img.at<float>(y, x) = static_cast<float>(60 + 0.1 * x - (std::abs(x - 200) <= 1 ? 15 : 0));
    }
  }
  cv::GaussianBlur(img, img, {0, 0}, 1.5);
  cv::Mat out;
  img.convertTo(out, CV_8U);
  return RefineImage(out);
}

TEST(MatEdgeStep, AThinLineOnALightingRampIsStillALine) {
  RefineOptions o;
  o.reject_steps = true;
  const auto offset = MeasureLineOffset(LineOnARamp(), {198.0, 100.0}, {1.0, 0.0}, 57.0, o);
  ASSERT_TRUE(offset.has_value());
  EXPECT_NEAR(198.0 + *offset, 200.0, 0.2);
}

TEST(MatEdgeStep, TableWhoseMatEdgeRunsASquareOutsideTheGridCalibrates) {
  test::ExpectCalibratesWithinMm(test::GeneratedTable("hard.json", 43, 9), 0.5);
}

}  // namespace
}  // namespace referee
