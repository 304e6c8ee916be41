#include "vision/base_size_match.hpp"

#include <algorithm>
#include <cmath>

namespace referee {

double MatchError(double a_mm, double b_mm, const BaseSize& s, double tol) {
  const double e1 = std::max(std::abs(a_mm - s.width_mm), std::abs(b_mm - s.depth_mm));
  const double e2 = std::max(std::abs(a_mm - s.depth_mm), std::abs(b_mm - s.width_mm));
  const double e = std::min(e1, e2);
  return e <= tol ? e : -1.0;
}

bool IsCatalogueSize(const PxRect& r, double mm, const std::vector<BaseSize>& sizes, double tol) {
  return std::any_of(sizes.begin(), sizes.end(), [&](const BaseSize& s) {
    return MatchError(r.len_a * mm, r.len_b * mm, s, tol) >= 0;
  });
}

bool AIsWidth(double a_mm, double b_mm, const std::vector<BaseSize>& sizes) {
  bool a_is_width = a_mm >= b_mm;
  double best_e = 1e9;
  for (const auto& sz : sizes) {
    const double e1 = std::abs(a_mm - sz.width_mm) + std::abs(b_mm - sz.depth_mm);
    const double e2 = std::abs(b_mm - sz.width_mm) + std::abs(a_mm - sz.depth_mm);
    if (e1 < best_e) best_e = e1, a_is_width = true;
    if (e2 < best_e) best_e = e2, a_is_width = false;
  }
  return a_is_width;
}

}  // namespace referee
