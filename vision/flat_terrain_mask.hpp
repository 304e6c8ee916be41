// Where the board lays flat terrain on the mat (roads, water): painted or felt pieces no thicker
// than a sheet, so what rests on them rests at the mat's height, though they are not of the
// mat's colour. A bridge's square is not flat: its deck stands up, and the board does not say
// where the deck's edges are (a deck may be wider than the road drawn for it).
#pragma once

#include <opencv2/core.hpp>

#include "engine/board.hpp"
#include "vision/top_view.hpp"

namespace referee {

// Roads and water: terrain whose squares hold only flat pieces on the mat.
bool IsFlatTerrain(Terrain t);

// Where flat terrain may lie in the top view of `size` (CV_8U, 255): every square of flat
// terrain whole (the board does not say where in the square its road or water lies), and every
// road or water feature's outline wherever it is drawn, grown by margin_px for the camera's
// blur; less every bridge's square and every tall feature's outline on the mat (a house drawn
// into a road square), grown alike.
cv::Mat FlatTerrainMask(const Board& board, const TopView& view, cv::Size size, int margin_px);

// The margin FlatTerrainMask is grown by in a top view of `mm_per_px`: 2 mm, the blur of an
// outline's edge, at least one pixel.
int FlatTerrainMarginPx(double mm_per_px);

}  // namespace referee
