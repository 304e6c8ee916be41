// The pixels of a base's outline band, each told which edge of the rectangle it is nearest
// to, how deep inside that edge it lies and where along it: the one walk the front-stripe
// tests make to build their profiles across the four edges.
#pragma once

#include <algorithm>
#include <cmath>

#include <opencv2/core.hpp>

#include "vision/px_rect.hpp"

namespace referee {

// Calls visit(side, depth_mm, along, bgr) for every pixel of img (CV_8UC3) between outside_mm
// past r's edges and reach_mm inside them. side 0..3 follows PxRect's outward normals
// (-axis_a, +axis_a, -axis_b, +axis_b); depth_mm is inward from that edge; along is the
// position along it, -1..1 from one end to the other.
template <typename Visit>
void ForEachEdgeBandPixel(const cv::Mat& img, const PxRect& r, double mm_per_px, double outside_mm,
                          double reach_mm, Visit&& visit) {
  const cv::Point2d b = r.AxisB();
  const double ha = 0.5 * r.len_a, hb = 0.5 * r.len_b, out_px = outside_mm / mm_per_px;
  const double reach = std::hypot(ha, hb) + out_px + 1;
  const int x0 = std::max(0, static_cast<int>(r.center.x - reach));
  const int x1 = std::min(img.cols - 1, static_cast<int>(r.center.x + reach));
  const int y0 = std::max(0, static_cast<int>(r.center.y - reach));
  const int y1 = std::min(img.rows - 1, static_cast<int>(r.center.y + reach));
  for (int y = y0; y <= y1; ++y) {
    const auto* row = img.ptr<cv::Vec3b>(y);
    for (int x = x0; x <= x1; ++x) {
      const cv::Point2d d = cv::Point2d(x, y) - r.center;
      const double u = d.dot(r.axis_a), v = d.dot(b);
      const double dist[4] = {u + ha, ha - u, v + hb, hb - v};
      int side = 0;
      for (int k = 1; k < 4; ++k) side = dist[k] < dist[side] ? k : side;
      const double depth_mm = dist[side] * mm_per_px;
      if (depth_mm < -outside_mm || depth_mm >= reach_mm) continue;
      visit(side, depth_mm, side < 2 ? v / hb : u / ha, row[x]);
    }
  }
}

}  // namespace referee
