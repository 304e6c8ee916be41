// The game report: written by the real `referee report` command from a real log with real
// JPEG frames, then opened in a real headless Chromium; the DOM must hold the expected
// sections and counts and the screenshot must show the heat map.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "engine/game_log.hpp"
#include "log_sample_game.hpp"
#include "ui/report/html_text.hpp"
#include "ui/report/report_html.hpp"
#include "ui/report/report_model.hpp"

namespace referee {
namespace {

std::string ReadAll(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

int Count(const std::string& text, const std::string& pattern) {
  const std::regex re(pattern);
  return static_cast<int>(
      std::distance(std::sregex_iterator(text.begin(), text.end(), re), std::sregex_iterator()));
}

std::string Chromium() {
  for (const char* p : {"/usr/bin/chromium", "/usr/bin/chromium-browser"})
    if (std::filesystem::exists(p)) return p;
  return "";
}

int RunChromium(const std::string& chromium, const std::filesystem::path& profile,
                const std::string& extra, const std::filesystem::path& html,
                const std::filesystem::path& stdout_file) {
  std::filesystem::create_directories(profile);
  const std::string cmd =
      "timeout 120 " + chromium +
      " --headless --no-sandbox --disable-gpu --disable-quic --no-first-run"
      " --disable-background-networking --disable-component-update --disable-sync"
      " --hide-scrollbars --user-data-dir='" +
      profile.string() + "' " + extra + " 'file://" + html.string() + "' > '" +
      stdout_file.string() + "' 2>/dev/null";
  return std::system(cmd.c_str());
}

TEST(Report, ModelCountsShotsHitsPointsAndUndo) {
  const auto game = testing::WriteSampleGame(testing::FreshTestDir("report"));
  const GameLog log = ReadGameLog(game.log);
  const auto m = report::BuildReportModel(log);
  ASSERT_EQ(m.state.shots.size(), 4u);
  ASSERT_EQ(m.accuracy.size(), 2u);
  for (const auto& a : m.accuracy) {
    EXPECT_EQ(a.shots, 2);
    EXPECT_EQ(a.hits, a.player == "Alice" ? 2 : 1) << a.player;
  }
  // Blue lost b1 and b2 (the wrongly lifted b3 was undone), red lost r3.
  double blue_points = 0, red_points = 0;
  int blue_stands = 0;
  for (const auto& l : m.losses) {
    if (l.side == "blue") blue_points += l.points, blue_stands += l.stands;
    if (l.side == "red") red_points += l.points;
  }
  EXPECT_EQ(blue_stands, 2);
  EXPECT_DOUBLE_EQ(blue_points, 7.0);
  EXPECT_DOUBLE_EQ(red_points, 3.0);
  EXPECT_DOUBLE_EQ(m.board.width_in, 48.0);
  // Timeline: set-up, then turn 1 red/blue, turn 2 red/blue.
  ASSERT_EQ(m.timeline.size(), 5u);
  EXPECT_EQ(m.timeline[0].turn, 0);
  EXPECT_EQ(m.timeline[3].turn, 2);
  EXPECT_EQ(m.timeline[3].phase, "artillery");
}

// The turn flow logs its set-up and each action for --resume as firer_choice events; the
// timeline names them as such, not as "red chooses turn_action".
TEST(Report, TurnFlowRecordsAreNotShownAsPlayersChoices) {
  GameEvent action;
  action.payload = FirerChoice{"", "red", "turn_action", {{"action", {{"action", "move"}}}}};
  EXPECT_EQ(report::EventSummary(action), "red turn action: move");
  GameEvent setup;
  setup.payload = FirerChoice{"", "red", "game_setup", nlohmann::json::object()};
  EXPECT_EQ(report::EventSummary(setup), "turn-flow game set up");
  GameEvent choice;
  choice.payload = FirerChoice{"s1", "blue", "remove_stand", nlohmann::json::object()};
  EXPECT_EQ(report::EventSummary(choice), "blue chooses remove_stand (shot s1)");
}

TEST(Report, Base64MatchesTheStandardAlphabet) {
  const std::string s = "Many hands make light work.";
  EXPECT_EQ(report::Base64({reinterpret_cast<const unsigned char*>(s.data()), s.size()}),
            "TWFueSBoYW5kcyBtYWtlIGxpZ2h0IHdvcmsu");
  const unsigned char two[] = {'h', 'i'};
  EXPECT_EQ(report::Base64(two), "aGk=");
  EXPECT_EQ(report::HtmlEscape("<a href=\"x\">&'"), "&lt;a href=&quot;x&quot;&gt;&amp;&#39;");
}

TEST(Report, MissingFramesAreSaidNotHidden) {
  const auto dir = testing::FreshTestDir("report");
  const auto game = testing::WriteSampleGame(dir);
  std::filesystem::remove_all(FramesDirFor(game.log));
  const std::string html = report::RenderReportHtml(ReadGameLog(game.log));
  EXPECT_EQ(Count(html, "<img "), 0);
  EXPECT_EQ(Count(html, "missing or damaged"), 8);
}

// A log line the reader keeps whole may still hold a damaged value: the report shows what the
// rest says. Before the fix a wrong-typed field of a verdict stopped the report with a bare
// "type must be boolean" and an event without its time with a substr error.
TEST(Report, ADamagedVerdictFieldOrTimeIsShownAsFarAsItReads) {
  const auto dir = testing::FreshTestDir("report_damaged");
  const auto game = testing::WriteSampleGame(dir);
  GameLog log = ReadGameLog(game.log);
  int verdicts = 0;
  for (GameEvent& e : log.events) {
    auto* v = std::get_if<ShotVerdict>(&e.payload);
    if (v == nullptr || !v->verdict.contains("stands_near") || v->verdict["stands_near"].empty())
      continue;
    nlohmann::json& near = v->verdict["stands_near"];
    near[0]["destroyed"] = nlohmann::json::array({1});
    near[0]["distance_mm"] = "eight";
    near.push_back(5);
    e.time_utc.clear();
    ++verdicts;
  }
  ASSERT_GT(verdicts, 0);
  std::string html;
  ASSERT_NO_THROW(html = report::RenderReportHtml(log));
  EXPECT_NE(html.find("<td>b1</td>"), std::string::npos) << "the stand the damaged row names";
  EXPECT_EQ(Count(html, "casualty candidate"), verdicts) << "read from the row's other fields";
}

TEST(Report, ChromiumRendersTheSectionsAndTheHeatMap) {
  const std::string chromium = Chromium();
  if (chromium.empty()) GTEST_SKIP() << "chromium not installed (./test installs it)";
  const auto dir = testing::FreshTestDir("report");
  const auto game = testing::WriteSampleGame(dir);
  const auto html_path = dir / "report.html";
  const std::string cmd = std::string(REFEREE_BINARY) + " report '" + game.log.string() +
                          "' --out '" + html_path.string() + "' > /dev/null";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  const std::string html = ReadAll(html_path);
  // Self-contained: no external references.
  EXPECT_EQ(Count(html, R"(src="(?!data:))"), 0);
  EXPECT_EQ(Count(html, R"(href=)"), 0);

  ASSERT_EQ(RunChromium(chromium, dir / "profile-dom", "--dump-dom", html_path, dir / "dom.html"),
            0);
  const std::string dom = ReadAll(dir / "dom.html");
  for (const char* id : {"result", "heatmap", "accuracy", "casualties", "shots", "timeline"})
    EXPECT_EQ(Count(dom, std::string("<section id=\"") + id + "\""), 1) << id;
  EXPECT_EQ(Count(dom, R"(<div class="shot")"), 4);
  EXPECT_EQ(Count(dom, R"re(<img class="frame (before|after)" src="data:image/jpeg;base64,)re"), 8);
  EXPECT_EQ(Count(dom, R"(<g class="impact hit")"), 3);
  EXPECT_EQ(Count(dom, R"(<g class="impact miss")"), 1);
  EXPECT_EQ(Count(dom, R"(<tr class="player")"), 2);
  EXPECT_EQ(Count(dom, R"(<tr class="unit-loss")"), 2);
  EXPECT_EQ(Count(dom, R"(<div class="phase")"), 5);
  EXPECT_EQ(Count(dom, R"(<li class="event casualties_removed undone")"), 1);
  EXPECT_NE(dom.find("100%"), std::string::npos);  // Alice 2/2
  EXPECT_NE(dom.find("50%"), std::string::npos);   // Bob 1/2

  const auto png = dir / "shot.png";
  ASSERT_EQ(RunChromium(chromium, dir / "profile-shot",
                        "--screenshot='" + png.string() + "' --window-size=1280,2000", html_path,
                        dir / "shot.log"),
            0);
  const cv::Mat shot = cv::imread(png.string(), cv::IMREAD_COLOR);
  ASSERT_FALSE(shot.empty());
  EXPECT_EQ(shot.cols, 1280);
  cv::Scalar mean, stddev;
  cv::meanStdDev(shot, mean, stddev);
  EXPECT_GT(stddev[0] + stddev[1] + stddev[2], 30.0) << "blank screenshot";
  // The heat map: mat green (#5d7f45), the yellow ring of a hit (#ffd400) and the orange glow.
  auto count_near = [&shot](const cv::Scalar& bgr, double tol) {
    cv::Mat mask;
    cv::inRange(shot, bgr - cv::Scalar::all(tol), bgr + cv::Scalar::all(tol), mask);
    return cv::countNonZero(mask);
  };
  EXPECT_GT(count_near({0x45, 0x7f, 0x5d}, 6), 100000) << "no board in the screenshot";
  EXPECT_GT(count_near({0x00, 0xd4, 0xff}, 30), 100) << "no hit rings";
  cv::Mat hsv;
  cv::cvtColor(shot, hsv, cv::COLOR_BGR2HSV);
  // The orange glow (#ff8c00) blended over the green mat near an impact: hue 12-25 of 180,
  // strongly saturated (the translucent red stands stay below saturation 200).
  cv::Mat glow;
  cv::inRange(hsv, cv::Scalar(12, 200, 150), cv::Scalar(25, 255, 255), glow);
  EXPECT_GT(cv::countNonZero(glow), 2000) << "no impact glow";
}

}  // namespace
}  // namespace referee
