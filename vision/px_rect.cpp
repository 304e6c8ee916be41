#include "vision/px_rect.hpp"

#include <utility>

namespace referee {

std::vector<cv::Point> GrownCorners(const PxRect& r, double grow_px) {
  const double ha = 0.5 * r.len_a + grow_px, hb = 0.5 * r.len_b + grow_px;
  const cv::Point2d b = r.AxisB();
  std::vector<cv::Point> poly;
  poly.reserve(4);
  for (const auto& [sa, sb] : {std::pair{-1, -1}, {1, -1}, {1, 1}, {-1, 1}}) {
    const cv::Point2d p = r.center + sa * ha * r.axis_a + sb * hb * b;
    poly.emplace_back(cvRound(p.x), cvRound(p.y));
  }
  return poly;
}

}  // namespace referee
