#include "datasets/solid_shadows.hpp"

#include <algorithm>
#include <cmath>

#include "datasets/polygon_coverage.hpp"

namespace referee {

namespace {

constexpr double kOnPlaneIn = 1e-6;  // a point this close to a plane lies on it (a figure's foot)
constexpr double kMaxEdgeIn = 0.1;   // longest straight edge handed to the lens model

cv::Vec3d V(const cv::Point3d& p) { return {p.x, p.y, p.z}; }

// Fan-sum normal (robust to the collinear vertices of subdivided edges); zero when degenerate.
cv::Vec3d PolygonNormal(const std::vector<cv::Point3d>& q) {
  cv::Vec3d n(0, 0, 0);
  const cv::Vec3d o = V(q[0]);
  for (size_t i = 1; i + 1 < q.size(); ++i) n += (V(q[i]) - o).cross(V(q[i + 1]) - o);
  return n;
}

double SignedArea(const std::vector<cv::Point2d>& p) {
  double a = 0;
  for (size_t i = 0; i < p.size(); ++i) a += p[i].cross(p[(i + 1) % p.size()]);
  return 0.5 * a;
}

// Sutherland-Hodgman: the part of convex `subject` inside convex `clip` (any common winding).
std::vector<cv::Point2d> ClipConvex(std::vector<cv::Point2d> subject,
                                    const std::vector<cv::Point2d>& clip) {
  const double orient = SignedArea(clip) >= 0 ? 1.0 : -1.0;
  for (size_t e = 0; e < clip.size() && !subject.empty(); ++e) {
    const cv::Point2d a = clip[e], b = clip[(e + 1) % clip.size()];
    const auto side = [&](const cv::Point2d& p) { return orient * (b - a).cross(p - a); };
    std::vector<cv::Point2d> kept;
    for (size_t i = 0; i < subject.size(); ++i) {
      const cv::Point2d p = subject[i], q = subject[(i + 1) % subject.size()];
      const double sp = side(p), sq = side(q);
      if (sp >= 0) kept.push_back(p);
      if ((sp >= 0) != (sq >= 0)) kept.push_back(p + (sp / (sp - sq)) * (q - p));
    }
    subject = std::move(kept);
  }
  return subject;
}

// A face's plane with an in-plane basis; n is the face's outward unit normal.
struct FacePlane {
  cv::Vec3d o, n, u, w;
  cv::Point2d To2d(const cv::Vec3d& v) const { return {(v - o).dot(u), (v - o).dot(w)}; }
  cv::Point3d To3d(const cv::Point2d& p) const {
    const cv::Vec3d v = o + p.x * u + p.y * w;
    return {v[0], v[1], v[2]};
  }
};

// The polygon back in table space, long edges subdivided.
ShadowPolygon Lift(const FacePlane& pl, const std::vector<cv::Point2d>& poly) {
  ShadowPolygon out;
  for (size_t i = 0; i < poly.size(); ++i) {
    const cv::Point2d a = poly[i], b = poly[(i + 1) % poly.size()];
    const int n = std::max(1, static_cast<int>(std::ceil(cv::norm(b - a) / kMaxEdgeIn)));
    for (int k = 0; k < n; ++k) out.push_back(pl.To3d(a + (static_cast<double>(k) / n) * (b - a)));
  }
  return out;
}

// Where the lamp's ray through v meets the plane (v on the lamp's side, below the lamp), or its
// foot on the plane when v lies on or behind it: the part of a solid behind a plane casts
// nothing onto it, and its section there is its foot for the upright prisms of bases, figures
// and walls. `above` tells which.
cv::Point2d OnPlane(const FacePlane& pl, const cv::Vec3d& lamp, double lamp_h, const cv::Vec3d& v,
                    bool& above) {
  const double h = pl.n.dot(v - pl.o);
  above = h > kOnPlaneIn && h < lamp_h;
  if (!above) return pl.To2d(v - h * pl.n);
  return pl.To2d(lamp + (lamp_h / (lamp_h - h)) * (v - lamp));
}

struct Bounds3 {
  cv::Vec3d lo{1e300, 1e300, 1e300}, hi{-1e300, -1e300, -1e300};
  void Add(const cv::Point3d& p) {
    lo = {std::min(lo[0], p.x), std::min(lo[1], p.y), std::min(lo[2], p.z)};
    hi = {std::max(hi[0], p.x), std::max(hi[1], p.y), std::max(hi[2], p.z)};
  }
};

cv::Rect2d BoundsOf(const std::vector<cv::Point2d>& p) {
  double x0 = 1e300, y0 = 1e300, x1 = -1e300, y1 = -1e300;
  for (const auto& q : p) {
    x0 = std::min(x0, q.x);
    y0 = std::min(y0, q.y);
    x1 = std::max(x1, q.x);
    y1 = std::max(y1, q.y);
  }
  return {x0, y0, x1 - x0, y1 - y0};
}

bool Overlap(const cv::Rect2d& a, const cv::Rect2d& b) {
  return a.x <= b.x + b.width && b.x <= a.x + a.width && a.y <= b.y + b.height &&
         b.y <= a.y + a.height;
}

// The shadow of `occluder` on the face (clipped to it), empty when it casts none there.
std::vector<cv::Point2d> ShadowOn(const FacePlane& pl, const std::vector<cv::Point2d>& face,
                                  const cv::Rect2d& face_box, const Solid& occluder,
                                  const Bounds3& box, const cv::Vec3d& lamp, double lamp_h) {
  // Cheap reject on the box's eight corners: the shadow lies inside the bounds of their lamp
  // projections and their feet (a section of the box on the plane is a mix of feet).
  std::vector<cv::Point2d> reach;
  bool any_above = false;
  for (int c = 0; c < 8; ++c) {
    const cv::Vec3d v((c & 1) ? box.hi[0] : box.lo[0], (c & 2) ? box.hi[1] : box.lo[1],
                      (c & 4) ? box.hi[2] : box.lo[2]);
    bool above = false;
    reach.push_back(OnPlane(pl, lamp, lamp_h, v, above));
    if (above) {
      any_above = true;
      const double h = pl.n.dot(v - pl.o);
      reach.push_back(pl.To2d(v - h * pl.n));
    }
  }
  if (!any_above || !Overlap(BoundsOf(reach), face_box)) return {};
  std::vector<cv::Point2d> cast;
  bool any = false;
  for (const auto& p : occluder.points) {
    bool above = false;
    cast.push_back(OnPlane(pl, lamp, lamp_h, V(p), above));
    any = any || above;
  }
  if (!any) return {};
  std::vector<cv::Point2d> clipped = ClipConvex(ConvexHull(cast), face);
  if (clipped.size() < 3 || std::abs(SignedArea(clipped)) < 1e-8) return {};
  return clipped;
}

}  // namespace

size_t FirstCoplanarFace(const std::vector<Solid::Face>& faces, size_t f) {
  const auto& poly = faces[f].polygon;
  for (size_t g = 0; g < f; ++g) {
    const auto& q = faces[g].polygon;
    if (q.size() < 3) continue;
    cv::Vec3d n = PolygonNormal(q);
    const double len = cv::norm(n);
    if (len < 1e-12) continue;
    n *= 1.0 / len;
    const cv::Vec3d o = V(q[0]);
    bool same = true;
    for (const auto& p : poly) same = same && std::abs((V(p) - o).dot(n)) < 1e-3;
    if (same) return g;
  }
  return f;
}

std::vector<std::vector<ShadowPolygon>> ShadowsOnSolids(const std::vector<Solid>& solids,
                                                        const cv::Point3d& lamp_pt,
                                                        const cv::Vec3d& camera_center) {
  const cv::Vec3d lamp = V(lamp_pt);
  std::vector<Bounds3> boxes(solids.size());
  for (size_t j = 0; j < solids.size(); ++j) {
    for (const auto& p : solids[j].points) boxes[j].Add(p);
  }
  std::vector<std::vector<ShadowPolygon>> out(solids.size());
  // Every other solid's shadow on one receiving plane of solid i, clipped to `face2`.
  const auto receive = [&](size_t i, const FacePlane& pl, const std::vector<cv::Point2d>& face2) {
    const double lamp_h = pl.n.dot(lamp - pl.o);
    if (lamp_h <= 0) {  // turned away from the lamp: all of it in its own shadow
      out[i].push_back(Lift(pl, face2));
      return;
    }
    const cv::Rect2d face_box = BoundsOf(face2);
    for (size_t j = 0; j < solids.size(); ++j) {
      if (j == i || !solids[j].casts_shadow || solids[j].points.size() < 3) continue;
      const auto shadow = ShadowOn(pl, face2, face_box, solids[j], boxes[j], lamp, lamp_h);
      if (!shadow.empty()) out[i].push_back(Lift(pl, shadow));
    }
  };
  for (size_t i = 0; i < solids.size(); ++i) {
    const Solid& s = solids[i];
    if (s.receives_on_midplane && s.points.size() >= 3) {
      // A thin rounded solid (a Q-tip) seen from above: shadows taken on its mid-height plane,
      // over its footprint.
      FacePlane pl;
      pl.o = 0.5 * (boxes[i].lo + boxes[i].hi);
      pl.n = cv::Vec3d(0, 0, -1);  // up
      pl.u = cv::Vec3d(1, 0, 0);
      pl.w = pl.n.cross(pl.u);
      std::vector<cv::Point2d> foot;
      for (const auto& p : s.points) foot.push_back(pl.To2d(V(p)));
      receive(i, pl, ConvexHull(foot));
    }
    if (s.faces.empty() || s.points.empty()) continue;
    cv::Vec3d inside(0, 0, 0);
    for (const auto& p : s.points) inside += V(p);
    inside *= 1.0 / static_cast<double>(s.points.size());
    for (size_t f = 0; f < s.faces.size(); ++f) {
      const auto& poly = s.faces[f].polygon;
      if (poly.size() < 3 || FirstCoplanarFace(s.faces, f) != f) continue;
      FacePlane pl;
      pl.n = PolygonNormal(poly);
      const double len = cv::norm(pl.n);
      if (len < 1e-12) continue;
      pl.n *= 1.0 / len;
      pl.o = cv::Vec3d(0, 0, 0);
      for (const auto& p : poly) pl.o += V(p);
      pl.o *= 1.0 / static_cast<double>(poly.size());
      if (pl.n.dot(pl.o - inside) < 0) pl.n = -pl.n;      // outward
      if (pl.n.dot(camera_center - pl.o) <= 0) continue;  // the camera sees its back: hidden
      const cv::Vec3d ref = std::abs(pl.n[2]) < 0.9 ? cv::Vec3d(0, 0, 1) : cv::Vec3d(1, 0, 0);
      pl.u = cv::normalize(pl.n.cross(ref));
      pl.w = pl.n.cross(pl.u);
      std::vector<cv::Point2d> face2;
      face2.reserve(poly.size());
      for (const auto& p : poly) face2.push_back(pl.To2d(V(p)));
      receive(i, pl, ConvexHull(face2));
    }
  }
  return out;
}

}  // namespace referee
