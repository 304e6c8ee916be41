// Terrain that may look like a base of a side's colour (a roof, water), from the board file,
// and the test that tells such a shape from a base.
#pragma once

#include <opencv2/core.hpp>

#include "engine/board.hpp"
#include "vision/px_rect.hpp"
#include "vision/stand_detector.hpp"
#include "vision/top_view.hpp"

namespace referee {

// Terrain that may show a side colour over a whole base-sized patch: a roof (house), water
// and the water under a bridge. Known from the board file, so only there is a base-sized shape
// whose inside is nearly all the side colour taken for terrain: elsewhere it is a base with
// figures in its side colour (blue-coated infantry on a blue base).
bool MayShowSideColour(Terrain t);

// Terrain that may show a solid patch of a shade toward a side's colour: the above and roads
// (brown, toward red), where only a base's strict colour is taken for a filled base.
bool MayShowSolidSideShade(Terrain t);

// Where the board says terrain may show a side colour: its house, water and bridge squares and
// features, grown by `grow_px` (the blur at their edges), CV_8U 255 in the top view.
cv::Mat TerrainMask(const Board& board, const TopView& view, cv::Size size, int grow_px,
                    bool (*may_show)(Terrain) = MayShowSideColour);

bool InTerrain(const cv::Mat& terrain, const PxRect& r);

// A base-sized shape in terrain that may show a side colour (InTerrain) whose inside is one
// paint throughout and either mostly toward the side's colour (`toward`: ClassifyTowardSides
// with a wide cone) or departing from the mat (`mat_chroma`) toward the side's (`side_chroma`)
// at least as far as its border band does: water or a roof, not a base with figures. The
// second is for a paint off the side's hue (dark water under a webcam's JPEG lies 50 degrees
// from the blue bases' colour), whose edge the blur has mixed with the mat: a base's border is
// its side's paint, and what stands inside it is figures on flock.
bool LooksLikeTerrain(const cv::Mat& toward, const cv::Mat& chroma, const cv::Mat& valid,
                      const cv::Vec2f& mat_chroma, const cv::Vec2f& side_chroma, const PxRect& r,
                      double border_px, const StandDetectorOptions& options);

}  // namespace referee
