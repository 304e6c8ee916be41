#include "vision/duplicate_bases.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace referee {

void DropDuplicates(std::vector<std::vector<PxRect>>& rects) {
  for (auto& side_rects : rects) {
    std::vector<PxRect> kept;
    for (const PxRect& r : side_rects) {
      if (std::none_of(kept.begin(), kept.end(),
                       [&](const PxRect& k) { return OverlapTooMuch(r, k); })) {
        kept.push_back(r);
      }
    }
    side_rects = std::move(kept);
  }
}

void DropFiguresOfAnotherSide(std::vector<std::vector<PxRect>>& rects, double border_px) {
  const auto figures_on = [border_px](const PxRect& r, const PxRect& o) {
    if (o.len_a * o.len_b <= r.len_a * r.len_b) return false;
    if (OverlapAreaPx(r, o) <= 0.5 * r.len_a * r.len_b) return false;
    const cv::Point2d d = r.center - o.center;
    return std::abs(d.dot(o.axis_a)) < 0.5 * o.len_a - border_px &&
           std::abs(d.dot(o.AxisB())) < 0.5 * o.len_b - border_px;
  };
  std::vector<std::vector<PxRect>> kept(rects.size());
  for (size_t s = 0; s < rects.size(); ++s) {
    for (const PxRect& r : rects[s]) {
      bool figures = false;
      for (size_t t = 0; t < rects.size() && !figures; ++t) {
        if (t == s) continue;
        figures = std::any_of(rects[t].begin(), rects[t].end(),
                              [&](const PxRect& o) { return figures_on(r, o); });
      }
      if (!figures) kept[s].push_back(r);
    }
  }
  rects = std::move(kept);
}

}  // namespace referee
