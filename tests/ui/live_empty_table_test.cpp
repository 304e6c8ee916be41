// The live stand search given a camera frame of the table before deployment
// (PipelineConfig::empty_table, `referee live --empty`): on a rendered 720p scene whose board
// places no terrain, its red terrain shapes are reported as bases without it and dropped with
// it, every deployed base kept; an empty-table frame of another size is ignored, not trusted.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <vector>

#include "datasets/synth_scene.hpp"
#include "engine/data_paths.hpp"
#include "engine/stand_kind_catalog_loader.hpp"
#include "tests/vision/rendered_scene.hpp"
#include "ui/live/live_pipeline.hpp"

namespace referee::live {
namespace {

class LiveEmptyTableTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const Scenario sc = LoadScenario(DatasetsDir() / "scenarios" / "napoleonic.json");
    scene_ = new SynthScene(GenerateScene(sc, SynthOptions{.seed = 3, .size = {1280, 720}}, 0));
  }
  static void TearDownTestSuite() { delete scene_; }

  // A pipeline calibrated on the scene's camera, given `empty_table` (none: empty).
  static LivePipeline Calibrated(const cv::Mat& empty_table) {
    PipelineConfig c;
    c.board = scene_->board.grid;
    c.catalog = LoadStandKinds();
    c.colors.AddSideFromSrgb("red", {192, 48, 42});
    c.colors.AddSideFromSrgb("blue", {42, 75, 192});
    c.empty_table = empty_table;
    LivePipeline p(c);
    p.SetCalibration(TruthCalibration(*scene_));
    return p;
  }
  // The stands of the first stand search over still `before` frames.
  static std::vector<DetectedStand> FirstStands(const cv::Mat& empty_table) {
    LivePipeline p = Calibrated(empty_table);
    const cv::Mat frame = AsWebcamSends(scene_->before, 90);
    for (int i = 0; i < 30; ++i) {
      FrameResult r = p.Process(frame.clone(), i, i / 30.0);
      if (r.stands_fresh) return r.stands;
    }
    ADD_FAILURE() << "no stand search within one second of still frames";
    return {};
  }
  static int OnTrueBases(const std::vector<DetectedStand>& found) {
    return static_cast<int>(std::count_if(found.begin(), found.end(), [](const DetectedStand& d) {
      return std::any_of(scene_->stands.begin(), scene_->stands.end(), [&](const Stand& t) {
        return t.side == d.stand.side &&
               InchesToMm(Distance(t.footprint.center, d.stand.footprint.center)) < 6.0;
      });
    }));
  }
  static SynthScene* scene_;
};
SynthScene* LiveEmptyTableTest::scene_ = nullptr;

TEST_F(LiveEmptyTableTest, TerrainShapesThatLayOnTheEmptyTableAreDropped) {
  const std::vector<DetectedStand> alone = FirstStands(cv::Mat());
  EXPECT_GT(alone.size(), scene_->stands.size());  // the terrain's red shapes
  EXPECT_EQ(OnTrueBases(alone), static_cast<int>(scene_->stands.size()));
  const std::vector<DetectedStand> with_empty = FirstStands(AsWebcamSends(scene_->empty, 90));
  EXPECT_EQ(with_empty.size(), scene_->stands.size());
  EXPECT_EQ(OnTrueBases(with_empty), static_cast<int>(scene_->stands.size()));
}

// The overlay's "Remember the empty table": the camera's next frame becomes the picture. The
// table is shown empty for a second, remembered, then deployed: the stands found on it are the
// deployed ones only.
TEST_F(LiveEmptyTableTest, TheEmptyTableRememberedFromTheCameraDropsTheTerrainShapes) {
  LivePipeline p = Calibrated(cv::Mat());
  const cv::Mat empty = AsWebcamSends(scene_->empty, 90);
  const cv::Mat deployed = AsWebcamSends(scene_->before, 90);
  p.RememberNextFrameAsEmptyTable();
  std::optional<std::vector<DetectedStand>> on_empty, on_deployed;
  bool known = false;
  for (int i = 0; i < 60; ++i) {
    FrameResult r = p.Process((i < 30 ? empty : deployed).clone(), i, i / 30.0);
    known = r.empty_table;
    if (r.stands_fresh) (i < 30 ? on_empty : on_deployed) = r.stands;
  }
  EXPECT_TRUE(known);
  ASSERT_TRUE(on_empty.has_value());
  EXPECT_TRUE(on_empty->empty());  // nothing changed on the empty table itself
  ASSERT_TRUE(on_deployed.has_value()) << "no stand search on the deployed table";
  EXPECT_EQ(on_deployed->size(), scene_->stands.size());
  EXPECT_EQ(OnTrueBases(*on_deployed), static_cast<int>(scene_->stands.size()));
}

TEST_F(LiveEmptyTableTest, AnEmptyTableFrameOfAnotherSizeIsIgnored) {
  cv::Mat small;
  cv::resize(scene_->empty, small, {640, 360});
  EXPECT_EQ(FirstStands(small).size(), FirstStands(cv::Mat()).size());
}

}  // namespace
}  // namespace referee::live
