// A grid line a few grey levels darker than a mat with as much noise: one profile across it is
// rarely told from the noise, the mean of the profiles a few pixels either way along the line is,
// and its centre is measured where the line runs.
#include <gtest/gtest.h>

#include <cmath>
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "blurred_noisy.hpp"
#include "calibration/intersection_refine.hpp"

namespace referee {
namespace {

// A mat of 70 grey with noise sigma 4, crossed by a vertical line 5 grey levels deep and 3 px
// wide (blurred) centred on the pixel column line_x_px.
cv::Mat FaintLine(double line_x_px) {
  cv::Mat mat(400, 400, CV_32F, cv::Scalar(70));
  for (int y = 0; y < mat.rows; ++y) {
    for (int x = 0; x < mat.cols; ++x) {
      if (std::abs(x - line_x_px) <= 1.5) mat.at<float>(y, x) -= 5.0f;
    }
  }
  return test::BlurredNoisy(mat, 1.2, 4.0, 7);
}

// Profiles measured at 100 points down the line: how many find it within 1 px, and their mean
// offset from where it runs.
struct Measured {
  int found = 0;
  double mean_error_px = 0;
};

Measured MeasureDownTheLine(const cv::Mat& gray, double line_x_px, const RefineOptions& o) {
  Measured m;
  double sum = 0;
  for (int k = 0; k < 100; ++k) {
    const cv::Point2d p(line_x_px + 2.0, 50.0 + 3.0 * k);  // 2 px off: the offset is measured
    const auto off = MeasureLineOffset(gray, p, {1.0, 0.0}, 60.0, o);
    if (!off || std::abs(p.x + *off - line_x_px) > 1.0) continue;
    ++m.found;
    sum += p.x + *off - line_x_px;
  }
  m.mean_error_px = m.found > 0 ? sum / m.found : 0.0;
  return m;
}

TEST(FaintLineProfile, AveragedAlongTheLineItIsMeasuredWhereOneProfileIsNot) {
  const double line_x_px = 200.0;
  const cv::Mat gray = FaintLine(line_x_px);
  RefineOptions one;
  one.min_contrast = 3.0;
  RefineOptions averaged = one;
  averaged.along_line_px = 4.0;
  const Measured single = MeasureDownTheLine(gray, line_x_px, one);
  const Measured mean = MeasureDownTheLine(gray, line_x_px, averaged);
  // Measured 29 and 62 times in 100.
  EXPECT_LT(single.found, 40);
  EXPECT_GE(mean.found, 2 * single.found);
  EXPECT_GE(mean.found, 50);
  EXPECT_LT(std::abs(mean.mean_error_px), 0.1);
}

// On the bare mat the averaged profiles find no line.
TEST(FaintLineProfile, NoiseAloneIsNoLine) {
  cv::Mat mat(400, 400, CV_8U);
  cv::randn(mat, cv::Scalar(70), cv::Scalar(4));
  const cv::Mat gray = RefineImage(mat);
  RefineOptions o;
  o.min_contrast = 3.0;
  o.along_line_px = 4.0;
  int found = 0;
  for (int k = 0; k < 100; ++k) {
    if (MeasureLineOffset(gray, {200.0, 50.0 + 3.0 * k}, {1.0, 0.0}, 60.0, o)) ++found;
  }
  EXPECT_LT(found, 10);
}

}  // namespace
}  // namespace referee
