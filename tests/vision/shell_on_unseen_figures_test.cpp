// Shells resting on figures whose tops the `before` frame does not tell from what else could lie
// under the shell, on rendered `hard` scenes (1080p, heavy blur, tilted camera), `after` as a
// webcam sends it (JPEG). Each shell rests 26-32 mm up on a stand's figures and was
// placed as if on the mat or on the bare base top, 14-18 mm off, one with no `check`: a large
// silent error. Neither frame can tell its height here, so the shot is refused.
#include <gtest/gtest.h>

#include <string>

#include "analysed_scene.hpp"

namespace referee {
namespace {

// Scene `index` of `hard` seed `seed` holds a shell over 25 mm up on figures; the analysis must
// refuse it, its reason holding `reason_part`.
void ExpectShellOnFiguresRefused(uint64_t seed, int index, const std::string& reason_part) {
  const Scenario sc = HardScenario();
  const SynthScene s = HardScene(sc, seed, index);
  ASSERT_TRUE(s.projectile.has_value());
  ASSERT_EQ(s.projectile->kind, "shell");
  ASSERT_GT(InchesToMm(s.projectile->height_in), 25.0);  // the scene is the one described
  const ShotAnalysis a = AnalyseRenderedScene(sc, s);
  EXPECT_FALSE(a.projectile.has_value()) << "placed " << ShotErrorMm(a, s) << " mm off at "
                                         << InchesToMm(a.projectile->height_in) << " mm up";
  EXPECT_NE(a.refusal.find(reason_part), std::string::npos) << a.refusal;
}

// Seed 41, scene 0: seen past its stand's far edge over a grey figure's top, which is the mat's
// colour in shadow: it was put on the mat, 18 mm off.
TEST(ShellOnUnseenFiguresTest, ShellOverAGreyFigureIsNotPutOnTheMat) {
  ExpectShellOnFiguresRefused(41, 0, "figure");
}

// Seed 43, scene 4: on a stand whose bare top reads as its border's colour (blur), with only 5 %
// of other colour inside: taken as a bare top, 17 mm off, though figures of the side colour may
// cover the rest.
TEST(ShellOnUnseenFiguresTest, ShellOnATopOfTheBordersColourIsNotPutOnTheBareTop) {
  ExpectShellOnFiguresRefused(43, 4, "figure");
}

// Seed 101, scene 1: 32 mm up on the figures of a narrow red-bordered base whose whole top reads
// as its border's red (no other colour at all): taken as a bare top, 14.7 mm off, silently.
TEST(ShellOnUnseenFiguresTest, ShellOnATopOfNothingButTheBordersColourIsNotPutOnTheBareTop) {
  ExpectShellOnFiguresRefused(101, 1, "nothing but its border's colour");
}

}  // namespace
}  // namespace referee
