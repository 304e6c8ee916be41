// A Q-tip lying across a stand without figures on a rendered `hard` scene (1080p, heavy blur,
// tilted camera), `after` as a webcam sends it: it rests on the bare base top, not 20 mm up on
// figures that are not there.
#include <gtest/gtest.h>

#include "analysed_scene.hpp"

namespace referee {
namespace {

// Bug (session 54, `hard` seed 347 scene 11): a howitzer base without figures, its flock a
// brown that a shaded red border nearly matches, its border spread by the blur (and an outline
// found 2.6 mm wide) past where the border's width is looked for. The top read as the side
// colour covered in figures; the Q-tip across it was put on them, 23.8 mm up instead of 4, and
// ruled 16 mm off. Past that reach the top is one colour to its corners: bare.
TEST(QtipAcrossBareTopTest, AcrossAFlockedBaseUnderHeavyBlurItLiesOnTheBaseTop) {
  SynthScene s;
  const ShotAnalysis a = AnalyseHardShot(347, 11, "qtip", s);
  ASSERT_TRUE(s.projectile.has_value());
  ASSERT_LT(InchesToMm(s.projectile->height_in), 5.0);  // the scene is the one described
  ASSERT_TRUE(a.projectile.has_value()) << a.refusal;
  EXPECT_EQ(a.projectile->kind, "qtip");
  EXPECT_LT(InchesToMm(a.projectile->height_in), 6.0);
  EXPECT_LT(ShotErrorMm(a, s), 2.5);
  const double off_mm = RestingStandOffsetMm(a, s);
  EXPECT_GE(off_mm, 0.0) << "resting on '" << a.projectile->resting_on << "'";
  EXPECT_LT(off_mm, 3.0);
}

}  // namespace
}  // namespace referee
