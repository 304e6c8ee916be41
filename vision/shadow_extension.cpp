#include "vision/shadow_extension.hpp"

#include <algorithm>

#include "vision/band_fraction.hpp"
#include "vision/catalogue_extension.hpp"

namespace referee {

void ExtendIntoShadow(PxRect& r, size_t s, const cv::Mat& plain_mask,
                      const std::function<const cv::Mat&()>& shadow_mask, double mm,
                      const std::vector<BaseSize>& sizes, const StandDetectorOptions& options,
                      const OutlineProbe& probe, const std::vector<std::vector<PxRect>>& rects,
                      const PxRect* self) {
  const double tol = options.size_tolerance_mm;
  // Under half the narrowest border short: edge placement, RefineEdges' job.
  const double min_ext_mm = 0.5 * options.min_border_mm;
  // A lit border along the side: the top ends there (the blob reached the border's outer edge).
  constexpr double kMaxLitEnd = 0.5;
  // A third of the far border: the figures leaning over it (as the tilted camera sees them)
  // and the shadow's blur may hide the rest; a flank must still continue a lit one.
  constexpr double kMinFarBorder = 0.35;
  constexpr double kMaxBeyond = 0.15;  // as GrowShortBases: the mat beyond shows no side colour
  PxRect best = r;
  double best_score = -1;
  for (const CatalogueExtension& e : CatalogueExtensions(r, mm, sizes, tol, min_ext_mm, tol)) {
    const int far = e.far, flank0 = e.flank0;
    if (probe.Colour(plain_mask, r, far) > kMaxLitEnd) continue;
    const cv::Mat& shadowed = shadow_mask();
    const double far_in = probe.Colour(shadowed, e.grown, far);
    const double flank_in = std::max(probe.Colour(shadowed, e.added, flank0),
                                     probe.Colour(shadowed, e.added, flank0 + 1));
    double beyond = BandFraction(shadowed, e.added, -probe.gap1, -probe.gap0, far, 0.8);
    for (const int f : {flank0, flank0 + 1}) {
      beyond = std::max(beyond, BandFraction(shadowed, e.added, -probe.gap1, -probe.gap0, f, 0.8));
    }
    if (far_in < kMinFarBorder || flank_in < options.min_border_coverage || beyond > kMaxBeyond ||
        OverlapsAnother(e.grown, s, rects, self)) {
      continue;
    }
    const double score = far_in + flank_in - beyond;
    if (score > best_score) best_score = score, best = e.grown;
  }
  r = best;
}

}  // namespace referee
