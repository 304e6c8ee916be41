#include "vision/band_side.hpp"

#include <algorithm>
#include <array>
#include <cstddef>

#include <opencv2/imgproc.hpp>

#include "vision/blurred_ring_fit.hpp"
#include "vision/side_washout.hpp"

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
  const std::optional<std::array<cv::Vec2f, 2>> rows =
      TwoColourShareRows(mat_chroma, own_chroma, rival_chroma);
  if (!rows) return std::nullopt;
  const cv::Vec2f& row_u = (*rows)[0];
  const cv::Vec2f& row_w = (*rows)[1];
  // The band on the rect's box only: a full-frame mask per base would cost more than the reading.
  const cv::Rect box = cv::boundingRect(GrownCorners(r, 1.0)) & cv::Rect({}, chroma.size());
  if (box.empty()) return std::nullopt;
  const cv::Mat band = BorderBand(box.size(), {r}, 1.0, band_px, box.tl());
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
