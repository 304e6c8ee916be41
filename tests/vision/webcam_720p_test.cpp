// Most club webcams send 1280x720, and a camera far enough above a large table to see all of it
// then spans ~2.3 mm a pixel, nearly three of the top view's. Shots read from such 720p renders
// (seed 5), sent as JPEG, with the exposure drifting or not.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "datasets/exposure_drift.hpp"
#include "datasets/synth_scene.hpp"
#include "engine/data_paths.hpp"
#include "engine/stand_kind_catalog_loader.hpp"
#include "rendered_scene.hpp"
#include "scenario_side_colors.hpp"
#include "vision/shot_analysis.hpp"

namespace referee {
namespace {

// The projectile of scene `index` of `scenario` (seed 5, 720p) found within `max_error_mm` of
// the truth through every drift.
void ExpectReadAt720p(const std::string& scenario, int index,
                      const std::vector<ExposureDrift>& drifts, double max_error_mm) {
  const Scenario sc = LoadScenario(DatasetsDir() / "scenarios" / (scenario + ".json"));
  const SynthScene s = GenerateScene(
      sc, SynthOptions{.seed = 5, .size = {1280, 720}, .with_hand_frame = false}, index);
  ASSERT_TRUE(s.projectile.has_value());
  const TopView view(TruthCalibration(s));
  const cv::Mat sent = AsWebcamSends(s.after, s.jpeg_quality);
  for (const ExposureDrift& d : drifts) {
    SCOPED_TRACE(scenario + " index " + std::to_string(index) + " gain " + std::to_string(d.gain) +
                 " ramp " + std::to_string(d.ramp));
    const ShotAnalysis a = AnalyseShot(view, s.before, Drifted(sent, d), ScenarioSideColors(sc),
                                       LoadStandKinds(), &s.board);
    ASSERT_TRUE(a.projectile.has_value()) << a.refusal;
    EXPECT_EQ(a.projectile->kind, s.projectile->kind);
    EXPECT_LT(InchesToMm(Distance(a.projectile->point, s.projectile->point)), max_error_mm);
  }
}

// Bug: the change test allowed `after` only what `before` holds within a top-view pixel, a
// third of a camera pixel here. The camera sends colour at half its resolution, so a base's
// 3 mm blue border (one or two camera pixels) came back with 70 levels less blue: every border
// on the table changed, and once the exposure drifted the shell was one of 55 regions, refused
// as "more than one thing changed".
TEST(Webcam720pTest, AShellIsFoundAmongBasesWhoseBordersLostTheirColour) {
  ExpectReadAt720p("ancient", 1,
                   {{.gain = 1.0, .active = false},
                    {.gain = 1.10, .active = true},
                    {.gain = 0.90, .active = true}},
                   1.5);
}

// Bug: a black head on a grey mat changes the view about as much as the white stick next to
// it, so no end was found walking out from the stick, and the head measured from its middle
// was only tried to correct an end found elsewhere: refused as "the outer end of its painted
// head cannot be measured".
TEST(Webcam720pTest, ADarkHeadWithNoEdgeAtTheStickIsMeasuredFromItsMiddle) {
  ExpectReadAt720p("napoleonic", 11,
                   {{.gain = 1.0, .active = false}, {.ramp = 0.3, .active = true}}, 1.5);
}

}  // namespace
}  // namespace referee
