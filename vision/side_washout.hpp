// How this camera and light wash out a side's colour. A low-saturation camera, a warm or cold
// white balance or a bright lamp pulls a side's border colour part of the way toward the mat's,
// often past the Mahalanobis gate of a model sampled elsewhere or given as nominal sRGB: then
// one side's mask is nearly empty and its bases go missing all at once. The washout is
// measured on the frame itself: with a relaxed gate (any pixel lying in the side's hue
// direction from the mat), the strongest base-shaped rings are fitted; if several agree, the
// side's colour model is refitted from their border pixels.
#pragma once

#include <functional>
#include <vector>

#include <opencv2/core.hpp>

#include "vision/base_ring_fit.hpp"
#include "vision/px_rect.hpp"
#include "vision/side_color_model.hpp"

namespace referee {

struct WashoutOptions {
  // How far from the mat's chroma toward a side's nominal colour a border pixel may sit and
  // still count as evidence, 0..1. Default 0.15 (washed-out borders measured 0.3-0.4 of the
  // way); raise if shadows or roads cast toward a side colour give false candidates.
  double min_fraction = 0.15;
  // ... and how far off that line, as a fraction of the distance along it. Default 0.5.
  double cone = 0.5;
  // Base-shaped rings that must agree before a side is refitted. Default 3: one or two rings
  // may be a road crossing, a fence or figures; several base-sized rings of one hue are bases.
  int min_candidates = 3;
  // Fewer rings than that are still bases of a side with at least min_candidates bases found
  // when their border departs from the mat at least this share as far as the median of those
  // bases' borders (RingDeparture; one camera washes a side's borders alike), and their inside
  // at most max_inside_to_border as far as their border. Default 0.7.
  double lone_ring_min_share = 0.7;
  // A patch the washed classes find filled with the side's washed hue (AddFrameWashoutBases
  // leaves it out: paper, water and pale terrain are such patches) is still a base of a side
  // with at least min_candidates bases found when its border departs as a lone ring's must and
  // its inside is figures: the brightness (largest channel) of its inside spreads, from its
  // 10th to its 90th percentile, at least this share of its median. White and pale figures
  // lie on the line from a warm mat toward a washed blue as its border does, but are lit and
  // shaded; one paint is not. Default 0.25 (see AddWashedBasesWithFigures).
  double min_figure_brightness_spread = 0.25;
  // Ring fit for candidates: stricter than the partial-border pass, since nothing is hidden
  // here and a false candidate would move the colour model. Defaults: 0.6 of the ring, 0.5 of
  // each side at a corner, at most 0.15 of the outside band.
  double min_ring_fraction = 0.6;
  double min_corner_sides = 0.5;
  double max_outside_fraction = 0.15;
  // Washout of the whole frame (AddFrameWashoutBases): besides the model as given, each side is
  // tried moved this far from the mat toward its colour (1 = as given; see WashedToward).
  // Default {0.65, 0.4}: 3-5 mm borders seen by a webcam (defocus, motion blur, chroma
  // subsampling, low saturation) keep 0.25-0.6 of their colour's distance from the mat. Add a
  // lower factor for very soft cameras; empty turns the search off.
  std::vector<double> frame_factors{0.65, 0.4};
  // The frame's own washout, measured: the median departure from the mat toward their side's
  // colour (see RingDeparture) of the borders of every base found so far, of either side (one
  // camera washes both alike). When it lies below measured_below times the lowest of
  // frame_factors, one more pass classifies at the measured factor (on chroma smoothed over
  // 3x3 pixels: a border kept at a quarter of its colour is within pixel noise of the mat).
  // Default 0.8; 0 turns the measurement off.
  double measured_below = 0.8;
  // ... but never below this factor (a side at a tenth of its colour is the mat). Default 0.15.
  double min_measured_factor = 0.15;
  // Width of the border band measured, mm (TABLE_KIT: borders >= 3 mm). Default 3.
  double border_band_mm = 3.0;
  // A base the washed classes find whose inside shows the side's hue over more than
  // RingFitOptions::max_interior_fraction (a small base under blur: its border bleeds in) is
  // still a base when it is a ring in departure: its inside's median departure at most this
  // fraction of its border's. Paper, roads and pale terrain depart alike throughout (0.8-1.0).
  // Default 0.5; lower if pale terrain with dark specks becomes bases.
  double max_inside_to_border = 0.5;
};

// How far a rectangle's border band (from 1 px to border_px inside its edge) and its inside
// (deeper than depth_px) depart from the mat toward a side: the median of the pixels'
// projection on the line from mat_chroma to side_chroma (0 = the mat, 1 = the side's colour).
// inside is 0 when nothing lies that deep; n_border counts the band's valid pixels.
struct RingDeparture {
  double border = 0;
  double inside = 0;
  int n_border = 0;
};
RingDeparture MeasureRingDeparture(const cv::Mat& chroma, const cv::Mat& valid,
                                   const cv::Vec2f& mat_chroma, const cv::Vec2f& side_chroma,
                                   const PxRect& r, double border_px, double depth_px);

// The frame's washout factor from the bases found so far (rects, per side as in colors): the
// median of their borders' departures; 0 when fewer than 3 bases give one.
double MeasuredWashout(const cv::Mat& chroma, const cv::Mat& valid, const cv::Vec2f& mat_chroma,
                       const std::vector<SideColor>& sides,
                       const std::vector<std::vector<PxRect>>& rects, double border_px);

// The same over side s's bases alone, 0 when the side has fewer than min_bases of them.
double SideWashout(const cv::Mat& chroma, const cv::Mat& valid, const cv::Vec2f& mat_chroma,
                   const std::vector<SideColor>& sides,
                   const std::vector<std::vector<PxRect>>& rects, size_t s, int min_bases,
                   double border_px);

// Finds a side's bases in its colour mask: cleans the mask in place (what the detector keeps)
// and returns the bases.
using SideMaskDetector = std::function<std::vector<PxRect>(cv::Mat& side_mask)>;

// Bases of a frame that washes every side toward the mat (a soft or desaturating camera, low
// light): each side is classified again under each factor of options.frame_factors
// (WashedToward the mat, `colors` as given) and the bases that finds where no base of any side
// lies are added to rects. A washed colour is near neutral, so paper, roads and pale terrain
// pass it too: only bases whose inside (deeper than ring.interior_depth_mm) shows at most
// ring.max_interior_fraction of it (a ring around figures), or whose inside departs from the mat
// at most options.max_inside_to_border as far as its border (MeasureRingDeparture), are added.
// filled (optional) receives, per side, the base-shaped patches left out as not rings, where no
// base lay then (for AddWashedBasesWithFigures, once the other searches have had their look).
void AddFrameWashoutBases(const cv::Mat& chroma, const cv::Mat& valid, const cv::Vec2f& mat_chroma,
                          const SideColorModel& colors, const WashoutOptions& options,
                          const SideMaskDetector& detect, double mm_per_px,
                          const RingFitOptions& ring, std::vector<std::vector<PxRect>>& rects,
                          std::vector<std::vector<PxRect>>* filled = nullptr);

// The strongest base-shaped rings in `evidence` (CV_8U) under the stricter WashoutOptions
// ring gates.
std::vector<RingFit> WashoutCandidates(const cv::Mat& evidence, double mm_per_px,
                                       const std::vector<BaseSize>& sizes,
                                       const RingFitOptions& base_options,
                                       const WashoutOptions& options);

// The border band of each rect (from inset_px to inset_px + depth_px inside its edge), CV_8U,
// in an image of `size` whose top-left pixel is `origin` of the rects' frame.
cv::Mat BorderBand(cv::Size size, const std::vector<PxRect>& rects, double inset_px,
                   double depth_px, cv::Point origin = {});

// Depth of the band inside a border where its side's colour is sampled (from 1 px in): the
// border less a pixel each side of it, at least a pixel.
double RefitBandPx(double min_border_mm, double mm_per_px);

// Side s of `colors` refitted (SideColorModel::Refit) to the pixels of `mask` (CV_8U) in the
// border bands of rects (RefitBandPx deep, 1 px in), less `excluded` (CV_8U, may be empty),
// when there are at least min_pixels of them. Returns whether it was refitted.
bool RefitFromBorderBands(SideColorModel& colors, size_t s, const cv::Mat& chroma,
                          const std::vector<PxRect>& rects, double band_px, const cv::Mat& mask,
                          int min_pixels, const cv::Mat& excluded = cv::Mat());

}  // namespace referee
