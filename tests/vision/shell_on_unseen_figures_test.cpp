// Shells resting on figures whose tops the `before` frame does not tell from what else could lie
// under the shell, on rendered `hard` scenes (1080p, heavy blur, tilted camera), `after` as a
// webcam sends it (JPEG). Each shell rests ~26 mm up on a light infantry stand's figures and was
// placed as if on the mat or on the bare base top, 17-18 mm off, one with no `check`: a large
// silent error. Neither frame can tell its height here, so the shot is refused.
#include <gtest/gtest.h>

#include <string>

#include "analysed_scene.hpp"
#include "datasets/synth_scene.hpp"
#include "engine/data_paths.hpp"

namespace referee {
namespace {

ShotAnalysis AnalyseHardScene(uint64_t seed, int index, SynthScene& s) {
  const Scenario sc = LoadScenario(DatasetsDir() / "scenarios" / "hard.json");
  s = GenerateScene(sc, SynthOptions{.seed = seed, .size = {1920, 1080}}, index);
  return AnalyseRenderedScene(sc, s);
}

// Seed 41, scene 0: seen past its stand's far edge over a grey figure's top, which is the mat's
// colour in shadow: it was put on the mat, 18 mm off.
TEST(ShellOnUnseenFiguresTest, ShellOverAGreyFigureIsNotPutOnTheMat) {
  SynthScene s;
  const ShotAnalysis a = AnalyseHardScene(41, 0, s);
  ASSERT_TRUE(s.projectile.has_value());
  ASSERT_EQ(s.projectile->kind, "shell");
  ASSERT_GT(InchesToMm(s.projectile->height_in), 25.0);  // the scene is the one described
  EXPECT_FALSE(a.projectile.has_value())
      << "placed " << InchesToMm(Distance(a.projectile->point, s.projectile->point))
      << " mm off at " << InchesToMm(a.projectile->height_in) << " mm up";
  EXPECT_NE(a.refusal.find("figure"), std::string::npos) << a.refusal;
}

// Seed 43, scene 4: on a stand whose bare top reads as its border's colour (blur), with only 5 %
// of other colour inside: taken as a bare top, 17 mm off, though figures of the side colour may
// cover the rest.
TEST(ShellOnUnseenFiguresTest, ShellOnATopOfTheBordersColourIsNotPutOnTheBareTop) {
  SynthScene s;
  const ShotAnalysis a = AnalyseHardScene(43, 4, s);
  ASSERT_TRUE(s.projectile.has_value());
  ASSERT_EQ(s.projectile->kind, "shell");
  ASSERT_GT(InchesToMm(s.projectile->height_in), 25.0);
  EXPECT_FALSE(a.projectile.has_value())
      << "placed " << InchesToMm(Distance(a.projectile->point, s.projectile->point))
      << " mm off at " << InchesToMm(a.projectile->height_in) << " mm up";
  EXPECT_NE(a.refusal.find("figure"), std::string::npos) << a.refusal;
}

}  // namespace
}  // namespace referee
