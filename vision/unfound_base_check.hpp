// A base the stand search missed may lie under the hit circle, and then the verdict says "miss"
// with a confidence it does not have. After the ruling, the `before` top view in and just around
// the circle is searched for a side's colour that no found stand explains: a patch the size of a
// piece of a base's border, outside every found stand as the camera sees it (its base and its
// figures leaning away from the camera, grown for the blur). The shot is still adjudicated; the
// players are asked to look there.
#pragma once

#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "engine/board.hpp"
#include "engine/geometry.hpp"
#include "vision/stand_detector.hpp"
#include "vision/top_view.hpp"

namespace referee {

struct UnfoundBaseOptions {
  // How far past the hit circle a patch may begin, mm: the blur and a base's 2.5 mm height move
  // its border a little in the top view. Default 3.
  double reach_mm = 3.0;
  // Each found stand's outline is grown by this before it explains a colour, mm (blur, edge
  // error). Default 3; raise for a very soft camera.
  double footprint_margin_mm = 3.0;
  // Terrain the board places that may show a side's shade over a whole patch: roofs are left
  // out; on water, a bridge or a road (a brown road toward red) only the side's strict colour
  // counts, not its washed-out shades. Houses and bridges are taken where the camera sees them
  // this tall, mm (StandDetectorOptions::tall_terrain_height_mm). Default 80.
  double tall_terrain_height_mm = 80.0;
  // Tallest figures on a base, mm above its top (TABLE_KIT: up to ~25): a found stand's figures
  // painted near a side colour are seen this far up, leaning away from the camera. Default 25.
  double figure_height_mm = 25.0;
  // Height of a base's top above the mat, mm (StandDetectorOptions::base_height_mm). Default 2.5.
  double base_height_mm = 2.5;
  // A border blurred into the mat keeps only part of its colour: pixels at least this far from
  // the mat's chroma toward a side's (0..1; 1 takes the strict colour gate only), within the
  // cone (a fraction of that distance off the line), count as that side's. Default 0.3 (the
  // borders the search missed on `hard` keep 0.3-0.5 of their colour).
  double toward_min_fraction = 0.3;
  double toward_cone = 0.5;
  // A camera that washes a side's colour toward the mat leaves its borders short of that bar
  // (0.2-0.3 of the way through a webcam losing a quarter of the saturation): where 3 or more
  // of the side's stands were found, their borders show how far this camera leaves its colour
  // (with fewer, every side's found borders: one camera washes both alike), and the bar is
  // lowered to this share of their median departure (MeasureRingDeparture), never under
  // washed_min_fraction. Defaults 0.7 (as WashoutOptions::lone_ring_min_share) and
  // 0.15 (WashoutOptions::min_fraction); 0 keeps the bar where it is.
  double washout_share = 0.7;
  double washed_min_fraction = 0.15;
  // Smallest patch of side colour that counts, mm^2: a stretch of border at least
  // min_border_mm wide and min_length_mm long shows about their product. Default 36 (3 x 12).
  double min_area_mm2 = 36.0;
  // ... and its longest extent, mm: a piece of a 40 mm base's border, not a speck of paint or
  // a figure's coat. Default 12.
  double min_length_mm = 12.0;
};

// Something of a side's colour in or beside the hit circle that no found stand explains.
struct UnfoundBaseCheck {
  std::string reason;    // what was seen, for players
  std::string side;      // whose colour
  Vec2 point;            // table inches: the patch's point nearest the circle's centre
  double area_mm2 = 0;   // the patch's area (the whole patch, also outside the circle)
  double length_mm = 0;  // its longest extent
  // Set when most of the patch lies on water, a bridge or a road that shows the side's own
  // colour: the terrain's name ("water", "bridge", "road"); the ground itself may be all the
  // camera saw, so this asks the players to look rather than says a base was missed.
  std::string ground;
};

// stands: the stand search of `top_before` (its side masks, colour and the stands found);
// centre and radius: the verdict's hit circle, table inches; board (optional): its terrain.
// One check per side at most (its largest patch), sides in the model's order; empty when
// nothing is unexplained.
std::vector<UnfoundBaseCheck> FindUnfoundBases(const TopView& view, const StandDetection& stands,
                                               Vec2 centre, double hit_radius_in,
                                               const Board* board = nullptr,
                                               const UnfoundBaseOptions& options = {});

}  // namespace referee
