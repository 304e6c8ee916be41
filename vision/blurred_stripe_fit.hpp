// A front stripe under a blur wider than the stripe itself (TABLE_KIT: white, 2-3 mm, along the
// front edge, on the border or just inside it): its peak is flattened and spread over twice its
// width, so windows the stripe's own width with flanks beside them read the stripe's spread as
// its flanks. Instead the profile across each edge, relative to the base's other edges at the
// same depth (same border, lamp and lens), is fitted with the one shape a stripe leaves: a box
// of the painted width, blurred by the frame's measured blur. A stripe explains most of its
// edge's profile with a large gain; the other edges, pale figures at varying depths and an
// outline off by a millimetre, leave shapes the blurred box does not fit.
#pragma once

#include <array>

#include <opencv2/core.hpp>

#include "vision/px_rect.hpp"

namespace referee {

struct BlurredStripeOptions {
  // Painted stripe width, mm (TABLE_KIT: 2-3).
  double min_stripe_mm = 2.0;
  double max_stripe_mm = 3.0;
  // Where the stripe may start, mm in from the edge: on the border (TABLE_KIT: at least 3 mm
  // wide) or just inside it; an outline a millimetre off shifts it either way.
  double min_stripe_depth_mm = 1.5;
  double max_stripe_depth_mm = 7.0;
  // The fit is asked only from this blur on (10-90 % rise, mm): wider than the narrowest stripe,
  // where its blurred peak no longer has flanks of its own within the stripe's width. Default 2.
  double min_blur_mm = 2.0;
  // A side carries the stripe when its box is at least this high: 0.6 of a pale border's white
  // over a side colour in strong light (vision/front_stripe.hpp: unblurred_contrast 0.5 and
  // min_contrast_fraction 0.6). Default 0.3.
  double min_gain = 0.3;
  // ... explains at least this fraction of its edge's profile over the other edges (figures
  // at varying depths leave shapes a blurred box does not follow). Default 0.6.
  double min_explained = 0.6;
  // ... is at least half as high in this fraction of the stretches along the edge (a stripe
  // runs the whole edge; a rank of figures leaves gaps). Default 0.85 (7 of 8).
  double min_along = 0.85;
  // ... and every other edge's box is at most this fraction of its height. Default 0.5.
  double max_other_gain_fraction = 0.5;
  // ... and past the box's far edge (by 1.5 sigma of the blur) the profile has fallen back to
  // at most this fraction of its height before the base's middle: a pale figure or flock
  // filling the base from the edge in rises like a stripe and never falls. Where the middle
  // comes first (a deep stripe on a shallow base) no facing is read. Default 0.5.
  double max_tail_fraction = 0.5;
};

// Per side of r (-a, +a, -b, +b, as PxRect's axes), the best blurred-box fit of that edge's
// profile against the other edges.
struct BlurredStripeFit {
  // Fitted box height: the unblurred stripe's darkest channel over the other edges' at the same
  // depth, as a fraction of the border's brightest channel; 0 when nothing fits.
  std::array<double, 4> gain{};
  // Fraction of the edge's profile (sum of squares over the other edges) the fit explains.
  std::array<double, 4> explained{};
  // Mean of the profile past the box's far edge by 1.5 sigma of the blur, as a fraction of the
  // box's height (1 when fewer than two bins lie there before the base's middle).
  std::array<double, 4> tail{};
  // Fraction of the stretches along the edge whose own box height, at the fitted depth and
  // width, reaches half the whole edge's.
  std::array<double, 4> along{};
  // Is the fitted band at least as bright as the other edges at its depth in every channel?
  std::array<bool, 4> white{};
  // Fitted start of the box, mm in from the edge.
  std::array<double, 4> depth_mm{};
};

// The side (0..3) carrying a front stripe by the fit, or -1: the highest box among `allowed`
// (the width edges; all four on a square base) when it passes the options' tests and was found
// strictly inside the depths searched (a fit pinned at the search's limit wants a band that is
// not where a stripe is painted: a figure further in, or the mat's edge).
int BlurredStripeSide(const BlurredStripeFit& fit, const std::array<bool, 4>& allowed,
                      const BlurredStripeOptions& options = {});

// Does the fit read, on an edge other than `side`, a white band at a stripe's depth (strictly
// inside the depths searched) along the whole edge (options.min_along), at least
// options.min_gain and at least as high as `side`'s own box? A second such band leaves the
// stripe's edge untold (only one edge is painted, and none but a width edge can be): a side
// picked from the other edges by another test is then not taken for the front.
bool AnotherEdgeBandAsHigh(const BlurredStripeFit& fit, int side,
                           const BlurredStripeOptions& options = {});

// img: the top view, BGR; mm_per_px: its scale; blur_mm: the frame's 10-90 % edge rise width.
BlurredStripeFit FitBlurredStripes(const cv::Mat& img, const PxRect& r, double mm_per_px,
                                   double blur_mm, const BlurredStripeOptions& options = {});

}  // namespace referee
