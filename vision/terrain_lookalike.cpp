#include "vision/terrain_lookalike.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include <opencv2/imgproc.hpp>

#include "vision/band_fraction.hpp"
#include "vision/side_washout.hpp"

namespace referee {

namespace {

// Fraction of the valid pixels inside r (deeper than depth_px) whose chroma, averaged over
// 3 x 3 pixels, lies within 0.24 (about 27 % in each channel ratio) of their median: near 1 for
// one paint (water, a roof), low for figures of several colours on flock. The averaging and the
// tolerance are for the camera's noise: a webcam's JPEG scatters one paint's log-chroma widely,
// most of all on dark water, where the three channels are small (water beside a bridge at JPEG
// quality 80 read 0.55-0.63 within 0.12 of single pixels, 0.75 and up as here; bases with
// figures read at most 0.36 but one under heavy blur 0.80, see
// StandDetectorOptions::min_terrain_uniformity).
double InteriorUniformity(const cv::Mat& chroma, const cv::Mat& valid, const PxRect& r,
                          double depth_px) {
  const cv::Point2d b = r.AxisB();
  const double ha = 0.5 * r.len_a - depth_px, hb = 0.5 * r.len_b - depth_px;
  if (ha <= 0 || hb <= 0) return 0.0;
  const double reach = std::hypot(ha, hb) + 1;
  const int x0 = std::max(0, static_cast<int>(r.center.x - reach));
  const int x1 = std::min(chroma.cols - 1, static_cast<int>(r.center.x + reach));
  const int y0 = std::max(0, static_cast<int>(r.center.y - reach));
  const int y1 = std::min(chroma.rows - 1, static_cast<int>(r.center.y + reach));
  if (x1 < x0 || y1 < y0) return 0.0;
  const cv::Rect box(x0, y0, x1 - x0 + 1, y1 - y0 + 1);
  cv::Mat smooth;
  cv::blur(chroma(box), smooth, {3, 3});
  std::vector<cv::Vec2f> px;
  for (int y = y0; y <= y1; ++y) {
    for (int x = x0; x <= x1; ++x) {
      const cv::Point2d d = cv::Point2d(x, y) - r.center;
      if (std::abs(d.dot(r.axis_a)) > ha || std::abs(d.dot(b)) > hb) continue;
      if (valid.at<uchar>(y, x)) px.push_back(smooth.at<cv::Vec2f>(y - y0, x - x0));
    }
  }
  if (px.empty()) return 0.0;
  std::vector<float> c0, c1;
  c0.reserve(px.size());
  c1.reserve(px.size());
  for (const auto& p : px) {
    c0.push_back(p[0]);
    c1.push_back(p[1]);
  }
  const auto mid = static_cast<long>(px.size() / 2);
  std::nth_element(c0.begin(), c0.begin() + mid, c0.end());
  std::nth_element(c1.begin(), c1.begin() + mid, c1.end());
  const cv::Vec2f med(c0[static_cast<size_t>(mid)], c1[static_cast<size_t>(mid)]);
  constexpr float kSamePaint = 0.24f;
  const auto same = std::count_if(px.begin(), px.end(), [&](const cv::Vec2f& p) {
    const cv::Vec2f d = p - med;
    return d.dot(d) < kSamePaint * kSamePaint;
  });
  return static_cast<double>(same) / static_cast<double>(px.size());
}

}  // namespace

bool MayShowSideColour(Terrain t) {
  return t == Terrain::kHouse || t == Terrain::kWater || t == Terrain::kBridge;
}

bool MayShowSolidSideShade(Terrain t) { return MayShowSideColour(t) || t == Terrain::kRoad; }

cv::Mat TerrainMask(const Board& board, const TopView& view, cv::Size size, int grow_px,
                    bool (*may_show)(Terrain)) {
  cv::Mat mask(size, CV_8U, cv::Scalar(0));
  const auto fill = [&](const std::vector<Vec2>& outline) {
    FillTableOutline(view, outline, mask);
  };
  const Grid& g = board.grid;
  for (int row = 0; row < g.rows; ++row) {
    for (int col = 0; col < g.cols; ++col) {
      if (!may_show(board.TerrainAt({col, row}))) continue;
      const double s = g.square_size_in, x = col * s, y = row * s;
      fill({{x, y}, {x + s, y}, {x + s, y + s}, {x, y + s}});
    }
  }
  for (const auto& f : board.features) {
    if (may_show(f.type)) fill(f.outline.vertices);
  }
  if (grow_px > 0) {
    cv::dilate(mask, mask,
               cv::getStructuringElement(cv::MORPH_RECT, {2 * grow_px + 1, 2 * grow_px + 1}));
  }
  return mask;
}

bool InTerrain(const cv::Mat& terrain, const PxRect& r) {
  const cv::Point c(cvRound(r.center.x), cvRound(r.center.y));
  return !terrain.empty() && cv::Rect(0, 0, terrain.cols, terrain.rows).contains(c) &&
         terrain.at<uchar>(c) != 0;
}

bool LooksLikeTerrain(const cv::Mat& toward, const cv::Mat& chroma, const cv::Mat& valid,
                      const cv::Vec2f& mat_chroma, const cv::Vec2f& side_chroma, const PxRect& r,
                      double border_px, const StandDetectorOptions& options) {
  const double depth_px = border_px + 1.0;
  if (BandFraction(toward, r, depth_px, 1e6, -1) <= options.max_terrain_inner_fraction) {
    const RingDeparture d =
        MeasureRingDeparture(chroma, valid, mat_chroma, side_chroma, r, border_px, depth_px);
    if (d.border <= 0 || d.inside < options.min_terrain_inside_to_border * d.border) return false;
  }
  return InteriorUniformity(chroma, valid, r, depth_px) > options.min_terrain_uniformity;
}

}  // namespace referee
