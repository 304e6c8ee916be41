// A Q-tip whose plain half runs on under a tree crown, in a rendered `hard` scene (1080p, heavy
// blur, tilted camera, the generator's camera, `after` compressed as a webcam sends it). The
// camera sees the painted head and 45 of the stick's 75 mm; the rest is hidden by the woods the
// board file places there. It was refused as a stick of the wrong length; its tip is seen, so
// it is placed, but only where the board says tall terrain can hide the missing part.
#include <gtest/gtest.h>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "datasets/synth_scene.hpp"
#include "engine/data_paths.hpp"
#include "engine/stand_kind_catalog_loader.hpp"
#include "rendered_scene.hpp"
#include "scenario_side_colors.hpp"
#include "vision/shot_analysis.hpp"

namespace referee {
namespace {

// A `hard` scene whose Q-tip lies on the mat with its plain half hidden, analysed as shot: the
// tip is placed, and the plain end put at the model's length along the seen stick.
void ExpectPlacedByItsTip(const Scenario& sc, const SynthScene& s) {
  ASSERT_TRUE(s.projectile.has_value());
  ASSERT_EQ(s.projectile->kind, "qtip");
  ASSERT_TRUE(s.projectile->resting_on.empty());  // the scene is the one described
  const ShotAnalysis a =
      AnalyseShot(TopView(TruthCalibration(s)), s.before, AsWebcamSends(s.after, s.jpeg_quality),
                  ScenarioSideColors(sc), LoadStandKinds(), &s.board);
  ASSERT_TRUE(a.projectile.has_value()) << a.refusal;
  EXPECT_EQ(a.projectile->kind, "qtip");
  EXPECT_LT(InchesToMm(Distance(a.projectile->point, s.projectile->point)), 2.5);
  EXPECT_LT(InchesToMm(Distance(a.projectile->other_end, s.projectile->plain_end)), 5.0);
}

// Seed 7, scene 7: the Q-tip on the mat in a woods square, its black tip at the crowns' edge.
// Before: "a faint Q-tip matched along a 31 x 7 mm change: Q-tip-like change of the wrong
// length (45 mm)".
TEST(QtipUnderTerrainTest, StickRunningOnUnderTreeCrownsIsPlacedByItsTip) {
  const Scenario sc = LoadScenario(DatasetsDir() / "scenarios" / "hard.json");
  const SynthScene s = GenerateScene(sc, SynthOptions{.seed = 7, .size = {1920, 1080}}, 7);
  ASSERT_EQ(s.board.TerrainAt({5, 2}), Terrain::kWoods);
  ExpectPlacedByItsTip(sc, s);
  if (HasFatalFailure()) return;
  const TopView view(TruthCalibration(s));
  const cv::Mat after = AsWebcamSends(s.after, s.jpeg_quality);

  // Told of no tall terrain there, the short stick is not stretched to a Q-tip's length.
  Board open = s.board;
  open.terrain.clear();
  open.features.clear();
  const ShotAnalysis b =
      AnalyseShot(view, s.before, after, ScenarioSideColors(sc), LoadStandKinds(), &open);
  EXPECT_FALSE(b.projectile.has_value());
}

// Seed 13, scene 7: the Q-tip on the mat, its plain half under a tree crown; 47 of its 75 mm
// seen. Blur at the crown's edge makes the seen end as wide as a plain head (1.4 stick widths),
// so only what the camera saw there before the shot tells a stick running on under the crown
// from one ending on the mat. Before: "a faint Q-tip matched along a 47 x 7 mm change: Q-tip-like
// change of the wrong length (48 mm)".
TEST(QtipUnderTerrainTest, StickCutOffWideAtACrownsEdgeIsPlacedByItsTip) {
  const Scenario sc = LoadScenario(DatasetsDir() / "scenarios" / "hard.json");
  const SynthScene s = GenerateScene(sc, SynthOptions{.seed = 13, .size = {1920, 1080}}, 7);
  ExpectPlacedByItsTip(sc, s);
  if (HasFatalFailure()) return;

  // The same frames with the crown painted out over most of the missing part, mat there before
  // and after: the stick now ends 28 mm short with the mat in plain view beyond it, and is
  // refused although the board still says woods.
  const Vec2 tip = s.projectile->painted_end, plain = s.projectile->plain_end;
  const cv::Point2d from = s.camera.ImageFromTable(tip + 0.74 * (plain - tip));
  const cv::Point2d to = s.camera.ImageFromTable(tip + 1.15 * (plain - tip));
  const cv::Point2d beside = s.camera.ImageFromTable(tip + 0.3 * (plain - tip) +
                                                     Vec2{0.0, 0.4});  // the mat near the stick
  cv::Mat mat_patch;
  cv::resize(s.before(cv::Rect(cv::Point(beside) - cv::Point(3, 3), cv::Size(7, 7))), mat_patch,
             {1, 1}, 0, 0, cv::INTER_AREA);
  const cv::Vec3b mat = mat_patch.at<cv::Vec3b>(0, 0);
  cv::Mat before_open = s.before.clone(), after_open = s.after.clone();
  for (cv::Mat* m : {&before_open, &after_open})
    cv::line(*m, from, to, cv::Scalar(mat[0], mat[1], mat[2]), 9);
  const ShotAnalysis b = AnalyseShot(TopView(TruthCalibration(s)), before_open,
                                     AsWebcamSends(after_open, s.jpeg_quality),
                                     ScenarioSideColors(sc), LoadStandKinds(), &s.board);
  EXPECT_FALSE(b.projectile.has_value())
      << "placed at " << InchesToMm(Distance(b.projectile->point, tip)) << " mm";
}

}  // namespace
}  // namespace referee
