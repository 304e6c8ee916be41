// Whether a stand lies too close to the hit circle's edge for the camera to call. The camera
// puts the impact and each base's edge to within about a camera pixel, and under blur a base's
// edge to within a share of the blur (s60), not exactly: a stand
// a fraction of a millimetre inside the circle may truly be a fraction outside (`hard` seed 353
// scene 5: red-9 ruled 0.9 mm inside the circle was truly clear, and no check said so). Where
// moving the impact by up to that error changes who is hit, the players are told to measure,
// as they would with a tape on a close one, rather than given a ruling nobody can trust to the
// millimetre.
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

struct CloseCallOptions {
  // How far the camera may have put the impact relative to a base's edge, in camera pixels at
  // the impact (so a coarser camera is trusted less). Default 1: `referee bench accuracy`
  // prints how far the found impact-to-base distance lies from the truth's, in mm and camera
  // pixels, for the stands near the circle.
  double camera_px = 1.0;
  // Directions the impact is moved in (evenly spread), and the precision the distance at which
  // the ruling changes is found to, mm.
  int directions = 64;
  double precision_mm = 0.05;
  // How far from its square's centre a hand may have pressed a shell's dot, mm: added to the
  // camera's error when the dot was not seen and the shell was placed at that centre
  // (ProjectileObservation::dot_seen). Default 2, a sixth of the kit's 12 mm square; the board
  // file's `shell_dot_offset_mm` (CloseCallOptionsFor).
  double unseen_dot_mm = 2.0;
  // How far a Q-tip's tip may lie from one head length past the white stick, mm: added when
  // the painted head could not be told from the mat and the tip was put there
  // (ProjectileObservation::tip_from_edge). The board file's `qtip_head_spread_mm`.
  double unseen_tip_mm = 3.0;
  // How far a found base's edge may lie from the true one, as a share of the frame's blur
  // (StandDetection::blur_mm): a blur spreads the border's colour out past its edge, and a
  // tilted camera sees the side face facing it as more base. Combined with the camera pixel as
  // independent errors (root of the sum of squares). Default 0.6: on twelve generated runs
  // (`hard` 5, 331, 347, 353, 359, napoleonic, lamp and ancient 5, and four of them through a
  // generated webcam; `referee bench stands DIR --calibrate --side-errors`), 90 % of the found
  // bases' sides lay within 0.44-0.63 times the frame's blur of the truth's where it was blurred
  // (3-5 mm), 0.23-0.26 on sharp frames (under 2 mm). The pixel and this together take in 97.0 %
  // of 11320 sides (93.0 % on the worst run), the pixel alone 84.4 % (62.6 %).
  double edge_blur_share = 0.6;
};

// One stand whose ruling changes within the camera's error.
struct CloseStand {
  std::string id;
  bool hit_ruled = false;  // hit (a candidate or destroyed) as ruled
  double changes_mm = 0;   // how far from the ruled impact its ruling changes
};

struct CloseCallCheck {
  double error_mm = 0;   // how far the impact was moved: the camera's error plus `unseen_mm`
  double unseen_mm = 0;  // the part for a point placed from what was seen around it (no dot seen)
  // Where a base's edge may lie under the frame's blur, mm: part of the camera's error, with
  // the camera pixel as independent errors (CloseCallOptions::edge_blur_share).
  double edge_mm = 0;
  std::vector<CloseStand> stands;      // nearest change first
  Vec2 point_there;                    // the nearest impact at which the ruling changes, inches
  std::vector<std::string> hit_there;  // the stands hit there (sorted)
  std::vector<std::string> hit_ruled;  // ... and as ruled (sorted)
  std::string reason;                  // for the players: what to measure and why
};

// `hits(point)`: the ids of the stands the ruling hits with the impact at `point`. None when
// no impact within `error_mm` of `point` changes them. `error_said` tells the players what the
// error is made of (ends the reason).
std::optional<CloseCallCheck> CheckCloseCall(
    Vec2 point, double error_mm, const std::function<std::vector<std::string>(Vec2)>& hits,
    const CloseCallOptions& options = {}, const std::string& error_said = {});

// How far one camera pixel moves a point `height_in` above the mat at `point` (table inches),
// mm: the larger of the two image axes.
double MmPerCameraPxAt(const TopView& view, Vec2 point, double height_in);

// How far the camera may have put a found impact relative to a found base's edge, mm, and what
// that is made of, in the players' words.
struct CloseCallError {
  double pixel_mm = 0;   // a camera pixel at the impact (CloseCallOptions::camera_px of them)
  double edge_mm = 0;    // where a base's edge may lie under the frame's blur
  double unseen_mm = 0;  // a point placed without its mark seen (unseen_dot_mm / unseen_tip_mm)
  double total_mm = 0;   // hypot(pixel_mm, edge_mm) + unseen_mm
  std::string said;      // "the camera's error here (...) ..."
};

// The error at `projectile`'s point, the frame's blur blur_mm (StandDetection::blur_mm of the
// search that found the bases, 0 if unknown).
CloseCallError CloseCallErrorAt(const ProjectileObservation& projectile, const TopView& view,
                                double blur_mm, const CloseCallOptions& options = {});

// CheckCloseCall with the engine's ruling (RulingHitsAt) and the error CloseCallErrorAt the
// projectile's ruled point.
std::optional<CloseCallCheck> CheckRulingCloseCall(
    const ProjectileObservation& projectile, const TopView& view, const Board& board,
    const std::vector<Stand>& stands, const Shot& shot, const StandKindCatalog& catalog,
    const ShotOptions& rules, double blur_mm, const CloseCallOptions& options = {});

}  // namespace referee
