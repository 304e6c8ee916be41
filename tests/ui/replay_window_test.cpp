// A live game's log replayed in the real window under Xvfb (Mesa's software OpenGL): the demo
// is played by the real `referee live --demo` with a log, which must now hold the armed shot's
// before/after frames and the evidence picture; `referee report` must embed them; and
// `referee replay --frames N --screenshot-dir DIR` must show the evidence picture and the
// game over the stored after frame, then exit 0. A bad log is one line and exit 2.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "engine/game_log.hpp"
#include "pixel_checks.hpp"
#include "referee_in_window.hpp"
#include "vision/frame_store.hpp"

namespace referee::live {
namespace {

namespace fs = std::filesystem;

using testing::HaveXvfb;
using testing::ReadAll;

int RunReferee(const std::string& args, const fs::path& out, bool display) {
  return testing::RunRefereeInWindow(args, out, display);
}

using testing::ColourNear;
using testing::CountColour;

class ReplayWindow : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!HaveXvfb()) return;
    dir_ = fs::path(REFEREE_TEST_TMP) / "replay_window";
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    // One demo game for every test of this file (the demo takes a while on a software GL).
    demo_rc_ = RunReferee("live --demo --frames 160 --width 1280 --height 720 --log " +
                              (dir_ / "demo.jsonl").string(),
                          dir_ / "live.txt", true);
  }
  void SetUp() override {
    if (!HaveXvfb()) GTEST_SKIP() << "xvfb-run is not installed";
  }
  static fs::path dir_;
  static int demo_rc_;
};
fs::path ReplayWindow::dir_;
int ReplayWindow::demo_rc_ = -1;

TEST_F(ReplayWindow, LiveDemoLogStoresTheShotFramesAndEvidence) {
  ASSERT_EQ(demo_rc_, 0) << ReadAll(dir_ / "live.txt");
  const GameLog log = ReadGameLog(dir_ / "demo.jsonl");
  EXPECT_TRUE(log.problems.empty());
  const FrameStore store = FrameStore::ForLog(log.path);
  const ShotArmed* armed = nullptr;
  const ShotVerdict* verdict = nullptr;
  const Snapshot* first_snapshot = nullptr;
  for (const auto& e : log.events) {
    if (const auto* s = e.As<Snapshot>(); s && !first_snapshot) first_snapshot = s;
    if (const auto* a = e.As<ShotArmed>(); a && !armed) armed = a;
    if (const auto* v = e.As<ShotVerdict>(); v && !verdict) verdict = v;
    if (const auto* c = e.As<Calibration>()) {
      EXPECT_FALSE(store.Load(c->frame).empty()) << "calibration frame " << c->frame;
    }
    if (const auto* s = e.As<Snapshot>()) {
      EXPECT_FALSE(store.Load(s->frame).empty()) << "snapshot frame " << s->frame;
    }
  }
  // The field gun under the tree crown is logged as found whole and partly hidden, so the
  // record shows which stand the players were asked to check.
  ASSERT_NE(first_snapshot, nullptr);
  int partly_hidden = 0;
  for (const auto& st : first_snapshot->stands) {
    if (!st.partly_hidden) continue;
    ++partly_hidden;
    EXPECT_NEAR(InchesToMm(st.footprint.width_in), 40.0, 3.0) << st.id;
    EXPECT_NEAR(InchesToMm(st.footprint.depth_in), 40.0, 3.0) << st.id;
  }
  EXPECT_EQ(partly_hidden, 1);
  ASSERT_NE(armed, nullptr) << "the demo did not arm a shot in 160 frames";
  ASSERT_NE(verdict, nullptr) << "the demo reached no verdict in 160 frames";
  const cv::Mat before = store.Load(armed->before_frame);
  const cv::Mat after = store.Load(verdict->after_frame);
  ASSERT_FALSE(before.empty()) << armed->before_frame;
  ASSERT_FALSE(after.empty()) << verdict->after_frame;
  EXPECT_EQ(before.size(), after.size());
  // The projectile landed between the two frames: they differ.
  cv::Mat diff;
  cv::absdiff(before, after, diff);
  EXPECT_GT(cv::norm(diff, cv::NORM_L1) / diff.total(), 0.05);

  // The evidence: before and after crops side by side, the 1" circle drawn in yellow on the
  // after half, around the middle (the impact).
  ASSERT_FALSE(verdict->evidence.empty());
  EXPECT_EQ(fs::path(verdict->evidence).extension(), ".png");
  const cv::Mat ev = store.Load(verdict->evidence);
  ASSERT_FALSE(ev.empty());
  EXPECT_EQ(ev.cols, 2 * ev.rows);
  const cv::Mat after_half = ev(cv::Rect(ev.cols / 2, 0, ev.cols / 2, ev.rows));
  // EvidenceOptions: 80 px per inch; the circle has the verdict's radius.
  const double radius_px = verdict->verdict.value("hit_radius_in", 0.0) * 80;
  ASSERT_GT(radius_px, 10.0);
  int on_circle = 0;
  for (int k = 0; k < 12; ++k) {
    const double a = k * CV_PI / 6;
    on_circle += ColourNear(after_half, after_half.cols / 2.0 + radius_px * std::cos(a),
                            after_half.rows / 2.0 + radius_px * std::sin(a), 2, {255, 255, 0}, 40);
  }
  EXPECT_GE(on_circle, 10);
}

TEST_F(ReplayWindow, ReportOfTheLiveGameShowsRealEvidence) {
  ASSERT_EQ(demo_rc_, 0) << ReadAll(dir_ / "live.txt");
  const fs::path html = dir_ / "report.html";
  ASSERT_EQ(RunReferee("report " + (dir_ / "demo.jsonl").string() + " --out " + html.string(),
                       dir_ / "report.txt", false),
            0)
      << ReadAll(dir_ / "report.txt");
  const std::string text = ReadAll(html);
  EXPECT_EQ(text.find("not recorded"), std::string::npos);
  EXPECT_EQ(text.find("missing or damaged"), std::string::npos);
  EXPECT_NE(text.find("data:image/png;base64,"), std::string::npos);  // the evidence
}

TEST_F(ReplayWindow, ReplayShowsTheEvidenceAndTheGameOverTheAfterFrame) {
  ASSERT_EQ(demo_rc_, 0) << ReadAll(dir_ / "live.txt");
  const fs::path shots = dir_ / "shots";
  const int rc =
      RunReferee("replay " + (dir_ / "demo.jsonl").string() +
                     " --frames 400 --width 1280 --height 720 --screenshot-dir " + shots.string(),
                 dir_ / "replay.txt", true);
  ASSERT_EQ(rc, 0) << ReadAll(dir_ / "replay.txt");
  const auto index = nlohmann::json::parse(ReadAll(shots / "screenshots.json"));
  ASSERT_TRUE(index.contains("first"));
  ASSERT_TRUE(index.contains("last"));
  ASSERT_TRUE(index.contains("evidence")) << index.dump(1);

  // The evidence picture in the panel: the screenshot there matches the stored PNG.
  const auto& notes = index["evidence"];
  ASSERT_TRUE(notes["evidence"]["shown"].get<bool>());
  const cv::Mat png = cv::imread((shots / "evidence.png").string());
  ASSERT_FALSE(png.empty());
  const FrameStore store = FrameStore::ForLog(dir_ / "demo.jsonl");
  const cv::Mat ev = store.Load(notes["evidence"]["name"].get<std::string>());
  ASSERT_FALSE(ev.empty());
  const auto& r = notes["evidence"]["rect"];
  const cv::Rect rect(static_cast<int>(std::ceil(r[0].get<double>())),
                      static_cast<int>(std::ceil(r[1].get<double>())),
                      static_cast<int>(r[2].get<double>()) - 2,
                      static_cast<int>(r[3].get<double>()) - 2);
  ASSERT_GT(rect.area(), 10000);
  ASSERT_EQ((rect & cv::Rect(0, 0, png.cols, png.rows)), rect);
  cv::Mat expected;
  cv::resize(ev, expected, rect.size(), 0, 0, cv::INTER_AREA);
  cv::Mat diff;
  cv::absdiff(png(rect), expected, diff);
  EXPECT_LT(cv::mean(diff)[0] + cv::mean(diff)[1] + cv::mean(diff)[2], 3 * 12.0)
      << "the evidence picture is not what the window shows";
  EXPECT_GT(CountColour(png(rect), {255, 255, 0}, 40), 50);  // its yellow hit circle

  // The table view: the live game's after frame, through the calibration the log holds, with
  // the units and the magenta hit circle drawn over it (tests/ui/replay_frame_overlay_test.cpp
  // checks the projection itself on a camera it knows).
  const auto& table = notes["table"];
  ASSERT_EQ(table["mode"], "camera") << table.dump(1);
  EXPECT_EQ(table["frame"]["kind"], "after");
  ASSERT_GE(table["stands"].size(), 2u);
  ASSERT_TRUE(table.contains("circle_px"));
  ASSERT_GT(table["circle_radius_px"].get<double>(), 3.0);
  int on_circle = 0;
  for (const auto& p : table["circle_px"])
    on_circle += ColourNear(png, p[0], p[1], 2, {255, 0, 255}, 40);
  EXPECT_GE(on_circle, static_cast<int>(table["circle_px"].size()) - 1);
  // The first screenshot is before any shot: no circle.
  EXPECT_FALSE(index["first"]["table"].contains("impact_px"));
  EXPECT_FALSE(index["first"]["map"].contains("impact"));
}

// A verdict line the reader keeps whole may hold a damaged value; the replay shows the rest.
// Before the fix it stopped with "type must be number, but is string" and exit 2.
TEST_F(ReplayWindow, ADamagedVerdictFieldStillReplays) {
  ASSERT_EQ(demo_rc_, 0) << ReadAll(dir_ / "live.txt");
  const fs::path damaged = dir_ / "damaged.jsonl";  // beside demo.jsonl: the same frames
  std::ifstream in(dir_ / "demo.jsonl");
  std::ofstream out(damaged);
  int verdicts = 0;
  for (std::string line; std::getline(in, line);) {
    auto j = nlohmann::json::parse(line);
    if (j["type"] == "verdict" && !j["verdict"]["stands_near"].empty()) {
      j["verdict"]["hit_radius_in"] = "one";
      j["verdict"]["stands_near"][0]["distance_in"] = "x";
      j["verdict"]["stands_near"][0]["destroyed"] = nlohmann::json::array({1});
      j["verdict"]["stands_near"].push_back(5);
      ++verdicts;
    }
    out << j.dump() << "\n";
  }
  out.close();
  ASSERT_GT(verdicts, 0);
  const fs::path shots = dir_ / "damaged_shots";
  ASSERT_EQ(
      RunReferee("replay " + damaged.string() +
                     " --frames 400 --width 1280 --height 720 --screenshot-dir " + shots.string(),
                 dir_ / "damaged.txt", true),
      0)
      << ReadAll(dir_ / "damaged.txt");
  const auto index = nlohmann::json::parse(ReadAll(shots / "screenshots.json"));
  ASSERT_TRUE(index.contains("evidence")) << index.dump(1);
  // The circle still drawn, at the rule books' 1" for want of the logged radius.
  EXPECT_GT(index["evidence"]["table"].value("circle_radius_px", 0.0), 3.0) << index.dump(1);
}

TEST_F(ReplayWindow, BadLogIsOneLineAndExitTwo) {
  auto expect_one_line = [&](const std::string& args, const std::string& name) {
    const fs::path out = dir_ / (name + ".txt");
    EXPECT_EQ(RunReferee("replay " + args + " --frames 3", out, true), 2) << ReadAll(out);
    std::string text = ReadAll(out);
    EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1) << text;
    return text;
  };
  EXPECT_NE(expect_one_line((dir_ / "missing.jsonl").string(), "missing").find("missing.jsonl"),
            std::string::npos);
  std::ofstream(dir_ / "garbage.jsonl") << "this is not a game log\n";
  EXPECT_NE(expect_one_line((dir_ / "garbage.jsonl").string(), "garbage").find("line 1"),
            std::string::npos);
  std::ofstream(dir_ / "future.jsonl")
      << "{\"seq\":1,\"time_utc\":\"x\",\"type\":\"hologram\",\"format_version\":99}\n";
  EXPECT_NE(expect_one_line((dir_ / "future.jsonl").string(), "future").find("newer"),
            std::string::npos);
}

}  // namespace
}  // namespace referee::live
