// A projectile's own shadow under a low lamp must not join it in the change mask, while a dark
// painted part (a black head, a dark shell) must still count as change, and a shadow that is not
// the projectile's own (a hand's, an arm's) must stay in it: it is evidence of something above
// the table and keeps the frame refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "datasets/synth_scene.hpp"
#include "engine/data_paths.hpp"
#include "engine/stand_kind_catalog_loader.hpp"
#include "rendered_scene.hpp"
#include "scenario_side_colors.hpp"
#include "vision/principal_axis.hpp"
#include "vision/shadow_change.hpp"
#include "vision/shot_analysis.hpp"

namespace referee {
namespace {

TEST(ShadowChangeTest, ADarkenedMatIsAShadowWithinTheNoise) {
  // A green mat at 0.45 of its light, with a few levels of noise in each channel.
  const cv::Vec3f mat(60, 110, 70);
  EXPECT_TRUE(IsShadowChange(mat, cv::Vec3f(27 + 4, 49.5f - 4, 31.5f + 3), 2.0));
  // The same strays on a clean frame are more than its noise.
  EXPECT_FALSE(IsShadowChange(mat, cv::Vec3f(27 + 8, 49.5f - 8, 31.5f + 6), 0.5));
}

TEST(ShadowChangeTest, DarkPaintIsNotAShadow) {
  const cv::Vec3f mat(60, 110, 70);
  // A black head (paint 20, 20, 20): darker than any shadow a room's light leaves.
  EXPECT_FALSE(IsShadowChange(mat, cv::Vec3f(20, 20, 20), 3.0));
  // A dark red shell: dark enough for a shadow, but with its own chroma.
  EXPECT_FALSE(IsShadowChange(mat, cv::Vec3f(25, 25, 60), 3.0));
  // Lighter than a shadow leaves: not one.
  EXPECT_FALSE(IsShadowChange(cv::Vec3f(200, 200, 200), cv::Vec3f(195, 195, 195), 2.0));
}

TEST(ShadowChangeTest, DifferenceNoiseIsTheSigmaOfUnchangedPixels) {
  cv::Mat before(400, 400, CV_32FC3, cv::Scalar(80, 120, 90)), noise(before.size(), CV_32FC3);
  cv::RNG rng(3);
  rng.fill(noise, cv::RNG::NORMAL, 0, 2.0);
  cv::Mat after = before + noise;
  // A tenth of the frame changed a lot (an object): the median moves by little (to ~2.25).
  after(cv::Rect(0, 0, 400, 40)).setTo(cv::Scalar(250, 250, 250));
  EXPECT_NEAR(DifferenceNoise(before, after), 2.0, 0.35);
}

TEST(ShadowChangeTest, ABlurredBlackHeadIsNotShadowButItsShadowIs) {
  cv::Mat before(120, 200, CV_32FC3, cv::Scalar(60, 110, 70)), after = before.clone();
  // A black head (paint 20) and, 30 px away, a shadow at 0.45 of the light, both blurred as a
  // lens and resampling blur them: the head's rim is a darkened mat in colour.
  cv::circle(after, {50, 60}, 8, cv::Scalar(20, 20, 20), cv::FILLED);
  after(cv::Rect(100, 50, 60, 20)) *= 0.45;
  cv::GaussianBlur(after, after, {0, 0}, 1.5);
  cv::Mat noise(before.size(), CV_32FC3);
  cv::RNG rng(5);
  rng.fill(noise, cv::RNG::NORMAL, 0, 1.0);
  after += noise;
  const cv::Mat shadow = ShadowPixels(before, after, DifferenceNoise(before, after));
  // No pixel of the head or its rim that changed by the projectile detector's 20 levels.
  cv::Mat drop;
  cv::transform(before - after, drop, cv::Matx13f(0, 1, 0));  // the mat's strongest channel
  const cv::Mat head_changed = (drop >= 20.0f) & shadow;
  EXPECT_EQ(cv::countNonZero(head_changed(cv::Rect(30, 40, 40, 40))), 0);
  EXPECT_GT(cv::countNonZero(shadow(cv::Rect(104, 54, 52, 12))), 0.9 * 52 * 12);
}

// A white stick (100 x 6 px) on a green mat and what `after` adds beside it: the change mask is
// every pixel that changed. At 0.5 mm/px the stick is 50 x 3 mm.
struct StickScene {
  cv::Mat before = cv::Mat(200, 300, CV_8UC3, cv::Scalar(60, 110, 70));
  cv::Mat after = before.clone();
  cv::Mat changed;
  StickScene() { after(cv::Rect(100, 90, 100, 6)).setTo(cv::Scalar(235, 235, 235)); }
  // A shadow over `where` in `after`: every channel at 45 % of its light.
  void Shade(const cv::Mat& where) {
    cv::Mat shaded;
    after.convertTo(shaded, -1, 0.45);
    shaded.copyTo(after, where);
  }
  cv::Mat Run(int* removed) {
    cv::Mat diff;
    cv::absdiff(before, after, diff);
    cv::transform(diff, changed, cv::Matx13f(1, 1, 1));
    changed = changed > 20;
    // Shaped like the stick: 40-60 mm long, at most 4 mm wide.
    const auto stick_like = [](const std::vector<cv::Point>& pts) {
      const PrincipalAxis a = FitPrincipalAxis(pts);
      const cv::Point2d perp(-a.axis.y, a.axis.x);
      double along_min = 1e9, along_max = -1e9, across = 0;
      for (const cv::Point& p : pts) {
        const cv::Point2d d = cv::Point2d(p) - a.centre;
        along_min = std::min(along_min, d.dot(a.axis));
        along_max = std::max(along_max, d.dot(a.axis));
        across = std::max(across, std::abs(d.dot(perp)));
      }
      const double length_mm = 0.5 * (along_max - along_min + 1), width_mm = 0.5 * (2 * across + 1);
      return length_mm >= 40 && length_mm <= 60 && width_mm <= 4;
    };
    return WithoutOwnShadows(
        changed, before,
        [&] {
          cv::Mat a;
          after.convertTo(a, CV_32FC3);
          return a;
        },
        0.5, stick_like, {}, removed);
  }
};

cv::Mat Box(cv::Size size, cv::Rect r) {
  cv::Mat m(size, CV_8U, cv::Scalar(0));
  m(r).setTo(255);
  return m;
}

TEST(ShadowChangeTest, AStickLosesItsOwnShadowBesideIt) {
  StickScene s;
  // Its shadow: the stick moved 5 px down and 3 px right, where the stick does not hide it.
  cv::Mat shade = Box(s.before.size(), cv::Rect(103, 95, 100, 6));
  shade.setTo(0, Box(s.before.size(), cv::Rect(100, 90, 100, 6)));
  s.Shade(shade);
  int removed = 0;
  const cv::Mat out = s.Run(&removed);
  EXPECT_GT(removed, 0);
  // All of it but the row the smoothing mixes with the stick.
  EXPECT_EQ(cv::countNonZero(out(cv::Rect(103, 97, 100, 4))), 0);
  EXPECT_EQ(cv::countNonZero(out(cv::Rect(100, 90, 100, 5))), 100 * 5);
}

TEST(ShadowChangeTest, AHandsShadowReachingAStickStays) {
  StickScene s;
  // A hand's shadow (the hand out of view) reaching the stick from below: not its copy.
  const cv::Mat shade = Box(s.before.size(), cv::Rect(120, 96, 60, 40));
  s.Shade(shade);
  int removed = 0;
  const cv::Mat out = s.Run(&removed);
  EXPECT_EQ(removed, 0);
  EXPECT_EQ(cv::countNonZero(out != s.changed), 0);
}

TEST(ShadowChangeTest, ASticksOwnShadowJoinedByAHandsStays) {
  StickScene s;
  // The stick's own shadow and, joined to it, a hand's: one shadow, not the stick's copy.
  cv::Mat shade = Box(s.before.size(), cv::Rect(103, 95, 100, 6)) |
                  Box(s.before.size(), cv::Rect(150, 100, 50, 30));
  shade.setTo(0, Box(s.before.size(), cv::Rect(100, 90, 100, 6)));
  s.Shade(shade);
  int removed = 0;
  s.Run(&removed);
  EXPECT_EQ(removed, 0);
}

// Lamp scenario seed 5 scene 0, 1080p, `after` as JPEG: the Q-tip's shadow lies beside it and
// was read with it as one change ("a change of 77 x 14 mm is neither a Q-tip nor a shell").
TEST(ShadowChangeTest, AQtipBesideItsOwnLampShadowIsFound) {
  const Scenario sc = LoadScenario(DatasetsDir() / "scenarios" / "lamp.json");
  const SynthScene s = GenerateScene(sc, SynthOptions{.seed = 5, .size = {1920, 1080}}, 0);
  ASSERT_TRUE(s.projectile.has_value());
  const TableCalibration cal = TruthCalibration(s);
  const ShotAnalysis a = AnalyseShot(TopView(cal), s.before, AsWebcamSends(s.after, s.jpeg_quality),
                                     ScenarioSideColors(sc), LoadStandKinds(), &s.board);
  ASSERT_TRUE(a.projectile.has_value()) << a.refusal;
  EXPECT_EQ(a.projectile->kind, "qtip");
  EXPECT_LT(InchesToMm(Distance(a.projectile->point, s.projectile->point)), 1.0);
}

// Napoleonic seed 31 scene 10, 1080p: a hand's shadow reaches the Q-tip in the hand frame. A
// shadow test without the geometry took it for the Q-tip's own and adjudicated the frame.
TEST(ShadowChangeTest, AHandFrameWhoseShadowReachesTheQtipIsRefused) {
  const Scenario sc = LoadScenario(DatasetsDir() / "scenarios" / "napoleonic.json");
  const SynthScene s = GenerateScene(sc, SynthOptions{.seed = 31, .size = {1920, 1080}}, 10);
  ASSERT_FALSE(s.after_hand.empty());
  const TableCalibration cal = TruthCalibration(s);
  const TopView view(cal);
  const ShotAnalysis a = AnalyseShot(view, s.before, AsWebcamSends(s.after, s.jpeg_quality),
                                     ScenarioSideColors(sc), LoadStandKinds(), &s.board);
  EXPECT_TRUE(std::holds_alternative<Refusal>(
      DetectProjectile(a.top_before, view.Rectify(AsWebcamSends(s.after_hand, s.jpeg_quality)),
                       view, a.stands.stands)));
}

}  // namespace
}  // namespace referee
