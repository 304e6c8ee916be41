// The live pipeline with a hand over the table, on rendered frames: the generator's 720p
// scenes (a hand and arm reaching in from the side of the table, mostly outside the rectified
// view, fingertips over the board) scripted into a stream as `referee bench speed` does, and a
// rendered shot sequence (the hand moving in, holding, moving out). Every hand frame pauses the
// referee (no rest, no adjudication, no stand search, no new still view) and the frames without
// a hand are never flagged.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>

#include "datasets/shot_sequence.hpp"
#include "datasets/synth_scene.hpp"
#include "engine/data_paths.hpp"
#include "engine/stand_kind_catalog_loader.hpp"
#include "tests/vision/scenario_side_colors.hpp"
#include "ui/live/live_pipeline.hpp"
#include "vision/frame_source.hpp"

namespace referee::live::live_pipeline_hand_test {
namespace {

namespace fs = std::filesystem;
constexpr double kFps = 30.0;

Scenario Napoleonic() { return LoadScenario(DatasetsDir() / "scenarios" / "napoleonic.json"); }

LivePipeline Calibrated(const Scenario& sc, const Grid& board, const CameraModel& camera) {
  PipelineConfig c;
  c.board = board;
  c.catalog = LoadStandKinds();
  c.colors = ScenarioSideColors(sc);
  // What the referee decides is the same without the full top view made every frame (only
  // for display); it is made where the stands and the projectile are looked for.
  c.top_view_every_frame = false;
  LivePipeline p(c);
  TableCalibration cal;
  cal.board = board;
  cal.camera = camera;
  p.SetCalibration(cal);
  return p;
}

// What happened to one scripted stream.
struct StreamTally {
  int hand_frames = 0, hand_flagged = 0, false_hands = 0;
  int judged = 0, rests_during_hand = 0, stand_runs_during_hand = 0,
      projectile_runs_during_hand = 0;
  std::string refusal_during_hand;
  double judged_t = -1;
};

void Step(LivePipeline& p, const cv::Mat& frame, bool hand, int& i, StreamTally& run) {
  const FrameResult r = p.Process(frame.clone(), i, i / kFps);
  ++i;
  if (r.stage_ms.projectile_ms > 0) {  // judged: a projectile found or a refusal
    ++run.judged;
    run.judged_t = r.t_s;
  }
  if (hand) {
    ++run.hand_frames;
    run.hand_flagged += r.hand_in_frame;
    run.rests_during_hand += r.shot.rest.has_value();
    run.stand_runs_during_hand += r.stands_fresh;
    run.projectile_runs_during_hand += r.stage_ms.projectile_ms > 0;
    if (r.shot.armed) run.refusal_during_hand = r.shot.refusal;
  } else {
    run.false_hands += r.hand_in_frame;
  }
}

class LivePipelineHandTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const Scenario sc = Napoleonic();
    // Seed 3 index 0 is the speed bench's scene (0/15 hand frames flagged before the camera
    // hand test); seed 11 index 5 has a hand from another side of the table.
    for (const auto& [seed, index] : {std::pair{3, 0}, std::pair{11, 5}}) {
      SynthScene s = GenerateScene(
          sc, SynthOptions{.seed = static_cast<uint64_t>(seed), .size = {1280, 720}}, index);
      if (!s.after_hand.empty()) scenes_.push_back(std::move(s));
    }
  }
  static void TearDownTestSuite() { scenes_.clear(); }
  static std::vector<SynthScene> scenes_;
};
std::vector<SynthScene> LivePipelineHandTest::scenes_;

TEST_F(LivePipelineHandTest, HandAfterRestPausesStandSearchAndIsAlwaysFlagged) {
  ASSERT_GE(scenes_.size(), 2u);
  const Scenario sc = Napoleonic();
  for (const SynthScene& s : scenes_) {
    SCOPED_TRACE("seed " + std::to_string(s.seed) + " index " + std::to_string(s.index));
    LivePipeline p = Calibrated(sc, s.board.grid, s.camera);
    StreamTally run;
    int i = 0;
    for (int k = 0; k < 25; ++k) Step(p, s.before, false, i, run);
    p.Arm("any");
    for (int k = 0; k < 9; ++k) Step(p, k % 2 ? s.before : s.after, false, i, run);
    for (int k = 0; k < 25; ++k) Step(p, s.after, false, i, run);
    ASSERT_EQ(run.judged, 1) << "the shot was judged at rest, before the hand";
    for (int k = 0; k < 15; ++k) Step(p, s.after_hand, true, i, run);
    for (int k = 0; k < 30; ++k) Step(p, s.after, false, i, run);
    EXPECT_EQ(run.hand_flagged, run.hand_frames);
    EXPECT_EQ(run.false_hands, 0);
    // The still hand was not taken for the new table, nor judged as a shot.
    EXPECT_EQ(run.stand_runs_during_hand, 0);
    EXPECT_EQ(run.projectile_runs_during_hand, 0);
  }
}

TEST_F(LivePipelineHandTest, HandBeforeRestPausesTheShotUntilItLeaves) {
  const Scenario sc = Napoleonic();
  for (const SynthScene& s : scenes_) {
    SCOPED_TRACE("seed " + std::to_string(s.seed) + " index " + std::to_string(s.index));
    LivePipeline p = Calibrated(sc, s.board.grid, s.camera);
    StreamTally run;
    int i = 0;
    for (int k = 0; k < 25; ++k) Step(p, s.before, false, i, run);
    p.Arm("any");
    for (int k = 0; k < 9; ++k) Step(p, k % 2 ? s.before : s.after, false, i, run);
    for (int k = 0; k < 3; ++k) Step(p, s.after, false, i, run);
    // A hand reaches in before the shot is at rest, and stays well past rest_seconds.
    for (int k = 0; k < 30; ++k) Step(p, s.after_hand, true, i, run);
    const double hand_left_t = i / kFps;
    for (int k = 0; k < 30; ++k) Step(p, s.after, false, i, run);
    EXPECT_EQ(run.hand_flagged, run.hand_frames);
    EXPECT_EQ(run.false_hands, 0);
    EXPECT_EQ(run.rests_during_hand, 0);
    EXPECT_EQ(run.projectile_runs_during_hand, 0) << "adjudicated with a hand in frame";
    EXPECT_EQ(run.stand_runs_during_hand, 0);
    EXPECT_EQ(run.refusal_during_hand, kHandPaused);
    // Rest is declared once, rest_seconds after the hand left (not counted during the hand).
    ASSERT_EQ(run.judged, 1);
    EXPECT_GE(run.judged_t, hand_left_t + p.config().rest_seconds - 1e-6);
    EXPECT_LE(run.judged_t, hand_left_t + p.config().rest_seconds + 0.1);
  }
}

TEST_F(LivePipelineHandTest, StreamWithoutAHandIsNeverFlagged) {
  const Scenario sc = Napoleonic();
  for (const SynthScene& s : scenes_) {
    LivePipeline p = Calibrated(sc, s.board.grid, s.camera);
    StreamTally run;
    int i = 0;
    for (int k = 0; k < 25; ++k) Step(p, s.before, false, i, run);
    p.Arm("any");
    for (int k = 0; k < 9; ++k) Step(p, k % 2 ? s.before : s.after, false, i, run);
    for (int k = 0; k < 40; ++k) Step(p, s.after, false, i, run);
    EXPECT_EQ(run.false_hands, 0);
    EXPECT_EQ(run.judged, 1);
  }
}

// A rendered shot sequence: the projectile flies in and comes to rest, then a hand moves in,
// holds and moves out (frames.json says on which frames it is in the picture; entering and
// leaving, it is only at the picture's edge, far from the board, and need not be flagged).
TEST(LivePipelineHandSequenceTest, RenderedSequenceHandFramesPauseTheReferee) {
  const Scenario sc = Napoleonic();
  const fs::path dir = fs::path(REFEREE_TEST_TMP) / "live_pipeline_hand_test" / "sequence";
  fs::remove_all(dir);
  SequenceOptions seq;
  seq.fps = 10.0;  // fewer frames to render; rest detection works in seconds
  WriteShotSequence(sc, SynthOptions{.seed = 3, .size = {1280, 720}}, 0, seq, dir);
  std::ifstream in(dir / "frames.json");
  const nlohmann::json meta = nlohmann::json::parse(in);
  const SynthScene s = GenerateScene(sc, SynthOptions{.seed = 3, .size = {1280, 720}}, 0);
  LivePipeline p = Calibrated(sc, s.board.grid, s.camera);
  p.Arm("any");
  int hand_frames = 0, flagged = 0, false_hands = 0, judged = 0, judged_on_hand = 0;
  for (const auto& f : meta["frames"]) {
    const int i = f["index"].get<int>();
    const double t = f["t_s"].get<double>();
    const FrameResult r =
        p.Process(cv::imread((dir / f["file"].get<std::string>()).string()), i, t);
    const bool hand = f["hand_in_view"].get<bool>();
    hand_frames += hand;
    flagged += hand && r.hand_in_frame;
    false_hands += !hand && r.hand_in_frame;
    judged += r.stage_ms.projectile_ms > 0;
    if (r.hand_in_frame) {
      judged_on_hand += r.stage_ms.projectile_ms > 0;
      EXPECT_FALSE(r.shot.rest.has_value()) << "rest declared with a hand in frame " << i;
      EXPECT_FALSE(r.stands_fresh) << "stands looked for with a hand in frame " << i;
    }
  }
  ASSERT_GT(hand_frames, 5);
  // The hand over and near the board: the middle of its move, about half of its frames.
  EXPECT_GE(flagged, hand_frames / 3) << flagged << " of " << hand_frames;
  EXPECT_EQ(false_hands, 0);
  EXPECT_GE(judged, 1);
  EXPECT_EQ(judged_on_hand, 0);
}

}  // namespace
}  // namespace referee::live::live_pipeline_hand_test
