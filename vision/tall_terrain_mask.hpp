// Where the board's tall terrain (woods, houses, rocks, bridges) may hide the mat from the
// calibrated camera: what lies there, a base or a projectile, may be unseen in the top view.
#pragma once

#include <opencv2/core.hpp>

#include "engine/board.hpp"
#include "vision/top_view.hpp"

namespace referee {

// Terrain that stands taller than a base and may hide part of one.
bool IsTallTerrain(Terrain t);

// Where tall terrain may hide the mat in the top view of `size` (CV_8U, 255): each tall
// feature's outline on the mat and seen at height_in (the hull of both), grown by margin_px. A
// tall square with no tall feature drawn in it counts whole.
cv::Mat TallTerrainMask(const Board& board, const TopView& view, cv::Size size, double height_in,
                        int margin_px);

}  // namespace referee
