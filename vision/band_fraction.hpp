// How much of a band along a base's outline a mask covers: the border tests of the stand
// detector.
#pragma once

#include <opencv2/core.hpp>

#include "vision/px_rect.hpp"

namespace referee {

// Fraction of pixels set in `mask` inside the band of the rectangle between depth d0 and d1
// (px, measured inward from the edge); side = -1 all four sides, else 0..3 (-a, +a, -b, +b)
// keeping only the middle `middle` fraction of the side's length.
double BandFraction(const cv::Mat& mask, const PxRect& r, double d0, double d1, int side,
                    double middle = 1.0);

// Side-colour coverage of the border band: the mean of the three best sides, since a white
// front stripe may cover the fourth.
double BorderCoverage(const cv::Mat& side_mask, const PxRect& r, double band_px);

}  // namespace referee
