#include "vision/catalogue_extension.hpp"

#include <cmath>
#include <utility>

namespace referee {

std::vector<CatalogueExtension> CatalogueExtensions(const PxRect& r, double mm,
                                                    const std::vector<BaseSize>& sizes, double tol,
                                                    double min_ext_mm, double max_ext_mm) {
  std::vector<CatalogueExtension> out;
  const double len_mm[2] = {r.len_a * mm, r.len_b * mm};
  for (int keep = 0; keep < 2; ++keep) {  // keep axis a (grow along b) or keep axis b
    const double kept = len_mm[keep], other = len_mm[1 - keep];
    const cv::Point2d g = keep == 0 ? r.AxisB() : r.axis_a;
    for (const BaseSize& sz : sizes) {
      for (const auto& [target_kept, target_other] :
           {std::pair{sz.width_mm, sz.depth_mm}, std::pair{sz.depth_mm, sz.width_mm}}) {
        const double ext_mm = target_other - other;
        if (std::abs(kept - target_kept) > tol || ext_mm < min_ext_mm || ext_mm > max_ext_mm) {
          continue;
        }
        const double ext_px = ext_mm / mm;
        for (const int sign : {-1, 1}) {
          CatalogueExtension e{r, r, (keep == 0 ? 2 : 0) + (sign > 0 ? 1 : 0), keep == 0 ? 0 : 2};
          e.grown.center += sign * 0.5 * ext_px * g;
          (keep == 0 ? e.grown.len_b : e.grown.len_a) = target_other / mm;
          e.added.center += sign * 0.5 * (other / mm + ext_px) * g;
          (keep == 0 ? e.added.len_b : e.added.len_a) = ext_px;
          out.push_back(e);
        }
      }
    }
  }
  return out;
}

}  // namespace referee
