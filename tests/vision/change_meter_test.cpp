// The coarse change tests on a generated 720p scene: nothing for the same picture, a dimmer
// room or a shadow; a small region for the projectile, away from the edge; a large region
// touching the edge for an arm reaching in over the table.
#include "vision/change_meter.hpp"

#include <gtest/gtest.h>

#include <opencv2/imgproc.hpp>

#include "datasets/exposure_drift.hpp"
#include "datasets/synth_scene.hpp"
#include "engine/data_paths.hpp"

namespace referee {
namespace {

class ChangeMeterTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const Scenario sc = LoadScenario(DatasetsDir() / "scenarios" / "napoleonic.json");
    scene_ = new SynthScene(GenerateScene(
        sc, SynthOptions{.seed = 3, .size = {1280, 720}, .with_hand_frame = false}, 0));
    TableCalibration cal;
    cal.board = scene_->board.grid;
    cal.camera = scene_->camera;
    view_ = new TopView(cal);
    meter_ = new ChangeMeter(*view_);
  }
  static void TearDownTestSuite() {
    delete meter_;
    delete view_;
    delete scene_;
  }
  static cv::Mat Coarse(const cv::Mat& camera_frame) {
    return meter_->Shrink(view_->Rectify(camera_frame));
  }
  // The projectile's change: one small region clear of the picture's edge, around its tip.
  static void ExpectProjectileRegion(const cv::Mat& changed) {
    ASSERT_TRUE(scene_->projectile.has_value());
    const std::vector<ChangeRegion> regions = meter_->Regions(changed);
    ASSERT_FALSE(regions.empty());
    EXPECT_GT(regions[0].area_mm2, 30.0);
    EXPECT_LT(regions[0].area_mm2, 1500.0);
    EXPECT_FALSE(regions[0].touches_edge);
    const cv::Point tip(view_->RectifiedFromTable(scene_->projectile->point));
    const cv::Rect around = meter_->Around(changed, 6.0, 10.0);
    EXPECT_TRUE(around.contains(tip)) << around << " " << tip;
  }
  static SynthScene* scene_;
  static TopView* view_;
  static ChangeMeter* meter_;
};
SynthScene* ChangeMeterTest::scene_ = nullptr;
TopView* ChangeMeterTest::view_ = nullptr;
ChangeMeter* ChangeMeterTest::meter_ = nullptr;

TEST_F(ChangeMeterTest, CellsAreAboutTheConfiguredSize) {
  const double cell_mm = meter_->factor() * view_->MmPerPx();
  EXPECT_GT(cell_mm, 1.0);
  EXPECT_LT(cell_mm, 2.4);
  EXPECT_EQ(Coarse(scene_->before).cols, view_->size().width / meter_->factor());
}

TEST_F(ChangeMeterTest, SamePictureDimmerRoomAndShadowAreNoChange) {
  const cv::Mat before = Coarse(scene_->before);
  EXPECT_EQ(meter_->AreaMm2(meter_->Changed(before, before)), 0.0);
  cv::Mat dim;
  scene_->before.convertTo(dim, -1, 0.8, 0);  // the room light turned down
  EXPECT_LT(meter_->AreaMm2(meter_->Changed(before, Coarse(dim))), 20.0);
  // A soft shadow across the middle of the table (a player leaning over).
  cv::Mat shade(scene_->before.size(), CV_32F, cv::Scalar(1.0));
  cv::circle(shade, {640, 360}, 160, cv::Scalar(0.6), cv::FILLED);
  cv::GaussianBlur(shade, shade, {0, 0}, 20);
  cv::Mat f, shadowed;
  scene_->before.convertTo(f, CV_32FC3);
  cv::Mat shade3;
  cv::merge(std::vector<cv::Mat>{shade, shade, shade}, shade3);
  cv::multiply(f, shade3, f);
  f.convertTo(shadowed, CV_8UC3);
  EXPECT_LT(meter_->AreaMm2(meter_->Changed(before, Coarse(shadowed))), 40.0);
}

// Bug: one gain was divided out for the whole picture. A light falling off by 30 % from the
// picture's left to its right (a bystander's shadow) then left the unshaded side ~15 % brighter
// than before, a change over most of the table; and the projectile must still show under it.
TEST_F(ChangeMeterTest, LightFallingOffAcrossTheTableIsNoChange) {
  // Both pictures as a webcam sends them (compressed once), one of them under the shadow.
  const ExposureDrift sent{.active = true}, shadow{.ramp = 0.3, .active = true};
  const cv::Mat before = Coarse(Drifted(scene_->before, sent));
  EXPECT_LT(meter_->AreaMm2(meter_->Changed(before, Coarse(Drifted(scene_->before, shadow)))),
            20.0);
  ExpectProjectileRegion(meter_->Changed(before, Coarse(Drifted(scene_->after, shadow))));
}

TEST_F(ChangeMeterTest, ProjectileIsASmallRegionAwayFromTheEdge) {
  ExpectProjectileRegion(meter_->Changed(Coarse(scene_->before), Coarse(scene_->after)));
}

TEST_F(ChangeMeterTest, ArmReachingInTouchesTheEdge) {
  // An arm in a sleeve from the bottom edge of the picture to a hand over the board.
  cv::Mat arm = scene_->before.clone();
  cv::line(arm, {700, 719}, {560, 420}, cv::Scalar(90, 120, 170), 70);
  cv::ellipse(arm, {550, 400}, {45, 35}, 30, 0, 360, cv::Scalar(120, 150, 205), cv::FILLED);
  const std::vector<ChangeRegion> regions =
      meter_->Regions(meter_->Changed(Coarse(scene_->before), Coarse(arm)));
  ASSERT_FALSE(regions.empty());
  EXPECT_GT(regions[0].area_mm2, 3000.0);
  EXPECT_TRUE(regions[0].touches_edge);
}

TEST_F(ChangeMeterTest, CoarseViewStraightFromTheFrameMatchesTheShrunkTopView) {
  // The live referee's per-frame view: the cells sampled from the camera frame without the
  // full top view. Same size and place as Shrink(Rectify(frame)), nearly the same values, and
  // the projectile's change found where the tip is.
  const cv::Mat direct = meter_->ShrinkFrame(scene_->before);
  const cv::Mat shrunk = Coarse(scene_->before);
  ASSERT_EQ(direct.size(), shrunk.size());
  ASSERT_EQ(direct.type(), CV_8UC3);
  cv::Mat diff;
  cv::absdiff(direct, shrunk, diff);
  EXPECT_LT(cv::mean(diff)[0], 2.0);
  EXPECT_LT(meter_->AreaMm2(meter_->Changed(shrunk, direct)), 20.0);
  ASSERT_TRUE(scene_->projectile.has_value());
  const cv::Mat changed = meter_->Changed(direct, meter_->ShrinkFrame(scene_->after));
  const cv::Point tip(view_->RectifiedFromTable(scene_->projectile->point));
  EXPECT_TRUE(meter_->Around(changed, 6.0, 10.0).contains(tip));
  const std::vector<ChangeRegion> regions = meter_->Regions(changed);
  ASSERT_FALSE(regions.empty());
  EXPECT_GT(regions[0].area_mm2, 30.0);
  EXPECT_FALSE(regions[0].touches_edge);
}

}  // namespace
}  // namespace referee
