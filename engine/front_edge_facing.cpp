#include "engine/front_edge_facing.hpp"

#include <cmath>
#include <utility>

namespace referee {

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
    const Vec2 dir = o.footprint.FacingDir();
    o.facing = NearestFacing(RadToDeg(std::atan2(dir.y, dir.x)));
    const auto c = o.footprint.Corners();  // front-left, front-right first
    o.distance_in = DistanceToSegment(point, c[0], c[1]);
    out.push_back(o);
  }
  return out;
}

}  // namespace referee
