// Solids with real heights: stand bases with their figures, the projectile, the hand. Each is
// described by surface sample points so the renderer can take the convex hull of their
// projections (an exact silhouette for convex shapes, under any perspective and distortion).
#include <algorithm>
#include <cmath>

#include "datasets/scene_layout.hpp"

namespace referee {

namespace {

cv::Point3d P3(Vec2 p, double height_in) { return {p.x, p.y, -height_in}; }

cv::Scalar Shade(cv::Scalar c, double f) { return {c[0] * f, c[1] * f, c[2] * f}; }

// Orthonormal frame around a unit axis.
void Frame(const cv::Vec3d& axis, cv::Vec3d& u, cv::Vec3d& v) {
  const cv::Vec3d ref = std::abs(axis[2]) < 0.9 ? cv::Vec3d(0, 0, 1) : cv::Vec3d(1, 0, 0);
  u = cv::normalize(axis.cross(ref));
  v = axis.cross(u);
}

// Points on an ellipsoid of revolution between axial fractions [t0, t1] of its length (0 = the
// `from` end), radius `r`, axis from `from` to `to`.
void AddSpheroid(std::vector<cv::Point3d>& pts, const cv::Vec3d& from, const cv::Vec3d& to,
                 double r, double t0, double t1, int rings = 8, int segs = 16) {
  const cv::Vec3d axis = to - from;
  const double len = cv::norm(axis);
  const cv::Vec3d a = axis / len;
  cv::Vec3d u, v;
  Frame(a, u, v);
  const cv::Vec3d c = 0.5 * (from + to);
  // Rings evenly spaced in the meridian angle, so they crowd toward the rounded ends: a hull of
  // sparse rings would cut the ends' curve short (the painted tip would look too pointed).
  const double phi0 = std::acos(std::clamp(1.0 - 2.0 * t0, -1.0, 1.0));
  const double phi1 = std::acos(std::clamp(1.0 - 2.0 * t1, -1.0, 1.0));
  for (int i = 0; i <= rings; ++i) {
    const double phi = phi0 + (phi1 - phi0) * i / rings;
    const double s = -std::cos(phi);  // -1..1 along the axis
    const double rr = r * std::sin(phi);
    const cv::Vec3d p0 = c + s * 0.5 * len * a;
    if (rr < 1e-9) {
      pts.emplace_back(p0[0], p0[1], p0[2]);
      continue;
    }
    for (int k = 0; k < segs; ++k) {
      const double ang = 2.0 * kPi * k / segs;
      const cv::Vec3d p = p0 + rr * (std::cos(ang) * u + std::sin(ang) * v);
      pts.emplace_back(p[0], p[1], p[2]);
    }
  }
}

// Points on a cylinder (capsule-free) of radius r between a and b.
void AddCylinder(std::vector<cv::Point3d>& pts, const cv::Vec3d& a, const cv::Vec3d& b, double r,
                 int segs = 12) {
  const cv::Vec3d axis = cv::normalize(b - a);
  cv::Vec3d u, v;
  Frame(axis, u, v);
  for (const cv::Vec3d& e : {a, b}) {
    for (int k = 0; k < segs; ++k) {
      const double ang = 2.0 * kPi * k / segs;
      const cv::Vec3d p = e + r * (std::cos(ang) * u + std::sin(ang) * v);
      pts.emplace_back(p[0], p[1], p[2]);
    }
  }
}

cv::Vec3d V(cv::Point3d p) { return {p.x, p.y, p.z}; }

}  // namespace

std::vector<Solid> StandSolids(const StandLook& look) {
  std::vector<Solid> out;
  const OrientedRect& fp = look.stand.footprint;
  const double e = look.elevation_in;
  const double t = e + look.thickness_in;  // height of the base top above the mat
  Solid base;
  for (const Vec2 c : fp.Corners()) {
    base.points.push_back(P3(c, e));
    base.points.push_back(P3(c, t));
  }
  base.side_bgr = Shade(look.side_bgr, 0.55);
  // Top: the whole top in the side colour, then the interior inset by the border.
  const auto top_poly = [&](double inset_front, double inset_other) {
    OrientedRect r = fp;
    r.width_in = fp.width_in - 2 * inset_other;
    r.depth_in = fp.depth_in - inset_front - inset_other;
    // Shift toward the rear by half the extra front inset (front is the -AxisY side).
    r.center = fp.center + (0.5 * (inset_front - inset_other)) * fp.AxisY();
    std::vector<cv::Point3d> poly;
    const auto cs = r.Corners();
    // Subdivide edges so lens distortion bends them like a real lens.
    for (int i = 0; i < 4; ++i) {
      const Vec2 a = cs[i], b = cs[(i + 1) % 4];
      for (int k = 0; k < 6; ++k) poly.push_back(P3(a + (k / 6.0) * (b - a), t));
    }
    return poly;
  };
  base.faces.push_back({top_poly(0, 0), look.side_bgr});
  const double b = look.border_in;
  if (look.front_stripe) {
    base.faces.push_back({top_poly(b, b), cv::Scalar(235, 238, 240)});
    base.faces.push_back({top_poly(b + look.stripe_in, b), look.interior_bgr});
  } else {
    base.faces.push_back({top_poly(b, b), look.interior_bgr});
  }
  out.push_back(base);
  for (const auto& f : look.figures) {
    Solid s;
    for (const Vec2 p : f.footprint) {
      s.points.push_back(P3(p, t));
      s.points.push_back(P3(p, t + f.height_in));
    }
    s.side_bgr = Shade(f.bgr, 0.7);
    std::vector<cv::Point3d> top;
    for (const Vec2 p : f.footprint) top.push_back(P3(p, t + f.height_in));
    s.faces.push_back({top, f.bgr});
    s.casts_shadow = true;
    out.push_back(s);
  }
  return out;
}

std::vector<Solid> QtipSolids(const QtipPose& pose, const cv::Scalar& paint_bgr) {
  const cv::Vec3d plain = V(pose.plain_end), painted = V(pose.painted_end);
  const cv::Vec3d axis = cv::normalize(painted - plain);
  const cv::Vec3d plain_in = plain + kQtipHeadLenIn * axis;
  const cv::Vec3d painted_in = painted - kQtipHeadLenIn * axis;
  const cv::Scalar white(236, 240, 242);
  Solid stick;
  AddCylinder(stick.points, plain_in - 0.02 * axis, painted_in + 0.02 * axis,
              0.5 * kQtipStickDiaIn);
  stick.side_bgr = white;
  Solid plain_head;
  AddSpheroid(plain_head.points, plain, plain_in, 0.5 * kQtipHeadDiaIn, 0.0, 1.0, 12, 20);
  plain_head.side_bgr = cv::Scalar(228, 232, 236);
  Solid painted_head;
  // The paint covers the outer ~70% of the head; the inner part stays white cotton.
  AddSpheroid(painted_head.points, painted_in, painted, 0.5 * kQtipHeadDiaIn, 0.0, 1.0, 12, 20);
  painted_head.side_bgr = cv::Scalar(228, 232, 236);
  Solid::Overlay paint;
  AddSpheroid(paint.points, painted_in, painted, 0.5 * kQtipHeadDiaIn * 1.01, 0.3, 1.0, 12, 20);
  paint.bgr = paint_bgr;
  painted_head.overlays.push_back(paint);
  for (Solid* s : {&stick, &plain_head, &painted_head}) s->receives_on_midplane = true;
  return {stick, plain_head, painted_head};
}

std::vector<Solid> ShellSolids(const ShellPose& pose, const cv::Scalar& shell_bgr) {
  // A square slab, slightly rounded by sampling a superellipse-ish outline, top at the dot.
  const double a = DegToRad(pose.angle_deg);
  const double roll = DegToRad(pose.tilt_deg);
  const cv::Vec3d ex(std::cos(a), std::sin(a), 0), ey(-std::sin(a), std::cos(a), 0);
  const cv::Vec3d ez(0, 0, 1);
  // Roll about ex (while flying).
  const cv::Vec3d ey_r = std::cos(roll) * ey + std::sin(roll) * ez;
  const cv::Vec3d ez_r = -std::sin(roll) * ey + std::cos(roll) * ez;
  const cv::Vec3d dot_at = V(pose.dot);
  const cv::Vec3d top = dot_at - pose.dot_offset_in.x * ex - pose.dot_offset_in.y * ey_r;
  const double h = 0.5 * kShellSizeIn;
  Solid slab;
  std::vector<cv::Point3d> top_poly;
  for (int i = 0; i < 32; ++i) {
    const double ang = 2 * kPi * i / 32;
    // Rounded square outline: |x|^4 + |y|^4 = h^4.
    const double c = std::cos(ang), s = std::sin(ang);
    const double rr = h / std::pow(std::pow(std::abs(c), 4) + std::pow(std::abs(s), 4), 0.25);
    const cv::Vec3d p = top + rr * c * ex + rr * s * ey_r;
    const cv::Vec3d q = p + kShellThickIn * ez_r;  // +z is down into the table
    top_poly.emplace_back(p[0], p[1], p[2]);
    slab.points.emplace_back(p[0], p[1], p[2]);
    slab.points.emplace_back(q[0], q[1], q[2]);
  }
  slab.side_bgr = Shade(shell_bgr, 0.7);
  slab.faces.push_back({top_poly, shell_bgr});
  std::vector<cv::Point3d> dot;
  for (int i = 0; i < 16; ++i) {
    const double ang = 2 * kPi * i / 16;
    const cv::Vec3d p =
        dot_at + 0.5 * kShellDotDiaIn * (std::cos(ang) * ex + std::sin(ang) * ey_r) - 0.0005 * ez_r;
    dot.emplace_back(p[0], p[1], p[2]);
  }
  slab.faces.push_back({dot, cv::Scalar(30, 25, 25)});
  return {slab};
}

std::vector<Solid> HandSolids(const HandPose& hand) {
  std::vector<Solid> out;
  const cv::Vec3d sh = V(hand.shoulder), wr = V(hand.wrist), pa = V(hand.palm);
  // Forearm + sleeve: spheroids along the chain.
  Solid sleeve;
  AddCylinder(sleeve.points, sh, sh + 0.55 * (wr - sh), 1.5, 16);
  sleeve.side_bgr = hand.sleeve_bgr;
  Solid forearm;
  AddSpheroid(forearm.points, sh + 0.4 * (wr - sh), wr + 0.05 * (wr - sh), 1.15, 0.0, 1.0, 8, 20);
  forearm.side_bgr = hand.skin_bgr;
  Solid palm;
  const cv::Vec3d dir = cv::normalize(pa - wr);
  AddSpheroid(palm.points, wr - 0.3 * dir, pa + 1.3 * dir, 1.45, 0.0, 1.0, 8, 20);
  // Flatten the palm vertically (a hand seen from above is wide and thin).
  const cv::Vec3d mid = 0.5 * (wr + pa);
  for (auto& p : palm.points) p.z = mid[2] + 0.45 * (p.z - mid[2]);
  palm.side_bgr = hand.skin_bgr;
  out.push_back(sleeve);
  out.push_back(forearm);
  out.push_back(palm);
  // Fingers: four capsules fanning out from the palm's front, a thumb to the side.
  cv::Vec3d u, v;
  Frame(dir, u, v);
  cv::Vec3d side = cv::normalize(cv::Vec3d(-dir[1], dir[0], 0));
  const cv::Vec3d front = pa + 1.2 * dir;
  for (int i = 0; i < 4; ++i) {
    const double off = (i - 1.5) * 0.42;
    const double fan = (i - 1.5) * hand.finger_spread * 0.25;
    const cv::Vec3d fdir = cv::normalize(dir + fan * side + cv::Vec3d(0, 0, 0.25));
    const cv::Vec3d base = front + off * side;
    Solid f;
    AddSpheroid(f.points, base - 0.2 * fdir, base + (2.3 - 0.25 * std::abs(i - 1.5)) * fdir, 0.33,
                0.0, 1.0, 6, 12);
    f.side_bgr = Shade(hand.skin_bgr, 0.97);
    out.push_back(f);
  }
  Solid thumb;
  const cv::Vec3d tdir = cv::normalize(0.6 * dir + 0.8 * side);
  const cv::Vec3d tb = pa - 0.3 * dir + 1.0 * side;
  AddSpheroid(thumb.points, tb, tb + 1.9 * tdir, 0.4, 0.0, 1.0, 6, 12);
  thumb.side_bgr = Shade(hand.skin_bgr, 0.95);
  out.push_back(thumb);
  (void)u;
  (void)v;
  for (auto& s : out) s.sort_bias_in = -1000.0;  // the hand is above everything on the table
  return out;
}

}  // namespace referee
