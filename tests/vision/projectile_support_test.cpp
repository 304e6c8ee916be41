// What a projectile rests on, in rendered 1080p scenes (the generator's camera, `after` sent as
// JPEG): the height it is measured at decides where the camera ray puts it.
//  - A Q-tip across a bare flocked base (no figures) lies 3-4 mm high, not on figures 20 mm
//    high (napoleonic seed 5 scene 6: the flock was taken for figures, 4.7 mm off).
//  - A shell on the mat in a house's shadow is the mat, not "something unknown" (hard seed 5
//    scene 10 was refused).
//  - A shell on flat terrain the board lays on the mat (water felt, a road) lies at the mat's
//    height, though not on the mat's colour (refused before as resting on "something that is
//    neither the mat nor a stand found").
//  - A Q-tip seen lying across a stand's figures is on them, though a stretch of it looks
//    hidden (lamp seed 223 scene 3 was put on the base top, 4.53 mm off).
//  - A Q-tip with its plain end on the mat and its painted end over a stand's figures slopes
//    up over their edge: its tip is higher than the figures (a scene laid out here; the
//    generator lays sticks level).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <opencv2/imgcodecs.hpp>

#include "datasets/exposure_drift.hpp"
#include "datasets/scene_renderer.hpp"
#include "datasets/scene_truth.hpp"
#include "datasets/synth_scene.hpp"
#include "engine/data_paths.hpp"
#include "engine/stand_kind_catalog_loader.hpp"
#include "laid_out_qtip_shot.hpp"
#include "rendered_scene.hpp"
#include "scenario_side_colors.hpp"
#include "vision/shot_analysis.hpp"

namespace referee {
namespace {

ShotAnalysis Analyse(const Scenario& sc, const Board& board, const CameraModel& camera,
                     const cv::Mat& before, const cv::Mat& after, const std::string& ruleset) {
  TableCalibration cal;
  cal.board = board.grid;
  cal.camera = camera;
  const TopView view(cal);
  StandDetectorOptions stand_opt;
  stand_opt.kind_preference = KindPreference(ruleset);
  return AnalyseShot(view, before, after, ScenarioSideColors(sc), LoadStandKinds(), &board,
                     stand_opt);
}

TEST(ProjectileSupportTest, QtipAcrossABareFlockedBaseIsNotOnFigures) {
  const Scenario sc = LoadScenario(DatasetsDir() / "scenarios" / "napoleonic.json");
  const SynthScene s = GenerateScene(sc, SynthOptions{.seed = 5, .size = {1920, 1080}}, 6);
  ASSERT_TRUE(s.projectile && s.projectile->kind == "qtip");
  ASSERT_LT(InchesToMm(s.projectile->height_in), 5.0);  // the stick rests on the base top
  const ShotAnalysis a = Analyse(sc, s.board, s.camera, s.before,
                                 AsWebcamSends(s.after, s.jpeg_quality), "napoleonic");
  ASSERT_TRUE(a.projectile.has_value()) << a.refusal;
  EXPECT_LT(InchesToMm(a.projectile->height_in), 6.0);
  EXPECT_LT(InchesToMm(Distance(a.projectile->point, s.projectile->point)), 1.5);
}

// Bug (session 22, napoleonic seed 17 scene 1): a Q-tip lying on a base top past a figure that
// hides part of it from the tilted camera was put on that figure, 23.8 mm up (truth 3.6 mm):
// 6.41 mm off. The figure stands in front of the stick, so the stick lies lower than it; seen so
// also through a 10 % brighter or darker `after` (the change the gain correction leaves there).
TEST(ProjectileSupportTest, QtipHiddenBehindAFigureLiesOnTheBaseTop) {
  const Scenario sc = LoadScenario(DatasetsDir() / "scenarios" / "napoleonic.json");
  const SynthScene s = GenerateScene(
      sc, SynthOptions{.seed = 17, .size = {1920, 1080}, .with_hand_frame = false}, 1);
  ASSERT_TRUE(s.projectile && s.projectile->kind == "qtip");
  ASSERT_LT(InchesToMm(s.projectile->height_in), 5.0);  // the stick rests on the base top
  const cv::Mat sent = AsWebcamSends(s.after, s.jpeg_quality);
  for (const ExposureDrift& d : {ExposureDrift{}, ExposureDrift{.gain = 1.10, .active = true},
                                 ExposureDrift{.gain = 0.90, .active = true}}) {
    SCOPED_TRACE("gain " + std::to_string(d.gain));
    const ShotAnalysis a = Analyse(sc, s.board, s.camera, s.before, Drifted(sent, d), "napoleonic");
    ASSERT_TRUE(a.projectile.has_value()) << a.refusal;
    EXPECT_LT(InchesToMm(a.projectile->height_in), 6.0);
    EXPECT_LT(InchesToMm(Distance(a.projectile->point, s.projectile->point)), 1.5);
  }
}

// Bug (session 42, lamp seed 223 scene 3, never tuned on): a Q-tip lying level across a base's
// figures, seen over them for 15.7 mm, was read as hidden behind them along 3.2 mm (where the
// `after` frame shows the figures barely changed), and put on the base top: 3.8 mm up (truth
// 24.5 mm), 4.53 mm off. A stick that lies lower than figures is hidden along more of them than
// it is seen over them.
TEST(ProjectileSupportTest, QtipSeenAcrossFiguresIsOnThemThoughAStretchLooksHidden) {
  const Scenario sc = LoadScenario(DatasetsDir() / "scenarios" / "lamp.json");
  const SynthScene s = GenerateScene(sc, SynthOptions{.seed = 223, .size = {1920, 1080}}, 3);
  ASSERT_TRUE(s.projectile && s.projectile->kind == "qtip");
  ASSERT_GT(InchesToMm(s.projectile->height_in), 20.0);  // the stick rests on the figures
  const ShotAnalysis a = Analyse(sc, s.board, s.camera, s.before,
                                 AsWebcamSends(s.after, s.jpeg_quality), "napoleonic");
  ASSERT_TRUE(a.projectile.has_value()) << a.refusal;
  EXPECT_GT(InchesToMm(a.projectile->height_in), 20.0);
  EXPECT_LT(InchesToMm(Distance(a.projectile->point, s.projectile->point)), 1.5);
}

TEST(ProjectileSupportTest, ShellOnTheMatInAShadowIsMeasured) {
  const Scenario sc = LoadScenario(DatasetsDir() / "scenarios" / "hard.json");
  const SynthScene s = GenerateScene(
      sc, SynthOptions{.seed = 5, .size = {1920, 1080}, .with_hand_frame = false}, 10);
  ASSERT_TRUE(s.projectile && s.projectile->kind == "shell");
  ASSERT_TRUE(s.projectile->resting_on.empty());
  const ShotAnalysis a = Analyse(sc, s.board, s.camera, s.before,
                                 AsWebcamSends(s.after, s.jpeg_quality), "napoleonic");
  ASSERT_TRUE(a.projectile.has_value()) << a.refusal;
  EXPECT_TRUE(a.projectile->resting_on.empty()) << a.projectile->resting_on;
  EXPECT_LT(InchesToMm(Distance(a.projectile->point, s.projectile->point)), 1.5);
}

// Where along the stick (distance from `from`, inches) it first passes over a figure.
std::optional<double> FirstFigure(const StandLook& look, Vec2 from, Vec2 dir, double length_in) {
  for (double d = 0; d <= length_in; d += 0.01) {
    for (const auto& f : look.figures) {
      if (PointInPolygon(from + d * dir, Polygon{f.footprint})) return d;
    }
  }
  return std::nullopt;
}

TEST(ProjectileSupportTest, QtipFromTheMatOntoFiguresSlopesUpToItsTip) {
  const Scenario sc = LoadScenario(DatasetsDir() / "scenarios" / "napoleonic.json");
  const SynthOptions options{.seed = 5, .size = {1920, 1080}, .with_hand_frame = false};
  // Napoleonic scene 0 has infantry (two ranks of figures) well inside the board.
  LaidOutScene laid = LayOutScene(sc, options, 0);
  SceneLayout& L = laid.layout;
  const double figure_in = MmToInches(20.0);  // the detector's default figure height
  const double base_in = MmToInches(2.5);
  const double head_r = 0.5 * kQtipHeadDiaIn, stick_r = 0.5 * kQtipStickDiaIn;
  // A stand with figures whose outward side leaves a Q-tip's length of open mat.
  const StandLook* target = nullptr;
  Vec2 tip, plain;
  for (auto& look : L.stands) {
    look.thickness_in = base_in;
    for (auto& f : look.figures) f.height_in = figure_in;
  }
  for (const auto& look : L.stands) {
    if (look.figures.size() < 2 || target) continue;
    const OrientedRect& fp = look.stand.footprint;
    for (const double sign : {1.0, -1.0}) {
      const Vec2 dir = sign * fp.AxisX();  // from the plain end toward the tip
      // The tip over the figure furthest along `dir`: the stick runs along its rank.
      Vec2 t = fp.center;
      double best = -1e9;
      for (const auto& f : look.figures) {
        Vec2 c{0, 0};
        for (const Vec2& v : f.footprint)
          c = c + v * (1.0 / static_cast<double>(f.footprint.size()));
        if (Dot(c - fp.center, dir) > best) best = Dot(c - fp.center, dir), t = c;
      }
      const Vec2 p = t - kQtipLengthIn * dir;
      bool clear = L.board.grid.ContainsPoint(p) && L.board.grid.ContainsPoint(t);
      for (const auto& other : L.stands) {
        if (&other == &look) continue;
        for (double d = 0; d <= kQtipLengthIn && clear; d += 0.05)
          clear = DistanceToRect(p + d * dir, other.stand.footprint) > 0.5;
      }
      for (double d = 0; d <= 0.5 * kQtipLengthIn && clear; d += 0.05)
        clear = !fp.Contains(p + d * dir);  // the middle is off the base: it cannot balance
      if (!clear) continue;
      target = &look;
      tip = t;
      plain = p;
      break;
    }
  }
  ASSERT_NE(target, nullptr);
  const Vec2 dir = (tip - plain) * (1.0 / kQtipLengthIn);
  const std::optional<double> contact = FirstFigure(*target, plain, dir, kQtipLengthIn);
  ASSERT_TRUE(contact.has_value());
  // Plain head on the mat, stick over the first figure's edge: a straight line through both.
  const double rest_in = target->thickness_in + figure_in + stick_r;
  const double tip_h = head_r + (rest_in - head_r) * kQtipLengthIn / *contact;
  L.qtip.plain_end = {plain.x, plain.y, -head_r};
  L.qtip.painted_end = {tip.x, tip.y, -tip_h};
  L.hand.reset();

  const RenderedQtipShot shot = RenderQtipShot(laid, options.supersample);
  const cv::Mat& before = shot.before;
  const cv::Mat after = AsWebcamSends(shot.after, L.photo.jpeg_quality);

  const ShotAnalysis a = Analyse(sc, L.board, L.camera, before, after, "napoleonic");
  ASSERT_TRUE(a.projectile.has_value()) << a.refusal;
  EXPECT_EQ(a.projectile->kind, "qtip");
  EXPECT_GT(InchesToMm(a.projectile->height_in), InchesToMm(rest_in) + 3.0)
      << "true tip height " << InchesToMm(tip_h) << " mm";
  EXPECT_LT(InchesToMm(Distance(a.projectile->point, tip)), 2.5)
      << "true tip height " << InchesToMm(tip_h) << " mm, found at "
      << InchesToMm(a.projectile->height_in) << " mm";
}

// A `hard` table whose squares are mostly roads, bridges and water, every projectile a shell:
// shells land on flat terrain far more often than on the `hard` scenario's table.
Scenario FlatTerrainScenario() {
  const std::filesystem::path dir = std::filesystem::path(REFEREE_TEST_TMP) / "projectile_support";
  std::filesystem::create_directories(dir);
  const std::filesystem::path file = dir / "hard_roads.json";
  std::ofstream(file) << R"({
    "name": "hard_roads",
    "board": {"cols": 12, "rows": 8, "square_size": 4.0},
    "markers": false,
    "terrain": {"counts": {"woods": 3, "house": 2, "rocks": 1, "water": 6, "road": 14,
                           "bridge": 6, "hill": 3}},
    "stands_per_side": 10,
    "kinds": ["line_infantry", "light_infantry", "line_cavalry", "field_gun", "howitzer",
              "supply_wagon", "commander"],
    "projectile": "shell", "front_stripe_probability": 0.3, "across_base_probability": 0.3,
    "near_stand_probability": 0.3,
    "difficulty": {"tilt_deg": [15, 25], "k1": [-0.35, 0.05], "k2": [-0.05, 0.10],
                   "hfov_deg": [60, 85], "defocus_px": [0.5, 2.5], "motion_blur_px": [0.0, 4.0],
                   "noise_sigma": [3.0, 8.0], "light_unevenness": [0.2, 0.5],
                   "vignetting": [0.2, 0.5], "exposure": [0.7, 1.2], "hand_probability": 0.8,
                   "grid_hidden_fraction": 0.3, "jpeg_quality": 80}
  })";
  return LoadScenario(file);
}

// Seed 3, scene 3: a shell on a water square's felt, 7 mm inside its edge, 5 mm high. It was
// refused: a quarter of what it covers showed the mat's colour, the rest the felt's.
TEST(ProjectileSupportTest, ShellOnWaterFeltLiesAtTheMatsHeight) {
  const Scenario sc = FlatTerrainScenario();
  const SynthScene s =
      GenerateScene(sc, SynthOptions{.seed = 3, .size = {1920, 1080}, .with_hand_frame = false}, 3);
  ASSERT_TRUE(s.projectile && s.projectile->kind == "shell");
  ASSERT_TRUE(s.projectile->resting_on.empty());  // the scene is the one described
  ASSERT_TRUE(s.board.IsOverWater(s.projectile->point));
  const ShotAnalysis a = Analyse(sc, s.board, s.camera, s.before,
                                 AsWebcamSends(s.after, s.jpeg_quality), "napoleonic");
  ASSERT_TRUE(a.projectile.has_value()) << a.refusal;
  EXPECT_TRUE(a.projectile->resting_on.empty()) << a.projectile->resting_on;
  EXPECT_LT(InchesToMm(Distance(a.projectile->point, s.projectile->point)), 1.5);
}

}  // namespace
}  // namespace referee
