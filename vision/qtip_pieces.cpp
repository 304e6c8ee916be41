#include "vision/qtip_pieces.hpp"

#include <algorithm>

namespace referee {

std::vector<size_t> PiecesAlongAQtip(const std::vector<ChangeBlob>& blobs,
                                     const ProjectileOptions& opt, double mm_per_px) {
  constexpr size_t kMaxRegions = 8;  // more pieces than that is not one broken stick
  const size_t n = blobs.size();
  if (n < 2 || n > kMaxRegions) return {};
  std::vector<size_t> best;
  double best_area = 0;
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = i + 1; j < n; ++j) {
      if (blobs[i].cut_off || blobs[j].cut_off) continue;
      std::vector<cv::Point> both = blobs[i].pts;
      both.insert(both.end(), blobs[j].pts.begin(), blobs[j].pts.end());
      const LineFit line = FitLine(both, mm_per_px);
      const bool fits = line.width_mm <= 2.0 * opt.qtip_head_diameter_mm &&
                        line.length_mm >= 0.6 * opt.qtip_length_mm &&
                        line.length_mm <= (1 + opt.size_tolerance) * opt.qtip_length_mm;
      if (!fits) continue;
      // Other regions on the segment between them belong to it too.
      const cv::Point2d ab = line.b - line.a;
      const double ab2 = std::max(1e-9, ab.dot(ab));
      const double reach_px = opt.qtip_head_diameter_mm / mm_per_px;
      std::vector<size_t> on{i, j};
      double area = blobs[i].area_mm2 + blobs[j].area_mm2;
      for (size_t k = 0; k < n; ++k) {
        if (k == i || k == j || blobs[k].cut_off) continue;
        int near = 0;
        for (const cv::Point& p : blobs[k].pts) {
          const double t = (cv::Point2d(p) - line.a).dot(ab) / ab2;
          near += t >= 0 && t <= 1 && cv::norm(cv::Point2d(p) - (line.a + t * ab)) <= reach_px;
        }
        if (near >= 0.8 * static_cast<double>(blobs[k].pts.size())) {
          on.push_back(k);
          area += blobs[k].area_mm2;
        }
      }
      if (on.size() > best.size() || (on.size() == best.size() && area > best_area)) {
        best = on;
        best_area = area;
      }
    }
  }
  std::sort(best.begin(), best.end());
  return best;
}

}  // namespace referee
