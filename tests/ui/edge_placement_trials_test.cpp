// Where the stand search's RefineEdges puts the sides of rendered bases whose edges are known
// exactly (ui/cli/edge_placement_trials behind `referee bench edges`, s62). A wide border's
// sides lie on its edge, lossless and through a webcam's JPEG. A thin border over an inside
// of the mat's colour is placed outward, and more so through JPEG: the gradient of its inner
// edge adds to the outer edge's on the border's side and pulls the peak out (README "Not met
// yet" 1). That pull is what the bench measures, so it is checked here on geometry. Bad
// options are one-line errors naming the option.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/input_error.hpp"
#include "ui/cli/commands.hpp"
#include "ui/cli/edge_placement_trials.hpp"
#include "ui/cli/signed_errors.hpp"

namespace referee::cli {
namespace {

double Mean(const std::vector<double>& v) { return SummariseSignedErrors(v).mean; }

EdgeTrialSpec Spec(double border_mm, const cv::Scalar& inside_bgr, int jpeg_quality) {
  EdgeTrialSpec spec;
  spec.border_mm = border_mm;
  spec.inside_bgr = inside_bgr;
  spec.camera.blur_px = 0.8;
  spec.camera.jpeg_quality = jpeg_quality;
  spec.camera.active = true;
  return spec;
}

const cv::Scalar kMatBgr{58, 110, 74};

TEST(EdgePlacementTrials, AWideBorderIsPlacedOnItsEdgeLosslessAndThroughJpeg) {
  const EdgeTrialResult lossless = RunEdgeTrials(Spec(12.0, kMatBgr, 0));
  ASSERT_EQ(lossless.outward_mm.size(), static_cast<size_t>(lossless.sides));
  EXPECT_NEAR(Mean(lossless.outward_mm), 0.0, 0.05);
  // Nine in ten within 0.15 mm, every one within 0.6 mm (under 0.4 of a camera pixel).
  size_t close = 0;
  for (const double e : lossless.outward_mm) {
    EXPECT_LT(std::abs(e), 0.6) << "a side off by " << e;
    close += std::abs(e) < 0.15 ? 1 : 0;
  }
  EXPECT_GE(close, lossless.outward_mm.size() * 9 / 10);
  // Through JPEG at quality 80 (4:2:0) 85 % of the sides lie within half a camera pixel.
  const EdgeTrialResult jpeg = RunEdgeTrials(Spec(12.0, kMatBgr, 80));
  ASSERT_EQ(jpeg.outward_mm.size(), static_cast<size_t>(jpeg.sides));
  EXPECT_NEAR(Mean(jpeg.outward_mm), 0.0, 0.4);
  size_t within = 0;
  for (const double e : jpeg.outward_mm) within += std::abs(e) < 0.8 ? 1 : 0;
  EXPECT_GE(within, jpeg.outward_mm.size() * 85 / 100);
}

TEST(EdgePlacementTrials, AThinBorderOverAnInsideOfTheMatsColourIsPlacedOutward) {
  const double lossless = Mean(RunEdgeTrials(Spec(3.0, kMatBgr, 0)).outward_mm);
  const double jpeg = Mean(RunEdgeTrials(Spec(3.0, kMatBgr, 80)).outward_mm);
  // Painted over its whole top the same base has no inner edge, and no pull.
  const double painted = Mean(RunEdgeTrials(Spec(3.0, {42, 48, 192}, 0)).outward_mm);
  EXPECT_GT(lossless, 0.2);
  EXPECT_GT(jpeg, lossless + 0.4);
  EXPECT_NEAR(painted, 0.0, 0.05);
}

TEST(EdgePlacementTrials, BadOptionsAreOneLineErrorsNamingTheOption) {
  try {
    RunBenchEdges({"--borders-mm", "3,x"});
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "command line: --borders-mm: 'x' is not a number from 1 to 20");
  }
  EXPECT_THROW(RunBenchEdges({"--jpeg-qualities", "101"}), InputError);
  EXPECT_THROW(RunBenchEdges({"--trials", "0"}), InputError);
  EXPECT_THROW(RunBenchEdges({"--camera-mm", "0"}), InputError);
  try {
    RunBenchEdges({"--mat-bgr", "1,2"});
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "command line: --mat-bgr: needs three values B,G,R");
  }
}

}  // namespace
}  // namespace referee::cli
