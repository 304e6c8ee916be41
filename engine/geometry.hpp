// Plane geometry in table inches: points, oriented rectangles (base footprints), polygons
// (terrain outlines), and the exact distances the shot rules are decided by.
#pragma once

#include <array>
#include <cmath>
#include <vector>

namespace referee {

struct Vec2 {
  double x = 0.0;
  double y = 0.0;

  friend Vec2 operator+(Vec2 a, Vec2 b) { return {a.x + b.x, a.y + b.y}; }
  friend Vec2 operator-(Vec2 a, Vec2 b) { return {a.x - b.x, a.y - b.y}; }
  friend Vec2 operator*(double s, Vec2 a) { return {s * a.x, s * a.y}; }
  friend Vec2 operator*(Vec2 a, double s) { return {s * a.x, s * a.y}; }
  friend bool operator==(Vec2 a, Vec2 b) = default;
};

inline double Dot(Vec2 a, Vec2 b) { return a.x * b.x + a.y * b.y; }
inline double Cross(Vec2 a, Vec2 b) { return a.x * b.y - a.y * b.x; }
inline double Norm(Vec2 a) { return std::hypot(a.x, a.y); }
inline double Distance(Vec2 a, Vec2 b) { return Norm(a - b); }
// Rotation by +angle (counter-clockwise in a y-up frame; in the y-down table view it turns
// clockwise on screen, which is why angle_deg is defined from the x axis toward the y axis).
Vec2 Rotate(Vec2 v, double angle_rad);

constexpr double kMmPerInch = 25.4;
constexpr double kPi = 3.14159265358979323846;
inline double DegToRad(double deg) { return deg * kPi / 180.0; }
inline double RadToDeg(double rad) { return rad * 180.0 / kPi; }
inline double InchesToMm(double in) { return in * kMmPerInch; }
inline double MmToInches(double mm) { return mm / kMmPerInch; }

// A base footprint: centre, width (frontage) x depth in inches, and the angle from the table's
// x axis to the base's width axis. The front of the base is on the -depth side rotated, i.e.
// the facing direction is the width axis rotated by -90 degrees (toward -y when angle is 0).
struct OrientedRect {
  Vec2 center;
  double width_in = 0.0;
  double depth_in = 0.0;
  double angle_deg = 0.0;

  Vec2 AxisX() const;  // unit vector along the width
  Vec2 AxisY() const;  // unit vector along the depth (toward the rear)
  // Corners in order front-left, front-right, rear-right, rear-left (as seen from above,
  // y down): walking them goes clockwise on screen.
  std::array<Vec2, 4> Corners() const;
  // Unit vector the base faces (out of its front edge).
  Vec2 FacingDir() const { return -1.0 * AxisY(); }
  bool Contains(Vec2 p) const;
};

// `rect` grown (positive) or shrunk (negative) by `by_in` on every side; never below zero size.
OrientedRect Grown(OrientedRect rect, double by_in);

// Euclidean distance from p to the closed rectangle (0 when p is inside or on the edge).
double DistanceToRect(Vec2 p, const OrientedRect& rect);
// Does the closed disc (center, radius_in) share any point with the closed rectangle?
bool CircleTouchesRect(Vec2 center, double radius_in, const OrientedRect& rect);
// How far two rectangles interpenetrate: the smallest overlap of their projections over the
// four edge normals (separating-axis test). <= 0 when they are apart or only touch.
double RectPenetrationDepth(const OrientedRect& a, const OrientedRect& b);

struct Polygon {
  std::vector<Vec2> vertices;  // simple polygon, either winding
};

bool PointInPolygon(Vec2 p, const Polygon& poly);  // boundary counts as inside
double DistanceToSegment(Vec2 p, Vec2 a, Vec2 b);
// Distance to the closed polygon region (0 inside).
double DistanceToPolygon(Vec2 p, const Polygon& poly);

bool IsFinite(Vec2 p);

}  // namespace referee
