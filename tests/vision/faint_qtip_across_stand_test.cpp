// Faint Q-tips lying across a stand on rendered `hard` scenes (1080p, heavy blur, tilted camera),
// `after` as a webcam sends it. The faint change does not show what holds the stick up; where
// the `before` view puts it on that stand's figures (seen there, or a top of its border's
// colour, which TABLE_KIT's figures over the interior make figures of the side colour), it is
// ruled on them, and the ruling height's check flags a verdict a lower rest would change.
#include <gtest/gtest.h>

#include <string>

#include "analysed_scene.hpp"

namespace referee {
namespace {

// Scene `index` of `hard` seed `seed` holds a faint Q-tip across a stand's figures; the analysis
// must put it on that stand (the found base within 3 mm of the truth's), within 2.5 mm.
void ExpectPutOnTheFigures(uint64_t seed, int index) {
  SynthScene s;
  const ShotAnalysis a = AnalyseHardShot(seed, index, "qtip", s);
  ASSERT_TRUE(s.projectile.has_value());
  ASSERT_GT(InchesToMm(s.projectile->height_in), 15.0);  // the scene is the one described
  ASSERT_TRUE(a.projectile.has_value()) << a.refusal;
  EXPECT_LT(ShotErrorMm(a, s), 2.5);
  const double off_mm = RestingStandOffsetMm(a, s);
  EXPECT_GE(off_mm, 0.0) << "resting on '" << a.projectile->resting_on << "'";
  EXPECT_LT(off_mm, 3.0);
}

// Bug: seed 5 scene 3's faint Q-tip lies 17.5 mm up across a howitzer whose crew is painted in
// the side colour; the figures read as a bare top and the tip was put 12.4 mm off (a wrong
// decisive verdict), then refused. Its top of the border's colour is its crew.
TEST(FaintQtipAcrossStandTest, AcrossATopOfTheBordersColourItLiesOnTheFigures) {
  ExpectPutOnTheFigures(5, 3);
}

// Seed 107, scene 4: 22 mm up across figures the `before` view shows; refused while any faint
// stick across a stand was.
TEST(FaintQtipAcrossStandTest, AcrossFiguresSeenItLiesOnThem) { ExpectPutOnTheFigures(107, 4); }

// Seed 101, scene 2: a stick half unseen on white paper, its painted head on the mat, across a
// stand's figures. The whole model slid 20 mm along it: its ends, put at the figures' height,
// lie 14 mm short of a Q-tip's length apart. Refused, not placed 21.7 mm off.
TEST(FaintQtipAcrossStandTest, AStickOfTheWrongLengthIsRefused) {
  SynthScene s;
  const ShotAnalysis a = AnalyseHardShot(101, 2, "qtip", s);
  EXPECT_FALSE(a.projectile.has_value()) << "placed " << ShotErrorMm(a, s) << " mm off";
  EXPECT_NE(a.refusal.find("whether figures hold it up is not seen"), std::string::npos)
      << a.refusal;
}

// Seed 109, scene 5: a shell 31 mm up on a stand's figures beside a yellow ruler; only its
// 12 x 8 mm core clears the plain change test. With any faint stick across a stand taken, the
// Q-tip model matched in any direction from that core along the ruler's faint edge was ruled a
// Q-tip 53 mm off, a wrong decisive verdict. Placed as a shell within 2.5 mm, or refused.
TEST(FaintQtipAcrossStandTest, AShellsCoreOnAStandIsNotMatchedAsAQtip) {
  SynthScene s;
  const ShotAnalysis a = AnalyseHardShot(109, 5, "shell", s);
  ASSERT_TRUE(s.projectile.has_value());
  if (a.projectile.has_value()) {
    EXPECT_EQ(a.projectile->kind, "shell");
    EXPECT_LT(ShotErrorMm(a, s), 2.5);
  }
}

}  // namespace
}  // namespace referee
