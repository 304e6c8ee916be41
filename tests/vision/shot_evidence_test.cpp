// The evidence picture is what players look at when they dispute a ruling: a stand the detector
// could not see whole (a side running on under tall terrain) must say so on it, as the overlay
// does, so nobody trusts its outline blindly.
#include <gtest/gtest.h>
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <string>

#include "tests/overhead_calibration.hpp"
#include "vision/shot_evidence.hpp"

namespace referee {
namespace {

struct EvidenceScene {
  TopView view{OverheadCalibration(), {.px_per_inch = 40, .margin_in = 1}};
  ShotAnalysis analysis;
  Verdict verdict;
};

// A 40 x 20 mm red base at (6, 6) in, the shot 0.6 in to its right.
EvidenceScene ShotBesideABase(bool partly_hidden, bool faint_border = false) {
  EvidenceScene s;
  const cv::Scalar mat(60, 85, 100);
  s.analysis.top_before = cv::Mat(s.view.size(), CV_8UC3, mat);
  s.analysis.top_after = s.analysis.top_before.clone();
  DetectedStand d;
  d.stand.id = "red-1";
  d.stand.side = "red";
  d.stand.footprint.center = {6.0, 6.0};
  d.stand.footprint.width_in = MmToInches(40);
  d.stand.footprint.depth_in = MmToInches(20);
  d.partly_hidden = partly_hidden;
  d.faint_border = faint_border;
  s.analysis.stands.stands.push_back(d);
  s.verdict.point = {6.6, 6.0};
  StandNearShot near;
  near.id = "red-1";
  near.side = "red";
  near.distance_in = 0.6 - MmToInches(20);
  near.distance_mm = InchesToMm(near.distance_in);
  near.margin_in = 1.0 - near.distance_in;
  near.inside_circle = true;
  near.candidate = true;
  s.verdict.stands_near.push_back(near);
  return s;
}

TEST(ShotEvidence, APartlyHiddenStandIsMarkedForChecking) {
  const EvidenceScene plain = ShotBesideABase(false);
  const EvidenceScene hidden = ShotBesideABase(true);
  const EvidenceOptions o;
  const cv::Mat a = DrawShotEvidence(plain.view, plain.analysis, plain.verdict, o);
  const cv::Mat b = DrawShotEvidence(hidden.view, hidden.analysis, hidden.verdict, o);
  ASSERT_EQ(a.size(), b.size());
  cv::Mat diff;
  cv::absdiff(a, b, diff);
  cv::Mat changed;
  cv::cvtColor(diff, changed, cv::COLOR_BGR2GRAY);
  const cv::Rect where = cv::boundingRect(changed > 0);
  // Something is written, on the after half only, just under the stand's own label (whose
  // baseline is at the stand's centre, level with the impact in the middle of the crop).
  ASSERT_GT(cv::countNonZero(changed > 0), 50);
  const int half_w = a.cols / 2;
  EXPECT_GE(where.x, half_w);
  const double label_y = o.half_size_in * o.px_per_inch;
  EXPECT_GT(where.y, label_y);
  EXPECT_LT(where.y + where.height, label_y + 30);
}

// The region of the after half where b differs from a (empty when they are alike).
cv::Rect WhereTheyDiffer(const cv::Mat& a, const cv::Mat& b) {
  cv::Mat diff, changed;
  cv::absdiff(a, b, diff);
  cv::cvtColor(diff, changed, cv::COLOR_BGR2GRAY);
  return cv::boundingRect(changed > 0);
}

// A stand found only on a faint border where the table changed since it was seen empty is
// marked for checking under its label, and under the partly-hidden mark when it has both.
TEST(ShotEvidence, AFaintBorderStandIsMarkedForCheckingUnderItsOtherMarks) {
  const EvidenceOptions o;
  const auto draw = [&](bool partly_hidden, bool faint_border) {
    const EvidenceScene s = ShotBesideABase(partly_hidden, faint_border);
    return DrawShotEvidence(s.view, s.analysis, s.verdict, o);
  };
  const cv::Mat plain = draw(false, false);
  const cv::Rect faint = WhereTheyDiffer(plain, draw(false, true));
  const double label_y = o.half_size_in * o.px_per_inch;
  ASSERT_GT(faint.area(), 50);
  EXPECT_GE(faint.x, plain.cols / 2);
  EXPECT_GT(faint.y, label_y);
  EXPECT_LT(faint.y + faint.height, label_y + 30);
  // With both marks, the faint-border one is written a line lower than the partly-hidden one.
  const cv::Mat hidden = draw(true, false);
  const cv::Rect both = WhereTheyDiffer(hidden, draw(true, true));
  ASSERT_GT(both.area(), 50);
  EXPECT_GT(both.y, faint.y + 8);
}

// A side's colour no found stand explains (vision/unfound_base_check) is ringed where it lies,
// on the after half, so the players look there before accepting a miss.
TEST(ShotEvidence, AnUnexplainedSideColourIsMarkedWhereItLies) {
  const EvidenceScene plain = ShotBesideABase(false);
  EvidenceScene checked = ShotBesideABase(false);
  UnfoundBaseCheck c;
  c.side = "blue";
  c.point = {7.2, 6.3};
  c.reason = "blue colour in the hit circle that no found stand explains";
  checked.analysis.unfound.push_back(c);
  const EvidenceOptions o;
  const cv::Mat a = DrawShotEvidence(plain.view, plain.analysis, plain.verdict, o);
  const cv::Mat b = DrawShotEvidence(checked.view, checked.analysis, checked.verdict, o);
  ASSERT_EQ(a.size(), b.size());
  cv::Mat diff, changed;
  cv::absdiff(a, b, diff);
  cv::cvtColor(diff, changed, cv::COLOR_BGR2GRAY);
  ASSERT_GT(cv::countNonZero(changed > 0), 50);
  const cv::Rect where = cv::boundingRect(changed > 0);
  // On the after half, around the check's point (0.6 in right of and 0.3 in below the impact).
  const int half_w = a.cols / 2;
  EXPECT_GE(where.x, half_w);
  const cv::Point at(half_w + cvRound((o.half_size_in + 0.6) * o.px_per_inch),
                     cvRound((o.half_size_in + 0.3) * o.px_per_inch));
  EXPECT_TRUE(where.contains(at)) << where << " " << at;
}

// A stand too close to the circle's edge for the camera to call (vision/close_call_check) is
// marked under its label for the players to measure, under its other marks when it has them; a
// stand the check does not name is left alone.
TEST(ShotEvidence, AStandTooCloseToCallIsMarkedForMeasuring) {
  const EvidenceOptions o;
  const auto draw = [&](bool faint_border, const std::string& named) {
    EvidenceScene s = ShotBesideABase(false, faint_border);
    if (!named.empty()) {
      CloseCallCheck c;
      c.error_mm = 1.3;
      c.stands.push_back({named, true, 0.4});
      s.analysis.close_call = c;
    }
    return DrawShotEvidence(s.view, s.analysis, s.verdict, o);
  };
  const cv::Mat plain = draw(false, "");
  const cv::Rect close = WhereTheyDiffer(plain, draw(false, "red-1"));
  const double label_y = o.half_size_in * o.px_per_inch;
  ASSERT_GT(close.area(), 50);
  EXPECT_GE(close.x, plain.cols / 2);
  EXPECT_GT(close.y, label_y);
  EXPECT_LT(close.y + close.height, label_y + 30);
  EXPECT_EQ(WhereTheyDiffer(plain, draw(false, "blue-3")).area(), 0);
  // Under the faint-border mark, a line lower.
  const cv::Mat faint = draw(true, "");
  const cv::Rect both = WhereTheyDiffer(faint, draw(true, "red-1"));
  ASSERT_GT(both.area(), 50);
  EXPECT_GT(both.y, close.y + 8);
}

// A point placed without its mark seen (a shell's dot, a Q-tip's painted head) is said under
// the impact's cross, so nobody takes it for a measured one.
TEST(ShotEvidence, APointPlacedWithoutItsMarkSeenSaysSoUnderTheCross) {
  const EvidenceOptions o;
  const auto draw = [&](const std::string& kind, bool mark_seen) {
    EvidenceScene s = ShotBesideABase(false);
    ProjectileObservation p;
    p.kind = kind;
    p.point = s.verdict.point;
    (kind == "shell" ? p.dot_seen : p.tip_from_edge) = mark_seen;
    s.analysis.projectile = p;
    return DrawShotEvidence(s.view, s.analysis, s.verdict, o);
  };
  const cv::Mat shell = draw("shell", true);
  const cv::Rect unseen_dot = WhereTheyDiffer(shell, draw("shell", false));
  const cv::Rect untold_tip = WhereTheyDiffer(draw("qtip", true), draw("qtip", false));
  // Nothing drawn for a seen mark, whatever the kind.
  EXPECT_EQ(WhereTheyDiffer(shell, draw("qtip", true)).area(), 0);
  const int centre_x = shell.cols * 3 / 4;
  const int centre_y = shell.rows / 2;
  for (const cv::Rect& r : {unseen_dot, untold_tip}) {
    ASSERT_GT(r.area(), 200);
    // Below the cross, across it.
    EXPECT_GT(r.y, centre_y + 6);
    EXPECT_LT(r.y, centre_y + 30);
    EXPECT_LT(r.x, centre_x);
    EXPECT_GT(r.x + r.width, centre_x);
  }
  // The two say different things.
  EXPECT_NE(unseen_dot.width, untold_tip.width);
}

}  // namespace
}  // namespace referee
