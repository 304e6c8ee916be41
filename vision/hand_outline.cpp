#include "vision/hand_outline.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include <opencv2/imgproc.hpp>

namespace referee {

namespace {

// Across the line: its half width (3 mm lines) and the calibration's error, inches.
constexpr double kAcrossHalfIn = 0.12;
constexpr int kAcross = 9;
// The mat sampled this far inside the line, inches: clear of the line's blur, close enough
// that a hand over the line covers it too.
constexpr double kInsideIn = 0.3;
// Below this typical contrast the line is not resolved at all (a far, blurred camera): nothing
// can be said.
constexpr double kMinTypicalContrast = 0.04;

// Grey level at a sub-pixel point of a BGR image (bilinear).
float GrayAt(const cv::Mat& bgr, cv::Point2f p) {
  const int x0 = static_cast<int>(std::floor(p.x)), y0 = static_cast<int>(std::floor(p.y));
  const float fx = p.x - static_cast<float>(x0), fy = p.y - static_cast<float>(y0);
  const auto at = [&](int x, int y) {
    x = std::clamp(x, 0, bgr.cols - 1);
    y = std::clamp(y, 0, bgr.rows - 1);
    const cv::Vec3b v = bgr.at<cv::Vec3b>(y, x);
    return 0.114f * static_cast<float>(v[0]) + 0.587f * static_cast<float>(v[1]) +
           0.299f * static_cast<float>(v[2]);
  };
  return (1 - fy) * ((1 - fx) * at(x0, y0) + fx * at(x0 + 1, y0)) +
         fy * ((1 - fx) * at(x0, y0 + 1) + fx * at(x0 + 1, y0 + 1));
}

}  // namespace

BorderLineWatch::BorderLineWatch(const TableCalibration& cal, double step_in, double hidden_share)
    : step_in_(step_in), hidden_share_(hidden_share) {
  const double w = cal.board.Width(), h = cal.board.Height();
  // The outline walked round, each side with its inward normal.
  const std::array<Vec2, 4> from{Vec2{0, 0}, Vec2{w, 0}, Vec2{w, h}, Vec2{0, h}};
  const std::array<Vec2, 4> to{Vec2{w, 0}, Vec2{w, h}, Vec2{0, h}, Vec2{0, 0}};
  const std::array<Vec2, 4> inward{Vec2{0, 1}, Vec2{-1, 0}, Vec2{0, -1}, Vec2{1, 0}};
  const cv::Rect picture({0, 0}, cal.camera.image_size);
  const auto px = [&](Vec2 t) {
    const cv::Point2d p = cal.camera.ImageFromTable(t);
    return cv::Point2f(static_cast<float>(p.x), static_cast<float>(p.y));
  };
  const auto inside_picture = [&](cv::Point2f p) {
    return p.x >= 0 && p.y >= 0 && p.x <= static_cast<float>(picture.width - 1) &&
           p.y <= static_cast<float>(picture.height - 1);
  };
  for (size_t s = 0; s < 4; ++s) {
    const double len = Distance(from[s], to[s]);
    const int n = std::max(1, static_cast<int>(std::floor(len / step_in_)));
    for (int i = 0; i < n; ++i) {
      const Vec2 t = from[s] + (to[s] - from[s]) * ((i + 0.5) / n);
      bool seen = true;
      line_px_.push_back(px(t));
      inside_px_.push_back(px(t + inward[s] * kInsideIn));
      seen = seen && inside_picture(line_px_.back()) && inside_picture(inside_px_.back());
      for (int k = 0; k < kAcross; ++k) {
        const double o = -kAcrossHalfIn + 2 * kAcrossHalfIn * k / (kAcross - 1);
        across_px_.push_back(px(t + inward[s] * o));
        seen = seen && inside_picture(across_px_.back());
      }
      in_picture_.push_back(seen);
    }
  }
}

BorderCover BorderLineWatch::Covered(const cv::Mat& frame_bgr) const {
  BorderCover out;
  if (line_px_.empty() || frame_bgr.empty() || frame_bgr.type() != CV_8UC3) return out;
  const size_t n = line_px_.size();
  std::vector<float> contrast(n, 0.0f);
  std::vector<float> seen;
  seen.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    if (!in_picture_[i]) continue;
    float line = 255.0f;
    for (size_t k = 0; k < kAcross; ++k) {
      line = std::min(line, GrayAt(frame_bgr, across_px_[i * kAcross + k]));
    }
    const float mat = GrayAt(frame_bgr, inside_px_[i]);
    contrast[i] = (mat - line) / (mat + 8.0f);
    seen.push_back(contrast[i]);
  }
  if (seen.empty()) return out;
  std::nth_element(seen.begin(), seen.begin() + static_cast<long>(seen.size() / 2), seen.end());
  const float typical = seen[seen.size() / 2];
  if (typical < kMinTypicalContrast) return out;
  const auto hidden = [&](size_t i) {
    return in_picture_[i] && contrast[i] < static_cast<float>(hidden_share_) * typical;
  };
  // Longest run of hidden samples round the closed outline.
  size_t start = 0;
  while (start < n && hidden(start)) ++start;
  if (start == n) {  // hidden all round
    out.longest_in = static_cast<double>(n) * step_in_;
    out.box_px = cv::boundingRect(line_px_);
    return out;
  }
  size_t best_len = 0, best_from = 0, run = 0;
  for (size_t k = 1; k <= n; ++k) {
    const size_t i = (start + k) % n;
    if (k < n && hidden(i)) {
      ++run;
      continue;
    }
    if (run > best_len) {
      best_len = run;
      best_from = (i + n - run) % n;
    }
    run = 0;
  }
  out.longest_in = static_cast<double>(best_len) * step_in_;
  if (best_len > 0) {
    std::vector<cv::Point2f> pts;
    for (size_t k = 0; k < best_len; ++k) pts.push_back(line_px_[(best_from + k) % n]);
    out.box_px = cv::boundingRect(pts);
  }
  return out;
}

}  // namespace referee
