// How soft this frame is, measured where the answer is known: across the outer edges of the
// bases already found (a base's top against the mat is a step edge). What is read is how far
// the blur spreads a base's colour out past its found edge: from that edge (or from where the
// step first lies under 90 %, when that is further out) to where it lies under 10 %. For a
// Gaussian blur centred on the edge that is 1.28 sigma, half the 10-90 % rise width the callers'
// comments name it by (s43: a drawn edge of 1.5 mm rise reads 0.875 mm). Every bar of the stand
// search was set on this figure; the fits that model a blur from it (vision/blurred_ring_fit,
// vision/front_stripe, vision/blurred_stripe_fit) take it as the full rise, so model a blur
// about half the frame's. Reading the full rise instead, unchanged bars, moved `hard` 5 by -2
// bases, `hard` 7 by one false base and `hard` 5 at JPEG quality 80 by +4 bases: not changed
// without setting the bars again (README, "Not met yet"). Bases blurred as wide as their border (3
// mm) melt into a filled patch; vision/filled_base_fit.hpp allows for that much spread past their
// edges.
#pragma once

#include <vector>

#include <opencv2/core.hpp>

#include "vision/px_rect.hpp"

namespace referee {

// Median spread, mm, of the colour step past the sides of `bases` (top-view rectangles) in top_bgr
// (the top view, BGR), read on steps of at least 40 levels, or, where fewer than 8 are, on steps
// of at least 20 (a low-contrast camera); 0 when fewer than 8 profiles have that. mm_per_px:
// top-view scale.
double EdgeBlurMm(const cv::Mat& top_bgr, const std::vector<PxRect>& bases, double mm_per_px);

}  // namespace referee
