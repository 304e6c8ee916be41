// Samples one scene's layout: camera, mat, terrain, stands, projectile, hand, lamp and photo
// effects, all from the scene's own random stream.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>

#include <nlohmann/json.hpp>
#include <opencv2/calib3d.hpp>

#include "datasets/scene_layout.hpp"
#include "engine/data_paths.hpp"
#include "engine/input_error.hpp"

namespace referee {

namespace {

// A bridge deck's top above the mat; stands crossing the bridge rest on it.
constexpr double kBridgeDeckHeightIn = 0.15;

cv::Scalar Bgr(const Rgb& c) { return cv::Scalar(c[2], c[1], c[0]); }

cv::Scalar Jitter(cv::Scalar c, SynthRandom& rng, double amount) {
  const double g = 1.0 + rng.Uniform(-amount, amount);
  cv::Scalar out;
  for (int i = 0; i < 3; ++i) {
    out[i] = std::clamp(c[i] * g * (1.0 + rng.Uniform(-0.3 * amount, 0.3 * amount)), 0.0, 255.0);
  }
  return out;
}

// A random star-shaped blob around centre: radii in [r_min, r_max] smoothed.
std::vector<Vec2> Blob(Vec2 centre, double rx, double ry, double angle_deg, SynthRandom& rng,
                       int n = 24, double roughness = 0.18) {
  std::vector<double> r(n);
  for (int i = 0; i < n; ++i) r[i] = 1.0 + rng.Uniform(-roughness, roughness);
  std::vector<Vec2> out;
  for (int i = 0; i < n; ++i) {
    const double rs = (r[(i + n - 1) % n] + 2 * r[i] + r[(i + 1) % n]) / 4.0;
    const double a = 2 * kPi * i / n;
    const Vec2 p{rx * rs * std::cos(a), ry * rs * std::sin(a)};
    out.push_back(centre + Rotate(p, DegToRad(angle_deg)));
  }
  return out;
}

std::vector<Vec2> RectPoly(Vec2 c, double w, double h, double angle_deg) {
  OrientedRect r{c, w, h, angle_deg};
  const auto cs = r.Corners();
  return {cs.begin(), cs.end()};
}

// Points on a squashed ellipsoid resting on z = -base_in (for trees' crowns, rocks).
Solid Lump(Vec2 c, double rx, double ry, double z_bottom_in, double height_in,
           const cv::Scalar& bgr, SynthRandom& rng) {
  Solid s;
  const int rings = 6, segs = 14;
  for (int i = 0; i <= rings; ++i) {
    const double t = static_cast<double>(i) / rings;  // 0 bottom, 1 top
    const double s_ = 2 * t - 1;
    const double rr = std::sqrt(std::max(0.0, 1 - s_ * s_));
    for (int k = 0; k < segs; ++k) {
      const double a = 2 * kPi * k / segs;
      const double wob = 1.0 + rng.Uniform(-0.12, 0.12);
      s.points.emplace_back(c.x + wob * rx * rr * std::cos(a), c.y + wob * ry * rr * std::sin(a),
                            -(z_bottom_in + t * height_in));
    }
  }
  s.side_bgr = bgr;
  return s;
}

Solid Box(const std::vector<Vec2>& footprint, double z0_in, double z1_in, const cv::Scalar& side,
          std::optional<cv::Scalar> top) {
  Solid s;
  std::vector<cv::Point3d> top_poly;
  for (const Vec2 p : footprint) {
    s.points.emplace_back(p.x, p.y, -z0_in);
    s.points.emplace_back(p.x, p.y, -z1_in);
    top_poly.emplace_back(p.x, p.y, -z1_in);
  }
  s.side_bgr = side;
  if (top) s.faces.push_back({top_poly, *top});
  return s;
}

cv::Matx33d LookRotation(const cv::Vec3d& optical_axis, double roll_rad) {
  const cv::Vec3d z = cv::normalize(optical_axis);
  cv::Vec3d xr(std::cos(roll_rad), std::sin(roll_rad), 0);
  cv::Vec3d x = xr - xr.dot(z) * z;
  if (cv::norm(x) < 1e-6) x = cv::Vec3d(1, 0, 0) - z[0] * z;
  x = cv::normalize(x);
  const cv::Vec3d y = z.cross(x);
  return cv::Matx33d(x[0], x[1], x[2], y[0], y[1], y[2], z[0], z[1], z[2]);
}

// Radial distortion must stay monotonic over the whole image or the lens model folds.
bool DistortionMonotonic(double k1, double k2, double r_max) {
  for (int i = 0; i <= 50; ++i) {
    const double r = r_max * i / 50.0;
    if (1 + 3 * k1 * r * r + 5 * k2 * std::pow(r, 4) < 0.3) return false;
  }
  return true;
}

CameraModel SampleCamera(const Scenario& sc, cv::Size size, double outer_margin_in,
                         SynthRandom& rng) {
  const auto& d = sc.difficulty;
  CameraModel cam;
  cam.image_size = size;
  const double hfov = DegToRad(rng.Uniform(d.hfov_deg));
  const double f = 0.5 * size.width / std::tan(0.5 * hfov);
  const double cx = 0.5 * size.width + rng.Uniform(-0.02, 0.02) * size.width;
  const double cy = 0.5 * size.height + rng.Uniform(-0.02, 0.02) * size.height;
  cam.camera_matrix = cv::Matx33d(f, 0, cx, 0, f * (1 + rng.Uniform(-0.003, 0.003)), cy, 0, 0, 1);
  const double r_max = 1.1 * std::hypot(0.5 * size.width, 0.5 * size.height) / f;
  double k1 = rng.Uniform(d.k1), k2 = rng.Uniform(d.k2);
  for (int i = 0; i < 20 && !DistortionMonotonic(k1, k2, r_max); ++i) {
    k1 *= 0.8;
    k2 *= 0.5;
  }
  cam.distortion = {k1, k2, rng.Uniform(d.tangential), rng.Uniform(d.tangential), 0.0};

  const double tilt = DegToRad(rng.Uniform(d.tilt_deg));
  const double az = rng.Uniform(0, 2 * kPi);
  const double roll = DegToRad(rng.Uniform(d.yaw_deg) + (rng.Chance(0.5) ? 180.0 : 0.0));
  const cv::Vec3d axis(std::sin(tilt) * std::cos(az), std::sin(tilt) * std::sin(az),
                       std::cos(tilt));
  const cv::Matx33d rot = LookRotation(axis, roll);
  cv::Vec3d rvec;
  cv::Rodrigues(rot, rvec);
  const double w = sc.grid.Width(), h = sc.grid.Height();
  const Vec2 target{0.5 * w + rng.Uniform(-0.03, 0.03) * w, 0.5 * h + rng.Uniform(-0.03, 0.03) * h};
  const double fill = rng.Uniform(d.fill);
  // Outline of what must be in view: the grid (and the markers) with a margin.
  std::vector<cv::Point3d> outline;
  const double m = outer_margin_in;
  for (int i = 0; i <= 12; ++i) {
    const double t = i / 12.0;
    outline.emplace_back(-m + t * (w + 2 * m), -m, 0);
    outline.emplace_back(-m + t * (w + 2 * m), h + m, 0);
    outline.emplace_back(-m, -m + t * (h + 2 * m), 0);
    outline.emplace_back(w + m, -m + t * (h + 2 * m), 0);
  }
  const auto extent = [&](double dist) {
    const cv::Vec3d c = cv::Vec3d(target.x, target.y, 0) - dist * axis;
    const cv::Vec3d t = -(rot * c);
    std::vector<cv::Point2d> px;
    cv::projectPoints(outline, rvec, t, cam.camera_matrix, cam.distortion, px);
    double e = 0;
    for (const auto& p : px) {
      e = std::max(
          {e, std::abs(p.x - cx) / (0.5 * size.width), std::abs(p.y - cy) / (0.5 * size.height)});
    }
    return e;
  };
  double lo = 5, hi = 2000;  // inches; extent shrinks as the camera moves away
  for (int i = 0; i < 60; ++i) {
    const double mid = 0.5 * (lo + hi);
    (extent(mid) > fill ? lo : hi) = mid;
  }
  const cv::Vec3d c = cv::Vec3d(target.x, target.y, 0) - hi * axis;
  cam.rvec_cam_from_table = rvec;
  cam.tvec_cam_from_table = -(rot * c);
  return cam;
}

cv::Scalar RandomFigureColour(const Scenario& sc, SynthRandom& rng) {
  // Some figures wear colours close to a side colour; the rest any uniform/flesh/metal tone.
  if (rng.Chance(0.3)) {
    const Rgb& side = sc.sides[rng.Int(0, 1)].colour;
    return Jitter(Bgr(side), rng, 0.15);
  }
  static const Rgb kPalette[] = {{30, 30, 35},    {235, 235, 228}, {60, 70, 120}, {120, 30, 30},
                                 {200, 170, 130}, {150, 150, 160}, {90, 60, 40},  {40, 80, 50},
                                 {210, 190, 60},  {170, 90, 60},   {80, 80, 80},  {230, 200, 170}};
  return Jitter(Bgr(kPalette[rng.Int(0, 11)]), rng, 0.15);
}

std::vector<StandLook::Figure> SampleFigures(const Scenario& sc, const StandLook& look,
                                             StandCategory cat, SynthRandom& rng) {
  std::vector<StandLook::Figure> out;
  const OrientedRect& fp = look.stand.footprint;
  const double inset = look.border_in + 0.04 + (look.front_stripe ? look.stripe_in : 0.0);
  const double iw = fp.width_in - 2 * inset, id = fp.depth_in - 2 * inset;
  if (iw <= 0.1 || id <= 0.1) return out;
  const auto to_table = [&](double u, double v) {
    return fp.center + u * fp.AxisX() + v * fp.AxisY();
  };
  const auto add = [&](double u, double v, double rw, double rd, double h) {
    // Keep the figure's footprint inside the interior: figures never cover the border.
    rw = std::min(rw, 0.5 * iw - std::abs(u));
    rd = std::min(rd, 0.5 * id - std::abs(v));
    if (rw < 0.02 || rd < 0.02) return;
    StandLook::Figure f;
    for (int k = 0; k < 10; ++k) {
      const double a = 2 * kPi * k / 10;
      f.footprint.push_back(to_table(u + rw * std::cos(a), v + rd * std::sin(a)));
    }
    f.height_in = h;
    f.bgr = RandomFigureColour(sc, rng);
    out.push_back(f);
  };
  const double hmin = MmToInches(sc.figure_height_mm.first);
  const double hmax = MmToInches(sc.figure_height_mm.second);
  switch (cat) {
    case StandCategory::kInfantry:
    case StandCategory::kFootCrew: {
      const int n = rng.Int(2, 4);
      for (int row = 0; row < 2; ++row) {
        for (int i = 0; i < n; ++i) {
          const double u = (i + 0.5) / n * iw - 0.5 * iw + rng.Uniform(-0.03, 0.03);
          const double v = (row == 0 ? -0.22 : 0.22) * id;
          add(u, v, 0.45 * iw / n, 0.2 * id, rng.Uniform(0.7, 1.0) * hmax);
        }
      }
      break;
    }
    case StandCategory::kCavalry:
    case StandCategory::kMountedCrew:
    case StandCategory::kCommander:
    case StandCategory::kChariot:
    case StandCategory::kElephant: {
      const int n = rng.Int(1, 3);
      for (int i = 0; i < n; ++i) {
        const double u = (i + 0.5) / n * iw - 0.5 * iw;
        add(u, rng.Uniform(-0.05, 0.05) * id, 0.4 * iw / n, 0.42 * id, rng.Uniform(hmin, hmax));
      }
      break;
    }
    default: {  // guns, catapults, wagons: one big model and a few crew
      add(0, -0.1 * id, 0.14 * iw, 0.38 * id, rng.Uniform(hmin, 0.7 * hmax));
      add(-0.3 * iw, 0.15 * id, 0.1 * iw, 0.12 * id, rng.Uniform(0.5, 0.7) * hmax);
      add(0.3 * iw, 0.2 * id, 0.1 * iw, 0.12 * id, rng.Uniform(0.5, 0.7) * hmax);
      add(0, 0.35 * id, 0.3 * iw, 0.1 * id, rng.Uniform(0.2, 0.4) * hmin);
      break;
    }
  }
  return out;
}

// What the projectile would rest on at (x, y): mat 0, a bridge deck, a base top, a figure top.
double SupportHeight(const SceneLayout& L, const std::vector<OrientedRect>& decks, Vec2 p,
                     std::string* on_stand) {
  double h = 0.0;
  for (const auto& deck : decks) {
    if (deck.Contains(p)) h = std::max(h, kBridgeDeckHeightIn);
  }
  for (const auto& s : L.stands) {
    if (!s.stand.footprint.Contains(p)) continue;
    const double top = s.elevation_in + s.thickness_in;
    double hh = top;
    for (const auto& f : s.figures) {
      if (PointInPolygon(p, Polygon{f.footprint})) hh = std::max(hh, top + f.height_in);
    }
    if (hh > h) {
      h = hh;
      if (on_stand) *on_stand = s.stand.id;
    }
  }
  return h;
}

// Returns the bridge decks' tops (at kBridgeDeckHeightIn): a projectile landing there rests on
// them.
std::vector<OrientedRect> AddTerrainArt(const Scenario& sc, SceneLayout& L, SynthRandom& rng) {
  std::vector<OrientedRect> decks;
  const Grid& g = L.board.grid;
  // Choose squares: explicit ones, then random open squares for the counts.
  std::vector<Square> free;
  for (int r = 0; r < g.rows; ++r) {
    for (int c = 0; c < g.cols; ++c) {
      if (!sc.terrain_squares.count({c, r})) free.push_back({c, r});
    }
  }
  for (const auto& [sq, type] : sc.terrain_squares) L.board.terrain[sq] = type;
  for (const auto& [type, count] : sc.terrain_counts) {
    for (int i = 0; i < count && !free.empty(); ++i) {
      const int k = rng.Int(0, static_cast<int>(free.size()) - 1);
      L.board.terrain[free[k]] = type;
      free.erase(free.begin() + k);
    }
  }
  const double s = g.square_size_in;
  int feature_no = 0;
  for (const auto& [sq, type] : L.board.terrain) {
    const Vec2 c = g.Center(sq);
    const std::string id = TerrainName(type) + "-" + std::to_string(++feature_no);
    switch (type) {
      case Terrain::kWoods: {
        auto felt = Blob(c, 0.42 * s, 0.42 * s, rng.Uniform(0, 360), rng);
        L.flat_art.push_back({felt, Jitter(cv::Scalar(40, 80, 45), rng, 0.15)});
        L.board.features.push_back({id, type, Polygon{felt}});
        const int n = rng.Int(3, 6);
        for (int t = 0; t < n; ++t) {
          const Vec2 p = c + Vec2{rng.Uniform(-0.25, 0.25) * s, rng.Uniform(-0.25, 0.25) * s};
          const double r = rng.Uniform(0.08, 0.14) * s;
          const double trunk = rng.Uniform(0.3, 0.8);
          Solid crown = Lump(p, r, r, trunk, rng.Uniform(1.0, 2.0) * r * 2,
                             Jitter(cv::Scalar(35, 95, 45), rng, 0.25), rng);
          L.terrain_solids.push_back(Box(Blob(p, 0.06, 0.06, 0, rng, 6, 0.0), 0, trunk + 0.1,
                                         cv::Scalar(30, 50, 70), std::nullopt));
          L.terrain_solids.push_back(crown);
        }
        break;
      }
      case Terrain::kHouse: {
        const double w = rng.Uniform(0.35, 0.6) * s, d = rng.Uniform(0.25, 0.4) * s;
        const double ang = rng.Uniform(-20, 20) + 90.0 * rng.Int(0, 1);
        auto fp = RectPoly(c, w, d, ang);
        L.board.features.push_back({id, type, Polygon{fp}});
        const double wall = rng.Uniform(0.6, 1.1);
        const cv::Scalar wall_c = Jitter(cv::Scalar(170, 195, 215), rng, 0.15);
        L.terrain_solids.push_back(Box(fp, 0, wall, wall_c, std::nullopt));
        // Pitched roof: a prism with its ridge along the width.
        OrientedRect rr{c, w * 1.08, d * 1.12, ang};
        const auto cs = rr.Corners();
        const Vec2 r0 = 0.5 * (cs[0] + cs[3]), r1 = 0.5 * (cs[1] + cs[2]);
        const double ridge = wall + rng.Uniform(0.3, 0.6);
        Solid roof;
        for (const Vec2 p : cs) roof.points.emplace_back(p.x, p.y, -wall);
        roof.points.emplace_back(r0.x, r0.y, -ridge);
        roof.points.emplace_back(r1.x, r1.y, -ridge);
        const cv::Scalar roof_c = Jitter(cv::Scalar(45, 60, 150), rng, 0.25);
        roof.side_bgr = roof_c * 0.8;
        roof.faces.push_back({{{cs[0].x, cs[0].y, -wall},
                               {cs[1].x, cs[1].y, -wall},
                               {r1.x, r1.y, -ridge},
                               {r0.x, r0.y, -ridge}},
                              roof_c * 0.9});
        roof.faces.push_back({{{cs[3].x, cs[3].y, -wall},
                               {cs[2].x, cs[2].y, -wall},
                               {r1.x, r1.y, -ridge},
                               {r0.x, r0.y, -ridge}},
                              roof_c * 1.05});
        L.terrain_solids.push_back(roof);
        break;
      }
      case Terrain::kRocks: {
        auto felt = Blob(c, 0.4 * s, 0.35 * s, rng.Uniform(0, 360), rng);
        L.flat_art.push_back({felt, Jitter(cv::Scalar(95, 105, 110), rng, 0.1)});
        L.board.features.push_back({id, type, Polygon{felt}});
        const int n = rng.Int(2, 4);
        for (int t = 0; t < n; ++t) {
          const Vec2 p = c + Vec2{rng.Uniform(-0.2, 0.2) * s, rng.Uniform(-0.2, 0.2) * s};
          const double r = rng.Uniform(0.08, 0.16) * s;
          L.terrain_solids.push_back(Lump(p, r, r * rng.Uniform(0.6, 1.0), -0.1 * r,
                                          rng.Uniform(0.3, 0.8),
                                          Jitter(cv::Scalar(120, 125, 128), rng, 0.2), rng));
        }
        break;
      }
      case Terrain::kWater: {
        auto felt = Blob(c, 0.47 * s, 0.45 * s, rng.Uniform(0, 360), rng, 28, 0.08);
        L.flat_art.push_back({felt, Jitter(cv::Scalar(150, 100, 50), rng, 0.15)});
        L.flat_art.push_back({Blob(c, 0.3 * s, 0.12 * s, rng.Uniform(0, 360), rng),
                              Jitter(cv::Scalar(175, 130, 80), rng, 0.1)});
        L.board.features.push_back({id, type, Polygon{felt}});
        break;
      }
      case Terrain::kRoad:
      case Terrain::kBridge: {
        const bool horizontal = rng.Chance(0.5);
        const double ang = horizontal ? 0.0 : 90.0;
        if (type == Terrain::kBridge) {
          L.flat_art.push_back(
              {RectPoly(c, 0.35 * s, s * 0.98, ang), Jitter(cv::Scalar(150, 100, 50), rng, 0.1)});
        }
        auto road = RectPoly(c, s * 0.98, rng.Uniform(0.2, 0.3) * s, ang);
        L.flat_art.push_back({road, Jitter(cv::Scalar(100, 150, 180), rng, 0.12)});
        L.board.features.push_back({id, type, Polygon{road}});
        if (type == Terrain::kBridge) {
          decks.push_back(OrientedRect{c, 0.55 * s, 0.3 * s, ang});
          auto deck = RectPoly(c, decks.back().width_in, decks.back().depth_in, ang);
          Solid slab = Box(deck, 0, kBridgeDeckHeightIn, cv::Scalar(40, 70, 100),
                           Jitter(cv::Scalar(60, 100, 140), rng, 0.1));
          // A low slab: what stands on it must be painted after it, wherever its centroid is.
          slab.sort_bias_in = 1000.0;
          L.terrain_solids.push_back(slab);
        }
        break;
      }
      case Terrain::kHill: {
        auto felt = Blob(c, 0.46 * s, 0.44 * s, rng.Uniform(0, 360), rng, 24, 0.1);
        const cv::Scalar m = L.mat_bgr * rng.Uniform(0.75, 0.9);
        L.flat_art.push_back({felt, m});
        L.flat_art.push_back({Blob(c, 0.25 * s, 0.22 * s, rng.Uniform(0, 360), rng), m * 1.12});
        L.board.features.push_back({id, type, Polygon{felt}});
        break;
      }
      default:
        break;
    }
  }
  // Opaque clutter lying across grid lines (roster cards, rules sheets, rulers): hides the
  // requested fraction of the grid's line length.
  const double hide = sc.difficulty.grid_hidden_fraction;
  if (hide > 0) {
    const double line_len = (g.cols + 1) * g.Height() + (g.rows + 1) * g.Width();
    double hidden = 0;
    for (int i = 0; i < 200 && hidden < hide * line_len; ++i) {
      const bool ruler = rng.Chance(0.3);
      const double w = ruler ? 12.0 : rng.Uniform(3.0, 6.0);
      const double h = ruler ? 1.2 : rng.Uniform(2.5, 4.0);
      const Vec2 c{rng.Uniform(0, g.Width()), rng.Uniform(0, g.Height())};
      const double ang = rng.Uniform(0, 180);
      const cv::Scalar col =
          ruler ? cv::Scalar(40, 200, 230) : Jitter(cv::Scalar(215, 232, 240), rng, 0.06);
      L.flat_art.push_back({RectPoly(c, w, h, ang), col});
      // A card of size w x h covers about (w + h) / s * (w + h) inches of line on average.
      hidden += (w * h) * 2.0 / s;
    }
  }
  return decks;
}

void AddRoomClutter(SceneLayout& L, SynthRandom& rng) {
  // Dice, a mug and army boxes on the table around the mat: things with height near the edge.
  const Grid& g = L.board.grid;
  const double m = L.mat_margin_in;
  const auto outside = [&]() {
    const int side = rng.Int(0, 3);
    const double d = m + rng.Uniform(1.5, 6.0);
    switch (side) {
      case 0:
        return Vec2{rng.Uniform(-d, g.Width() + d), -d};
      case 1:
        return Vec2{rng.Uniform(-d, g.Width() + d), g.Height() + d};
      case 2:
        return Vec2{-d, rng.Uniform(-d, g.Height() + d)};
      default:
        return Vec2{g.Width() + d, rng.Uniform(-d, g.Height() + d)};
    }
  };
  const int dice = rng.Int(2, 6);
  for (int i = 0; i < dice; ++i) {
    const Vec2 p = outside();
    const double a = 0.3;
    L.terrain_solids.push_back(Box(RectPoly(p, a, a, rng.Uniform(0, 90)), 0, a,
                                   Jitter(cv::Scalar(200, 200, 200), rng, 0.3),
                                   Jitter(cv::Scalar(230, 230, 230), rng, 0.3)));
  }
  if (rng.Chance(0.6)) {
    const Vec2 p = outside();
    const double r = 1.6;
    Solid mug = Box(Blob(p, r, r, 0, rng, 20, 0.0), 0, 3.8,
                    Jitter(cv::Scalar(60, 60, 160), rng, 0.4), cv::Scalar(30, 40, 50));
    L.terrain_solids.push_back(mug);
  }
  if (rng.Chance(0.5)) {
    const Vec2 p = outside();
    L.terrain_solids.push_back(Box(RectPoly(p, 9, 6, rng.Uniform(-15, 15)), 0, 2.0,
                                   Jitter(cv::Scalar(60, 80, 100), rng, 0.3),
                                   Jitter(cv::Scalar(90, 110, 150), rng, 0.3)));
  }
}

}  // namespace

void OffsetShellDot(double max_offset_mm, SynthRandom& rng, ShellPose& shell) {
  // Uniform over the disc of that radius.
  const double r_in = std::sqrt(rng.Unit()) * max_offset_mm / 25.4;
  const double dir = rng.Uniform(0, 2 * kPi);
  shell.dot_offset_in = {r_in * std::cos(dir), r_in * std::sin(dir)};
  const double a = DegToRad(shell.angle_deg);
  shell.dot.x += shell.dot_offset_in.x * std::cos(a) - shell.dot_offset_in.y * std::sin(a);
  shell.dot.y += shell.dot_offset_in.x * std::sin(a) + shell.dot_offset_in.y * std::cos(a);
}

HandPose SampleHand(const SceneLayout& L, Vec2 target, SynthRandom& rng) {
  const Grid& g = L.board.grid;
  HandPose hand;
  const double dl = target.x, dr = g.Width() - target.x, dt = target.y, db = g.Height() - target.y;
  Vec2 out_dir{-1, 0};
  const double mn = std::min({dl, dr, dt, db});
  if (mn == dr) out_dir = {1, 0};
  if (mn == dt) out_dir = {0, -1};
  if (mn == db) out_dir = {0, 1};
  out_dir = Rotate(out_dir, DegToRad(rng.Uniform(-30, 30)));
  const Vec2 palm = target + rng.Uniform(1.0, 3.0) * out_dir +
                    Vec2{rng.Uniform(-1.0, 1.0), rng.Uniform(-1.0, 1.0)};
  const double palm_h = rng.Uniform(1.5, 4.0);
  const Vec2 wrist = palm + 3.5 * out_dir;
  const Vec2 shoulder = palm + (mn + L.mat_margin_in + rng.Uniform(14, 22)) * out_dir;
  hand.palm = {palm.x, palm.y, -palm_h};
  hand.wrist = {wrist.x, wrist.y, -(palm_h + 0.8)};
  hand.shoulder = {shoulder.x, shoulder.y, -(palm_h + rng.Uniform(5, 10))};
  static const cv::Scalar kSkin[] = {{150, 180, 225}, {120, 150, 200}, {90, 120, 170},
                                     {60, 85, 125},   {45, 60, 90},    {170, 195, 235}};
  hand.skin_bgr = Jitter(kSkin[rng.Int(0, 5)], rng, 0.08);
  hand.sleeve_bgr = Jitter(
      cv::Scalar(rng.Uniform(20, 200), rng.Uniform(20, 200), rng.Uniform(20, 200)), rng, 0.1);
  hand.finger_spread = rng.Uniform(0.0, 1.0);
  return hand;
}

SceneLayout SampleLayout(const Scenario& sc, const StandKindCatalog& kinds, cv::Size size,
                         SynthRandom& rng) {
  SceneLayout L;
  L.board.grid = sc.grid;
  const Grid& g = sc.grid;
  L.markers = sc.markers && rng.Chance(sc.marker_probability);
  L.mat_margin_in = rng.Uniform(3.2, 6.0);
  L.table_margin_in = rng.Uniform(4.0, 16.0);
  const double view_margin = L.markers ? 3.0 : rng.Uniform(0.4, 1.5);
  L.camera = SampleCamera(sc, size, view_margin, rng);

  L.texture_seed = rng.Bits();
  L.mat_bgr = Jitter(Bgr(sc.mat_colours[rng.Int(0, static_cast<int>(sc.mat_colours.size()) - 1)]),
                     rng, 0.08);
  L.grid_line_in = MmToInches(rng.Uniform(sc.grid_line_mm));
  L.line_bgr = Jitter(cv::Scalar(25, 30, 35), rng, 0.3);
  L.table_bgr = Jitter(cv::Scalar(60, 95, 135), rng, 0.25);
  L.floor_bgr = Jitter(cv::Scalar(55, 60, 70), rng, 0.3);

  const std::vector<OrientedRect> decks = AddTerrainArt(sc, L, rng);
  AddRoomClutter(L, rng);

  // Stands: each in its own square, roughly facing the enemy, jittered in place and angle.
  std::vector<Square> squares;
  for (int r = 0; r < g.rows; ++r) {
    for (int c = 0; c < g.cols; ++c) {
      const Terrain t = L.board.TerrainAt({c, r});
      if (t != Terrain::kWater && t != Terrain::kHouse) squares.push_back({c, r});
    }
  }
  const bool stripes = rng.Chance(sc.front_stripe_probability);
  for (int side = 0; side < 2; ++side) {
    for (int i = 0; i < sc.stands_per_side && !squares.empty(); ++i) {
      const int k = rng.Int(0, static_cast<int>(squares.size()) - 1);
      const Square sq = squares[k];
      squares.erase(squares.begin() + k);
      const std::string& kind_name = sc.kinds[rng.Int(0, static_cast<int>(sc.kinds.size()) - 1)];
      const StandKind* kind = kinds.Find(kind_name);
      StandLook look;
      look.stand.id = sc.sides[side].name + "-" + std::to_string(i + 1);
      look.stand.side = sc.sides[side].name;
      look.stand.kind = kind_name;
      look.stand.facing_known = stripes;
      OrientedRect& fp = look.stand.footprint;
      fp.width_in = MmToInches(kind->width_mm);
      fp.depth_in = MmToInches(kind->depth_mm);
      // Facing: mostly toward the enemy (red faces +y, blue -y), sometimes any of the eight.
      int facing = side == 0 ? static_cast<int>(Facing::kS) : static_cast<int>(Facing::kN);
      if (rng.Chance(0.35)) facing = rng.Int(0, 7);
      const double facing_deg = RadToDeg(std::atan2(FacingVector(static_cast<Facing>(facing)).y,
                                                    FacingVector(static_cast<Facing>(facing)).x));
      fp.angle_deg = facing_deg + 90.0 + rng.Normal(0, 4.0);
      fp.angle_deg = std::fmod(fp.angle_deg + 360.0, 360.0);
      const double half = 0.5 * std::hypot(fp.width_in, fp.depth_in);
      const double room = std::max(0.0, 0.5 * g.square_size_in - half - 0.05);
      fp.center = g.Center(sq) + Vec2{rng.Uniform(-room, room), rng.Uniform(-room, room)};
      look.thickness_in = MmToInches(rng.Uniform(sc.base_thickness_mm));
      // A stand cannot stand under a bridge deck: on a bridge square it rests on the deck.
      if (L.board.TerrainAt(sq) == Terrain::kBridge) look.elevation_in = kBridgeDeckHeightIn;
      look.border_in = MmToInches(rng.Uniform(sc.border_mm));
      look.side_bgr = Jitter(Bgr(sc.sides[side].colour), rng, 0.06);
      static const cv::Scalar kFlock[] = {
          {50, 110, 80}, {70, 120, 140}, {60, 90, 100}, {90, 150, 170}};
      look.interior_bgr = Jitter(kFlock[rng.Int(0, 3)], rng, 0.15);
      look.front_stripe = stripes;
      look.stripe_in = MmToInches(rng.Uniform(2.0, 3.0));
      if (rng.Chance(sc.figure_probability)) {
        look.figures = SampleFigures(sc, look, kind->category, rng);
      }
      L.stands.push_back(look);
    }
  }

  // Projectile at rest.
  L.projectile_kind =
      sc.projectile == "mixed" ? (rng.Chance(0.5) ? "qtip" : "shell") : sc.projectile;
  L.paint_bgr = Jitter(Bgr(sc.qtip_paint), rng, 0.1);
  L.shell_bgr = Jitter(Bgr(sc.shell_colour), rng, 0.08);
  const bool across = !L.stands.empty() && rng.Chance(sc.across_base_probability);
  const auto random_point = [&]() {
    if (!L.stands.empty() && rng.Chance(sc.near_stand_probability)) {
      const auto& fp = L.stands[rng.Int(0, static_cast<int>(L.stands.size()) - 1)].stand.footprint;
      const double u = rng.Uniform(-0.5 * fp.width_in - 1.2, 0.5 * fp.width_in + 1.2);
      const double v = rng.Uniform(-0.5 * fp.depth_in - 1.2, 0.5 * fp.depth_in + 1.2);
      return fp.center + u * fp.AxisX() + v * fp.AxisY();
    }
    return Vec2{rng.Uniform(0.3, g.Width() - 0.3), rng.Uniform(0.3, g.Height() - 0.3)};
  };
  if (L.projectile_kind == "qtip") {
    for (int attempt = 0; attempt < 60; ++attempt) {
      const double ang = rng.Uniform(0, 2 * kPi);
      const Vec2 dir{std::cos(ang), std::sin(ang)};
      Vec2 tip;
      if (across) {
        const auto& fp =
            L.stands[rng.Int(0, static_cast<int>(L.stands.size()) - 1)].stand.footprint;
        // Centre of the Q-tip over the base so it balances across it.
        const Vec2 mid = fp.center + Vec2{rng.Uniform(-0.15, 0.15), rng.Uniform(-0.15, 0.15)};
        tip = mid + (0.5 * kQtipLengthIn) * dir;
      } else {
        tip = random_point();
      }
      const Vec2 tail = tip - kQtipLengthIn * dir;
      if (!g.ContainsPoint(tip) && attempt < 59) continue;
      // Rest height: the highest support under the stick (bases, figures), plus its radius.
      double support_stick = 0.0, support_head = 0.0;
      std::string on;
      for (int i = 0; i <= 30; ++i) {
        const double t = i / 30.0;
        const Vec2 p = tail + (t * kQtipLengthIn) * dir;
        const bool head = t * kQtipLengthIn < kQtipHeadLenIn ||
                          t * kQtipLengthIn > kQtipLengthIn - kQtipHeadLenIn;
        const double h = SupportHeight(L, decks, p, &on);
        (head ? support_head : support_stick) = std::max(head ? support_head : support_stick, h);
      }
      if (!across && !on.empty() && attempt < 59) continue;  // landed on a base by chance: retry
      const double axis_h =
          std::max(support_stick + 0.5 * kQtipStickDiaIn, support_head + 0.5 * kQtipHeadDiaIn);
      L.qtip.painted_end = {tip.x, tip.y, -axis_h};
      L.qtip.plain_end = {tail.x, tail.y, -axis_h};
      L.resting_on = on;
      break;
    }
  } else {
    Vec2 p = random_point();
    if (across) {
      const auto& look = L.stands[rng.Int(0, static_cast<int>(L.stands.size()) - 1)];
      const auto& fp = look.stand.footprint;
      p = fp.center + rng.Uniform(-0.3, 0.3) * fp.width_in * fp.AxisX() +
          rng.Uniform(-0.3, 0.3) * fp.depth_in * fp.AxisY();
    }
    L.shell.angle_deg = rng.Uniform(0, 90);
    // The highest support under the footprint on the shell's own (turned) axes: a 13 x 13 grid,
    // edges included, 1 mm apart (the smallest figure SampleFigures makes is 1 mm across).
    // A plasticine shell may rest with its centre past its highest support's edge: it is soft
    // and sticks (vision/shell_support judges such a shell across a base's edge).
    std::string on;
    const OrientedRect shell{p, kShellSizeIn, kShellSizeIn, L.shell.angle_deg};
    double support = 0.0;
    constexpr int kN = 13;
    for (int i = 0; i < kN * kN; ++i) {
      const int col = i % kN, row = i / kN;
      const double u = col / (kN - 1.0) - 0.5, v = row / (kN - 1.0) - 0.5;
      const Vec2 q = p + (u * kShellSizeIn) * shell.AxisX() + (v * kShellSizeIn) * shell.AxisY();
      support = std::max(support, SupportHeight(L, decks, q, &on));
    }
    L.shell.dot = {p.x, p.y, -(support + kShellThickIn)};
    L.resting_on = on;
  }

  // Lamp: a room light above and to one side of the table.
  L.lamp = {0.5 * g.Width() + rng.Uniform(-40, 40), 0.5 * g.Height() + rng.Uniform(-40, 40),
            -rng.Uniform(sc.difficulty.lamp_height_in)};
  L.shadow_strength = rng.Uniform(0.3, 0.55);
  L.shadows_on_solids = sc.difficulty.shadows_on_solids;

  // Hand reaching for the projectile, from the nearest side of the table.
  const Vec2 target = L.projectile_kind == "qtip" ? Vec2{L.qtip.painted_end.x, L.qtip.painted_end.y}
                                                  : Vec2{L.shell.dot.x, L.shell.dot.y};
  if (rng.Chance(sc.difficulty.hand_probability)) L.hand = SampleHand(L, target, rng);

  // Photographic effects, scaled from 1080p to the output size.
  const auto& d = sc.difficulty;
  const double scale = size.width / 1920.0;
  PhotoParams& ph = L.photo;
  ph.defocus_sigma_px = rng.Uniform(d.defocus_px) * scale;
  ph.motion_px = rng.Uniform(d.motion_blur_px) * scale;
  ph.motion_angle_deg = rng.Uniform(0, 180);
  ph.noise_sigma = rng.Uniform(d.noise_sigma);
  ph.unevenness = rng.Uniform(d.light_unevenness);
  const double la = rng.Uniform(0, 2 * kPi);
  ph.bright_dir = {std::cos(la), std::sin(la)};
  ph.vignetting = rng.Uniform(d.vignetting);
  ph.exposure = rng.Uniform(d.exposure);
  ph.warmth = rng.Uniform(-0.06, 0.1);
  ph.jpeg_quality = d.jpeg_quality;
  return L;
}

}  // namespace referee
