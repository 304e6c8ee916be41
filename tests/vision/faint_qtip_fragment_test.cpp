// Q-tips whose sticks change the view too little for the plain change test, in rendered `hard`
// scenes (1080p, blur, the generator's camera, `after` compressed as a webcam sends it): only
// a head's worth of change, or a few short pieces of it, clear the plain or the lowered
// threshold. Such a change is matched by the whole Q-tip model along its axis, as a longer
// fragment of a stick is.
#include <gtest/gtest.h>

#include "analysed_scene.hpp"
#include "datasets/synth_scene.hpp"
#include "engine/data_paths.hpp"

namespace referee {
namespace {

// Seed 43, scene 5: a Q-tip on the bare pale mat, plainly visible, its painted head over a
// grid line. Before: "a change of 11 x 6 mm is neither a Q-tip nor a shell" (a fragment had to
// be twice as long as wide to be matched).
TEST(FaintQtipFragmentTest, AQtipSeenOnlyByItsPaintedHeadIsMatchedWhole) {
  const Scenario sc = HardScenario();
  const SynthScene s = HardScene(sc, 43, 5);
  ASSERT_TRUE(s.projectile.has_value());
  ASSERT_EQ(s.projectile->kind, "qtip");
  ASSERT_TRUE(s.projectile->resting_on.empty());
  const ShotAnalysis a = AnalyseRenderedScene(sc, s);
  ASSERT_TRUE(a.projectile.has_value()) << a.refusal;
  EXPECT_EQ(a.projectile->kind, "qtip");
  EXPECT_LT(ShotErrorMm(a, s), 2.5);
}

// Seed 23, scene 8: a Q-tip on the bare pale tan mat, plainly visible. Under the lowered
// threshold it shows as a 22 mm and a 12 mm piece, each too short to be matched alone
// (a stick's worth is half a Q-tip); the whole model matched from each is the same Q-tip.
// Before: "no projectile found: nothing changed between before and after".
TEST(FaintQtipFragmentTest, AFaintQtipSeenInTwoShortPiecesIsMatchedWhole) {
  const Scenario sc = HardScenario();
  const SynthScene s = HardScene(sc, 23, 8);
  ASSERT_TRUE(s.projectile.has_value());
  ASSERT_EQ(s.projectile->kind, "qtip");
  ASSERT_TRUE(s.projectile->resting_on.empty());
  const ShotAnalysis a = AnalyseRenderedScene(sc, s);
  ASSERT_TRUE(a.projectile.has_value()) << a.refusal;
  EXPECT_EQ(a.projectile->kind, "qtip");
  EXPECT_LT(ShotErrorMm(a, s), 2.5);
  EXPECT_NE(a.projectile->note.find("pieces"), std::string::npos) << a.projectile->note;
}

// Seed 17, scene 4: the plain head lies white on a grey mat, the stick runs on onto white paper
// where it changes nothing, and the painted head lies dark on the paper (a darkening the change
// tests take for a shadow). The head-sized change is white cotton: the plain head. Before: the
// model put the painted end on it and ruled the shot 77.65 mm off, a silent wrong decisive
// verdict.
TEST(FaintQtipFragmentTest, APlainHeadAloneIsNotTakenForThePaintedOne) {
  const Scenario sc = HardScenario();
  const SynthScene s = HardScene(sc, 17, 4);
  ASSERT_TRUE(s.projectile.has_value());
  ASSERT_EQ(s.projectile->kind, "qtip");
  const ShotAnalysis a = AnalyseRenderedScene(sc, s);
  if (a.projectile.has_value()) {
    EXPECT_LT(ShotErrorMm(a, s), 2.5) << a.projectile->note;
  }
}

// Seed 43, scene 10: a faint Q-tip on a grey mat whose change shows only a 34 mm stretch of the
// stick short of both heads. Matched from that stretch alone, the model put the painted end
// 23 mm past it and 5.89 mm from the truth (a single piece taken without its head, s27 before
// the painted end had to lie on the piece): a stretch of stick alone leaves the end a guess.
TEST(FaintQtipFragmentTest, AStretchOfStickAloneDoesNotPlaceTheEnd) {
  const Scenario sc = HardScenario();
  const SynthScene s = HardScene(sc, 43, 10);
  ASSERT_TRUE(s.projectile.has_value());
  ASSERT_EQ(s.projectile->kind, "qtip");
  const ShotAnalysis a = AnalyseRenderedScene(sc, s);
  if (a.projectile.has_value()) {
    EXPECT_LT(ShotErrorMm(a, s), 2.5) << a.projectile->note;
  } else {
    EXPECT_NE(a.refusal.find("faint change"), std::string::npos) << a.refusal;
  }
}

}  // namespace
}  // namespace referee
