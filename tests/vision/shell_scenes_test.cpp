// Catapult shells in rendered ancient scenes (1080p, the generator's camera), with the `after`
// frame compressed as a webcam sends it (JPEG) and `before` lossless, as `referee synth`
// writes them. Each scene here was refused before this session's shell model: JPEG speckle
// along every base border ("more than one thing changed"), a dot blurred away ("no centre
// dot"), a shell lying on figures ("neither a Q-tip nor a shell"). The last two tests are of the
// dot fitted where blur leaves it faint (vision/shell_dot), on hand-made and `hard` shells.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <opencv2/imgcodecs.hpp>

#include "datasets/synth_scene.hpp"
#include "engine/data_paths.hpp"
#include "engine/stand_kind_catalog_loader.hpp"
#include "rendered_scene.hpp"
#include "scenario_side_colors.hpp"
#include "vision/shot_analysis.hpp"

namespace referee {
namespace {

struct Case {
  int index;
  double max_error_mm;
  bool on_stand;
};

// The whole shot analysis on a rendered ancient-rules scene: `after` as a webcam sends it (JPEG),
// the camera from the truth.
ShotAnalysis AnalyseAncientScene(const Scenario& sc, const SynthScene& s,
                                 const StandKindCatalog& catalog,
                                 const ProjectileOptions& projectile_opt = {}) {
  StandDetectorOptions stand_opt;
  stand_opt.kind_preference = KindPreference("ancient");
  return AnalyseShot(TopView(TruthCalibration(s)), s.before, AsWebcamSends(s.after, s.jpeg_quality),
                     ScenarioSideColors(sc), catalog, &s.board, stand_opt, projectile_opt);
}

// Scene `index` of `sc` at `seed` into `s`, which must hold a shell resting over 20 mm up on
// figures (the scene a test describes), and its analysis into `a`, which must find that shell
// within 2.5 mm of it (the figures' assumed 20 mm against their real height).
void ExpectShellOnFiguresPlaced(const Scenario& sc, uint64_t seed, int index, SynthScene& s,
                                ShotAnalysis& a) {
  s = GenerateScene(sc, SynthOptions{.seed = seed, .size = {1920, 1080}}, index);
  ASSERT_TRUE(s.projectile.has_value());
  ASSERT_GT(InchesToMm(s.projectile->height_in), 20.0);
  a = AnalyseAncientScene(sc, s, LoadStandKinds());
  ASSERT_TRUE(a.projectile.has_value()) << a.refusal;
  EXPECT_EQ(a.projectile->kind, "shell");
  EXPECT_LT(InchesToMm(Distance(a.projectile->point, s.projectile->point)), 2.5);
}

TEST(ShellScenesTest, AncientShellsAreFoundNearTheirDots) {
  const Scenario sc = LoadScenario(DatasetsDir() / "scenarios" / "ancient.json");
  const StandKindCatalog catalog = LoadStandKinds();
  const uint64_t seed = 5;
  // 1: on the mat among many bases (JPEG speckle); 19: dot blurred away; 18: on figures, dot
  // blurred away (the error allows for the figures' assumed 20 mm height); 4: across the edge
  // of a bare base top, its centre just off it (it would overlap the base on the mat: it was put
  // on the mat, then refused as on something unknown).
  for (const Case& c :
       {Case{1, 0.5, false}, Case{19, 1.0, false}, Case{18, 2.5, true}, Case{4, 0.5, true}}) {
    SCOPED_TRACE("seed " + std::to_string(seed) + " index " + std::to_string(c.index));
    const SynthScene s =
        GenerateScene(sc, SynthOptions{.seed = seed, .size = {1920, 1080}}, c.index);
    const ShotAnalysis a = AnalyseAncientScene(sc, s, catalog);
    ASSERT_TRUE(a.projectile.has_value()) << a.refusal;
    EXPECT_EQ(a.projectile->kind, "shell");
    EXPECT_LT(InchesToMm(Distance(a.projectile->point, s.projectile->point)), c.max_error_mm);
    EXPECT_EQ(a.projectile->resting_on.empty(), !c.on_stand) << a.projectile->resting_on;
  }
}

// Unseen seed 31, scene 5: a shell on the bare top of a catapult base, at a corner, whose side-
// colour border is wider than TABLE_KIT's 3 mm minimum. The border's side colour just inside
// 3 mm was read as figures wearing it, and the shell was raised to the figures' 20 mm: 7.3 mm
// off. The border's measured width keeps it on the base top.
TEST(ShellScenesTest, ShellBesideAWideBorderRestsOnTheBareTop) {
  const Scenario sc = LoadScenario(DatasetsDir() / "scenarios" / "ancient.json");
  const StandKindCatalog catalog = LoadStandKinds();
  const SynthScene s = GenerateScene(sc, SynthOptions{.seed = 31, .size = {1920, 1080}}, 5);
  ASSERT_TRUE(s.projectile.has_value());
  ASSERT_FALSE(s.projectile->resting_on.empty());
  const ShotAnalysis a = AnalyseAncientScene(sc, s, catalog);
  ASSERT_TRUE(a.projectile.has_value()) << a.refusal;
  EXPECT_EQ(a.projectile->kind, "shell");
  EXPECT_FALSE(a.projectile->resting_on.empty());
  // On the base top its dot is 2.5 + 5 mm up; on the figures it would be 27.5 mm.
  EXPECT_LT(InchesToMm(a.projectile->height_in), 12.0);
  EXPECT_LT(InchesToMm(Distance(a.projectile->point, s.projectile->point)), 1.0);
}

// Bug (session 54, ancient seed 347 scene 11, never tuned on): a shell 24 mm up on a tall round
// figure of a companion base. Seen through the tilted camera, the figure's side covers the band
// just inside the border on one long side, where the bare top's colour is read: the band's
// commonest colour was the figure's, so the figure read as bare top and the shell was put on
// the base top, 8.3 mm off. The bare top is the commonest colour that shows next to three of the
// band's four corners; the figure's shows at two.
TEST(ShellScenesTest, ShellOnATallFigureSeenOverTheBorderBandIsOnTheFigures) {
  SynthScene s;
  ShotAnalysis a;
  ASSERT_NO_FATAL_FAILURE(ExpectShellOnFiguresPlaced(
      LoadScenario(DatasetsDir() / "scenarios" / "ancient.json"), 347, 11, s, a));
  EXPECT_GT(InchesToMm(a.projectile->height_in), 20.0);
}

// An unseen variant (other mat and side colours, wide borders, uneven light), seed 41, scene 1:
// a shell resting 24 mm up on a figure near a base's edge, overhanging it, so that its
// silhouette shows none of the figure's top and is seen just outside the base. It was put on the
// mat, 10 mm off. On the mat it would overlap the base, on the bare top its centre would be off
// the base: only the figures can hold it where it is seen.
TEST(ShellScenesTest, ShellOverhangingFiguresAtABaseEdgeIsOnTheFigures) {
  const std::filesystem::path dir = std::filesystem::path(REFEREE_TEST_TMP) / "shell_scenes";
  std::filesystem::create_directories(dir);
  const std::filesystem::path file = dir / "ancient_variant.json";
  std::ofstream(file) << R"({
    "name": "ancient_variant",
    "board": {"cols": 16, "rows": 10, "square_size": 3.0},
    "markers": true, "marker_probability": 0.5,
    "mat_colours": [[60, 92, 70], [150, 140, 118], [96, 80, 70]],
    "terrain": {"counts": {"woods": 3, "rocks": 3, "water": 2, "hill": 3, "road": 2}},
    "sides": [{"name": "red", "colour": [180, 56, 50]}, {"name": "blue", "colour": [50, 84, 180]}],
    "stands_per_side": 10,
    "kinds": ["roman_legionary", "roman_velites", "macedonian_phalangite", "macedonian_companion",
              "heavy_cavalry", "chariot", "elephant", "light_catapult", "heavy_catapult",
              "commander"],
    "border_mm": [3.0, 7.0], "across_base_probability": 0.5, "projectile": "shell",
    "ruleset": "ancient", "shell_colour": [235, 200, 40],
    "difficulty": {"tilt_deg": [5, 25], "k1": [-0.22, 0.03], "light_unevenness": [0.15, 0.40],
                   "exposure": [0.8, 1.15], "hfov_deg": [55, 75]}
  })";
  SynthScene s;
  ShotAnalysis a;
  ASSERT_NO_FATAL_FAILURE(ExpectShellOnFiguresPlaced(LoadScenario(file), 41, 1, s, a));
  EXPECT_FALSE(a.projectile->resting_on.empty());
}

// Hand-made shells (seed 41, `handmade_shells`: each dot pressed in up to 2 mm off its square's
// centre). Scenes 6 and 10 lie on the mat under enough blur that no spot on the top is a fifth
// darker than the rest, so the dot was not seen and the square's centre was taken: 1.21 and
// 1.75 mm from the dot. The blurred dot fitted on the top follows it.
TEST(ShellScenesTest, AnOffCentreDotBlurredFaintIsFollowed) {
  const Scenario sc = LoadScenario(DatasetsDir() / "scenarios" / "handmade_shells.json");
  const StandKindCatalog catalog = LoadStandKinds();
  ProjectileOptions without_fit;
  without_fit.shell_dot.min_t = 1e9;
  for (const int index : {6, 10}) {
    SCOPED_TRACE("seed 41 index " + std::to_string(index));
    const SynthScene s = GenerateScene(sc, SynthOptions{.seed = 41, .size = {1920, 1080}}, index);
    ASSERT_TRUE(s.projectile.has_value());
    ASSERT_EQ(s.projectile->kind, "shell");
    const ShotAnalysis fitted = AnalyseAncientScene(sc, s, catalog);
    ASSERT_TRUE(fitted.projectile.has_value()) << fitted.refusal;
    EXPECT_TRUE(fitted.projectile->dot_seen);
    EXPECT_LT(InchesToMm(Distance(fitted.projectile->point, s.projectile->point)), 0.6);
    // The scene is the one described: without the fit the dot is not seen, and the square's
    // centre is over a millimetre from it.
    const ShotAnalysis centred = AnalyseAncientScene(sc, s, catalog, without_fit);
    ASSERT_TRUE(centred.projectile.has_value()) << centred.refusal;
    EXPECT_FALSE(centred.projectile->dot_seen);
    EXPECT_GT(InchesToMm(Distance(centred.projectile->point, s.projectile->point)), 1.0);
  }
}

// `hard` seed 103 scene 8: a shell on a base's top (8 mm up) under heavy blur, its dot centred
// and not seen. The square's centre is 1.5 mm from it; a blurred dot fitted at the top's
// shading (t 15, but darkening the picture by 7 % at most) was 3.0 mm off. Such a faint fit is
// not taken.
TEST(ShellScenesTest, ADotFitTooShallowToBeTheDotIsNotTaken) {
  const Scenario sc = LoadScenario(DatasetsDir() / "scenarios" / "hard.json");
  const SynthScene s = GenerateScene(sc, SynthOptions{.seed = 103, .size = {1920, 1080}}, 8);
  ASSERT_TRUE(s.projectile.has_value());
  ASSERT_EQ(s.projectile->kind, "shell");
  const ShotAnalysis a =
      AnalyseShot(TopView(TruthCalibration(s)), s.before, AsWebcamSends(s.after, s.jpeg_quality),
                  ScenarioSideColors(sc), LoadStandKinds(), &s.board);
  ASSERT_TRUE(a.projectile.has_value()) << a.refusal;
  EXPECT_LT(InchesToMm(Distance(a.projectile->point, s.projectile->point)), 1.6);
}

}  // namespace
}  // namespace referee
