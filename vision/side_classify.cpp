#include "vision/side_classify.hpp"

#include <algorithm>

namespace referee {

std::vector<cv::Mat> ClassifySides(const cv::Mat& chroma, const cv::Mat& valid,
                                   const std::vector<SideColor>& sides, double gate_sigma,
                                   const cv::Vec2f* mat_chroma) {
  std::vector<cv::Mat> masks;
  std::vector<cv::Matx22f> inv;
  std::vector<cv::Vec2f> mean;
  for (const auto& s : sides) {
    masks.emplace_back(chroma.size(), CV_8U, cv::Scalar(0));
    inv.push_back(cv::Matx22f(s.cov.inv()));
    mean.push_back(cv::Vec2f(s.mean));
  }
  const auto gate2 = static_cast<float>(gate_sigma * gate_sigma);
  for (int y = 0; y < chroma.rows; ++y) {
    const auto* c = chroma.ptr<cv::Vec2f>(y);
    const auto* v = valid.ptr<uchar>(y);
    for (int x = 0; x < chroma.cols; ++x) {
      if (!v[x]) continue;
      float best = gate2;
      int best_i = -1;
      for (size_t i = 0; i < mean.size(); ++i) {
        const cv::Vec2f d = c[x] - mean[i];
        const cv::Matx22f& a = inv[i];
        const float d2 =
            d[0] * (a(0, 0) * d[0] + a(0, 1) * d[1]) + d[1] * (a(1, 0) * d[0] + a(1, 1) * d[1]);
        // Most pixels are mat, far outside every gate: skip the mat test for them.
        if (d2 >= best) continue;
        if (mat_chroma) {
          const cv::Vec2f m = c[x] - *mat_chroma;
          const float m2 =
              m[0] * (a(0, 0) * m[0] + a(0, 1) * m[1]) + m[1] * (a(1, 0) * m[0] + a(1, 1) * m[1]);
          if (m2 <= d2) continue;
        }
        best = d2;
        best_i = static_cast<int>(i);
      }
      if (best_i >= 0) masks[static_cast<size_t>(best_i)].ptr<uchar>(y)[x] = 255;
    }
  }
  return masks;
}

std::vector<SideColor> WashedToward(const std::vector<SideColor>& sides,
                                    const cv::Vec2f& mat_chroma, double factor, double min_sigma) {
  std::vector<SideColor> out = sides;
  const double floor2 = min_sigma * min_sigma;
  for (SideColor& s : out) {
    s.mean = cv::Vec2d(mat_chroma) + factor * (s.mean - cv::Vec2d(mat_chroma));
    s.cov *= factor * factor;
    s.cov(0, 0) = std::max(s.cov(0, 0), floor2);
    s.cov(1, 1) = std::max(s.cov(1, 1), floor2);
  }
  return out;
}

}  // namespace referee
