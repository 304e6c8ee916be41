// Stand bases in the rectified top view. A base shows a frame of its side colour (>= 3 mm) on
// its top; figures inside may be any colour. Each side's colour mask is split into connected
// components; a component that is one base's size becomes a stand, a larger one (bases
// touching in a row or a 2x2 block) is cut along its seams (two borders side by side give a
// band of side colour between two straight lines, from one outer border to the other; a
// side-coloured figure lying across a base is curved or tapers) until every piece is one base.
// Shapes that no catalogue base explains (a red roof, a shadow, a painted figure) are dropped. The
// base top is 2-3 mm above the mat: the found rectangle is moved along the camera ray to that
// height through the calibrated pose.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "engine/board.hpp"
#include "engine/grid.hpp"
#include "engine/stand.hpp"
#include "vision/base_ring_fit.hpp"
#include "vision/blurred_growth.hpp"
#include "vision/blurred_ring_fit.hpp"
#include "vision/blurred_stripe_fit.hpp"
#include "vision/changed_base_fits.hpp"
#include "vision/filled_base_fit.hpp"
#include "vision/front_stripe.hpp"
#include "vision/side_color_model.hpp"
#include "vision/table_change.hpp"
#include "vision/tall_terrain_extent.hpp"
#include "vision/top_view.hpp"
#include "vision/untold_side.hpp"
#include "vision/washed_side_refit.hpp"

namespace referee {

struct StandDetectorOptions {
  // Height of a base's top above the mat, mm (TABLE_KIT: 2-3). Default 2.5; set to your bases.
  double base_height_mm = 2.5;
  // Thinnest side-colour border, mm (TABLE_KIT: >= 3). Default 3.
  double min_border_mm = 3.0;
  // How far a found base may differ from a catalogue size and still be that kind, mm.
  // Default 5; raise for hand-cut bases, lower if two of your base sizes differ by < 10 mm.
  double size_tolerance_mm = 5.0;
  // Touching bases are cut apart along seams: two borders side by side. A seam must be at least
  // this many times as wide as the piece's outer border (both as the mask shows them, blur
  // included). Default 1.3 (two borders measure 1.6-2.0 times one). Lower if your bases touch
  // with a visible gap between them.
  double min_seam_border_ratio = 1.3;
  // ... and straight: the fraction of the seam's middle 70 % where both its sides lie within
  // 1.5 px of two straight lines (the borders' inner edges). Default 0.85 (drawn and blurred
  // seams 0.95-1.0; side-coloured figures lying across a base, such as a gun barrel, 0.4-0.77).
  // Lower if figures overhang the borders where your bases touch.
  double min_seam_straightness = 0.85;
  // Fraction of a base's border band that must show the side colour. Default 0.6; lower when
  // figures overhang the borders a lot.
  double min_border_coverage = 0.6;
  // In squares the board file marks as house, water or bridge (terrain that may show a side
  // colour), a base-sized shape whose inside is more than this fraction toward the side's
  // colour and one paint throughout (below) is taken for terrain (a roof, water). Default 0.6.
  double max_terrain_inner_fraction = 0.6;
  // ... one paint: this fraction of the inside, its colour averaged over 3 x 3 pixels, within
  // 27 % (each channel ratio) of its median colour. Default 0.7 (water and roofs 0.92-1.0 on
  // lossless generated scenes, 0.75-1.0 at JPEG quality 80 but for one roof at 0.68; bases with
  // figures at most 0.36, but one under `hard` 19's blur 0.80, s38). Raise if your figures there
  // are painted all in one colour.
  double min_terrain_uniformity = 0.7;
  // ... or, one paint as above, its inside departing from the mat toward the side's colour at
  // least this many times as far as its border band does: a paint off the side's hue, its edge
  // blurred into the mat (vision/terrain_lookalike.hpp). Default 1.0 (at JPEG quality 80, dark
  // water beside a bridge 1.34-1.78 and a bridge's brown deck under `hard` 19's blur 1.02; the
  // 13 true bases on 22 sets read at most 0.94, the one whose top reads one paint, `hard` 17 in
  // a bridge square under heavy blur, 0.84).
  double min_terrain_inside_to_border = 1.0;
  // Re-fit each side's colour from the borders found in a first pass, then detect again.
  // Default on; turn off to save time when the colour model was sampled from this camera.
  bool refit_colors = true;
  // A side that refit could not fit to this frame (its borders washed below the colour gate):
  // the blurred rings fitted again toward the washed colour its bases found so far show.
  WashedSideOptions washed_sides;
  // Washed-out rings too few to refit their side's colour from, placed when they show that
  // colour as far as the side's found bases do (AddLoneRings in vision/washed_out_bases.hpp).
  // Default on (with refit_colors).
  bool place_lone_rings = true;
  // The washed-out rings those come from, and the ones AddWashedOutBases refits a side from,
  // are thick where the frame spreads a border's hue past its edge (a webcam's halved chroma:
  // 5.75 mm on ancient 5 scene 17): their outside is sampled no nearer the edge than the frame's
  // blur (EdgeBlurMm), where that is further than ring_fit.outer_gap_mm (sampled nearer, the true
  // size shows its own border outside and a smaller one fitted inside the ring wins); each
  // place counts once toward the rings that must agree, and none where another side's washed
  // ring lies too; and once the side is refitted, its rings are fitted in the refitted mask as
  // well as its blobs, each only where a ring that agreed lies, and placed (as the refit's blob
  // bases are, with or without this option) once the ring and blob searches have had their
  // look (PlaceRefittedBases). Default on.
  bool thick_washed_rings = true;
  // Patches of a side's washed hue with figures on them, placed as that side's bases
  // (AddWashedBasesWithFigures in vision/washed_out_bases.hpp) and marked for the players to
  // check, as lone rings are. Default on (with refit_colors).
  bool place_washed_figure_bases = true;
  // A base whose border band clearly shows another side's colour, and more than its own, is
  // moved to that side (vision/band_side.hpp): a looser pass fitted it toward the wrong colour.
  // Default on.
  bool move_to_band_side = true;
  // Second look for bases the colour blobs missed: a ring of a catalogue size fitted to the
  // border evidence left over (see vision/base_ring_fit.hpp), for borders partly hidden
  // (canopies, figures over them), washed out by blur, or around figures painted near the
  // side colour. Default on; turn off only to measure what it adds.
  bool fit_partial_borders = true;
  // Terrain the board file places that stands taller than a base and may hide part of one
  // (woods, houses, rocks, bridge decks): its outline, seen from the calibrated camera at this
  // height (leaning away from the camera's foot), is where a partial border may be fitted on
  // the part of its ring not hidden (RingFitOptions::min_seen_ring_fraction). Default 80 mm
  // (model trees and houses are 40-100 mm); raise for taller scenery.
  double tall_terrain_height_mm = 80.0;
  // ... grown by this much for canopies and eaves spreading past the outline. Default 10 mm.
  double tall_terrain_margin_mm = 10.0;
  RingFitOptions ring_fit;
  // Fourth look, under a blur wider than the border: the blurred ring fit (see
  // vision/blurred_ring_fit.hpp); its figure_top_shift_px is set from the view.
  BlurredRingOptions blurred_ring;
  // ... and, on such a frame, a base found short of its catalogue size (its half whose figures
  // end the colour blob) grown where the larger size's blurred ring explains the band better.
  BlurredGrowthOptions blurred_growth;
  // Bases running on under such terrain (see vision/tall_terrain_extent.hpp).
  // size_tolerance_mm is taken from above.
  TallTerrainExtentOptions tall_terrain_extent;
  // Third look: bases whose border and figures show as one solid patch of the side's colour
  // (figures painted near it, or a small base under blur as wide as its border), fitted as a
  // solid rectangle of a catalogue size (see vision/filled_base_fit.hpp). Default on; turn off
  // only to measure what it adds.
  bool fit_filled_bases = true;
  FilledFitOptions filled_fit;
  // Facing from the white front stripe (see vision/front_stripe.hpp).
  FrontStripeOptions front_stripe;
  // ... and, under a blur wider than the stripe, from a blurred stripe's fitted profile (see
  // vision/blurred_stripe_fit.hpp) where the windows above find none.
  BlurredStripeOptions blurred_stripe;
  // A base whose border shows on one side of an axis and not on the other is reported with the
  // other catalogue sizes along that axis, for the players to confirm where the size decides
  // (see vision/untold_side.hpp). Default on.
  bool report_untold_sizes = true;
  UntoldSideOptions untold_side;
  // Kinds to prefer when several catalogue kinds share a base size (first match wins), e.g.
  // line_infantry before foot_crew. Empty: alphabetical catalogue order.
  std::vector<std::string> kind_preference{"line_infantry",  "line_cavalry",  "field_gun",
                                           "heavy_infantry", "heavy_cavalry", "chariot"};
  // With a view of the empty table (DetectStands' empty_top): the share of a base's top that
  // must have changed since (see DropUnchangedBases). Default 0.1.
  double min_changed_share = 0.1;
  TableChangeOptions table_change;
  // ... and a second ring fit on the border evidence where the table changed since (see
  // vision/changed_base_fits.hpp). Default on; turn off only to measure what it adds.
  bool fit_changed_rings = true;
  ChangedFitOptions changed_fit;
};

struct DetectedStand {
  Stand stand;                   // id "<side>-<n>", side, guessed kind, footprint (table inches)
  std::optional<Square> square;  // the square holding the centre, if on the board
  double border_coverage = 0;    // 0..1, how much of the border band showed the side colour
  double white_stripe = 0;       // 0..1, whiteness of the front band (facing evidence)
  // A side of the base runs on under terrain the board places taller than a base (woods,
  // houses, rocks, bridge decks), as the camera sees it: no border where the terrain begins.
  // Its size and kind may be short: the players should check it.
  bool partly_hidden = false;
  // ... and it was grown across that side to the one catalogue size the image allows.
  bool completed_under_terrain = false;
  // Found only on faint border evidence: where the table changed since it was seen empty
  // (vision/changed_base_fits.hpp), or a lone ring or a patch with figures of a side's colour
  // washed out by the camera (AddLoneRings, AddWashedBasesWithFigures in
  // vision/washed_out_bases.hpp): its place, size and angle are the players' to check.
  bool faint_border = false;
};

struct StandDetection {
  std::vector<DetectedStand> stands;
  SideColorModel colors;            // the colour model after re-fitting to this view
  std::vector<cv::Mat> side_masks;  // per side, top-view mask used for the final pass
  // The view's colour as the search read it (BalancedChroma: CV_32FC2 chroma, CV_8U validity,
  // the mat's chroma), for later looks at the same frame (vision/unfound_base_check).
  cv::Mat chroma, valid;
  cv::Vec2f mat_chroma{0, 0};
  // How far this frame's blur spreads a base's colour past its edge, mm (EdgeBlurMm on the
  // bases first found; 0 when too few were): how far a found base's edge may lie from the
  // true one grows with it (vision/close_call_check.hpp).
  double blur_mm = 0;
};

// empty_top (optional): the top view, through the same calibration or another of the same
// board, of the table with its terrain and clutter in place and no stand on it (taken before the
// armies are deployed). A base found where nothing changed since is dropped (see
// StandDetectorOptions::min_changed_share), and a faint border that shows only where the table
// changed is fitted there and marked DetectedStand::faint_border (fit_changed_rings). Never pass
// a view with stands on it: a stand that has not moved since would be dropped.
// board (optional): its house, water and bridge squares and features are where terrain in a
// side's colour may lie; a base-sized shape there whose inside is one paint toward the side's
// colour (no figures) is taken for terrain, and a partly hidden border is fitted there only to
// the strict side colour (the blurred edge of water or a roof looks like a faint border).
StandDetection DetectStands(const cv::Mat& top_bgr, const TopView& view,
                            const SideColorModel& colors, const StandKindCatalog& catalog,
                            const StandDetectorOptions& options = {}, const Board* board = nullptr,
                            const cv::Mat& empty_top = cv::Mat());

}  // namespace referee
