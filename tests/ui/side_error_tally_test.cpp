// `referee bench stands --side-errors` pools the found bases' side errors into one line, and the
// same with each frame's own outward bias taken off: the median over its bases of each axis's
// excess over the true size, halved (ui/cli/side_error_tally, s62).
#include <gtest/gtest.h>

#include <array>

#include "ui/cli/side_error_tally.hpp"

namespace referee::cli {
namespace {

// A base whose width sides lie w_mm out and depth sides d_mm out; its +width side faces the
// camera.
std::array<SideError, 4> Base(double w_mm, double d_mm) {
  return {SideError{w_mm, -0.9}, SideError{w_mm, 0.9}, SideError{d_mm, 0.1}, SideError{d_mm, -0.1}};
}

TEST(SideErrorTally, TakesEachFramesOwnBiasOff) {
  SideErrorTally tally;
  // A frame whose four bases all lie 0.5 mm out on every side but one, 0.9 mm out in width.
  for (int i = 0; i < 3; ++i) tally.AddBase(Base(0.5, 0.5), false);
  tally.AddBase(Base(0.9, 0.5), false);
  tally.EndFrame();
  const SideErrorTally::Figures raw = tally.Raw(), fixed = tally.FrameBiasRemoved();
  EXPECT_EQ(raw.sides, 16u);
  EXPECT_NEAR(raw.mean, 0.55, 1e-9);
  EXPECT_NEAR(raw.facing_mean, 0.6, 1e-9);  // the four +width sides
  EXPECT_NEAR(fixed.mean, 0.05, 1e-9);      // the frame's bias: the median excess, 0.5
  EXPECT_NEAR(fixed.p90_abs, 0.4, 1e-9);
}

TEST(SideErrorTally, LeavesOutOtherFitsAndFramesOfTooFewBases) {
  SideErrorTally tally;
  tally.AddBase(Base(0.3, 0.3), false);
  tally.AddBase(Base(0.3, 4.5), false);  // a side 4.5 mm off: another fit, not a bias
  tally.AddBase(Base(0.3, 0.3), true);   // offered at other sizes
  tally.AddBase(Base(0.3, 0.3), false);
  tally.EndFrame();  // two bases kept: too few to read the frame's bias
  EXPECT_EQ(tally.Raw().sides, 8u);
  EXPECT_NEAR(tally.FrameBiasRemoved().mean, 0.3, 1e-9);
}

}  // namespace
}  // namespace referee::cli
