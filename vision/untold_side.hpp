// A base whose border shows along one side of an axis and nowhere along the opposite side
// (tall figures lean over its far edge through a tilted camera, or blur and shade take that
// edge) is measured along that axis only by where its flanks' border ends, which blur spreads
// and figures cut short: its size there is a guess among the catalogue's sizes. Measured with
// `referee bench stands` on 88 generated scenes (s55: `hard` seeds 5, 331, 347 and 353,
// napoleonic 5, ancient 5): of the bases found with such a side, and another catalogue size
// along it, 23 of 67 had the wrong size; of the other bases, 20 of 1568. A wrong size moves the
// hidden edge 10-20 mm, enough to turn a near miss into a hit. The sizes left open, each placed
// against the side that shows, go to the players to confirm where the size decides a ruling.
#pragma once

#include <vector>

#include <opencv2/core.hpp>

#include "vision/px_rect.hpp"

namespace referee {

struct UntoldSideOptions {
  // A side is untold when under this fraction of its border band (3 mm deep, the middle 90 %
  // of its length) shows the side's colour evidence. Default 0.25: on the scenes above 0.3
  // flagged 20 more bases sized right for one more sized wrong, the band's middle 70 % 32 more
  // for none.
  double max_untold_fraction = 0.25;
  // ... while the side opposite is told: at least this fraction. Default 0.5.
  double min_told_fraction = 0.5;
};

// The catalogue sizes a base found as `r` (top-view px) leaves open: for each axis with one
// side untold and the other told (bands `band_px` deep in `evidence`, CV_8U; the side whose
// outward direction is `front_out`, a read front stripe's, or none when zero, is told), each
// size whose length across that axis is r's (within tolerance_px) and whose length along it is
// not, its told edge on r's and its other edge moved, where it overlaps none of `others`
// (the other bases found; bases do not overlap). Empty when every side of r shows its border.
std::vector<PxRect> SizesAnUntoldSideLeavesOpen(const PxRect& r, const cv::Mat& evidence,
                                                const cv::Point2d& front_out, double band_px,
                                                const std::vector<BaseSize>& sizes,
                                                double mm_per_px, double tolerance_px,
                                                const std::vector<const PxRect*>& others,
                                                const UntoldSideOptions& options = {});

}  // namespace referee
