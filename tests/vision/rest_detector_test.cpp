// Rest detection on a real frame sequence built from moving images: it fires once, only after
// rest_seconds of stillness that follow motion.
#include "vision/rest_detector.hpp"

#include <gtest/gtest.h>

#include <opencv2/imgproc.hpp>

namespace referee {
namespace {

cv::Mat Frame(cv::Point shell_at) {
  cv::Mat f(720, 1280, CV_8UC3, cv::Scalar(60, 100, 80));
  cv::rectangle(f, cv::Rect(shell_at, cv::Size(14, 14)), cv::Scalar(40, 200, 235), cv::FILLED);
  return f;
}

TEST(RestDetectorTest, FiresOnceAfterTheShellStops) {
  RestDetector rest({.rest_seconds = 0.5});
  const double dt = 1.0 / 30.0;
  int fired = 0;
  double fired_at = -1;
  for (int i = 0; i < 60; ++i) {  // 2 s: slides for 1 s, then lies still
    const int x = 200 + std::min(i, 30) * 12;
    const RestUpdate u = rest.Push(Frame({x, 300}), i * dt);
    if (u.came_to_rest) {
      ++fired;
      fired_at = i * dt;
    }
    if (i > 1 && i < 30) {
      EXPECT_TRUE(u.moving) << i;
    }
  }
  EXPECT_EQ(fired, 1);
  EXPECT_NEAR(fired_at, 30 * dt + 0.5, 2 * dt);
}

TEST(RestDetectorTest, AStillTableNeverFires) {
  RestDetector rest;
  for (int i = 0; i < 60; ++i) EXPECT_FALSE(rest.Push(Frame({100, 100}), i / 30.0).came_to_rest);
}

}  // namespace
}  // namespace referee
