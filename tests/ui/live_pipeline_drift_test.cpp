// The live pipeline while the light changes: a bystander's shadow falls across the table over a
// few frames (the light falls off from the left of the picture to the right) and stays while a
// shot lands and a hand reaches in. Rendered 720p scenes scripted into a stream as
// `referee bench speed` does (datasets/exposure_drift makes the drifted frames).
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "datasets/exposure_drift.hpp"
#include "datasets/synth_scene.hpp"
#include "engine/data_paths.hpp"
#include "engine/stand_kind_catalog_loader.hpp"
#include "tests/vision/scenario_side_colors.hpp"
#include "ui/live/live_pipeline.hpp"

namespace referee::live {
namespace {

constexpr double kFps = 30.0;

Scenario Napoleonic() { return LoadScenario(DatasetsDir() / "scenarios" / "napoleonic.json"); }

LivePipeline Calibrated(const Scenario& sc, const SynthScene& s) {
  PipelineConfig c;
  c.board = s.board.grid;
  c.catalog = LoadStandKinds();
  c.colors = ScenarioSideColors(sc);
  c.top_view_every_frame = false;
  LivePipeline p(c);
  TableCalibration cal;
  cal.board = s.board.grid;
  cal.camera = s.camera;
  p.SetCalibration(cal);
  return p;
}

// What happened to one scripted stream, counted apart for the frames with and without a hand.
struct Tally {
  int hand_frames = 0, hand_flagged = 0, false_hands = 0, judged = 0;
  std::optional<ProjectileObservation> rest;
  std::string refusal;
};

void Step(LivePipeline& p, const cv::Mat& frame, bool hand, int& i, Tally& run) {
  const FrameResult r = p.Process(frame.clone(), i, i / kFps);
  ++i;
  run.hand_frames += hand;
  run.hand_flagged += hand && r.hand_in_frame;
  run.false_hands += !hand && r.hand_in_frame;
  run.judged += r.stage_ms.projectile_ms > 0;
  if (r.shot.rest) run.rest = r.shot.rest;
  if (!r.shot.refusal.empty()) run.refusal = r.shot.refusal;
}

// The shot lands (the view flickering between the table and the projectile), comes to rest and
// must be ruled once, with no false hand, within 1.5 mm of `truth`.
void ExpectLandsAndIsRuled(LivePipeline& p, const cv::Mat& before, const cv::Mat& after, Vec2 truth,
                           int& i, Tally& run) {
  for (int k = 0; k < 9; ++k) Step(p, k % 2 ? before : after, false, i, run);
  for (int k = 0; k < 25; ++k) Step(p, after, false, i, run);
  EXPECT_EQ(run.false_hands, 0);
  ASSERT_EQ(run.judged, 1) << run.refusal;
  ASSERT_TRUE(run.rest.has_value()) << run.refusal;
  EXPECT_LT(InchesToMm(Distance(run.rest->point, truth)), 1.5);
}

// Bug: the change tests divided out one gain for the whole picture. Under a light falling off
// by 30 % across the table, the side the shadow did not reach then read ~15 % brighter than
// before: a large change reaching in from the picture's edge, taken for an arm, and the
// referee stayed paused ("hand in frame") with the shot lying still.
TEST(LivePipelineDriftTest, ShotUnderABystandersShadowIsJudgedAndHandsStillPause) {
  const Scenario sc = Napoleonic();
  for (const auto& [seed, index] : {std::pair{3, 0}, std::pair{11, 5}}) {
    SCOPED_TRACE("seed " + std::to_string(seed) + " index " + std::to_string(index));
    const SynthScene s = GenerateScene(
        sc, SynthOptions{.seed = static_cast<uint64_t>(seed), .size = {1280, 720}}, index);
    ASSERT_TRUE(s.projectile.has_value());
    ASSERT_FALSE(s.after_hand.empty());
    const ExposureDrift shadow{.ramp = 0.3, .active = true};
    LivePipeline p = Calibrated(sc, s);
    Tally run;
    int i = 0;
    for (int k = 0; k < 25; ++k) Step(p, s.before, false, i, run);
    p.Arm("any");
    constexpr int kRampFrames = 6;  // the shadow comes in over a fifth of a second
    for (int k = 1; k <= kRampFrames; ++k) {
      const ExposureDrift d{.ramp = shadow.ramp * k / kRampFrames, .active = true};
      Step(p, Drifted(s.before, d), false, i, run);
    }
    const cv::Mat before = Drifted(s.before, shadow), after = Drifted(s.after, shadow);
    ExpectLandsAndIsRuled(p, before, after, s.projectile->point, i, run);
    if (HasFatalFailure()) return;
    // A hand reaching in under the same shadow still pauses the referee, every frame.
    const cv::Mat hand = Drifted(s.after_hand, shadow);
    for (int k = 0; k < 15; ++k) Step(p, hand, true, i, run);
    for (int k = 0; k < 20; ++k) Step(p, after, false, i, run);
    EXPECT_EQ(run.hand_flagged, run.hand_frames);
    EXPECT_EQ(run.false_hands, 0);
  }
}

// Bug: seed 5 index 1's Q-tip lies along a grid line. With the exposure 10 % darker after arming
// its change where it crosses the line fell under the threshold and it showed as two pieces in
// line, which the whole-model match ran past along the line: the shot at rest was refused as
// "more than one thing changed (2 regions)".
TEST(LivePipelineDriftTest, AShotAlongAGridLineIsJudgedUnderADarkerExposure) {
  const Scenario sc = Napoleonic();
  const SynthScene s = GenerateScene(sc, SynthOptions{.seed = 5, .size = {1280, 720}}, 1);
  ASSERT_TRUE(s.projectile.has_value());
  constexpr double kGain = 0.90;
  LivePipeline p = Calibrated(sc, s);
  Tally run;
  int i = 0;
  for (int k = 0; k < 25; ++k) Step(p, s.before, false, i, run);
  p.Arm("any");
  constexpr int kDriftFrames = 6;  // the camera's automatics settle over a fifth of a second
  for (int k = 1; k <= kDriftFrames; ++k) {
    const ExposureDrift d{.gain = 1.0 + (kGain - 1.0) * k / kDriftFrames, .active = true};
    Step(p, Drifted(s.before, d), false, i, run);
  }
  const ExposureDrift darker{.gain = kGain, .active = true};
  const cv::Mat before = Drifted(s.before, darker), after = Drifted(s.after, darker);
  ExpectLandsAndIsRuled(p, before, after, s.projectile->point, i, run);
}

}  // namespace
}  // namespace referee::live
