#include "vision/band_fraction.hpp"

#include <algorithm>
#include <cmath>

namespace referee {

double BandFraction(const cv::Mat& mask, const PxRect& r, double d0, double d1, int side,
                    double middle) {
  const cv::Point2d b = r.AxisB();
  const double ha = 0.5 * r.len_a, hb = 0.5 * r.len_b;
  const double reach = std::max(ha, hb) + 2 + std::max(0.0, -d0);
  const int x0 = std::max(0, static_cast<int>(r.center.x - reach));
  const int x1 = std::min(mask.cols - 1, static_cast<int>(r.center.x + reach));
  const int y0 = std::max(0, static_cast<int>(r.center.y - reach));
  const int y1 = std::min(mask.rows - 1, static_cast<int>(r.center.y + reach));
  int total = 0, set = 0;
  for (int y = y0; y <= y1; ++y) {
    for (int x = x0; x <= x1; ++x) {
      const cv::Point2d d = cv::Point2d(x, y) - r.center;
      const double u = d.dot(r.axis_a), v = d.dot(b);
      const double dist[4] = {u + ha, ha - u, v + hb, hb - v};
      // Outside the rectangle only the band beyond one side counts (d0 < 0).
      if (std::abs(u) > ha || std::abs(v) > hb) {
        if (d0 >= 0) continue;
        int outside = 0;
        for (double dd : dist) outside += dd < 0;
        if (outside != 1) continue;
      }
      bool in = false;
      for (int s = 0; s < 4; ++s) {
        if (side >= 0 && s != side) continue;
        if (dist[s] < d0 || dist[s] >= d1) continue;
        const double along = s < 2 ? std::abs(v) / hb : std::abs(u) / ha;
        if (along > middle) continue;
        in = true;
      }
      if (!in) continue;
      ++total;
      if (mask.at<uchar>(y, x)) ++set;
    }
  }
  return total > 0 ? static_cast<double>(set) / total : 0.0;
}

double BorderCoverage(const cv::Mat& side_mask, const PxRect& r, double band_px) {
  double f[4];
  for (int s = 0; s < 4; ++s) f[s] = BandFraction(side_mask, r, 0.5, band_px, s);
  std::sort(f, f + 4);
  return (f[1] + f[2] + f[3]) / 3.0;
}

}  // namespace referee
