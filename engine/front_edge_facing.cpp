#include "engine/front_edge_facing.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace referee {

Facing FacingOf(const OrientedRect& footprint) {
  const Vec2 dir = footprint.FacingDir();
  return NearestFacing(RadToDeg(std::atan2(dir.y, dir.x)));
}

std::vector<FrontEdgeOption> FrontEdgeOptions(Vec2 point, const Stand& stand,
                                              const StandKind* kind) {
  const OrientedRect& footprint = stand.footprint;
  const bool square_base = kind ? std::abs(kind->width_mm - kind->depth_mm) <= 0.5
                                : std::abs(footprint.width_in - footprint.depth_in) <= 0.05;
  const double step_deg = square_base ? 90.0 : 180.0;
  std::vector<FrontEdgeOption> out;
  for (double turn_deg = 0.0; turn_deg < 359.0; turn_deg += step_deg) {
    FrontEdgeOption o;
    o.footprint = footprint;
    o.footprint.angle_deg = std::fmod(footprint.angle_deg + turn_deg, 360.0);
    // A quarter turn keeps the outline seen only with width and depth swapped.
    if (static_cast<int>(turn_deg / 90.0) % 2 == 1)
      std::swap(o.footprint.width_in, o.footprint.depth_in);
    o.facing = FacingOf(o.footprint);
    const auto c = o.footprint.Corners();  // front-left, front-right first
    o.distance_in = DistanceToSegment(point, c[0], c[1]);
    out.push_back(o);
  }
  return out;
}

std::vector<Facing> FacingsItMayPresent(const Stand& stand, const StandKind* kind) {
  std::vector<Facing> out;
  for (const FrontEdgeOption& o : FrontEdgeOptions(stand.footprint.center, stand, kind)) {
    if (std::ranges::find(out, o.facing) == out.end()) out.push_back(o.facing);
  }
  return out;
}

std::optional<Stand> TurnedToFace(const Stand& stand, const StandKind* kind, Facing facing) {
  for (const FrontEdgeOption& o : FrontEdgeOptions(stand.footprint.center, stand, kind)) {
    if (o.facing != facing) continue;
    Stand turned = stand;
    turned.footprint = o.footprint;
    turned.facing_known = true;
    return turned;
  }
  return std::nullopt;
}

bool StillWhereTold(const ToldFacing& told, const OrientedRect& seen) {
  constexpr double kNudgeIn = 0.25;
  constexpr double kTurnDeg = 10.0;
  const Vec2 moved = seen.center - told.at.center;
  if (std::sqrt(Dot(moved, moved)) > kNudgeIn) return false;
  // The outline's axes repeat every half turn; a square's every quarter turn.
  const bool square = std::abs(told.at.width_in - told.at.depth_in) <= 0.05 &&
                      std::abs(seen.width_in - seen.depth_in) <= 0.05;
  const double period_deg = square ? 90.0 : 180.0;
  const double diff = std::fmod(std::abs(seen.angle_deg - told.at.angle_deg), period_deg);
  return std::min(diff, period_deg - diff) <= kTurnDeg;
}

}  // namespace referee
