// Q-tips whose sticks change the view too little for the plain change test, in rendered `hard`
// scenes (1080p, blur, the generator's camera, `after` compressed as a webcam sends it): only
// a head's worth of change, or a few short pieces of it, clear the plain or the lowered
// threshold. Such a change is matched by the whole Q-tip model along its axis, as a longer
// fragment of a stick is, and placed only where what it shows says where the painted end is.
#include <cstdint>
#include <string>

#include <gtest/gtest.h>

#include "analysed_scene.hpp"
#include "datasets/synth_scene.hpp"

namespace referee {
namespace {

struct FragmentCase {
  uint64_t seed;
  int index;
  // Placed: a word the note must hold (empty: any). Refusable: a word the refusal must hold.
  const char* word;
};

// Each scene's Q-tip, as the referee analyses it.
ShotAnalysis AnalyseQtipScene(const FragmentCase& c, SynthScene& s) {
  return AnalyseHardShot(c.seed, c.index, "qtip", s);
}

// Placed within 2.5 mm. Seed 43 scene 5: a Q-tip on the bare pale mat, plainly visible, its
// painted head over a grid line; before s26: "a change of 11 x 6 mm is neither a Q-tip nor a
// shell" (a fragment had to be twice as long as wide). Seed 23 scene 8: on the bare pale tan
// mat; under the lowered threshold a 22 mm and a 12 mm piece, each too short to be matched
// alone, whose whole models are the same Q-tip; before s26: "nothing changed". Seed 31 scene
// 11: 20 mm up across a stand's figures, only four specks of 8-17 mm^2 clear the plain test,
// no one of them a projectile; before s31: "more than one thing changed (2 regions)".
class FaintQtipPlacedTest : public testing::TestWithParam<FragmentCase> {};

TEST_P(FaintQtipPlacedTest, IsMatchedWholeAndPlaced) {
  SynthScene s;
  const ShotAnalysis a = AnalyseQtipScene(GetParam(), s);
  ASSERT_TRUE(a.projectile.has_value()) << a.refusal;
  EXPECT_EQ(a.projectile->kind, "qtip");
  EXPECT_LT(ShotErrorMm(a, s), 2.5);
  EXPECT_NE(a.projectile->note.find(GetParam().word), std::string::npos) << a.projectile->note;
}

INSTANTIATE_TEST_SUITE_P(HardScenes, FaintQtipPlacedTest,
                         testing::Values(FragmentCase{43, 5, ""}, FragmentCase{23, 8, "pieces"},
                                         FragmentCase{31, 11, "specks"}));

// Placed within 2.5 mm or refused with the reason named; never placed by a guess. Seed 17 scene
// 4: the plain head lies white on a grey mat, the stick runs on onto white paper where it
// changes nothing, the painted head lies dark on the paper; the s26 build put the painted end
// on the white head and ruled the shot 77.65 mm off (a silent wrong decisive verdict). Seed 43
// scene 10: a faint Q-tip on a grey mat that shows only a 34 mm stretch of stick short of both
// heads; matched from it alone the model put the painted end 23 mm past it, 5.89 mm off (s27,
// before the end had to lie on the piece).
class FaintQtipGuessTest : public testing::TestWithParam<FragmentCase> {};

TEST_P(FaintQtipGuessTest, IsPlacedOnlyWhereItsPaintedEndIsSeen) {
  SynthScene s;
  const ShotAnalysis a = AnalyseQtipScene(GetParam(), s);
  if (a.projectile.has_value()) {
    EXPECT_LT(ShotErrorMm(a, s), 2.5) << a.projectile->note;
  } else {
    EXPECT_NE(a.refusal.find(GetParam().word), std::string::npos) << a.refusal;
  }
}

INSTANTIATE_TEST_SUITE_P(HardScenes, FaintQtipGuessTest,
                         testing::Values(FragmentCase{17, 4, "white cotton"},
                                         FragmentCase{43, 10, "faint change"}));

}  // namespace
}  // namespace referee
