#include "vision/side_washout.hpp"

#include <opencv2/imgproc.hpp>

namespace referee {

std::vector<cv::Mat> LooseTowardSides(const cv::Mat& chroma, const cv::Mat& valid,
                                      const cv::Vec2f& mat_chroma,
                                      const std::vector<SideColor>& sides, double min_fraction,
                                      double cone) {
  std::vector<cv::Mat> masks;
  std::vector<cv::Vec2f> dir;
  std::vector<float> len2;
  for (const auto& s : sides) {
    masks.emplace_back(chroma.size(), CV_8U, cv::Scalar(0));
    dir.push_back(cv::Vec2f(s.mean) - mat_chroma);
    len2.push_back(std::max(1e-6f, dir.back().dot(dir.back())));
  }
  const auto t_min = static_cast<float>(min_fraction);
  const auto cone2 = static_cast<float>(cone * cone);
  for (int y = 0; y < chroma.rows; ++y) {
    const auto* c = chroma.ptr<cv::Vec2f>(y);
    const auto* v = valid.ptr<uchar>(y);
    for (int x = 0; x < chroma.cols; ++x) {
      if (!v[x]) continue;
      const cv::Vec2f d = c[x] - mat_chroma;
      float best = cone2;
      int best_i = -1;
      for (size_t i = 0; i < dir.size(); ++i) {
        const float t = d.dot(dir[i]) / len2[i];
        if (t < t_min) continue;
        const cv::Vec2f off = d - t * dir[i];
        const float ratio2 = off.dot(off) / (t * t * len2[i]);
        if (ratio2 < best) best = ratio2, best_i = static_cast<int>(i);
      }
      if (best_i >= 0) masks[static_cast<size_t>(best_i)].ptr<uchar>(y)[x] = 255;
    }
  }
  return masks;
}

std::vector<RingFit> WashoutCandidates(const cv::Mat& evidence, double mm_per_px,
                                       const std::vector<BaseSize>& sizes,
                                       const RingFitOptions& base_options,
                                       const WashoutOptions& options) {
  RingFitOptions ring = base_options;
  ring.min_ring_fraction = options.min_ring_fraction;
  ring.min_corner_sides = options.min_corner_sides;
  ring.max_outside_fraction = options.max_outside_fraction;
  return FitBasesToBorderEvidence(evidence, mm_per_px, sizes, ring);
}

cv::Mat BorderBand(cv::Size size, const std::vector<PxRect>& rects, double inset_px,
                   double depth_px) {
  cv::Mat band(size, CV_8U, cv::Scalar(0));
  for (const auto& r : rects) {
    const cv::Point2d b = r.AxisB();
    for (double d = inset_px; d < inset_px + depth_px; d += 0.5) {
      const double ha = 0.5 * r.len_a - d, hb = 0.5 * r.len_b - d;
      std::vector<cv::Point> poly;
      for (const auto& [sa, sb] : {std::pair{-1, -1}, {1, -1}, {1, 1}, {-1, 1}}) {
        const cv::Point2d p = r.center + sa * ha * r.axis_a + sb * hb * b;
        poly.emplace_back(cvRound(p.x), cvRound(p.y));
      }
      cv::polylines(band, poly, true, cv::Scalar(255), 1);
    }
  }
  return band;
}

}  // namespace referee
