// Pixel checks on window screenshots (--screenshot-dir PNGs): is a colour drawn, and near where.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

namespace referee::testing {

// Pixels of roughly this colour (`tol` per channel) in `bgr`.
inline int CountColour(const cv::Mat& bgr, std::array<int, 3> rgb, int tol) {
  cv::Mat mask;
  cv::inRange(
      bgr,
      cv::Scalar(std::max(0, rgb[2] - tol), std::max(0, rgb[1] - tol), std::max(0, rgb[0] - tol)),
      cv::Scalar(std::min(255, rgb[2] + tol), std::min(255, rgb[1] + tol),
                 std::min(255, rgb[0] + tol)),
      mask);
  return cv::countNonZero(mask);
}

// That colour within `radius` px of (x, y).
inline bool ColourNear(const cv::Mat& bgr, double x, double y, int radius, std::array<int, 3> rgb,
                       int tol) {
  const cv::Rect r(static_cast<int>(std::lround(x)) - radius,
                   static_cast<int>(std::lround(y)) - radius, 2 * radius + 1, 2 * radius + 1);
  const cv::Rect in = r & cv::Rect(0, 0, bgr.cols, bgr.rows);
  return in.area() > 0 && CountColour(bgr(in), rgb, tol) > 0;
}

}  // namespace referee::testing
