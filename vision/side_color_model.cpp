#include "vision/side_color_model.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include <opencv2/imgproc.hpp>

#include "vision/side_classify.hpp"

namespace referee {

namespace {
// Offset added to each channel before the log, so dark noisy channels do not explode.
constexpr float kChannelOffset = 8.0f;

const std::array<float, 256>& LogTable() {
  static const std::array<float, 256> table = [] {
    std::array<float, 256> t{};
    for (int i = 0; i < 256; ++i) t[i] = std::log(static_cast<float>(i) + kChannelOffset);
    return t;
  }();
  return table;
}

float MedianOf(std::vector<float>& v) {
  if (v.empty()) return 0.0f;
  std::nth_element(v.begin(), v.begin() + static_cast<long>(v.size() / 2), v.end());
  return v[v.size() / 2];
}
}  // namespace

cv::Vec2d LogChromaOf(cv::Vec3b bgr) {
  const auto& lt = LogTable();
  return {lt[bgr[2]] - lt[bgr[1]], lt[bgr[0]] - lt[bgr[1]]};
}

void LogChroma(const cv::Mat& bgr, int min_brightness, cv::Mat& chroma, cv::Mat& valid) {
  CV_Assert(bgr.type() == CV_8UC3);
  chroma.create(bgr.size(), CV_32FC2);
  valid.create(bgr.size(), CV_8U);
  const auto& lt = LogTable();
  for (int y = 0; y < bgr.rows; ++y) {
    const auto* p = bgr.ptr<cv::Vec3b>(y);
    auto* c = chroma.ptr<cv::Vec2f>(y);
    auto* v = valid.ptr<uchar>(y);
    for (int x = 0; x < bgr.cols; ++x) {
      const cv::Vec3b px = p[x];
      const float lg = lt[px[1]];
      c[x] = {lt[px[2]] - lg, lt[px[0]] - lg};
      v[x] = std::max({px[0], px[1], px[2]}) >= min_brightness ? 255 : 0;
    }
  }
}

cv::Mat LocalIlluminantShift(const cv::Mat& chroma, const cv::Mat& valid, int window_px,
                             cv::Vec2f* mat_chroma) {
  // The mat is the most common colour: take the median chroma, keep the pixels near it, and
  // average them locally at low resolution.
  std::vector<float> r, b;
  const int step =
      std::max(1, static_cast<int>(std::sqrt(static_cast<double>(chroma.total()) / 40000.0)));
  for (int y = 0; y < chroma.rows; y += step) {
    for (int x = 0; x < chroma.cols; x += step) {
      if (!valid.at<uchar>(y, x)) continue;
      const cv::Vec2f& c = chroma.at<cv::Vec2f>(y, x);
      r.push_back(c[0]);
      b.push_back(c[1]);
    }
  }
  const cv::Vec2f global{MedianOf(r), MedianOf(b)};
  if (mat_chroma) *mat_chroma = global;
  const int scale = std::max(1, window_px / 4);
  const cv::Size small_size(std::max(1, chroma.cols / scale), std::max(1, chroma.rows / scale));
  cv::Mat mat_mask(chroma.size(), CV_32F);
  cv::Mat weighted(chroma.size(), CV_32FC2);
  constexpr float kMatRadius = 0.3f;  // log-chroma distance still counted as mat
  for (int y = 0; y < chroma.rows; ++y) {
    const auto* c = chroma.ptr<cv::Vec2f>(y);
    const auto* v = valid.ptr<uchar>(y);
    auto* m = mat_mask.ptr<float>(y);
    auto* w = weighted.ptr<cv::Vec2f>(y);
    for (int x = 0; x < chroma.cols; ++x) {
      const cv::Vec2f d = c[x] - global;
      const bool is_mat = v[x] && d.dot(d) < kMatRadius * kMatRadius;
      m[x] = is_mat ? 1.0f : 0.0f;
      w[x] = is_mat ? c[x] : cv::Vec2f(0, 0);
    }
  }
  cv::Mat small_m, small_w;
  cv::resize(mat_mask, small_m, small_size, 0, 0, cv::INTER_AREA);
  cv::resize(weighted, small_w, small_size, 0, 0, cv::INTER_AREA);
  cv::blur(small_m, small_m, {5, 5});
  cv::blur(small_w, small_w, {5, 5});
  cv::Mat shift_small(small_size, CV_32FC2);
  for (int y = 0; y < small_size.height; ++y) {
    for (int x = 0; x < small_size.width; ++x) {
      const float m = small_m.at<float>(y, x);
      shift_small.at<cv::Vec2f>(y, x) =
          m > 0.05f ? small_w.at<cv::Vec2f>(y, x) / m - global : cv::Vec2f(0, 0);
    }
  }
  cv::Mat shift;
  cv::resize(shift_small, shift, chroma.size(), 0, 0, cv::INTER_LINEAR);
  return shift;
}

void BalancedChroma(const cv::Mat& bgr, double px_per_inch, const SideColorOptions& options,
                    cv::Mat& chroma, cv::Mat& valid, cv::Vec2f* mat_chroma) {
  LogChroma(bgr, options.min_brightness, chroma, valid);
  const int window = std::max(8, static_cast<int>(options.illuminant_window_in * px_per_inch));
  chroma -= LocalIlluminantShift(chroma, valid, window, mat_chroma);
}

void SideColorModel::AddSideFromSrgb(const std::string& name, cv::Vec3b rgb) {
  const double s2 = options_.prior_sigma * options_.prior_sigma;
  sides_.push_back({name, LogChromaOf({rgb[2], rgb[1], rgb[0]}), cv::Matx22d(s2, 0, 0, s2)});
}

void SideColorModel::AddSidesFromSrgb(const std::map<std::string, std::array<int, 3>>& srgb) {
  for (const auto& [name, rgb] : srgb) {
    AddSideFromSrgb(name, cv::Vec3b(static_cast<uchar>(rgb[0]), static_cast<uchar>(rgb[1]),
                                    static_cast<uchar>(rgb[2])));
  }
}

void SideColorModel::AddSideFromSamples(const std::string& name,
                                        const std::vector<cv::Vec3b>& bgr_samples) {
  if (bgr_samples.empty()) return;
  cv::Mat chroma(static_cast<int>(bgr_samples.size()), 1, CV_32FC2);
  for (size_t i = 0; i < bgr_samples.size(); ++i) {
    const cv::Vec2d c = LogChromaOf(bgr_samples[i]);
    chroma.at<cv::Vec2f>(static_cast<int>(i)) =
        cv::Vec2f(static_cast<float>(c[0]), static_cast<float>(c[1]));
  }
  sides_.push_back({name, {0, 0}, cv::Matx22d::eye()});
  Refit(sides_.size() - 1, chroma, cv::Mat(chroma.size(), CV_8U, cv::Scalar(255)));
}

bool SideColorModel::AddSideFromTopView(const std::string& name, const cv::Mat& top_bgr,
                                        double px_per_inch, const cv::Mat& mask) {
  cv::Mat chroma, valid;
  BalancedChroma(top_bgr, px_per_inch, options_, chroma, valid);
  const cv::Mat usable = mask & valid;
  if (cv::countNonZero(usable) < 10) return false;
  sides_.push_back({name, {0, 0}, cv::Matx22d::eye()});
  Refit(sides_.size() - 1, chroma, usable);
  return true;
}

std::vector<cv::Mat> SideColorModel::Classify(const cv::Mat& bgr, double px_per_inch) const {
  cv::Mat chroma, valid;
  BalancedChroma(bgr, px_per_inch, options_, chroma, valid);
  return ClassifyChroma(chroma, valid);
}

std::vector<cv::Mat> SideColorModel::ClassifyChroma(const cv::Mat& chroma, const cv::Mat& valid,
                                                    const cv::Vec2f* mat_chroma) const {
  return ClassifySides(chroma, valid, sides_, options_.gate_sigma, mat_chroma);
}

std::vector<cv::Mat> SideColorModel::ClassifyChroma(const cv::Mat& chroma, const cv::Mat& valid,
                                                    const cv::Mat& brightness,
                                                    const cv::Vec2f* mat_chroma) const {
  return ClassifySides(chroma, valid, brightness, sides_, options_.gate_sigma, mat_chroma);
}

std::vector<cv::Mat> TowardSidesMasks(const cv::Mat& chroma, const cv::Mat& valid,
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
      // The side whose line the pixel lies closest to (smallest angle), if within the cone.
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

std::vector<cv::Mat> SideColorModel::ClassifyTowardSides(const cv::Mat& chroma,
                                                         const cv::Mat& valid,
                                                         const cv::Vec2f& mat_chroma,
                                                         double cone) const {
  return TowardSidesMasks(chroma, valid, mat_chroma, sides_, options_.toward_min_fraction,
                          cone > 0 ? cone : options_.toward_cone);
}

void SideColorModel::Refit(size_t side, const cv::Mat& chroma, const cv::Mat& mask) {
  // Robust fit: median centre, then the covariance of the inner 90% by distance.
  std::vector<cv::Vec2f> pts;
  for (int y = 0; y < chroma.rows; ++y) {
    for (int x = 0; x < chroma.cols; ++x) {
      if (mask.at<uchar>(y, x)) pts.push_back(chroma.at<cv::Vec2f>(y, x));
    }
  }
  if (pts.size() < 10) return;
  std::vector<float> r, b;
  for (const auto& p : pts) {
    r.push_back(p[0]);
    b.push_back(p[1]);
  }
  const cv::Vec2f med{MedianOf(r), MedianOf(b)};
  std::sort(pts.begin(), pts.end(), [&](const cv::Vec2f& a, const cv::Vec2f& c) {
    return cv::norm(a - med) < cv::norm(c - med);
  });
  pts.resize(std::max<size_t>(10, pts.size() * 9 / 10));
  cv::Vec2d mean(0, 0);
  for (const auto& p : pts) mean += cv::Vec2d(p);
  mean *= 1.0 / static_cast<double>(pts.size());
  cv::Matx22d cov = cv::Matx22d::zeros();
  for (const auto& p : pts) {
    const cv::Vec2d d = cv::Vec2d(p) - mean;
    cov += d * d.t();
  }
  cov *= 1.0 / static_cast<double>(pts.size());
  // The trimmed sample under-reports the spread; inflate, and keep a floor for noise.
  cov *= 1.5;
  const double floor2 = options_.min_sigma * options_.min_sigma;
  cov(0, 0) = std::max(cov(0, 0), floor2);
  cov(1, 1) = std::max(cov(1, 1), floor2);
  sides_[side].mean = mean;
  sides_[side].cov = cov;
}

}  // namespace referee
