// Whether a stand lies too close to the hit circle's edge for the camera to call. The camera
// puts the impact and each base's edge to within about a camera pixel, not exactly: a stand
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
};

// One stand whose ruling changes within the camera's error.
struct CloseStand {
  std::string id;
  bool hit_ruled = false;  // hit (a candidate or destroyed) as ruled
  double changes_mm = 0;   // how far from the ruled impact its ruling changes
};

struct CloseCallCheck {
  double error_mm = 0;             // the camera's error at the impact: how far the impact was moved
  std::vector<CloseStand> stands;  // nearest change first
  Vec2 point_there;                // the nearest impact at which the ruling changes, inches
  std::vector<std::string> hit_there;  // the stands hit there (sorted)
  std::vector<std::string> hit_ruled;  // ... and as ruled (sorted)
  std::string reason;                  // for the players: what to measure and why
};

// `hits(point)`: the ids of the stands the ruling hits with the impact at `point`. None when
// no impact within `error_mm` of `point` changes them.
std::optional<CloseCallCheck> CheckCloseCall(
    Vec2 point, double error_mm, const std::function<std::vector<std::string>(Vec2)>& hits,
    const CloseCallOptions& options = {});

// How far one camera pixel moves a point `height_in` above the mat at `point` (table inches),
// mm: the larger of the two image axes.
double MmPerCameraPxAt(const TopView& view, Vec2 point, double height_in);

// The same with the engine's ruling (RulingHitsAt) and the camera's error at the projectile's
// ruled point.
std::optional<CloseCallCheck> CheckRulingCloseCall(
    const ProjectileObservation& projectile, const TopView& view, const Board& board,
    const std::vector<Stand>& stands, const Shot& shot, const StandKindCatalog& catalog,
    const ShotOptions& rules, const CloseCallOptions& options = {});

}  // namespace referee
