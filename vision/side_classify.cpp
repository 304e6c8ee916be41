#include "vision/side_classify.hpp"

#include <algorithm>
#include <cmath>

#include <opencv2/imgproc.hpp>

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

namespace {
// A shadow deeper than half the lit light leaves too little colour to widen the gate for:
// dark paint (black, navy, brown) would pass as a side.
constexpr float kMaxShadowGateScale = 2.0f;
// Fewer pixels than this under a side's plain gate: no lit brightness to measure.
constexpr int kMinLitPixels = 50;
constexpr double kLocalScale = 1.0 / 16.0;
// A side fitted to a frame's borders has about this spread, log-chroma (SideColorOptions'
// min_sigma, the JPEG and sensor noise floor).
constexpr double kFittedSpread = 0.08;
// Half-way from that floor to the prior spread of a side given only as sRGB (0.16): above it
// the side was not fitted to this frame.
constexpr double kFittedSpreadMax = 0.12;

float Mahalanobis2(const cv::Vec2f& d, const cv::Matx22f& a) {
  return d[0] * (a(0, 0) * d[0] + a(0, 1) * d[1]) + d[1] * (a(1, 0) * d[0] + a(1, 1) * d[1]);
}

// Median brightness of the pixels under mask, or 0 with too few of them.
float MedianBrightness(const cv::Mat& brightness, const cv::Mat& mask) {
  int hist[256] = {};
  int n = 0;
  for (int y = 0; y < mask.rows; ++y) {
    const auto* m = mask.ptr<uchar>(y);
    const auto* v = brightness.ptr<uchar>(y);
    for (int x = 0; x < mask.cols; ++x) {
      if (m[x]) ++hist[v[x]], ++n;
    }
  }
  if (n < kMinLitPixels) return 0.0f;
  for (int i = 0, seen = 0; i < 256; ++i) {
    seen += hist[i];
    if (2 * seen >= n) return static_cast<float>(i);
  }
  return 0.0f;
}
}  // namespace

std::vector<cv::Mat> ClassifySides(const cv::Mat& chroma, const cv::Mat& valid,
                                   const cv::Mat& brightness, const std::vector<SideColor>& sides,
                                   double gate_sigma, const cv::Vec2f* mat_chroma) {
  CV_Assert(brightness.type() == CV_8U && brightness.size() == chroma.size());
  std::vector<cv::Mat> masks = ClassifySides(chroma, valid, sides, gate_sigma, mat_chroma);
  std::vector<float> lit_v;
  std::vector<cv::Matx22f> inv;
  std::vector<cv::Vec2f> mean;
  std::vector<float> widen;
  for (size_t i = 0; i < sides.size(); ++i) {
    lit_v.push_back(MedianBrightness(brightness, masks[i]));
    inv.push_back(cv::Matx22f(sides[i].cov.inv()));
    mean.push_back(cv::Vec2f(sides[i].mean));
    // Only a side fitted to this frame's borders (a spread nearer the noise floor than the
    // prior's) has lit borders a shadowed one can continue; a side still at its prior spread
    // (a washed-out view) is left to the washout passes. The widening is scaled to the noise
    // floor's share of the spread.
    const double spread = std::sqrt(std::max(sides[i].cov(0, 0), sides[i].cov(1, 1)));
    widen.push_back(spread < kFittedSpreadMax
                        ? static_cast<float>(std::min(1.0, kFittedSpread / std::max(spread, 1e-6)))
                        : 0.0f);
  }
  std::vector<cv::Mat> shadowed;
  shadowed.reserve(masks.size());
  for (const auto& m : masks) shadowed.emplace_back(m.size(), CV_8U, cv::Scalar(0));
  // The surface's local brightness (the mat's, as most of any window is mat): a median over
  // about 5 x 5 cells of 1/16 of the view, as WhiteMask measures it. A lit border blurred into
  // a lit mat is never darker than both; a border in shadow is.
  cv::Mat small, local;
  cv::resize(brightness, small, {}, kLocalScale, kLocalScale, cv::INTER_AREA);
  cv::medianBlur(small, small, 5);
  cv::resize(small, local, brightness.size(), 0, 0, cv::INTER_LINEAR);
  const auto gate2 = static_cast<float>(gate_sigma * gate_sigma);
  for (int y = 0; y < chroma.rows; ++y) {
    const auto* c = chroma.ptr<cv::Vec2f>(y);
    const auto* ok = valid.ptr<uchar>(y);
    const auto* v = brightness.ptr<uchar>(y);
    const auto* surface = local.ptr<uchar>(y);
    for (int x = 0; x < chroma.cols; ++x) {
      if (!ok[x] || v[x] >= surface[x]) continue;
      bool taken = false;
      for (const auto& m : masks) taken = taken || m.ptr<uchar>(y)[x];
      if (taken) continue;
      // Compare sides in units of their own widened gate: nearest relative to it wins.
      float best = 1.0f;
      int best_i = -1;
      for (size_t i = 0; i < mean.size(); ++i) {
        if (static_cast<float>(v[x]) >= lit_v[i]) continue;  // not darker than its lit borders
        const float scale =
            std::min(kMaxShadowGateScale, lit_v[i] / std::max(1.0f, static_cast<float>(v[x])));
        const float d2 = Mahalanobis2(c[x] - mean[i], inv[i]);
        const float reach = 1.0f + (scale - 1.0f) * widen[i];
        const float rel = d2 / (gate2 * reach * reach);
        if (rel >= best) continue;
        if (mat_chroma && Mahalanobis2(c[x] - *mat_chroma, inv[i]) <= d2) continue;
        best = rel;
        best_i = static_cast<int>(i);
      }
      if (best_i >= 0) shadowed[static_cast<size_t>(best_i)].ptr<uchar>(y)[x] = 255;
    }
  }
  // A shadowed border continues a lit one: keep only shadowed pixels connected to the plain
  // gate's, so dark paint standing alone (a navy coat, a brown roof) is not taken.
  for (size_t i = 0; i < masks.size(); ++i) {
    cv::Mat labels;
    const cv::Mat both = masks[i] | shadowed[i];
    const int n = cv::connectedComponents(both, labels, 8, CV_32S);
    std::vector<uchar> lit(static_cast<size_t>(n), 0);
    for (int y = 0; y < labels.rows; ++y) {
      const auto* l = labels.ptr<int>(y);
      const auto* m = masks[i].ptr<uchar>(y);
      for (int x = 0; x < labels.cols; ++x) {
        if (m[x]) lit[static_cast<size_t>(l[x])] = 1;
      }
    }
    for (int y = 0; y < labels.rows; ++y) {
      const auto* l = labels.ptr<int>(y);
      const auto* sh = shadowed[i].ptr<uchar>(y);
      auto* m = masks[i].ptr<uchar>(y);
      for (int x = 0; x < labels.cols; ++x) {
        if (sh[x] && lit[static_cast<size_t>(l[x])]) m[x] = 255;
      }
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
