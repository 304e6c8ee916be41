// Bases that run on under terrain taller than their figures (a tree crown, a rock, a house, a
// bridge deck). The camera sees only the part outside it, so the colour frame ends where the
// terrain begins, with no border there: the base is found one or two catalogue sizes short and
// its kind is guessed wrong. Such a side is "open": the band just inside it shows no border and
// what lies just past it is the terrain (in the board's tall-terrain area, not the bare mat).
// The base is completed only where the image leaves one catalogue size: its extension shows no
// bare mat (a base there would hide it), no other base, and part of its far border is seen
// beside the terrain. Otherwise it is only marked, for the players to check.
#pragma once

#include <vector>

#include <opencv2/core.hpp>

#include "vision/px_rect.hpp"

namespace referee {

struct TallTerrainExtentOptions {
  // A side is open when at most this fraction of the band 0.5-2.5 mm inside it (middle 70 %)
  // leans toward the side's colour (a border seen there shows 0.8-1.0, washed out 0.5-0.8;
  // figures in the side's colour up to about 0.3) ... Default 0.4.
  double max_open_side_border = 0.4;
  // ... and at least this fraction of the strip 0.5-3 mm outside it lies in the tall terrain's
  // area and is not bare mat. Default 0.5.
  double min_open_side_terrain = 0.5;
  // A completion is refused when more than this fraction of its added border samples shows
  // bare mat (a base there would cover it). Default 0.1.
  double max_mat_fraction = 0.1;
  // ... and needs this fraction of its far border band (0.5-2.5 mm in) showing the side's
  // colour or a white front stripe: the far border seen beside the terrain fixes the size.
  // Default 0.15 (the demo's light cavalry beside the rock shows 0.19-0.26).
  double min_far_border_seen = 0.15;
  // ... or a flank's border seen running on to within min_border_mm + flank_end_slack_mm of
  // its far edge; a flank seen running on past that edge by more than the slack refuses it
  // (the base is longer). Default 1.5 mm (the edge's blur).
  double flank_end_slack_mm = 1.5;
  // Thinnest border, mm (StandDetectorOptions::min_border_mm).
  double min_border_mm = 3.0;
  // ... and this fraction of the added area in the tall terrain's area (grown by its margin).
  // Default 0.9.
  double min_extension_hidden = 0.9;
  // Where the border is sampled, mm in from an edge (RingFitOptions::inner_depth_mm).
  double border_depth_mm = 1.5;
  // How far a base may differ from a catalogue size, mm (StandDetectorOptions).
  double size_tolerance_mm = 5.0;
};

struct TallTerrainExtent {
  bool partly_hidden = false;  // a side is open under tall terrain
  bool completed = false;      // `rect` grown to the one catalogue size the image allows
  PxRect rect;                 // the base (grown when completed)
  int open_side = -1;          // 0..3 (-a, +a, -b, +b) when exactly one side is open
};

// The top-view masks (CV_8U, 255) the decision reads.
struct TallTerrainMasks {
  cv::Mat side_colour;  // the base's side colour (the strict gate): a border seen
  cv::Mat toward_side;  // part of the way toward it (loose): what may still be a border
  cv::Mat white;        // white paint (a front stripe painted over the border)
  cv::Mat mat;          // bare mat (BareMatMask)
  cv::Mat tall;         // where the board's tall terrain is seen (no margin)
  cv::Mat hidden;       // the same grown by its margin (canopies spread past the outline)
};

// r: a found base (top-view px); others: every other base found (any side). mm_per_px:
// top-view scale.
TallTerrainExtent ExtendUnderTallTerrain(const PxRect& r, const TallTerrainMasks& masks,
                                         const std::vector<PxRect>& others, double mm_per_px,
                                         const std::vector<BaseSize>& sizes,
                                         const TallTerrainExtentOptions& options = {});

// Where the top view shows bare mat: valid pixels whose balanced chroma (BalancedChroma) lies
// within max_distance of mat_chroma. Default 0.1 (about 10 % in each channel ratio).
cv::Mat BareMatMask(const cv::Mat& chroma, const cv::Mat& valid, const cv::Vec2f& mat_chroma,
                    double max_distance = 0.1);

}  // namespace referee
