// The main direction of a set of pixels (a stick, a change region): the mean and the first
// principal component of their positions.
#pragma once

#include <vector>

#include <opencv2/core.hpp>

namespace referee {

struct PrincipalAxis {
  cv::Point2d centre;  // mean position, px
  cv::Point2d axis;    // unit vector along the largest spread
};

// `pts` must not be empty.
PrincipalAxis FitPrincipalAxis(const std::vector<cv::Point>& pts);

}  // namespace referee
