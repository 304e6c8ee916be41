#include "engine/front_edge_facing.hpp"

#include <cmath>

namespace referee {

bool IsSquareBase(double width_in, double depth_in, double tolerance_in) {
  return std::abs(width_in - depth_in) <= tolerance_in;
}

std::vector<FrontEdgeOption> FrontEdgeOptions(Vec2 point, const OrientedRect& footprint,
                                              bool square_base) {
  const double step_deg = square_base ? 90.0 : 180.0;
  std::vector<FrontEdgeOption> out;
  for (double turn_deg = 0.0; turn_deg < 359.0; turn_deg += step_deg) {
    FrontEdgeOption o;
    o.footprint = footprint;
    o.footprint.angle_deg = std::fmod(footprint.angle_deg + turn_deg, 360.0);
    if (square_base) {
      // Turned a quarter, a square base keeps its outline: width and depth stay where they lie.
      o.footprint.width_in = footprint.width_in;
      o.footprint.depth_in = footprint.depth_in;
      if (static_cast<int>(turn_deg / 90.0) % 2 == 1) {
        o.footprint.width_in = footprint.depth_in;
        o.footprint.depth_in = footprint.width_in;
      }
    }
    const Vec2 dir = o.footprint.FacingDir();
    o.facing = NearestFacing(RadToDeg(std::atan2(dir.y, dir.x)));
    const auto c = o.footprint.Corners();  // front-left, front-right first
    o.distance_in = DistanceToSegment(point, c[0], c[1]);
    out.push_back(o);
  }
  return out;
}

}  // namespace referee
