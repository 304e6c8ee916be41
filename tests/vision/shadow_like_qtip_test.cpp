// A black head and a grey stick over white paper darken every channel alike, as a shadow does,
// and the change tests set such darkening aside. In rendered `hard` scenes (1080p, blur, the
// generator's camera, `after` compressed as a webcam sends it) where nothing else changed, the
// darkening is looked at again and taken only where the whole Q-tip model matches it.
#include <gtest/gtest.h>

#include "analysed_scene.hpp"
#include "datasets/synth_scene.hpp"
#include "engine/data_paths.hpp"

namespace referee {
namespace {

// Seed 47, scene 1: a Q-tip on a white paper, its grey stick and black head plain to a person.
// Before: "no projectile found: nothing changed between before and after".
TEST(ShadowLikeQtipTest, ADarkHeadAndGreyStickOnWhitePaperArePlaced) {
  ExpectHardQtipPlaced(47, 1, "shadow");
}

// Seed 89, scene 8: the stick lies white on white paper and only the black head shows, which
// says nothing of the way the stick runs: refused, and the players are told what was seen.
// Before: "nothing changed between before and after".
TEST(ShadowLikeQtipTest, ADarkHeadAloneIsRefusedAsSeen) {
  const Scenario sc = HardScenario();
  const SynthScene s = HardScene(sc, 89, 8);
  ASSERT_TRUE(s.projectile.has_value());
  const ShotAnalysis a = AnalyseRenderedScene(sc, s);
  EXPECT_FALSE(a.projectile.has_value());
  EXPECT_NE(a.refusal.find("only a darkening a shadow could make"), std::string::npos) << a.refusal;
}

}  // namespace
}  // namespace referee
