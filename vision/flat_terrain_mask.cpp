#include "vision/flat_terrain_mask.hpp"

#include <cmath>
#include <vector>

#include <opencv2/imgproc.hpp>

#include "vision/tall_terrain_mask.hpp"

namespace referee {

bool IsFlatTerrain(Terrain t) { return t == Terrain::kRoad || t == Terrain::kWater; }

cv::Mat FlatTerrainMask(const Board& board, const TopView& view, cv::Size size, int margin_px) {
  cv::Mat mask(size, CV_8U, cv::Scalar(0)), tall(size, CV_8U, cv::Scalar(0));
  const auto fill = [&](const std::vector<Vec2>& outline, cv::Mat& into) {
    FillTableOutline(view, outline, into);
  };
  const Grid& g = board.grid;
  for (const auto& [square, type] : board.terrain) {
    // A bridge's deck stands up somewhere in its square: none of it is taken for flat.
    if (!IsFlatTerrain(type) && type != Terrain::kBridge) continue;
    const double s = g.square_size_in, x = square.col * s, y = square.row * s;
    fill({{x, y}, {x + s, y}, {x + s, y + s}, {x, y + s}}, type == Terrain::kBridge ? tall : mask);
  }
  for (const auto& f : board.features) {
    if (IsFlatTerrain(f.type)) fill(f.outline.vertices, mask);
    if (IsTallTerrain(f.type)) fill(f.outline.vertices, tall);
  }
  if (margin_px > 0) {
    const cv::Mat disc =
        cv::getStructuringElement(cv::MORPH_ELLIPSE, {2 * margin_px + 1, 2 * margin_px + 1});
    cv::dilate(mask, mask, disc);
    cv::dilate(tall, tall, disc);
  }
  mask.setTo(0, tall);
  return mask;
}

int FlatTerrainMarginPx(double mm_per_px) {
  return std::max(1, static_cast<int>(std::lround(2.0 / mm_per_px)));
}

}  // namespace referee
