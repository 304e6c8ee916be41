#include "vision/changed_base_fits.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "engine/geometry.hpp"
#include "vision/blurred_ring_fit.hpp"
#include "vision/table_change.hpp"

namespace referee {

namespace {

// The catalogue size and pose near r whose blurred band explains dep best (each size both
// ways round, turned a little either way).
PxRect BestCatalogueRingNear(const cv::Mat& dep, const PxRect& r, double mm,
                             const std::vector<BaseSize>& sizes, double blur_mm, double border_mm,
                             int reach_px) {
  const std::vector<double> turns{DegToRad(-4.0), DegToRad(-2.0), 0.0, DegToRad(2.0),
                                  DegToRad(4.0)};
  PxRect best = r;
  double best_rho = -2;
  for (const BaseSize& size : sizes) {
    for (const bool across : {false, true}) {
      PxRect start = r;
      start.len_a = size.width_mm / mm;
      start.len_b = size.depth_mm / mm;
      if (across) start.axis_a = r.AxisB();
      const auto [pose, score] =
          BestBlurredRingNear(dep, start, mm, blur_mm, border_mm, reach_px, turns);
      if (score.rho > best_rho) {  // the pose keeps start's size
        best_rho = score.rho;
        best = pose;
      }
    }
  }
  return best;
}

}  // namespace

void AddChangedRingFits(const std::vector<cv::Mat>& evidence, const cv::Mat& chroma,
                        const cv::Mat& valid, const cv::Vec2f& mat_chroma,
                        const std::vector<SideColor>& sides, const cv::Mat& change, double mm,
                        const std::vector<BaseSize>& sizes, double blur_mm, double border_mm,
                        const ChangedFitOptions& options, std::vector<std::vector<PxRect>>& rects) {
  const int reach_px = std::max(1, static_cast<int>(std::lround(options.centre_search_mm / mm)));
  for (size_t s = 0; s < evidence.size() && s < sides.size() && s < rects.size(); ++s) {
    std::vector<std::pair<double, PxRect>> fits;
    for (const RingFit& f :
         FitBasesToBorderEvidence(evidence[s] & change, mm, sizes, options.ring)) {
      fits.emplace_back(ChangedShare(change, f.rect), f.rect);
    }
    if (fits.empty()) continue;
    std::stable_sort(fits.begin(), fits.end(),
                     [](const auto& x, const auto& y) { return x.first > y.first; });
    const cv::Mat dep = DepartureToward(chroma, valid, mat_chroma, cv::Vec2f(sides[s].mean));
    std::vector<PxRect> kept;
    for (const auto& share_fit : fits) {
      const PxRect& fit = share_fit.second;  // not a structured binding: the lambda captures it
      if (std::any_of(kept.begin(), kept.end(),
                      [&](const PxRect& k) { return OverlapTooMuch(fit, k); })) {
        continue;
      }
      kept.push_back(fit);
      rects[s].push_back(BestCatalogueRingNear(dep, fit, mm, sizes, blur_mm, border_mm, reach_px));
    }
  }
}

}  // namespace referee
