#include "vision/tall_terrain_mask.hpp"

#include <algorithm>
#include <vector>

#include <opencv2/imgproc.hpp>

namespace referee {

bool IsTallTerrain(Terrain t) {
  return t == Terrain::kWoods || t == Terrain::kHouse || t == Terrain::kRocks ||
         t == Terrain::kBridge;
}

cv::Mat TallTerrainMask(const Board& board, const TopView& view, cv::Size size, double height_in,
                        int margin_px) {
  cv::Mat mask(size, CV_8U, cv::Scalar(0));
  const auto fill = [&](const std::vector<Vec2>& outline) {
    std::vector<cv::Point> pts, hull;
    for (const Vec2& v : outline) {
      for (const Vec2& q : {v, view.SeenOnMat(v, height_in)}) {
        const cv::Point2d p = view.RectifiedFromTable(q);
        pts.emplace_back(cvRound(p.x), cvRound(p.y));
      }
    }
    if (pts.size() < 3) return;
    cv::convexHull(pts, hull);
    cv::fillConvexPoly(mask, hull, cv::Scalar(255));
  };
  const Grid& g = board.grid;
  for (int row = 0; row < g.rows; ++row) {
    for (int col = 0; col < g.cols; ++col) {
      if (!IsTallTerrain(board.TerrainAt({col, row}))) continue;
      const bool drawn = std::any_of(board.features.begin(), board.features.end(), [&](auto& f) {
        if (!IsTallTerrain(f.type) || f.outline.vertices.empty()) return false;
        Vec2 c{0, 0};
        for (const Vec2& v : f.outline.vertices) c = c + v;
        c = c * (1.0 / static_cast<double>(f.outline.vertices.size()));
        const auto sq = g.SquareOf(c);
        return sq && sq->col == col && sq->row == row;
      });
      if (drawn) continue;
      const double s = g.square_size_in, x = col * s, y = row * s;
      fill({{x, y}, {x + s, y}, {x + s, y + s}, {x, y + s}});
    }
  }
  for (const auto& f : board.features) {
    if (IsTallTerrain(f.type)) fill(f.outline.vertices);
  }
  if (margin_px > 0) {
    cv::dilate(
        mask, mask,
        cv::getStructuringElement(cv::MORPH_ELLIPSE, {2 * margin_px + 1, 2 * margin_px + 1}));
  }
  return mask;
}

}  // namespace referee
