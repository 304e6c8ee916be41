// How soft this frame is, measured where the answer is known: across the outer edges of the
// bases already found (a base's top against the mat is a step edge). The 10-90 % rise width of
// the colour profile across an edge is the blur's extent there: defocus, motion blur and the
// top view's resampling together. Bases blurred as wide as their border (3 mm) melt into a
// filled patch; vision/filled_base_fit.hpp allows for that much spread past their edges.
#pragma once

#include <vector>

#include <opencv2/core.hpp>

#include "vision/px_rect.hpp"

namespace referee {

// Median 10-90 % rise width, mm, of the colour step across the sides of `bases` (top-view
// rectangles) in top_bgr (the top view, BGR); 0 when fewer than 8 profiles have contrast.
// mm_per_px: top-view scale.
double EdgeBlurMm(const cv::Mat& top_bgr, const std::vector<PxRect>& bases, double mm_per_px);

}  // namespace referee
