#include "vision/band_side.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>

#include <opencv2/imgproc.hpp>

namespace referee {

namespace {

double MedianOf(std::vector<float>& v) {
  const auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
  std::nth_element(v.begin(), mid, v.end());
  return *mid;
}

}  // namespace

std::optional<BandShares> MeasureBandShares(const cv::Mat& chroma, const cv::Mat& valid,
                                            const cv::Vec2f& mat_chroma,
                                            const cv::Vec2f& own_chroma,
                                            const cv::Vec2f& rival_chroma, const PxRect& r,
                                            double band_px, int min_pixels) {
  // chroma - mat = u (own - mat) + w (rival - mat): the 2 x 2 system's inverse, row by row.
  const cv::Vec2f a = own_chroma - mat_chroma, b = rival_chroma - mat_chroma;
  const float det = a[0] * b[1] - a[1] * b[0];
  if (std::abs(det) < 1e-6f * std::max(1e-12f, a.dot(a) + b.dot(b))) return std::nullopt;
  const cv::Vec2f row_u(b[1] / det, -b[0] / det), row_w(-a[1] / det, a[0] / det);
  // The band drawn as BorderBand draws it (vision/side_washout.hpp), on the rect's box only.
  const cv::Rect box = cv::boundingRect(GrownCorners(r, 1.0)) & cv::Rect({}, chroma.size());
  if (box.empty()) return std::nullopt;
  cv::Mat band(box.size(), CV_8U, cv::Scalar(0));
  for (double d = 1.0; d < 1.0 + band_px; d += 0.5) {
    std::vector<cv::Point> corners = GrownCorners(r, -d);
    for (cv::Point& p : corners) p -= box.tl();
    cv::polylines(band, corners, true, cv::Scalar(255), 1);
  }
  std::vector<float> own, rival;
  for (int y = 0; y < box.height; ++y) {
    const auto* m = band.ptr<uchar>(y);
    const auto* c = chroma.ptr<cv::Vec2f>(y + box.y) + box.x;
    const auto* v = valid.ptr<uchar>(y + box.y) + box.x;
    for (int x = 0; x < box.width; ++x) {
      if (!m[x] || !v[x]) continue;
      const cv::Vec2f d = c[x] - mat_chroma;
      own.push_back(row_u.dot(d));
      rival.push_back(row_w.dot(d));
    }
  }
  if (static_cast<int>(own.size()) < min_pixels) return std::nullopt;
  return BandShares{MedianOf(own), MedianOf(rival)};
}

int MoveBasesToTheirBandsSide(const cv::Mat& chroma, const cv::Mat& valid,
                              const cv::Vec2f& mat_chroma, const std::vector<SideColor>& sides,
                              double band_px, std::vector<std::vector<PxRect>>& rects,
                              double min_rival_share) {
  std::vector<std::vector<PxRect>> moved(rects.size());
  int n_moved = 0;
  for (size_t s = 0; s < rects.size() && s < sides.size(); ++s) {
    std::vector<PxRect> kept;
    for (PxRect& r : rects[s]) {
      size_t to = s;
      double best_margin = 0;
      for (size_t k = 0; k < sides.size() && k < rects.size(); ++k) {
        if (k == s) continue;
        const std::optional<BandShares> shares =
            MeasureBandShares(chroma, valid, mat_chroma, cv::Vec2f(sides[s].mean),
                              cv::Vec2f(sides[k].mean), r, band_px);
        if (shares && shares->rival >= min_rival_share &&
            shares->rival - shares->own > best_margin) {
          best_margin = shares->rival - shares->own;
          to = k;
        }
      }
      if (to == s) {
        kept.push_back(std::move(r));
      } else {
        moved[to].push_back(std::move(r));
        ++n_moved;
      }
    }
    rects[s] = std::move(kept);
  }
  for (size_t s = 0; s < rects.size(); ++s) {
    rects[s].insert(rects[s].end(), moved[s].begin(), moved[s].end());
  }
  return n_moved;
}

}  // namespace referee
