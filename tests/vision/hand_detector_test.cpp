// The camera-frame hand detector on rendered scenes (real 3D hands and arms reaching in from
// the side of the table, shadows, lens distortion, noise, JPEG) and on real frames changed the
// ways a table changes without a hand: exposure, a person's shadow, a projectile landing or
// lying across the board's edge, a stand moved, something put down at the edge.
#include <gtest/gtest.h>

#include <vector>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "datasets/synth_scene.hpp"
#include "engine/data_paths.hpp"
#include "vision/hand_detector.hpp"

namespace referee {
namespace {

constexpr double kFps = 30.0;

TableCalibration CalibrationOf(const SynthScene& s) {
  TableCalibration cal;
  cal.board = s.board.grid;
  cal.camera = s.camera;
  return cal;
}

// Rendered 720p napoleonic scenes that have a hand frame (the scenario draws one in about
// half the scenes), made once for the suite.
class HandDetectorTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const Scenario sc = LoadScenario(DatasetsDir() / "scenarios" / "napoleonic.json");
    for (int index = 0; index < 12 && scenes_.size() < 4; ++index) {
      SynthScene s = GenerateScene(sc, SynthOptions{.seed = 11, .size = {1280, 720}}, index);
      if (!s.after_hand.empty()) scenes_.push_back(std::move(s));
    }
  }
  static void TearDownTestSuite() { scenes_.clear(); }

  // Feeds `frame` n times from frame number *i on; returns on how many a hand was reported.
  static int Feed(HandDetector& d, const cv::Mat& frame, int n, int& i) {
    int hands = 0;
    for (int k = 0; k < n; ++k, ++i) hands += d.Update(frame, i / kFps).hand;
    return hands;
  }

  static std::vector<SynthScene> scenes_;
};
std::vector<SynthScene> HandDetectorTest::scenes_;

TEST_F(HandDetectorTest, RenderedHandsAreFlaggedProjectilesAreNot) {
  ASSERT_GE(scenes_.size(), 3u);
  for (const SynthScene& s : scenes_) {
    SCOPED_TRACE("scene index " + std::to_string(s.index));
    HandDetector d(CalibrationOf(s));
    int i = 0;
    EXPECT_EQ(Feed(d, s.before, 15, i), 0) << "still table";
    EXPECT_EQ(Feed(d, s.after, 15, i), 0) << "projectile landed";
    EXPECT_EQ(Feed(d, s.after_hand, 10, i), 10) << "hand over the table";
    EXPECT_EQ(Feed(d, s.after, 15, i), 0) << "hand gone";
  }
}

TEST_F(HandDetectorTest, HandFlaggedWhenTheReferenceIsTheTableBeforeTheShot) {
  // A hand straight after the shot lands, before the view settled on the projectile.
  const SynthScene& s = scenes_.at(0);
  HandDetector d(CalibrationOf(s));
  int i = 0;
  Feed(d, s.before, 15, i);
  EXPECT_EQ(Feed(d, s.after_hand, 5, i), 5);
}

TEST_F(HandDetectorTest, ExposureAndAPersonsShadowAreNotHands) {
  for (const SynthScene& s : scenes_) {
    SCOPED_TRACE("scene index " + std::to_string(s.index));
    HandDetector d(CalibrationOf(s));
    int i = 0;
    Feed(d, s.before, 15, i);
    // Auto exposure: the whole picture 25 % brighter, then 20 % darker than at first.
    cv::Mat brighter, darker;
    s.before.convertTo(brighter, -1, 1.25);
    s.before.convertTo(darker, -1, 0.8);
    EXPECT_EQ(Feed(d, brighter, 5, i), 0);
    EXPECT_EQ(Feed(d, darker, 5, i), 0);
    // Someone leans over the table's edge: a soft shadow from the picture's left edge well
    // into the board (everything under it 45 % darker).
    const cv::Point2d a = s.camera.ImageFromTable({-8, 4}), b = s.camera.ImageFromTable({6, 9}),
                      c = s.camera.ImageFromTable({6, 20}), e = s.camera.ImageFromTable({-8, 24});
    cv::Mat shade(s.before.size(), CV_32F, cv::Scalar(1.0));
    const std::vector<cv::Point> poly{a, b, c, e};
    cv::fillConvexPoly(shade, poly, cv::Scalar(0.55), cv::LINE_AA);
    cv::GaussianBlur(shade, shade, {0, 0}, 15);
    cv::Mat f, shaded;
    s.before.convertTo(f, CV_32FC3);
    cv::Mat shade3;
    cv::merge(std::vector<cv::Mat>{shade, shade, shade}, shade3);
    cv::multiply(f, shade3, f);
    f.convertTo(shaded, CV_8UC3);
    EXPECT_EQ(Feed(d, shaded, 10, i), 0);
  }
}

// A Q-tip drawn lying across the board's edge: stick and heads, in the camera picture.
cv::Mat QtipAcrossTheEdge(const SynthScene& s) {
  cv::Mat out = s.before.clone();
  const double y = s.board.grid.Height() / 2 + 0.3;
  const Vec2 from{-1.4, y}, to{1.5, y + 0.2};  // 2.9" (75 mm) across the left edge
  const cv::Point2d p = s.camera.ImageFromTable(from, 0.1), q = s.camera.ImageFromTable(to, 0.1);
  const double px_per_in = cv::norm(q - p) / Distance(from, to);
  cv::line(out, p, q, cv::Scalar(235, 235, 235), std::max(1, cvRound(0.1 * px_per_in)),
           cv::LINE_AA);
  const cv::Point2d u = (q - p) * (1.0 / cv::norm(q - p));
  const double head = 0.47 * px_per_in;
  cv::line(out, p, p + head * u, cv::Scalar(240, 240, 240), cvRound(0.2 * px_per_in), cv::LINE_AA);
  cv::line(out, q - head * u, q, cv::Scalar(30, 30, 30), cvRound(0.2 * px_per_in), cv::LINE_AA);
  return out;
}

TEST_F(HandDetectorTest, QtipAcrossTheBoardEdgeIsNotAHand) {
  for (const SynthScene& s : scenes_) {
    SCOPED_TRACE("scene index " + std::to_string(s.index));
    HandDetector d(CalibrationOf(s));
    int i = 0;
    Feed(d, s.before, 15, i);
    EXPECT_EQ(Feed(d, QtipAcrossTheEdge(s), 10, i), 0);
  }
}

TEST_F(HandDetectorTest, StandMovedInsideTheBoardIsNotAHand) {
  for (const SynthScene& s : scenes_) {
    SCOPED_TRACE("scene index " + std::to_string(s.index));
    // The stand nearest the board's centre, its picture (base and figures) moved one square.
    const Vec2 mid{s.board.grid.Width() / 2, s.board.grid.Height() / 2};
    const Stand* pick = nullptr;
    for (const Stand& st : s.stands) {
      if (!pick || Distance(st.footprint.center, mid) < Distance(pick->footprint.center, mid)) {
        pick = &st;
      }
    }
    ASSERT_NE(pick, nullptr);
    std::vector<cv::Point> hull;
    for (const Vec2& c : pick->footprint.Corners()) {
      hull.push_back(s.camera.ImageFromTable(c, 0.0));
      hull.push_back(s.camera.ImageFromTable(c, 1.0));  // the figures on it
    }
    cv::convexHull(std::vector<cv::Point>(hull), hull);
    const cv::Rect box = cv::boundingRect(hull);
    const double sq = s.board.grid.square_size_in;
    const cv::Point2d shift = s.camera.ImageFromTable(pick->footprint.center + Vec2{sq, 0}) -
                              s.camera.ImageFromTable(pick->footprint.center);
    cv::Mat moved = s.before.clone();
    cv::Mat patch = s.before(box).clone();
    s.empty(box).copyTo(moved(box));  // where it stood: the bare mat
    const cv::Rect dest = box + cv::Point(cvRound(shift.x), cvRound(shift.y));
    ASSERT_EQ(dest & cv::Rect({0, 0}, moved.size()), dest);
    patch.copyTo(moved(dest));
    HandDetector d(CalibrationOf(s));
    int i = 0;
    Feed(d, s.before, 15, i);
    EXPECT_EQ(Feed(d, moved, 10, i), 0);
  }
}

TEST_F(HandDetectorTest, SomethingPutDownAtTheEdgeBecomesScenery) {
  // A "hand" that does not move at all for scenery_after_s is something put down.
  const SynthScene& s = scenes_.at(0);
  HandDetector d(CalibrationOf(s));
  int i = 0;
  Feed(d, s.after, 15, i);
  const int still_frames = static_cast<int>(d.options().scenery_after_s * kFps);
  // Flagged until it has been still that long (the first frame is motion, not still).
  EXPECT_GE(Feed(d, s.after_hand, still_frames + 2, i), still_frames);
  EXPECT_EQ(Feed(d, s.after_hand, 5, i), 0);
}

TEST_F(HandDetectorTest, WrongFrameSizeIsNoHand) {
  const SynthScene& s = scenes_.at(0);
  HandDetector d(CalibrationOf(s));
  cv::Mat small;
  cv::resize(s.after_hand, small, {640, 360});
  EXPECT_FALSE(d.Update(small, 0).hand);
}

}  // namespace
}  // namespace referee
