// A projectile's own shadow under a low lamp must not join it in the change mask, while a dark
// painted part (a black head, a dark shell) must still count as change. The test of the whole
// detector on a lamp scene comes with its hook into the change mask (not wired yet: see the
// module's header).
#include <gtest/gtest.h>

#include <opencv2/imgproc.hpp>

#include "vision/shadow_change.hpp"

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
  // A light grey mat under a dark grey head of a shadow's brightness is not told apart by
  // colour: only the ratio bound keeps the darkest paint. Lighter than a shadow: not one.
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
  const cv::Mat shadow = ShadowPixels(before, after);
  // No pixel of the head or its rim that changed by the projectile detector's 20 levels.
  cv::Mat drop;
  cv::transform(before - after, drop, cv::Matx13f(0, 1, 0));  // the mat's strongest channel
  const cv::Mat head_changed = (drop >= 20.0f) & shadow;
  EXPECT_EQ(cv::countNonZero(head_changed(cv::Rect(30, 40, 40, 40))), 0);
  EXPECT_GT(cv::countNonZero(shadow(cv::Rect(104, 54, 52, 12))), 0.9 * 52 * 12);
}

TEST(ShadowChangeTest, OnlyAShadowBesideAnObjectIsLeftOut) {
  cv::Mat object(100, 200, CV_8U, cv::Scalar(0)), shadow = object.clone();
  object(cv::Rect(20, 40, 60, 6)).setTo(255);    // a stick
  shadow(cv::Rect(20, 48, 60, 6)).setTo(255);    // its shadow, 2 px beside it
  shadow(cv::Rect(140, 20, 40, 50)).setTo(255);  // a hand's shadow, the hand out of view
  const cv::Mat out = WithLoneShadows(object, shadow, 5);
  EXPECT_EQ(cv::countNonZero(out(cv::Rect(0, 47, 100, 10))), 0);
  EXPECT_EQ(cv::countNonZero(out(cv::Rect(140, 20, 40, 50))), 40 * 50);
  EXPECT_EQ(cv::countNonZero(out(cv::Rect(20, 40, 60, 6))), 60 * 6);
}

}  // namespace
}  // namespace referee
