// A base found short of its catalogue size under a blur wider than its border, grown on the
// blurred band: see GrowShortBasesOnBlurredBand.
#pragma once

#include <vector>

#include <opencv2/core.hpp>

#include "vision/px_rect.hpp"
#include "vision/side_color_model.hpp"

namespace referee {

// A base found short of its catalogue size under a blur wider than its border, grown on the
// blurred band (GrowShortBasesOnBlurredBand).
struct BlurredGrowthOptions {
  // Default on; turn off only to measure what it adds.
  bool enabled = true;
  // The grown base's blurred-ring correlation must exceed the short one's by this much.
  // Default 0.1: the halves grown on `hard` seeds 101 and 113 gained 0.27-0.57; a supply
  // wagon whose model hides most of its band (seed 31 scene 7) gains 0.05 and stays short.
  double min_rho_gain = 0.1;
  // Each side's band gain at least this fraction of the whole ring's, except any one side (for
  // the side the tallest figures may be seen past; which side that is is not checked), which
  // needs min_weak_side_gain_fraction.
  // Defaults 0.5 and 0.25, as the blurred ring fit's (BlurredRingOptions::
  // min_side_gain_fraction and min_far_side_gain_fraction).
  double min_side_gain_fraction = 0.5;
  double min_weak_side_gain_fraction = 0.25;
  // The line where the short base ended may depart at most this fraction of the grown band's
  // median: two touching bases' borders there read as a band. Default 0.5: two blurred
  // touching 40 x 20 mm bases read 1.44 of it, the halves grown on `hard` 0.14-0.25.
  double max_seam_fraction = 0.5;
  // The grown pose is searched this far around the catalogue extension, mm (1 px steps, and
  // turned by up to 4 degrees). Default 3: the half's outline is the blob's, not the base's.
  double centre_search_mm = 3.0;
};

// A base found short of its catalogue size on a frame whose blur is wider than its border: the
// colour masks GrowShortBases reads lose the blurred border of the part beyond the figures (a
// 40 x 40 mm base read as the 40 x 20 mm half its figures end). On the departure toward the
// side's colour the whole base's blurred ring explains the band better than the half's, whose
// inner side runs across figures. Grown to a larger catalogue size sharing one of its sides
// (its pose searched around the extension) when that ring correlates with the band by
// min_rho_gain more, shows the band along every side (one side, where the tallest figures may
// be seen past it, more weakly), covers no other base, and the line where the smaller base
// ended is no seam (two touching bases' borders read as a band of the colour all along it).
// chroma, valid, mat_chroma: the top view's balanced chroma (see BalancedChroma); sides: the
// side colours, in rects' order; mm: mm per top-view px; border_mm: the thinnest border;
// blur_mm: the frame's edge rise (EdgeBlurMm). See BlurredGrowthOptions.
void GrowShortBasesOnBlurredBand(const cv::Mat& chroma, const cv::Mat& valid,
                                 const cv::Vec2f& mat_chroma, const std::vector<SideColor>& sides,
                                 double mm, const std::vector<BaseSize>& sizes,
                                 double size_tolerance_mm, double border_mm, double blur_mm,
                                 const BlurredGrowthOptions& options,
                                 std::vector<std::vector<PxRect>>& rects);

}  // namespace referee
