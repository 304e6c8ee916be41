#include "vision/edge_blur.hpp"

#include <algorithm>
#include <cmath>

#include "vision/bgr_sample.hpp"

namespace referee {

double EdgeBlurMm(const cv::Mat& top_bgr, const std::vector<PxRect>& bases, double mm_per_px) {
  std::vector<double> widths_mm;
  // Profile from 4 mm inside the edge (the border, 3 mm, and the figures' edge) to 8 mm
  // outside (the mat past the side face and the shadow), every 0.25 px.
  const double in_px = 4.0 / mm_per_px, out_px = 8.0 / mm_per_px, step = 0.25;
  const int n = static_cast<int>((in_px + out_px) / step) + 1;
  std::vector<cv::Vec3f> prof(static_cast<size_t>(n));
  for (const PxRect& r : bases) {
    const cv::Point2d b = r.AxisB();
    const cv::Point2d normals[4] = {-r.axis_a, r.axis_a, -b, b};
    for (int side = 0; side < 4; ++side) {
      const cv::Point2d nrm = normals[side];
      const cv::Point2d t(-nrm.y, nrm.x);
      const double half_len = 0.5 * (side < 2 ? r.len_b : r.len_a);
      const double half_other = 0.5 * (side < 2 ? r.len_a : r.len_b);
      for (int k = -2; k <= 2; ++k) {
        const cv::Point2d edge = r.center + half_other * nrm + (0.25 * half_len * k) * t;
        bool inside_image = true;
        for (int i = 0; i < n && inside_image; ++i) {
          prof[static_cast<size_t>(i)] = SampleBgr(top_bgr, edge + (-in_px + i * step) * nrm);
          inside_image = prof[static_cast<size_t>(i)][0] >= 0;
        }
        if (!inside_image) continue;
        // Levels: the border (1-2 mm in) and the mat (6-8 mm out); each sample's place
        // between them along their difference.
        cv::Vec3f top(0, 0, 0), mat(0, 0, 0);
        int nt = 0, nm = 0;
        for (int i = 0; i < n; ++i) {
          const double d = -in_px + i * step;
          if (d >= -2.0 / mm_per_px && d <= -1.0 / mm_per_px)
            top += prof[static_cast<size_t>(i)], ++nt;
          if (d >= 6.0 / mm_per_px) mat += prof[static_cast<size_t>(i)], ++nm;
        }
        if (nt == 0 || nm == 0) continue;
        top *= 1.0f / static_cast<float>(nt);
        mat *= 1.0f / static_cast<float>(nm);
        const cv::Vec3f dir = top - mat;
        const double contrast2 = dir.dot(dir);
        if (contrast2 < 40.0 * 40.0) continue;
        // Going outward from the border level: the first fall below 90 %, then below 10 %.
        double at90 = -1, at10 = -1;
        for (int i = 0; i < n; ++i) {
          const double d = -in_px + i * step;
          if (d < -1.0 / mm_per_px) continue;
          const double f = (prof[static_cast<size_t>(i)] - mat).dot(dir) / contrast2;
          if (at90 < 0 && f < 0.9) at90 = d;
          if (at90 >= 0 && f < 0.1) {
            at10 = d;
            break;
          }
        }
        if (at90 < 0 || at10 < 0) continue;
        widths_mm.push_back((at10 - at90) * mm_per_px);
      }
    }
  }
  if (widths_mm.size() < 8) return 0.0;
  std::nth_element(widths_mm.begin(), widths_mm.begin() + static_cast<long>(widths_mm.size() / 2),
                   widths_mm.end());
  return widths_mm[widths_mm.size() / 2];
}

}  // namespace referee
