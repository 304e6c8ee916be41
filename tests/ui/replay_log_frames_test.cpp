// What a live game stores beside its log (ui/live/log_frames.hpp), without a window: camera
// frames as JPEG and the evidence PNG rendered from the before/after camera frames through the
// calibration, on an overhead camera whose projection is known exactly.
#include <gtest/gtest.h>

#include <opencv2/imgproc.hpp>

#include "log_sample_game.hpp"
#include "tests/overhead_calibration.hpp"
#include "ui/live/log_frames.hpp"

namespace referee::live {
namespace {

// A camera frame: green mat, a red base centred at `stand`, optionally a white shell at `shell`.
cv::Mat CameraFrame(const TableCalibration& cal, const OrientedRect& stand, const Vec2* shell) {
  cv::Mat img(cal.camera.image_size, CV_8UC3, cv::Scalar(60, 110, 70));
  std::vector<cv::Point> poly;
  for (const Vec2& c : stand.Corners()) {
    const cv::Point2d p = cal.ImageFromTable(c);
    poly.emplace_back(cvRound(p.x), cvRound(p.y));
  }
  cv::fillConvexPoly(img, poly, cv::Scalar(40, 50, 190));
  if (shell) cv::circle(img, cal.ImageFromTable(*shell), 6, cv::Scalar(245, 245, 245), cv::FILLED);
  return img;
}

// A blue base at (20, 12) in and a shell 0.6" right of and 0.3" below its centre, seen by the
// overhead camera before and after it landed; the verdict a 1" circle there.
struct ShellBesideABase {
  TableCalibration cal = OverheadCalibration();
  Stand target{"blue-1", "blue", "line_infantry", {{20.0, 12.0}, 1.575, 0.787, 0.0}, true, {}};
  Vec2 impact{20.6, 12.3};
  cv::Mat before = CameraFrame(cal, target.footprint, nullptr);
  cv::Mat after = CameraFrame(cal, target.footprint, &impact);
  Verdict verdict = [this] {
    Verdict v;
    v.point = impact;
    v.hit_radius_in = 1.0;
    return v;
  }();
};

int Yellow(const cv::Mat& bgr) {
  cv::Mat mask;
  cv::inRange(bgr, cv::Scalar(0, 200, 200), cv::Scalar(80, 255, 255), mask);
  return cv::countNonZero(mask);
}

TEST(LogFrames, EvidenceOfALiveShotShowsBeforeAfterTheCircleAndTheStand) {
  const auto dir = testing::FreshTestDir("log_frames");
  const ShellBesideABase scene;
  const TableCalibration& cal = scene.cal;
  const Stand& target = scene.target;
  const Vec2 impact = scene.impact;
  const cv::Mat& before = scene.before;
  const cv::Mat& after = scene.after;
  Verdict v = scene.verdict;
  StandNearShot near;
  near.id = target.id;
  near.side = target.side;
  near.distance_in = 0.0;
  near.inside_circle = true;
  near.margin_in = 1.0;
  near.candidate = true;
  v.stands_near = {near};

  LogFrames frames(dir / "game.jsonl");
  const std::string before_name = frames.PutFrame(before);
  ASSERT_EQ(before_name.size(), 16u + 4u) << frames.last_error();
  EXPECT_EQ(before_name.substr(16), ".jpg");
  EXPECT_TRUE(std::filesystem::exists(dir / "frames" / before_name));
  EXPECT_EQ(frames.PutFrame(before), before_name);  // the same frame is stored once

  const std::string name = frames.PutEvidence(cal, before, after, {target}, v);
  ASSERT_FALSE(name.empty()) << frames.last_error();
  EXPECT_EQ(name.substr(16), ".png");
  const cv::Mat ev = frames.store().Load(name);
  ASSERT_FALSE(ev.empty());
  // EvidenceOptions defaults: 5" square at 80 px per inch, before and after side by side.
  ASSERT_EQ(ev.size(), cv::Size(800, 400));
  const cv::Mat left = ev(cv::Rect(0, 0, 400, 400)), right = ev(cv::Rect(400, 0, 400, 400));
  // The 1" circle (80 px) around the impact, in the middle of the after half only.
  EXPECT_EQ(Yellow(left), 0);
  int on_circle = 0;
  for (int k = 0; k < 16; ++k) {
    const double a = k * CV_PI / 8;
    const cv::Rect probe(cvRound(200 + 80 * std::cos(a)) - 2, cvRound(200 + 80 * std::sin(a)) - 2,
                         5, 5);
    on_circle += Yellow(right(probe)) > 0;
  }
  EXPECT_GE(on_circle, 15);
  // The shell is in the after crop at the impact, not in the before crop.
  EXPECT_GT(right.at<cv::Vec3b>(200, 200)[1], 200);
  EXPECT_LT(left.at<cv::Vec3b>(200, 200)[1], 150);
  // The hit stand outlined in red where the stand is: its centre 0.6" left of and 0.3" above
  // the impact, its back edge 0.39" above its centre (away from its label).
  const int edge_x = cvRound(200 + (20.0 - impact.x) * 80);
  const int edge_y = cvRound(200 + (12.0 - 0.787 / 2 - impact.y) * 80);
  cv::Mat red;
  cv::inRange(right(cv::Rect(edge_x - 3, edge_y - 3, 7, 7)), cv::Scalar(0, 0, 200),
              cv::Scalar(60, 60, 255), red);
  EXPECT_GT(cv::countNonZero(red), 0);
}

// A live shot whose shell was placed at its square's centre (its dot unseen) says so in the
// log's evidence, as `referee adjudicate --evidence` does; one placed by hand (no projectile
// given) or on its dot does not.
TEST(LogFrames, EvidenceOfALiveShotSaysWhenTheDotWasUnseen) {
  const ShellBesideABase s;
  const TopView view(s.cal);
  const auto render = [&](const std::optional<ProjectileObservation>& p) {
    ShotAnalysis marks;
    marks.projectile = p;
    return RenderLiveEvidence(view, s.before, s.after, {s.target}, s.verdict, marks);
  };
  ProjectileObservation shell;
  shell.kind = "shell";
  shell.point = s.impact;
  const cv::Mat by_hand = render(std::nullopt);
  const cv::Mat on_dot = render(shell);
  shell.dot_seen = false;
  const cv::Mat unseen = render(shell);
  cv::Mat diff;
  cv::absdiff(by_hand, on_dot, diff);
  EXPECT_EQ(cv::countNonZero(diff.reshape(1)), 0);
  cv::absdiff(by_hand, unseen, diff);
  cv::Mat changed;
  cv::cvtColor(diff, changed, cv::COLOR_BGR2GRAY);
  const cv::Rect where = cv::boundingRect(changed > 0);
  // Written under the cross at the middle of the after half (600, 200), in the circle's yellow.
  ASSERT_GT(where.area(), 200);
  EXPECT_LT(where.x, 600);
  EXPECT_GT(where.x + where.width, 600);
  EXPECT_GT(where.y, 206);
  EXPECT_LT(where.y + where.height, 240);
  EXPECT_GT(Yellow(unseen(where)), 20);
}

// The checks raised on a live ruling are drawn on its evidence as adjudicate draws them: a side's
// colour no stand explains and the height that decides, ringed in magenta where they lie; a stand
// too close to call, marked under its label.
TEST(LogFrames, EvidenceOfALiveShotMarksTheChecksOnItsRuling) {
  ShellBesideABase s;
  StandNearShot near;
  near.id = s.target.id;
  near.side = s.target.side;
  near.inside_circle = true;
  near.candidate = true;
  s.verdict.stands_near = {near};
  const TopView view(s.cal);
  const auto render = [&](const ShotAnalysis& marks) {
    return RenderLiveEvidence(view, s.before, s.after, {s.target}, s.verdict, marks);
  };
  const cv::Mat plain = render(ShotAnalysis());
  const auto differs = [&](const cv::Mat& marked) {
    cv::Mat diff, changed;
    cv::absdiff(plain, marked, diff);
    cv::cvtColor(diff, changed, cv::COLOR_BGR2GRAY);
    return cv::boundingRect(changed > 0);
  };
  // Whether `marks` ring the evidence's pixel `at` in magenta (and change nothing far from it).
  const auto ringed_at = [&](const ShotAnalysis& marks, cv::Point at) {
    const cv::Mat marked = render(marks);
    const cv::Rect where = differs(marked);
    cv::Mat mask;
    cv::inRange(marked(where), cv::Scalar(200, 0, 200), cv::Scalar(255, 80, 255), mask);
    return where.area() > 100 && where.contains(at) && cv::countNonZero(mask) > 20;
  };
  // A red colour 0.5" below the impact: (600, 240) on the evidence.
  UnfoundBaseCheck unfound;
  unfound.side = "red";
  unfound.point = s.impact + Vec2{0.0, 0.5};
  ShotAnalysis marks;
  marks.unfound = {unfound};
  EXPECT_TRUE(ringed_at(marks, {600, 240}));
  // The height that decides, where the shot would lie at it: 0.5" left of the impact.
  RestHeightCheck height;
  height.point_there = s.impact + Vec2{-0.5, 0.0};
  height.decides_height_mm = 12;
  marks = ShotAnalysis();
  marks.height_check = height;
  EXPECT_TRUE(ringed_at(marks, {560, 200}));
  CloseCallCheck close;
  close.stands.push_back({s.target.id, true, 0.4});
  marks = ShotAnalysis();
  marks.close_call = close;
  const cv::Rect under_label = differs(render(marks));
  // Under the stand's label (its baseline at the stand's centre, 0.3" above the impact).
  ASSERT_GT(under_label.area(), 100);
  EXPECT_GE(under_label.x, 400);
  EXPECT_GT(under_label.y, 200 - 24);
  EXPECT_LT(under_label.y + under_label.height, 200);
  // A check on a stand the ruling did not consider draws nothing.
  marks.close_call->stands[0].id = "red-7";
  EXPECT_EQ(differs(render(marks)).area(), 0);
}

TEST(LogFrames, MissingFramesGiveNoNameAndAReasonNotACrash) {
  const auto dir = testing::FreshTestDir("log_frames");
  LogFrames frames(dir / "game.jsonl");
  EXPECT_EQ(frames.PutFrame(cv::Mat()), "");
  const TableCalibration cal = OverheadCalibration();
  const cv::Mat small(100, 100, CV_8UC3, cv::Scalar::all(90));
  EXPECT_EQ(frames.PutEvidence(cal, cv::Mat(), small, {}, Verdict{}), "");
  EXPECT_NE(frames.last_error().find("evidence"), std::string::npos);
}

// A calibration written into a log (CalibrationToLog, the calibration event format) and read
// back for replay: the same projection.
TEST(LogFrames, CalibrationFromALiveLogMapsTheTableLikeTheOriginal) {
  TableCalibration cal = OverheadCalibration();
  cal.camera.distortion = {-0.1, 0.02, 0.001, -0.002, 0.0};
  cal.camera.rvec_cam_from_table = {0.2, -0.1, 0.05};
  const nlohmann::json j = CalibrationToLog(cal);
  std::string why;
  const auto back = CalibrationFromLog(j, &why);
  ASSERT_TRUE(back.has_value()) << why;
  EXPECT_EQ(back->board.cols, 12);
  EXPECT_EQ(back->camera.image_size, cv::Size(1280, 720));
  for (const Vec2 p : {Vec2{0, 0}, Vec2{47.5, 31.0}, Vec2{20.6, 12.3}}) {
    const cv::Point2d a = cal.ImageFromTable(p), b = back->ImageFromTable(p);
    EXPECT_NEAR(a.x, b.x, 1e-9);
    EXPECT_NEAR(a.y, b.y, 1e-9);
  }

  // Older or hand-written logs: no camera model, a field of the wrong type, a short array.
  EXPECT_FALSE(CalibrationFromLog({{"rms_px", 0.5}}, &why).has_value());
  EXPECT_NE(why.find("board"), std::string::npos) << why;
  nlohmann::json bad = j;
  bad["distortion"] = {0.1, 0.0};
  EXPECT_FALSE(CalibrationFromLog(bad, &why).has_value());
  EXPECT_NE(why.find("distortion"), std::string::npos) << why;
  bad = j;
  bad["board"]["cols"] = "twelve";
  EXPECT_FALSE(CalibrationFromLog(bad, &why).has_value());
  bad = j;
  bad.erase("tvec_cam_from_table");
  EXPECT_FALSE(CalibrationFromLog(bad, &why).has_value());
  EXPECT_NE(why.find("tvec_cam_from_table"), std::string::npos) << why;
  EXPECT_FALSE(CalibrationFromLog(nlohmann::json("x"), &why).has_value());
}

}  // namespace
}  // namespace referee::live
