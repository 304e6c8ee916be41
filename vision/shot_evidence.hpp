// The picture that justifies a ruling: the rectified impact region with the hit circle, every
// stand within the report radius outlined with its distance (mm and inches) and margin, and
// the before/after crops side by side. Used by `referee adjudicate --evidence`, the overlay
// and the game log.
#pragma once

#include <opencv2/core.hpp>

#include "engine/verdict.hpp"
#include "vision/shot_analysis.hpp"

namespace referee {

struct EvidenceOptions {
  // Half-size of the region shown around the impact, inches. Default 2.5 (covers the 1.5"
  // report radius with room for the bases). Raise to show more context.
  double half_size_in = 2.5;
  // Scale of the drawing, px per inch. Default 80.
  double px_per_inch = 80.0;
};

cv::Mat DrawShotEvidence(const TopView& view, const ShotAnalysis& analysis, const Verdict& verdict,
                         const EvidenceOptions& options = {});

}  // namespace referee
