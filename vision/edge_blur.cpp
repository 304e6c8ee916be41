#include "vision/edge_blur.hpp"

#include <cmath>
#include <utility>
#include <vector>

#include "engine/order_statistics.hpp"
#include "vision/bgr_sample.hpp"

namespace referee {

namespace {

// A step of this many levels (BGR distance) is read well clear of a webcam's pixel noise.
constexpr double kMinContrast = 40.0;
// ... and where a low-contrast camera (a desaturating sensor under a cast) leaves fewer than
// kMinProfiles such steps on the bases found, steps of half that, still four to seven times its
// pixel noise (3-5 levels), are read instead: without a blur the blurred-ring search, which
// such a frame needs most, does not run.
constexpr double kLowContrast = 20.0;
constexpr size_t kMinProfiles = 8;

}  // namespace

double EdgeBlurMm(const cv::Mat& top_bgr, const std::vector<PxRect>& bases, double mm_per_px) {
  // Widths read on clear steps (kMinContrast and over) and on weaker ones.
  std::vector<double> clear, low;
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
        if (contrast2 < kLowContrast * kLowContrast) continue;
        // From the found edge outward: where the step first lies under 90 % (the edge itself
        // when it already does there), then where it lies under 10 %.
        double at90 = -1, at10 = -1;
        for (int i = 0; i < n; ++i) {
          const double d = -in_px + i * step;
          if (d < 0) continue;
          const double f = (prof[static_cast<size_t>(i)] - mat).dot(dir) / contrast2;
          if (at90 < 0 && f < 0.9) at90 = d;
          if (at90 >= 0 && f < 0.1) {
            at10 = d;
            break;
          }
        }
        if (at90 < 0 || at10 < 0) continue;
        (contrast2 >= kMinContrast * kMinContrast ? clear : low)
            .push_back((at10 - at90) * mm_per_px);
      }
    }
  }
  if (clear.size() >= kMinProfiles) return Median(std::move(clear));
  low.insert(low.end(), clear.begin(), clear.end());
  if (low.size() >= kMinProfiles) return Median(std::move(low));
  return 0.0;
}

}  // namespace referee
