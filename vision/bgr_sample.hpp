// A colour read between pixels: edge profiles across base borders are sampled at sub-pixel steps.
#pragma once

#include <opencv2/core.hpp>

namespace referee {

// Bilinear BGR of `bgr` (CV_8UC3) at p (pixel coordinates); {-1, -1, -1} when p is not inside
// the image with a neighbour to its right and below.
cv::Vec3f SampleBgr(const cv::Mat& bgr, cv::Point2d p);

}  // namespace referee
