// Stand bases in the rectified top view. A base shows a frame of its side colour (>= 3 mm) on
// its top; figures inside may be any colour. Each side's colour mask is split into connected
// components; a component that is one base's size becomes a stand, a larger one (bases
// touching in a row or a 2x2 block) is cut along its seams (two borders side by side give a
// band where the whole cross-section is side colour) until every piece is one base. Shapes
// that no catalogue base explains (a red roof, a shadow, a painted figure) are dropped.
// The base top is 2-3 mm above the mat: the found rectangle is moved along the camera ray to
// that height through the calibrated pose.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "engine/board.hpp"
#include "engine/grid.hpp"
#include "engine/stand.hpp"
#include "vision/base_ring_fit.hpp"
#include "vision/side_color_model.hpp"
#include "vision/top_view.hpp"

namespace referee {

struct StandDetectorOptions {
  // Height of a base's top above the mat, mm (TABLE_KIT: 2-3). Default 2.5; set to your bases.
  double base_height_mm = 2.5;
  // Thinnest side-colour border, mm (TABLE_KIT: >= 3). Default 3.
  double min_border_mm = 3.0;
  // How far a found base may differ from a catalogue size and still be that kind, mm.
  // Default 5; raise for hand-cut bases, lower if two of your base sizes differ by < 10 mm.
  double size_tolerance_mm = 5.0;
  // Fraction of a base's border band that must show the side colour. Default 0.6; lower when
  // figures overhang the borders a lot.
  double min_border_coverage = 0.6;
  // In squares the board file marks as house, water or bridge (terrain that may show a side
  // colour), a base-sized shape whose inside is more than this fraction side colour is taken
  // for terrain (a roof, water). Default 0.6: a base's figures leave more of its inside another
  // colour. Raise if your figures there are painted all in the side colour.
  double max_terrain_inner_fraction = 0.6;
  // Re-fit each side's colour from the borders found in a first pass, then detect again.
  // Default on; turn off to save time when the colour model was sampled from this camera.
  bool refit_colors = true;
  // Second look for bases the colour blobs missed: a ring of a catalogue size fitted to the
  // border evidence left over (see vision/base_ring_fit.hpp), for borders partly hidden
  // (canopies, figures over them), washed out by blur, or around figures painted near the
  // side colour. Default on; turn off only to measure what it adds.
  bool fit_partial_borders = true;
  RingFitOptions ring_fit;
  // Kinds to prefer when several catalogue kinds share a base size (first match wins), e.g.
  // line_infantry before foot_crew. Empty: alphabetical catalogue order.
  std::vector<std::string> kind_preference{"line_infantry",  "line_cavalry",  "field_gun",
                                           "heavy_infantry", "heavy_cavalry", "chariot"};
};

struct DetectedStand {
  Stand stand;                   // id "<side>-<n>", side, guessed kind, footprint (table inches)
  std::optional<Square> square;  // the square holding the centre, if on the board
  double border_coverage = 0;    // 0..1, how much of the border band showed the side colour
  double white_stripe = 0;       // 0..1, whiteness of the front band (facing evidence)
};

struct StandDetection {
  std::vector<DetectedStand> stands;
  SideColorModel colors;            // the colour model after re-fitting to this view
  std::vector<cv::Mat> side_masks;  // per side, top-view mask used for the final pass
};

// board (optional): its house, water and bridge squares and features are where terrain in a
// side's colour may lie; a base-sized shape there that is nearly all one colour (no figures) is
// taken for terrain.
StandDetection DetectStands(const cv::Mat& top_bgr, const TopView& view,
                            const SideColorModel& colors, const StandKindCatalog& catalog,
                            const StandDetectorOptions& options = {}, const Board* board = nullptr);

}  // namespace referee
