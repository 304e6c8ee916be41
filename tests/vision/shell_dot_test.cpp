// The blurred-dot fit on a drawn shell top: a 12 mm top of plasticine's brightness on a darker
// mat, a 3 mm black dot pressed in off its centre, drawn 5 times finer than the picture and
// averaged down (a camera's pixels), blurred as a lens does and given a webcam's noise.
#include <gtest/gtest.h>

#include <cmath>

#include <opencv2/imgproc.hpp>

#include "vision/shell_dot.hpp"

namespace referee::shell_dot_test {
namespace {

constexpr double kMmPerPx = 25.4 / 32.0;  // the top view's scale

struct Drawn {
  cv::Mat gray;        // CV_32F
  cv::Point2d top_px;  // the top's centre
  cv::Point2d dot_px;  // the dot's centre
};

// A top of side 12 mm at the middle of a 41 x 41 px picture, its dot `dot_offset_mm` from its
// centre (none when `with_dot` is false), blurred by `blur_mm`, noise `noise` grey levels.
Drawn DrawShellTop(cv::Point2d dot_offset_mm, bool with_dot, double blur_mm, double noise) {
  constexpr int kN = 41, kSuper = 5;
  const cv::Point2d top(20.3, 19.6);
  const cv::Point2d dot = top + dot_offset_mm * (1.0 / kMmPerPx);
  const double half_side_px = 6.0 / kMmPerPx, dot_r_px = 1.5 / kMmPerPx;
  cv::Mat fine(kN * kSuper, kN * kSuper, CV_32F);
  for (int y = 0; y < fine.rows; ++y) {
    for (int x = 0; x < fine.cols; ++x) {
      const cv::Point2d p((x + 0.5) / kSuper - 0.5, (y + 0.5) / kSuper - 0.5);
      float v = 90.0f;  // the mat
      if (std::abs(p.x - top.x) <= half_side_px && std::abs(p.y - top.y) <= half_side_px) {
        v = 190.0f + static_cast<float>(p.x - top.x);  // the top, lit from one side
        if (with_dot && cv::norm(p - dot) <= dot_r_px) v = 30.0f;
      }
      fine.at<float>(y, x) = v;
    }
  }
  Drawn d;
  cv::resize(fine, d.gray, {kN, kN}, 0, 0, cv::INTER_AREA);
  if (blur_mm > 0) cv::GaussianBlur(d.gray, d.gray, {0, 0}, blur_mm / kMmPerPx);
  cv::Mat n(d.gray.size(), CV_32F);
  cv::RNG rng(7);
  rng.fill(n, cv::RNG::NORMAL, 0.0, noise);
  d.gray += n;
  d.top_px = top;
  d.dot_px = dot;
  return d;
}

TEST(ShellDotTest, AnOffCentreDotIsFoundUnderModerateBlur) {
  for (const double blur_mm : {0.8, 1.2}) {
    SCOPED_TRACE(blur_mm);
    const Drawn d = DrawShellTop({1.6, -1.1}, true, blur_mm, 4.0);
    const ShellDotMatch m = MatchShellDot(d.gray, d.top_px, kMmPerPx, 3.0);
    ASSERT_TRUE(m.found) << "t " << m.t << " contrast " << m.contrast << " darkening "
                         << m.darkening << " blur " << m.blur_mm;
    // Within a third of a mm of the dot, where the top's centre is 1.9 mm away.
    EXPECT_LT(cv::norm(m.centre_px - d.dot_px) * kMmPerPx, 0.33);
  }
}

TEST(ShellDotTest, ATopWithoutADotHasNone) {
  for (const double blur_mm : {0.8, 1.6}) {
    SCOPED_TRACE(blur_mm);
    const Drawn d = DrawShellTop({0, 0}, false, blur_mm, 4.0);
    const ShellDotMatch m = MatchShellDot(d.gray, d.top_px, kMmPerPx, 3.0);
    EXPECT_FALSE(m.found) << "t " << m.t << " contrast " << m.contrast << " darkening "
                          << m.darkening << " blur " << m.blur_mm;
  }
}

TEST(ShellDotTest, ADotBlurredWiderThanItselfIsNotPlaced) {
  // Under a 2.5 mm blur the dot is a shallow dip over most of the top: not placed.
  const Drawn d = DrawShellTop({1.6, -1.1}, true, 2.5, 4.0);
  const ShellDotMatch m = MatchShellDot(d.gray, d.top_px, kMmPerPx, 3.0);
  EXPECT_FALSE(m.found) << "t " << m.t << " contrast " << m.contrast << " darkening " << m.darkening
                        << " blur " << m.blur_mm;
}

}  // namespace
}  // namespace referee::shell_dot_test
