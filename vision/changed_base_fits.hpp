// Bases fitted where the table changed since it was seen empty. With the empty table's view,
// paper, roads, roofs and water of a side's colour drop out of the border evidence (they lay
// there already), so a ring may be fitted on less of its border than the ring fit without that
// view dares (a blurred or washed-out border, figures leaning over it). Each fit is then placed
// where the blurred band of a catalogue base explains the side's colour best: the ring fit on a
// part of a border can find the right place with the wrong size or turned a quarter.
#pragma once

#include <vector>

#include <opencv2/core.hpp>

#include "vision/base_ring_fit.hpp"
#include "vision/px_rect.hpp"
#include "vision/side_color_model.hpp"

namespace referee {

struct ChangedFitOptions {
  // The ring fit's thresholds on the changed evidence (see RingFitOptions). Defaults: a ring
  // 30 % shown, sides meeting at a corner 40 %, up to 30 % of the band outside showing the colour
  // (another stand or its figures close by: unchanged terrain is gone from the evidence).
  RingFitOptions ring = [] {
    RingFitOptions r;
    r.min_ring_fraction = 0.3;
    r.min_corner_sides = 0.4;
    r.max_outside_fraction = 0.3;
    return r;
  }();
  // The pose search around each fit: centre moved up to this far each way. Default 8 mm (a fit
  // on a part of a border lies within half a base's depth of it).
  double centre_search_mm = 8.0;
};

// Adds to rects (per side, as sides) the bases fitted on each side's border evidence
// (CV_8U, see LeftoverEvidence) where change (CV_8U, see TableChange) shows the table changed.
// Where fits overlap, the one whose top changed most is kept. chroma, valid, mat_chroma: the
// view as BalancedChroma gives it. blur_mm: the frame's edge blur (see vision/edge_blur.hpp);
// border_mm: the narrowest border (TABLE_KIT: 3 mm).
void AddChangedRingFits(const std::vector<cv::Mat>& evidence, const cv::Mat& chroma,
                        const cv::Mat& valid, const cv::Vec2f& mat_chroma,
                        const std::vector<SideColor>& sides, const cv::Mat& change, double mm,
                        const std::vector<BaseSize>& sizes, double blur_mm, double border_mm,
                        const ChangedFitOptions& options, std::vector<std::vector<PxRect>>& rects);

}  // namespace referee
