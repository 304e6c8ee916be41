// Howitzer shells whose change stays under the change threshold, in rendered `hard` scenes
// (1080p, heavy blur, the generator's camera, `after` compressed as a webcam sends it). A yellow
// shell on a tan mat, blurred over several millimetres, changed too little for the plain test
// and was refused as "nothing changed"; the whole shell model matched to the difference finds it.
#include <gtest/gtest.h>

#include <cstdint>

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

ShotAnalysis AnalyseHardScene(const Scenario& sc, const SynthScene& s, const TopView& view) {
  return AnalyseShot(view, s.before, AsWebcamSends(s.after, s.jpeg_quality), ScenarioSideColors(sc),
                     LoadStandKinds(), &s.board);
}

// Scene `index` of `hard` seed `seed`, whose shell lies on the mat, analysed as shot; the shell
// found must be one, on the mat, within 2.5 mm of where it lies.
struct ShellOnTheMat {
  SynthScene scene;
  ShotAnalysis analysis;
};
ShellOnTheMat AnalyseShellOnTheMat(std::uint64_t seed, int index) {
  const Scenario sc = LoadScenario(DatasetsDir() / "scenarios" / "hard.json");
  ShellOnTheMat r;
  r.scene = GenerateScene(sc, SynthOptions{.seed = seed, .size = {1920, 1080}}, index);
  const auto& truth = r.scene.projectile;
  EXPECT_TRUE(truth && truth->kind == "shell" && truth->resting_on.empty())
      << "the scene is not the one described";
  r.analysis = AnalyseHardScene(sc, r.scene, TopView(TruthCalibration(r.scene)));
  const auto& found = r.analysis.projectile;
  EXPECT_TRUE(found.has_value()) << r.analysis.refusal;
  if (truth && found) {
    EXPECT_EQ(found->kind, "shell");
    EXPECT_TRUE(found->resting_on.empty()) << found->resting_on;
    EXPECT_LT(InchesToMm(Distance(found->point, truth->point)), 2.5);
  }
  return r;
}

// Seed 7, scene 8: the shell on the mat across a grid line, 5 mm high. Before: "no projectile
// found: nothing changed between before and after".
TEST(FaintShellTest, FaintShellOnTheMatIsFoundNearItsCentre) {
  const ShellOnTheMat found = AnalyseShellOnTheMat(7, 8);
  const SynthScene& s = found.scene;
  const ShotAnalysis& a = found.analysis;
  ASSERT_TRUE(a.projectile.has_value());
  const TopView view(TruthCalibration(s));

  // The same table photographed again with nothing added (another exposure and white balance,
  // fresh noise, another JPEG pass) must not show a faint shell anywhere.
  cv::Mat again;
  s.before.convertTo(again, CV_32FC3);
  cv::multiply(again, cv::Scalar(0.94, 0.91, 0.96), again);
  cv::Mat noise(again.size(), CV_32FC3);
  cv::RNG rng(11);
  rng.fill(noise, cv::RNG::NORMAL, 0.0, 2.0);
  again += noise;
  again.convertTo(again, CV_8UC3);
  const ProjectileResult r =
      DetectProjectile(a.top_before, view.Rectify(AsWebcamSends(again, 85)), view, a.stands.stands);
  EXPECT_TRUE(std::holds_alternative<Refusal>(r));
}

// Seed 5, scene 7: a faint shell on a commander's olive and yellow figures. Its change shows
// only where it covers other colours, so the change's centroid is 4 mm off its centre: it stays
// refused rather than placed there.
TEST(FaintShellTest, FaintShellOnFiguresOfItsColourStaysRefused) {
  const Scenario sc = LoadScenario(DatasetsDir() / "scenarios" / "hard.json");
  const SynthScene s = GenerateScene(sc, SynthOptions{.seed = 5, .size = {1920, 1080}}, 7);
  ASSERT_TRUE(s.projectile.has_value());
  ASSERT_FALSE(s.projectile->resting_on.empty());  // the scene is the one described
  const ShotAnalysis a = AnalyseHardScene(sc, s, TopView(TruthCalibration(s)));
  EXPECT_FALSE(a.projectile.has_value());
}

// Seed 109, scene 4: a yellow shell on a tan mat whose blurred change clears the plain test only
// at its core, 8 x 5 mm, and was refused as "a change of 8 x 5 mm is neither a Q-tip nor a
// shell"; its whole shape is matched in the faint change around the core. A fleck of the
// shell's colour alone, painted where the core was, stays refused.
TEST(FaintShellTest, AShellSeenPlainlyOnlyAtItsCoreIsMatchedWhole) {
  const ShellOnTheMat found = AnalyseShellOnTheMat(109, 4);
  const SynthScene& s = found.scene;
  const ShotAnalysis& a = found.analysis;
  ASSERT_TRUE(a.projectile.has_value() && s.projectile.has_value());
  const TopView view(TruthCalibration(s));
  EXPECT_NE(a.projectile->note.find("core"), std::string::npos) << a.projectile->note;

  // Only a fleck of the shell's colour where its core was, 5 x 3 mm with no shell around it
  // (refused as neither model by the plain test, like the core): no whole shell to match.
  const cv::Mat fleck =
      WithFleck(s, s.projectile->point, cv::Size2d(2.5, 1.5), 30, cv::Scalar(40, 200, 235));
  const ProjectileResult r = DetectProjectile(
      a.top_before, view.Rectify(AsWebcamSends(fleck, s.jpeg_quality)), view, a.stands.stands);
  const auto* placed = std::get_if<ProjectileObservation>(&r);
  EXPECT_EQ(placed, nullptr) << placed->note << ", change " << placed->change_area_mm2 << " mm^2";
}

}  // namespace
}  // namespace referee
