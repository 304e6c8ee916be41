#include "datasets/table_texture.hpp"

#include <cmath>

#include <opencv2/aruco.hpp>
#include <opencv2/imgproc.hpp>

#include "datasets/polygon_coverage.hpp"

namespace referee {

namespace {

std::vector<cv::Point2d> PixelPolygon(const TableTexture& t, const std::vector<Vec2>& poly) {
  std::vector<cv::Point2d> out;
  out.reserve(poly.size());
  for (const Vec2 p : poly) out.push_back(t.PixelOf(p.x, p.y));
  return out;
}

// Exact area coverage (polygon_coverage.hpp): edges land where the table coordinates say.
void FillRect(TableTexture& t, double x0, double y0, double x1, double y1, const cv::Scalar& c) {
  const cv::Point2d a = t.PixelOf(x0, y0), b = t.PixelOf(x1, y1);
  BlendCoverage(t.bgr, CoverRect(a.x, a.y, b.x, b.y, t.bgr.size()), c);
}

// Multiplies the pixels of `region` (a mask) by smooth random gain of the given amplitude and
// feature size, so surfaces have low-frequency blotches and finer grain.
void Modulate(cv::Mat& bgr, const cv::Rect& region, double amplitude, double feature_px,
              cv::RNG& rng, double stretch_x = 1.0) {
  const cv::Rect r = region & cv::Rect(0, 0, bgr.cols, bgr.rows);
  if (r.empty()) return;
  const int sw = std::max(2, static_cast<int>(r.width / (feature_px * stretch_x)) + 2);
  const int sh = std::max(2, static_cast<int>(r.height / feature_px) + 2);
  cv::Mat small(sh, sw, CV_32F);
  rng.fill(small, cv::RNG::UNIFORM, 1.0 - amplitude, 1.0 + amplitude);
  cv::Mat gain;
  cv::resize(small, gain, r.size(), 0, 0, cv::INTER_CUBIC);
  cv::Mat roi = bgr(r);
  cv::parallel_for_(cv::Range(0, r.height), [&](const cv::Range& rows) {
    for (int y = rows.start; y < rows.end; ++y) {
      auto* p = roi.ptr<cv::Vec3b>(y);
      const float* g = gain.ptr<float>(y);
      for (int x = 0; x < r.width; ++x) {
        for (int c = 0; c < 3; ++c)
          p[x][c] = cv::saturate_cast<uchar>(static_cast<float>(p[x][c]) * g[x]);
      }
    }
  });
}

cv::Rect PixelRect(const TableTexture& t, double x0, double y0, double x1, double y1) {
  const cv::Point2d a = t.PixelOf(x0, y0), b = t.PixelOf(x1, y1);
  return cv::Rect(
      cv::Point(static_cast<int>(std::floor(a.x)), static_cast<int>(std::floor(a.y))),
      cv::Point(static_cast<int>(std::ceil(b.x)) + 1, static_cast<int>(std::ceil(b.y)) + 1));
}

void DrawMarker(TableTexture& t, int id, Vec2 centre, double side_in) {
  // White paper with a quiet zone, then the 6x6 cells (4x4 payload + 1-cell black border),
  // axis-aligned with the board, "up" toward -y.
  const double paper = side_in * 1.3;
  FillRect(t, centre.x - paper / 2, centre.y - paper / 2, centre.x + paper / 2,
           centre.y + paper / 2, cv::Scalar(238, 240, 240));
  const auto dict = cv::aruco::getPredefinedDictionary(cv::aruco::DICT_4X4_50);
  cv::Mat bits;
  dict->drawMarker(id, 6, bits, 1);
  const double cell = side_in / 6.0;
  const double x0 = centre.x - side_in / 2, y0 = centre.y - side_in / 2;
  for (int r = 0; r < 6; ++r) {
    for (int c = 0; c < 6; ++c) {
      if (bits.at<uchar>(r, c) != 0) continue;
      FillRect(t, x0 + c * cell, y0 + r * cell, x0 + (c + 1) * cell, y0 + (r + 1) * cell,
               cv::Scalar(22, 22, 24));
    }
  }
}

}  // namespace

TableTexture PaintTable(const SceneLayout& L, double x0, double y0, double x1, double y1,
                        double ppi, bool surroundings) {
  TableTexture t;
  t.x0_in = x0;
  t.y0_in = y0;
  t.px_per_in = ppi;
  const int w = static_cast<int>(std::ceil((x1 - x0) * ppi));
  const int h = static_cast<int>(std::ceil((y1 - y0) * ppi));
  t.bgr.create(h, w, CV_8UC3);
  t.bgr.setTo(L.floor_bgr);
  cv::RNG rng(L.texture_seed + (surroundings ? 0 : 1));
  const Grid& g = L.board.grid;
  const double W = g.Width(), H = g.Height();
  if (surroundings) {
    Modulate(t.bgr, cv::Rect(0, 0, w, h), 0.25, 6.0 * ppi, rng);
    const double tm = L.mat_margin_in + L.table_margin_in;
    FillRect(t, -tm, -tm, W + tm, H + tm, L.table_bgr);
    // Wood grain: long streaks along x.
    Modulate(t.bgr, PixelRect(t, -tm, -tm, W + tm, H + tm), 0.12, 0.25 * ppi, rng, 24.0);
  }
  const double m = L.mat_margin_in;
  FillRect(t, -m, -m, W + m, H + m, L.mat_bgr);
  const cv::Rect mat = PixelRect(t, -m, -m, W + m, H + m);
  Modulate(t.bgr, mat, 0.07, 5.0 * ppi, rng);   // blotches
  Modulate(t.bgr, mat, 0.03, 0.08 * ppi, rng);  // felt grain (~2 mm)

  // Grid lines centred on x = i * s and y = j * s, including the outer border.
  const double hw = 0.5 * L.grid_line_in;
  for (int i = 0; i <= g.cols; ++i) {
    const double x = i * g.square_size_in;
    FillRect(t, x - hw, -hw, x + hw, H + hw, L.line_bgr);
  }
  for (int j = 0; j <= g.rows; ++j) {
    const double y = j * g.square_size_in;
    FillRect(t, -hw, y - hw, W + hw, y + hw, L.line_bgr);
  }
  // Terrain pieces and clutter lie on the printed mat, hiding the lines under them.
  for (const auto& art : L.flat_art) {
    BlendCoverage(t.bgr, CoverPolygon(PixelPolygon(t, art.polygon), t.bgr.size()), art.bgr);
  }
  if (L.markers) {
    const Vec2 centres[4] = {{-1.5, -1.5}, {W + 1.5, -1.5}, {W + 1.5, H + 1.5}, {-1.5, H + 1.5}};
    for (int id = 0; id < 4; ++id) DrawMarker(t, id, centres[id], 2.0);
  }
  return t;
}

}  // namespace referee
