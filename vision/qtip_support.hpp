// What a Q-tip lies on, and so how high its ends are above the mat. The top view shows every
// point where its camera ray meets the mat; a raised end must be moved back along that ray
// (TopView::TableAtHeight), so a wrong height moves the impact by height x (distance from the
// camera's foot / camera height): 20 mm at 30" from the foot of a 100" camera is 6 mm.
// The height cannot be read from one camera: it comes from what lies under the stick, seen in
// the `before` view: the mat, a bare base top, or the figures on a base (a stick across a
// base rests on its tallest figures; a top of nothing but its border's colour is figures of the
// side colour over the interior). A stick whose middle is over the figures lies level on
// them; one whose middle is beyond them tips over their edge until its other end rests on the
// mat or a base, so its height varies along it and the end over the figures is the highest.
#pragma once

#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "engine/geometry.hpp"
#include "vision/stand_detector.hpp"
#include "vision/top_view.hpp"

namespace referee {

struct QtipSupportOptions {
  // Base thickness, mm (TABLE_KIT: 2-3). Default 2.5.
  double base_height_mm = 2.5;
  // Height of the figures' tops above the base top where a stick lying across them rests,
  // mm. Default 20: TABLE_KIT figures are up to ~25 mm and a stick rests on the tallest under
  // it. Set it to your miniatures' height (a 6 mm scale army: ~8).
  double figure_height_mm = 20.0;
  // Q-tip radii, mm (TABLE_KIT: stick 2.5, heads 5 thick). The axis lies one radius above
  // what it rests on: the heads' on a flat mat or base, the stick's across figures.
  double stick_radius_mm = 1.25;
  double head_radius_mm = 2.5;
  // Width of a base's side-colour border, mm: figures stand inside it. Default 3.
  double border_mm = 3.0;
  // Share of a base's interior that must differ from its border colour for it to carry
  // figures, 0..1. Default 0.08 (a gun and its crew may cover little); a bare base (no figures)
  // shows its top colour throughout.
  double min_figure_cover = 0.08;
  // Share of the `before` pixels under a piece of the stick (a sample's length, the stick's
  // width plus 1 mm) that must show figures (not the bare base top) for that piece to count,
  // 0..1. Default 0.25: a rank of heads or muskets under a 2.5 mm stick covers a quarter to a
  // half of such a piece; less is the blur of a figure's edge.
  double min_piece_share = 0.25;
  // Shortest length of stick over figures for it to rest on them, mm: each counted piece adds
  // its length times its figure share. Default 3: less is a figure's edge grazed by the blur of
  // the stick's outline.
  double min_figure_run_mm = 3.0;
  // How far (share of the length) the stick's middle may lie beyond the figures under it and
  // still balance level on them; further out it tips over their edge until its other end
  // rests on the mat or a base. Default 0.1 (7.5 mm).
  double balance_margin = 0.1;
  // Largest change (levels, any channel) between `before` and the lighting-corrected `after`
  // at a pixel on the stick's axis for the stick not to be seen there. Default 12: sensor
  // noise and JPEG stay under it; the white stick over a figure's paint changes it by far more.
  double max_unseen_change = 12.0;
  // Share of a piece's axis pixels that must show the `before` figures unchanged (where the stick,
  // if seen, would plainly change them) for that piece to lie behind them, 0..1. Default 0.5.
  double min_hidden_share = 0.5;
  // A base whose whole top reads as its border's colour (TopOfBordersColour) carries figures
  // of that colour over its interior (TABLE_KIT: figures cover it): a stick over the interior
  // lies on them. Off: such a base holds no figures. Default on.
  bool own_colour_top_holds_figures = true;
};

struct QtipSupport {
  double tip_height_in = 0;    // axis height at the painted end's tip (the stick may slope)
  double plain_height_in = 0;  // axis height at the plain end
  std::string stand_id;        // the stand it rests on, empty on the mat
  std::string what;            // "mat", "base" or "figures"
  // The stand whose figures were seen standing in front of the stick along a figure run's worth
  // of it (so it lies lower than they stand), empty when none.
  std::string hidden_by;
};

// `tip_on_mat`, `plain_on_mat`: where the two outer ends appear in the top view, table inches
// on the mat plane. `top_before`: the rectified view before the shot (figures or bare bases).
// `top_after_lit`: the rectified view after the shot with the lighting change divided out
// (CV_8UC3), or empty. A stick lying on figures is nearer the camera than they are, so it is
// seen over them; where `after` still shows the figures unchanged along the stick's axis (and
// they are unlike the stick), they stand between the camera and the stick: it lies lower,
// beside or behind them, and those figures do not hold it up.
QtipSupport QtipRestHeights(Vec2 tip_on_mat, Vec2 plain_on_mat, const TopView& view,
                            const cv::Mat& top_before, const std::vector<DetectedStand>& stands,
                            const QtipSupportOptions& options = {},
                            const cv::Mat& top_after_lit = cv::Mat());

// Share of a stand's interior (inside its border) that shows figures: a colour like neither
// the border's nor the bare interior's (see StandSurface), 0..1. `top`: a rectified view.
double FigureCover(const DetectedStand& stand, const TopView& view, const cv::Mat& top,
                   double border_mm);

}  // namespace referee
