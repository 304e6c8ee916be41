// Whether the height a projectile lying on a stand is ruled at decides the ruling. One camera
// does not measure that height: the referee puts a shot on a base's figures at the board file's
// figure height and one on a bare top at the base's thickness, and the point moves along the
// camera ray with the height (20 mm at 30" from the foot of a 100" camera is 6 mm). Real figures
// stand anywhere from a few millimetres to ~25 mm (TABLE_KIT), and the bare-top-or-figures call
// can be wrong under blur. So the heights it could truly lie at, from the bare top to the
// tallest figures, are tried: where one of them changes which stands are hit, the players are
// told the height at which it changes, something they can measure with a ruler.
// A base the camera could not tell the size of is tried at each size it allows as well: the
// size check asks only at the ruled height and this one alone only at the size reported (`hard`
// seed 359 scene 6: a Q-tip across a 40 x 30 base found 40 x 23 was put on the mat 17 mm below
// its figures, and blue-10 was hit only at the true size and a height on its figures: both
// checks stayed silent).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "engine/geometry.hpp"
#include "engine/scene.hpp"
#include "engine/shot_adjudication.hpp"
#include "vision/projectile_detector.hpp"
#include "vision/top_view.hpp"

namespace referee {

struct RestHeightCheckOptions {
  // Base thickness, mm (TABLE_KIT: 2-3). Default 2.5.
  double base_height_mm = 2.5;
  // Tallest figures a projectile may lie on, above the base top, mm. Default 25 (TABLE_KIT:
  // figures up to ~25 mm); never below the board file's figure height.
  double max_figure_height_mm = 25.0;
  // How high the ruled point lies above what holds it up, mm: the shell's dot is on its top
  // (TABLE_KIT: 5 mm thick), a Q-tip's tip on its head's axis (heads 5 mm thick).
  double shell_thickness_mm = 5.0;
  double qtip_head_radius_mm = 2.5;
  // Spacing of the heights tried, mm. Default 0.5.
  double step_mm = 0.5;
  // How far the camera may have put the point itself, mm: the height that decides is only as
  // sure as the point, and near the camera's foot a height moves it little (1 mm of point is
  // 10 mm of height where a millimetre of height moves it 0.1 mm). Default 1 (the impact's
  // error on generated 1080p tables is 0.1-0.7 mm median, 1-2.5 mm p95).
  double point_error_mm = 1.0;
};

struct RestHeightCheck {
  std::string stand_id;          // the stand it lies on
  double ruled_height_mm = 0;    // the ruled point's height above the mat
  double decides_height_mm = 0;  // the nearest height to it at which the ruling differs
  // ... give or take this, mm: the point's own error over how far a millimetre of height moves
  // it there.
  double decides_within_mm = 0;
  Vec2 point_there;                    // where the point lies at that height, table inches
  std::vector<std::string> hit_there;  // the stands hit at that height
  std::vector<std::string> hit_ruled;  // ... and as ruled (sorted)
  // The stand and base size that takes as well ("line_cavalry 40 x 30 mm", one the camera could
  // not rule out), where at the size reported no height changes the ruling; empty when none.
  std::string outline_stand_id;
  std::string outline;
  std::string reason;  // for the players: what to measure and what it changes
};

// The ruling with one stand at another base size the camera allows: `outline` names it for the
// players, `hits` rules a point as `CheckRestHeight`'s does.
struct RulingAtOutline {
  std::string stand_id;
  std::string outline;
  std::function<std::vector<std::string>(Vec2)> hits;
};

// `hits(point)`: the ids of the stands the ruling hits with the impact at `point` (sorted or
// not). None when the projectile lies on the mat or no height it could lie at on its stand
// changes them, at the stands as reported or at any of `at_other_outlines` (each tried where it
// rules the point as reported at the ruled height: where the size alone decides, the verdict
// asks for it already).
std::optional<RestHeightCheck> CheckRestHeight(
    const ProjectileObservation& projectile, const TopView& view,
    const std::function<std::vector<std::string>(Vec2)>& hits,
    const RestHeightCheckOptions& options = {},
    const std::vector<RulingAtOutline>& at_other_outlines = {});

// The same with the engine's ruling: the stands hit are the shot's candidates and the
// equipment it destroys, `shot` ruled again with its point at each height, and with each stand
// within the report radius of where it could lie at each other base size it allows.
std::optional<RestHeightCheck> CheckRulingHeight(const ProjectileObservation& projectile,
                                                 const TopView& view, const Board& board,
                                                 const std::vector<Stand>& stands, Shot shot,
                                                 const StandKindCatalog& catalog,
                                                 const ShotOptions& rules,
                                                 const RestHeightCheckOptions& options = {});

// The base and figure heights the projectile search placed it with (the board file's, through
// ApplyBoardKit): the tallest figures tried are TABLE_KIT's ~25 mm or the club's, if taller.
RestHeightCheckOptions RestHeightCheckOptionsFor(const ProjectileOptions& projectile);

}  // namespace referee
