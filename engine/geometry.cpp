#include "engine/geometry.hpp"

#include <algorithm>
#include <limits>

namespace referee {

Vec2 Rotate(Vec2 v, double angle_rad) {
  const double c = std::cos(angle_rad);
  const double s = std::sin(angle_rad);
  return {c * v.x - s * v.y, s * v.x + c * v.y};
}

Vec2 OrientedRect::AxisX() const { return Rotate({1.0, 0.0}, DegToRad(angle_deg)); }
Vec2 OrientedRect::AxisY() const { return Rotate({0.0, 1.0}, DegToRad(angle_deg)); }

std::array<Vec2, 4> OrientedRect::Corners() const {
  const Vec2 hx = 0.5 * width_in * AxisX();
  const Vec2 hy = 0.5 * depth_in * AxisY();
  return {center - hx - hy, center + hx - hy, center + hx + hy, center - hx + hy};
}

bool OrientedRect::Contains(Vec2 p) const { return DistanceToRect(p, *this) == 0.0; }

double DistanceToRect(Vec2 p, const OrientedRect& rect) {
  // In the rectangle's own frame the distance is the norm of the per-axis excess.
  const Vec2 d = p - rect.center;
  const double u = std::abs(Dot(d, rect.AxisX()));
  const double v = std::abs(Dot(d, rect.AxisY()));
  const double du = std::max(0.0, u - 0.5 * rect.width_in);
  const double dv = std::max(0.0, v - 0.5 * rect.depth_in);
  return std::hypot(du, dv);
}

bool CircleTouchesRect(Vec2 center, double radius_in, const OrientedRect& rect) {
  return DistanceToRect(center, rect) <= radius_in;
}

double RectPenetrationDepth(const OrientedRect& a, const OrientedRect& b) {
  const auto ca = a.Corners();
  const auto cb = b.Corners();
  double depth = std::numeric_limits<double>::infinity();
  for (const Vec2 axis : {a.AxisX(), a.AxisY(), b.AxisX(), b.AxisY()}) {
    double a_lo = std::numeric_limits<double>::infinity(), a_hi = -a_lo;
    double b_lo = a_lo, b_hi = -a_lo;
    for (const Vec2 p : ca) {
      a_lo = std::min(a_lo, Dot(p, axis));
      a_hi = std::max(a_hi, Dot(p, axis));
    }
    for (const Vec2 p : cb) {
      b_lo = std::min(b_lo, Dot(p, axis));
      b_hi = std::max(b_hi, Dot(p, axis));
    }
    depth = std::min(depth, std::min(a_hi, b_hi) - std::max(a_lo, b_lo));
  }
  return depth;
}

bool PointInPolygon(Vec2 p, const Polygon& poly) {
  const auto& v = poly.vertices;
  const size_t n = v.size();
  if (n < 3) return false;
  bool inside = false;
  for (size_t i = 0, j = n - 1; i < n; j = i++) {
    if (DistanceToSegment(p, v[j], v[i]) == 0.0) return true;
    const bool crosses = (v[i].y > p.y) != (v[j].y > p.y);
    if (crosses) {
      const double x_at = v[j].x + (p.y - v[j].y) * (v[i].x - v[j].x) / (v[i].y - v[j].y);
      if (p.x < x_at) inside = !inside;
    }
  }
  return inside;
}

double DistanceToSegment(Vec2 p, Vec2 a, Vec2 b) {
  const Vec2 ab = b - a;
  const double len2 = Dot(ab, ab);
  if (len2 == 0.0) return Distance(p, a);
  const double t = std::clamp(Dot(p - a, ab) / len2, 0.0, 1.0);
  return Distance(p, a + t * ab);
}

double DistanceToPolygon(Vec2 p, const Polygon& poly) {
  if (PointInPolygon(p, poly)) return 0.0;
  double best = std::numeric_limits<double>::infinity();
  const auto& v = poly.vertices;
  for (size_t i = 0, j = v.size() - 1; i < v.size(); j = i++) {
    best = std::min(best, DistanceToSegment(p, v[j], v[i]));
  }
  return best;
}

bool IsFinite(Vec2 p) { return std::isfinite(p.x) && std::isfinite(p.y); }

OrientedRect Grown(OrientedRect rect, double by_in) {
  rect.width_in = std::max(0.0, rect.width_in + 2 * by_in);
  rect.depth_in = std::max(0.0, rect.depth_in + 2 * by_in);
  return rect;
}

}  // namespace referee
