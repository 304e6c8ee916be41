// A Q-tip whose plain half runs on under a tree crown, in a rendered `hard` scene (1080p, heavy
// blur, tilted camera, the generator's camera, `after` compressed as a webcam sends it). The
// camera sees the painted head and 45 of the stick's 75 mm; the rest is hidden by the woods the
// board file places there. It was refused as a stick of the wrong length; its tip is seen, so
// it is placed, but only where the board says tall terrain can hide the missing part.
#include <gtest/gtest.h>

#include <opencv2/core.hpp>

#include "datasets/synth_scene.hpp"
#include "engine/data_paths.hpp"
#include "engine/stand_kind_catalog_loader.hpp"
#include "rendered_scene.hpp"
#include "scenario_side_colors.hpp"
#include "vision/shot_analysis.hpp"

namespace referee {
namespace {

// Seed 7, scene 7: the Q-tip on the mat in a woods square, its black tip at the crowns' edge.
// Before: "a faint Q-tip matched along a 31 x 7 mm change: Q-tip-like change of the wrong
// length (45 mm)".
TEST(QtipUnderTerrainTest, StickRunningOnUnderTreeCrownsIsPlacedByItsTip) {
  const Scenario sc = LoadScenario(DatasetsDir() / "scenarios" / "hard.json");
  const SynthScene s = GenerateScene(sc, SynthOptions{.seed = 7, .size = {1920, 1080}}, 7);
  ASSERT_TRUE(s.projectile.has_value());
  ASSERT_EQ(s.projectile->kind, "qtip");
  ASSERT_TRUE(s.projectile->resting_on.empty());  // the scene is the one described
  ASSERT_EQ(s.board.TerrainAt({5, 2}), Terrain::kWoods);
  const TopView view(TruthCalibration(s));
  const cv::Mat after = AsWebcamSends(s.after, s.jpeg_quality);
  const ShotAnalysis a =
      AnalyseShot(view, s.before, after, ScenarioSideColors(sc), LoadStandKinds(), &s.board);
  ASSERT_TRUE(a.projectile.has_value()) << a.refusal;
  EXPECT_EQ(a.projectile->kind, "qtip");
  EXPECT_LT(InchesToMm(Distance(a.projectile->point, s.projectile->point)), 2.5);
  // The plain end, under the crowns, is put at the model's length along the seen stick.
  EXPECT_LT(InchesToMm(Distance(a.projectile->other_end, s.projectile->plain_end)), 5.0);

  // Told of no tall terrain there, the short stick is not stretched to a Q-tip's length.
  Board open = s.board;
  open.terrain.clear();
  open.features.clear();
  const ShotAnalysis b =
      AnalyseShot(view, s.before, after, ScenarioSideColors(sc), LoadStandKinds(), &open);
  EXPECT_FALSE(b.projectile.has_value());
}

}  // namespace
}  // namespace referee
