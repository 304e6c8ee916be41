// The truth drawn back onto the rendered images lands where the image shows the thing: measured
// in the pixels (edge profiles), not by re-projecting with the renderer's own code path.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "datasets/scenario.hpp"
#include "datasets/scene_truth.hpp"
#include "datasets/synth_scene.hpp"
#include "engine/data_paths.hpp"

namespace referee {
namespace {

// A clean camera (no blur, no noise) over a plain tan mat with no terrain, so edges are sharp
// enough to measure to a fraction of a millimetre.
Scenario CleanScenario() {
  Scenario sc = LoadScenario(DatasetsDir() / "scenarios" / "napoleonic.json");
  sc.mat_colours = {{176, 152, 108}};
  sc.terrain_counts.clear();
  sc.terrain_squares.clear();
  sc.figure_probability = 0.0;
  sc.across_base_probability = 0.0;
  sc.projectile = "qtip";
  auto& d = sc.difficulty;
  d.defocus_px = {0, 0};
  d.motion_blur_px = {0, 0};
  d.noise_sigma = {0, 0};
  d.hand_probability = 0.0;
  d.jpeg_quality = 100;
  return sc;
}

cv::Vec3d At(const cv::Mat& img, cv::Point2d px) {
  cv::Mat patch;
  cv::getRectSubPix(img, cv::Size(1, 1),
                    cv::Point2f(static_cast<float>(px.x), static_cast<float>(px.y)), patch, CV_32F);
  const auto v = patch.at<cv::Vec3f>(0, 0);
  return {v[0], v[1], v[2]};
}

bool Inside(const cv::Mat& img, cv::Point2d p, double margin) {
  return p.x > margin && p.y > margin && p.x < img.cols - margin && p.y < img.rows - margin;
}

// Where, along s (mm), the colour profile from `from` leaves the inside colour by half the
// inside-outside contrast. nullopt when the contrast is too low to measure.
std::optional<double> Crossing(const cv::Mat& img, const CameraModel& cam, Vec2 origin, Vec2 dir,
                               double height_in, double s_in_mm, double s_out_mm,
                               double min_contrast) {
  const auto px = [&](double s_mm) {
    return cam.ImageFromTable(origin + MmToInches(s_mm) * dir, height_in);
  };
  const cv::Vec3d in = At(img, px(s_in_mm)), out = At(img, px(s_out_mm));
  const double contrast = cv::norm(out - in);
  if (contrast < min_contrast) return std::nullopt;
  for (double s = s_in_mm; s <= s_out_mm; s += 0.02) {
    if (cv::norm(At(img, px(s)) - in) >= 0.5 * contrast) return s;
  }
  return std::nullopt;
}

// Image pixels per mm along `dir` (table plane direction) at `p`, `height_in` above the mat.
double PxPerMm(const CameraModel& cam, Vec2 p, Vec2 dir, double height_in) {
  return cv::norm(cam.ImageFromTable(p + MmToInches(2.0) * dir, height_in) -
                  cam.ImageFromTable(p, height_in)) /
         2.0;
}

TEST(SynthTruth, QtipTipIsTheOuterEndOfThePaintedHead) {
  const Scenario sc = CleanScenario();
  int measured = 0;
  for (int index = 0; index < 12 && measured < 4; ++index) {
    const SynthScene s = GenerateScene(sc, SynthOptions{11, cv::Size(1920, 1080), 2, false}, index);
    ASSERT_TRUE(s.projectile);
    const ProjectileTruth& p = *s.projectile;
    ASSERT_EQ(p.kind, "qtip");
    if (!p.resting_on.empty()) continue;
    const Vec2 axis = (1.0 / Distance(p.point, p.plain_end)) * (p.point - p.plain_end);
    EXPECT_NEAR(Distance(p.point, p.plain_end), 75.0 / 25.4, 1e-9);
    const cv::Point2d tip = s.camera.ImageFromTable(p.point, p.height_in);
    if (!Inside(s.after, tip, 20)) continue;
    // Just inside the tip the head is paint-dark; beyond it is the mat (the `before` image has
    // no projectile there).
    const cv::Vec3d paint =
        At(s.after, s.camera.ImageFromTable(p.point - MmToInches(1.5) * axis, p.height_in));
    const cv::Point2d beyond =
        s.camera.ImageFromTable(p.point + MmToInches(3.0) * axis, p.height_in);
    const cv::Vec3d mat = At(s.after, beyond);
    EXPECT_LT(cv::sum(paint)[0] / 3, 70.0) << "index " << index;
    EXPECT_GT(cv::sum(mat)[0] / 3, cv::sum(paint)[0] / 3 + 40) << "index " << index;
    EXPECT_LT(cv::norm(mat - At(s.before, beyond)), 0.6 * cv::norm(At(s.before, beyond)))
        << "index " << index;
    // The dark-to-mat transition along the stick's axis sits at the truth tip.
    const auto cross = Crossing(s.after, s.camera, p.point, axis, p.height_in, -1.5, 3.0, 40.0);
    ASSERT_TRUE(cross) << "index " << index;
    const double px_per_mm = PxPerMm(s.camera, p.point, axis, p.height_in);
    std::printf("tip %d: %+.3f px along the axis\n", index, *cross * px_per_mm);
    // The half-contrast point of a rounded head sits up to ~0.3 px inside its geometric end (an
    // ideal ray-cast render does the same: synth_edge_position_test), lighting adds a little.
    EXPECT_NEAR(*cross * px_per_mm, 0.0, 0.4) << "index " << index << " (px along the axis)";
    ++measured;
  }
  EXPECT_GE(measured, 3);
}

TEST(SynthTruth, StandEdgesAndCornersAreTheSideColourBordersOuterEdge) {
  const Scenario sc = CleanScenario();
  int edges = 0, corners = 0;
  for (int index = 0; index < 3; ++index) {
    const SynthScene s = GenerateScene(sc, SynthOptions{21, cv::Size(1920, 1080), 2, false}, index);
    const cv::Vec3d cam_c = s.camera.CameraCenterTable();
    for (size_t i = 0; i < s.stands.size(); ++i) {
      const Stand& st = s.stands[i];
      const double top = s.stand_height_in[i];
      const auto cs = st.footprint.Corners();
      const bool red = st.side == "red";
      const auto side_coloured = [&](const cv::Vec3d& bgr) {
        return red ? bgr[2] > bgr[1] + 50 && bgr[2] > bgr[0] + 50
                   : bgr[0] > bgr[2] + 50 && bgr[0] > bgr[1] + 30;
      };
      // Corners: 2.5 mm inward along the diagonal (1.8 mm, > 1 px, from both edges) is still the
      // border (>= 3 mm wide). Closer in, a pixel would mix border and mat.
      for (const Vec2 c : cs) {
        const Vec2 in = (1.0 / Distance(st.footprint.center, c)) * (st.footprint.center - c);
        const cv::Point2d px = s.camera.ImageFromTable(c + MmToInches(2.5) * in, top);
        if (!Inside(s.before, px, 10)) continue;
        EXPECT_TRUE(side_coloured(At(s.before, px))) << st.id << " corner " << At(s.before, px);
        ++corners;
      }
      // Edges whose side wall faces away from the lens: the colour edge is the truth edge.
      for (int e = 0; e < 4; ++e) {
        const Vec2 a = cs[e], b = cs[(e + 1) % 4];
        const Vec2 mid = 0.5 * (a + b);
        const Vec2 out = (1.0 / Distance(mid, st.footprint.center)) * (mid - st.footprint.center);
        const Vec2 n =
            std::abs(Dot(out, st.footprint.AxisX())) > 0.5
                ? (Dot(out, st.footprint.AxisX()) > 0 ? 1.0 : -1.0) * st.footprint.AxisX()
                : (Dot(out, st.footprint.AxisY()) > 0 ? 1.0 : -1.0) * st.footprint.AxisY();
        if (Dot(Vec2{cam_c[0], cam_c[1]} - mid, n) > 0) continue;  // wall visible: skip
        // The base's shadow lies beside the edges facing away from the lamp: it really moves the
        // half-contrast point outward there (by ~0.15 px), so measure the lit edges.
        if (Dot(Vec2{s.lamp_in.x, s.lamp_in.y} - mid, n) < 0) continue;
        // The profile must cross plain mat only: no grid line or other base within 4 mm.
        bool clear = true;
        for (double s_mm = 0; s_mm <= 4.0; s_mm += 0.25) {
          const Vec2 q = mid + MmToInches(s_mm) * n;
          const double sq = s.board.grid.square_size_in;
          const double gx = std::abs(q.x - sq * std::round(q.x / sq));
          const double gy = std::abs(q.y - sq * std::round(q.y / sq));
          if (std::min(gx, gy) < MmToInches(2.0)) clear = false;
          for (size_t k = 0; k < s.stands.size(); ++k) {
            if (k != i && DistanceToRect(q, s.stands[k].footprint) < MmToInches(0.5)) clear = false;
          }
        }
        if (!clear) continue;
        if (!Inside(s.before, s.camera.ImageFromTable(mid, top), 10)) continue;
        const cv::Point2d inside_px = s.camera.ImageFromTable(mid - MmToInches(1.5) * n, top);
        ASSERT_TRUE(side_coloured(At(s.before, inside_px))) << st.id << " edge " << e;
        const auto cross = Crossing(s.before, s.camera, mid, n, top, -1.5, 3.0, 40.0);
        ASSERT_TRUE(cross) << st.id << " edge " << e;
        const double px_per_mm = PxPerMm(s.camera, mid, n, top);
        std::printf("%s edge %d: %+.3f px outward\n", st.id.c_str(), e, *cross * px_per_mm);
        EXPECT_NEAR(*cross * px_per_mm, 0.0, 0.25)
            << st.id << " edge " << e << " (px outward), " << px_per_mm << " px/mm";
        ++edges;
      }
    }
  }
  EXPECT_GE(corners, 60);
  EXPECT_GE(edges, 20);
}

// A stand on a bridge square rests on the deck: the whole top is seen, none of it under the deck
// (the generator once drew such bases under a 4 mm deck, an impossible scene).
TEST(SynthTruth, StandsOnABridgeSquareAreSeenWholeOnTheDeck) {
  Scenario sc = CleanScenario();
  sc.terrain_counts = {{Terrain::kBridge, 40}};
  sc.stands_per_side = 12;
  int on_bridge = 0;
  for (int index = 0; index < 2; ++index) {
    const SynthScene s = GenerateScene(sc, SynthOptions{21, cv::Size(1920, 1080), 2, false}, index);
    for (size_t i = 0; i < s.stands.size(); ++i) {
      const Stand& st = s.stands[i];
      const auto sq = s.board.grid.SquareOf(st.footprint.center);
      if (!sq || s.board.TerrainAt(*sq) != Terrain::kBridge) continue;
      const bool red = st.side == "red";
      const auto side_coloured = [&](const cv::Vec3d& bgr) {
        return red ? bgr[2] > bgr[1] + 50 && bgr[2] > bgr[0] + 50
                   : bgr[0] > bgr[2] + 50 && bgr[0] > bgr[1] + 30;
      };
      for (const Vec2 c : st.footprint.Corners()) {
        const Vec2 in = (1.0 / Distance(st.footprint.center, c)) * (st.footprint.center - c);
        const cv::Point2d px =
            s.camera.ImageFromTable(c + MmToInches(2.5) * in, s.stand_height_in[i]);
        ASSERT_TRUE(Inside(s.before, px, 10)) << st.id;
        EXPECT_TRUE(side_coloured(At(s.before, px))) << st.id << " corner " << At(s.before, px);
      }
      ++on_bridge;
    }
  }
  EXPECT_GE(on_bridge, 2);
}

// The top of what stands at p on the laid-out table: a base top, a figure top, or the mat (0).
// Bridge decks are left out: the callers below keep away from bridge squares or bound the deck.
double StandTopAt(const SceneLayout& L, Vec2 p) {
  double h = 0.0;
  for (const StandLook& s : L.stands) {
    if (!s.stand.footprint.Contains(p)) continue;
    const double top = s.elevation_in + s.thickness_in;
    h = std::max(h, top);
    for (const auto& f : s.figures) {
      if (PointInPolygon(p, Polygon{f.footprint})) h = std::max(h, top + f.height_in);
    }
  }
  return h;
}

// The shell's footprint on its own turned axes: a 5 x 5 grid, corners and edge midpoints included.
std::vector<Vec2> ShellFootprintPoints(const ShellPose& shell) {
  const Vec2 c{shell.dot.x, shell.dot.y};
  const OrientedRect r{c, kShellSizeIn, kShellSizeIn, shell.angle_deg};
  std::vector<Vec2> out;
  for (int i = 0; i < 25; ++i) {
    const int col = i % 5, row = i / 5;
    const double u = col / 4.0 - 0.5, v = row / 4.0 - 0.5;
    out.push_back(c + (u * kShellSizeIn) * r.AxisX() + (v * kShellSizeIn) * r.AxisY());
  }
  return out;
}

// Nothing under a shell's (turned) footprint stands higher than the shell's bottom. The generator
// once sampled the support on unturned axes: a turned shell's corner sank into a base.
TEST(SynthTruth, ShellNeverSinksIntoWhatIsUnderItsTurnedFootprint) {
  Scenario sc = LoadScenario(DatasetsDir() / "scenarios" / "napoleonic.json");
  sc.terrain_counts.clear();
  sc.terrain_squares.clear();
  sc.projectile = "shell";
  sc.across_base_probability = 0.5;
  sc.near_stand_probability = 1.0;
  int sunk = 0, on_base = 0;
  const int scenes = 300;
  for (int index = 0; index < scenes; ++index) {
    const LaidOutScene laid = LayOutScene(sc, SynthOptions{9, cv::Size(640, 360), 1, false}, index);
    const SceneLayout& L = laid.layout;
    const Vec2 c{L.shell.dot.x, L.shell.dot.y};
    const double bottom_in = -L.shell.dot.z - kShellThickIn;
    const double tol_in = MmToInches(0.1);
    if (StandTopAt(L, c) > 0.0) ++on_base;
    for (const Vec2 q : ShellFootprintPoints(L.shell)) {
      if (StandTopAt(L, q) > bottom_in + tol_in) {
        ++sunk;
        ADD_FAILURE() << "scene " << index << ": footprint point (" << q.x << ", " << q.y
                      << ") under a support " << StandTopAt(L, q) << " in above the shell's "
                      << "bottom " << bottom_in << " in";
        break;
      }
    }
  }
  EXPECT_EQ(sunk, 0) << "of " << scenes;
  EXPECT_GE(on_base, scenes / 5);  // the check covered many shells resting on bases
}

// A projectile landing on a bridge deck rests on it, like the stands crossing it (the generator
// once left it at mat height, under the deck). Only the middle 0.3 x 0.3 of a bridge square is
// taken as deck: the deck covers it whichever way the bridge runs.
TEST(SynthTruth, ProjectileOnABridgeDeckRestsOnTheDeck) {
  Scenario sc = LoadScenario(DatasetsDir() / "scenarios" / "napoleonic.json");
  sc.terrain_counts = {{Terrain::kBridge, 90}};
  sc.terrain_squares.clear();
  sc.stands_per_side = 1;
  sc.near_stand_probability = 0.0;
  sc.across_base_probability = 0.0;
  sc.projectile = "mixed";
  const double deck_in = 0.15;  // the rendered deck's top (synth_layout.cpp kBridgeDeckHeightIn)
  int shells = 0, qtips = 0;
  for (int index = 0; index < 300; ++index) {
    const LaidOutScene laid = LayOutScene(sc, SynthOptions{9, cv::Size(640, 360), 1, false}, index);
    const SceneLayout& L = laid.layout;
    const Grid& g = L.board.grid;
    const auto on_deck_core = [&](Vec2 p) {
      const auto sq = g.SquareOf(p);
      if (!sq || L.board.TerrainAt(*sq) != Terrain::kBridge) return false;
      const Vec2 d = p - g.Center(*sq);
      return std::abs(d.x) < 0.15 * g.square_size_in && std::abs(d.y) < 0.15 * g.square_size_in;
    };
    if (L.projectile_kind == "shell") {
      const auto pts = ShellFootprintPoints(L.shell);
      if (!on_deck_core({L.shell.dot.x, L.shell.dot.y})) continue;
      if (std::any_of(pts.begin(), pts.end(), [&](Vec2 q) { return StandTopAt(L, q) > 0; }))
        continue;
      ++shells;
      EXPECT_NEAR(-L.shell.dot.z - kShellThickIn, deck_in, 1e-9) << "scene " << index;
    } else {
      const Vec2 a{L.qtip.plain_end.x, L.qtip.plain_end.y};
      const Vec2 b{L.qtip.painted_end.x, L.qtip.painted_end.y};
      bool over_deck = false;
      for (int i = 0; i <= 20; ++i) over_deck = over_deck || on_deck_core(a + (i / 20.0) * (b - a));
      if (!over_deck) continue;
      ++qtips;
      EXPECT_GE(-L.qtip.painted_end.z, deck_in + 0.5 * kQtipStickDiaIn - 1e-9) << "scene " << index;
      EXPECT_NEAR(L.qtip.painted_end.z, L.qtip.plain_end.z, 1e-12) << "scene " << index;
    }
  }
  EXPECT_GE(shells, 5);
  EXPECT_GE(qtips, 20);
}

TEST(SynthTruth, GridIntersectionsAreOnTheDarkLines) {
  const Scenario sc = CleanScenario();
  const SynthScene s = GenerateScene(sc, SynthOptions{31, cv::Size(1280, 720), 2, false}, 0);
  const Grid& g = s.board.grid;
  ASSERT_EQ(s.grid_intersections_px.size(), static_cast<size_t>((g.cols + 1) * (g.rows + 1)));
  int checked = 0;
  for (int r = 0; r <= g.rows; ++r) {
    for (int c = 0; c <= g.cols; ++c) {
      const cv::Point2d px = s.grid_intersections_px[r * (g.cols + 1) + c];
      if (!Inside(s.empty, px, 5)) continue;
      // 8 mm into a neighbouring square is mat: the intersection is much darker.
      const double sq = g.square_size_in;
      const Vec2 into{c < g.cols ? 0.3 : -0.3, r < g.rows ? 0.3 : -0.3};
      const cv::Point2d mat_px = s.camera.ImageFromTable(Vec2{c * sq, r * sq} + into, 0.0);
      const double line = cv::sum(At(s.empty, px))[0] / 3,
                   mat = cv::sum(At(s.empty, mat_px))[0] / 3;
      EXPECT_LT(line, 0.6 * mat) << "intersection " << c << "," << r;
      ++checked;
    }
  }
  EXPECT_EQ(checked, (g.cols + 1) * (g.rows + 1));  // the whole grid is in view
}

}  // namespace
}  // namespace referee
