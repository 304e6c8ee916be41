#include "vision/untold_side.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "vision/band_fraction.hpp"

namespace referee {

std::vector<PxRect> SizesAnUntoldSideLeavesOpen(const PxRect& r, const cv::Mat& evidence,
                                                const cv::Point2d& front_out, double band_px,
                                                const std::vector<BaseSize>& sizes,
                                                double mm_per_px, double tolerance_px,
                                                const std::vector<const PxRect*>& others,
                                                const UntoldSideOptions& options) {
  std::vector<PxRect> open;
  if (evidence.empty()) return open;
  // How much of each side's border band (the middle 90 % of its length) shows its colour;
  // a white front stripe painted over the border marks that edge as well as the colour does.
  const std::array<cv::Point2d, 4> out{-r.axis_a, r.axis_a, -r.AxisB(), r.AxisB()};
  std::array<double, 4> shows{};
  for (size_t side = 0; side < shows.size(); ++side) {
    shows[side] = out[side].dot(front_out) > 0.7
                      ? 1.0
                      : BandFraction(evidence, r, 0.5, band_px, static_cast<int>(side), 0.9);
  }
  for (size_t axis = 0; axis < 2; ++axis) {
    const double lo = shows[2 * axis];
    const double hi = shows[2 * axis + 1];
    if (std::min(lo, hi) >= options.max_untold_fraction ||
        std::max(lo, hi) < options.min_told_fraction) {
      continue;
    }
    // From the centre toward the told side.
    const cv::Point2d dir = (axis == 0 ? r.axis_a : r.AxisB()) * (hi > lo ? 1.0 : -1.0);
    const double along = axis == 0 ? r.len_a : r.len_b;
    const double across = axis == 0 ? r.len_b : r.len_a;
    const cv::Point2d told_edge = r.center + 0.5 * along * dir;
    for (const BaseSize& size : sizes) {
      for (const bool turned : {false, true}) {
        const double l_along = (turned ? size.depth_mm : size.width_mm) / mm_per_px;
        const double l_across = (turned ? size.width_mm : size.depth_mm) / mm_per_px;
        if (std::abs(l_across - across) > tolerance_px ||
            std::abs(l_along - along) <= tolerance_px) {
          continue;
        }
        PxRect o;
        o.center = told_edge - 0.5 * l_along * dir;
        o.axis_a = r.axis_a;
        o.len_a = axis == 0 ? l_along : l_across;
        o.len_b = axis == 0 ? l_across : l_along;
        const bool known = std::any_of(open.begin(), open.end(), [&](const PxRect& k) {
          return std::abs(k.len_a - o.len_a) < 1 && std::abs(k.len_b - o.len_b) < 1;
        });
        const bool overlaps = std::any_of(others.begin(), others.end(),
                                          [&](const PxRect* k) { return OverlapTooMuch(o, *k); });
        if (!known && !overlaps) open.push_back(o);
      }
    }
  }
  return open;
}

}  // namespace referee
