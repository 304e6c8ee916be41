// `referee replay` draws the game over the camera frames its log stored, in the real window
// under Xvfb. The log is written here through the real writer and frame store, with a
// calibration event in the live format for an oblique, slightly distorted camera whose
// projection this test computes itself. The screenshots must show the stored frame's own
// pixels (the after frame at the verdict, not the before frame), the stands outlined in their
// side colour and the 1" circle where the impact projects (an ellipse in the camera view, a
// circle on the top view); where no frame, or no usable calibration, was stored the window
// falls back to the schematic map and says so.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <string>

#include <nlohmann/json.hpp>
#include <opencv2/calib3d.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "engine/board_file.hpp"
#include "log_sample_game.hpp"
#include "pixel_checks.hpp"
#include "referee_in_window.hpp"
#include "ui/live/log_frames.hpp"
#include "vision/top_view.hpp"

namespace referee::live {
namespace {

namespace fs = std::filesystem;
using referee::testing::FreshTestDir;

using testing::HaveXvfb;
using testing::ReadAll;

// Replays `log` headless at 1280x720, UI scale 1; returns the screenshots index.
nlohmann::json Replay(const fs::path& log, const fs::path& shots, const std::string& extra) {
  const fs::path out = shots.string() + ".txt";
  const int rc = testing::RunRefereeInWindow(
      "replay " + log.string() + " --frames 200 --width 1280 --height 720 --ui-scale 1 " +
          "--screenshot-dir " + shots.string() + " " + extra,
      out);
  EXPECT_EQ(rc, 0) << ReadAll(out);
  return nlohmann::json::parse(ReadAll(shots / "screenshots.json"));
}

// An oblique camera 14" in front of the board's near edge and 26" up, looking at the board's
// centre, with some barrel distortion: the circle is an ellipse and lines bend.
TableCalibration ObliqueCalibration() {
  TableCalibration cal;
  cal.board = Grid{12, 8, 4.0};
  cal.camera.image_size = {1280, 720};
  cal.camera.camera_matrix = cv::Matx33d(900, 0, 640, 0, 900, 360, 0, 0, 1);
  cal.camera.distortion = {-0.08, 0.01, 0, 0, 0};
  const cv::Vec3d centre(24, 46, -26), target(24, 16, 0);
  const cv::Vec3d z = cv::normalize(target - centre);
  const cv::Vec3d x = cv::normalize(cv::Vec3d(1, 0, 0) - z * z[0]);
  const cv::Vec3d y = z.cross(x);
  const cv::Matx33d r(x[0], x[1], x[2], y[0], y[1], y[2], z[0], z[1], z[2]);
  cv::Vec3d rvec;
  cv::Rodrigues(r, rvec);
  cal.camera.rvec_cam_from_table = rvec;
  cal.camera.tvec_cam_from_table = -(r * centre);
  return cal;
}

// A frame whose every pixel says where it is: blue grows with x, green with y, red is `red`
// (100 before the shot, 200 after), so a shifted, scaled or stale picture fails.
cv::Mat GradientFrame(int red) {
  cv::Mat img(720, 1280, CV_8UC3);
  for (int y = 0; y < img.rows; ++y)
    for (int x = 0; x < img.cols; ++x)
      img.at<cv::Vec3b>(y, x) =
          cv::Vec3b(static_cast<uchar>(x / 5), static_cast<uchar>(y / 3), static_cast<uchar>(red));
  return img;
}

bool ColourNear(const cv::Mat& bgr, cv::Point2d p, int radius, std::array<int, 3> rgb, int tol) {
  return testing::ColourNear(bgr, p.x, p.y, radius, rgb, tol);
}

constexpr std::array<int, 3> kMagenta{255, 0, 255};

const std::vector<SnapshotStand> kStands = {
    {"r1", "red", "line_infantry", "red-inf-1", {{14.0, 10.0}, 1.575, 0.787, 0.0}, true},
    {"b1", "blue", "line_infantry", "blue-inf-1", {{30.0, 22.0}, 1.575, 0.787, 0.0}, true},
    {"b2", "blue", "line_infantry", "blue-inf-1", {{34.0, 22.0}, 1.575, 0.787, 0.0}, true}};
const Vec2 kImpact{30.5, 21.6};

// game_start (no frame yet), calibration, snapshot, shot armed, verdict (b1 hit, carrying
// `checks`), turn change.
fs::path WriteGame(const fs::path& dir, const std::vector<VerdictCheck>& checks = {}) {
  fs::path log = dir / "game.jsonl";
  GameLogWriter w(log);
  FrameStore store = FrameStore::ForLog(log);
  const TableCalibration cal = ObliqueCalibration();
  w.Append(GameStart{
      "overlay", "napoleonic", "", {{"Ann", "red", ""}, {"Ben", "blue", ""}}, 12, 8, 4.0});
  const std::string before = store.PutJpeg(GradientFrame(100), 95);
  w.Append(Calibration{CalibrationToLog(cal), before});
  w.Append(Snapshot{kStands, before});
  w.Append(ShotArmed{"t1-red-1", "red", "", "red-art-1", "r-gun", "field_gun", before});
  nlohmann::json verdict = {{"hit_radius_in", 1.0},
                            {"stands_near",
                             {{{"id", "b1"}, {"distance_in", 0.0}, {"candidate", true}},
                              {{"id", "b2"}, {"distance_in", 2.9}, {"candidate", false}}}}};
  w.Append(ShotVerdict{
      "t1-red-1", store.PutJpeg(GradientFrame(200), 95), kImpact, {"b1"}, "", verdict, checks});
  w.Append(TurnChange{1, "blue", "artillery"});
  return log;
}

// Where the window put an image pixel: notes' frame rect, ViewMapping's pixel-centre rule.
struct Placement {
  cv::Rect2d rect;
  double scale = 1;
  cv::Point2d Screen(cv::Point2d px) const {
    return {rect.x + (px.x + 0.5) * scale, rect.y + (px.y + 0.5) * scale};
  }
};

Placement PlacementOf(const nlohmann::json& frame, cv::Size image) {
  const auto& r = frame["rect"];
  Placement p;
  p.rect = {r[0].get<double>(), r[1].get<double>(), r[2].get<double>(), r[3].get<double>()};
  p.scale = p.rect.width / image.width;
  return p;
}

const Grid kGrid{12, 8, 4.0};

// Within `margin_in` of a grid line on the board, or where the square names are written just
// outside it: the overlay draws there.
bool NearGridDrawing(Vec2 t, double margin_in = 0.4) {
  const double s = kGrid.square_size_in;
  const bool on_board = t.x >= 0 && t.y >= 0 && t.x <= kGrid.Width() && t.y <= kGrid.Height();
  if (!on_board) return t.x > -s && t.y > -s && t.x < kGrid.Width() + s && t.y < kGrid.Height() + s;
  const auto off_line = [&](double v) {
    const double m = std::fmod(v, s);
    return std::min(m, s - m);
  };
  return off_line(t.x) < margin_in || off_line(t.y) < margin_in;
}

// Fraction of probe points, away from everything drawn over the frame, where the screenshot
// shows the expected picture's pixel (within `tol` per channel).
double FrameVisible(const cv::Mat& shot, const cv::Mat& expected, const Placement& at,
                    const std::function<Vec2(cv::Point2d)>& table_from_image, int tol) {
  int probes = 0, match = 0;
  for (int y = 20; y < expected.rows - 20; y += 23) {
    for (int x = 20; x < expected.cols - 20; x += 29) {
      const Vec2 t = table_from_image({static_cast<double>(x), static_cast<double>(y)});
      bool near_drawing = Distance(t, kImpact) < 3.0 || NearGridDrawing(t);
      for (const auto& s : kStands)
        near_drawing = near_drawing || Distance(t, s.footprint.center) < 3.0;
      if (near_drawing) continue;
      const cv::Point2d s = at.Screen({static_cast<double>(x), static_cast<double>(y)});
      const cv::Point sp(static_cast<int>(std::lround(s.x)), static_cast<int>(std::lround(s.y)));
      if (!cv::Rect(0, 0, shot.cols, shot.rows).contains(sp)) continue;
      const cv::Vec3b a = shot.at<cv::Vec3b>(sp), b = expected.at<cv::Vec3b>(y, x);
      ++probes;
      match += std::abs(a[0] - b[0]) <= tol && std::abs(a[1] - b[1]) <= tol &&
               std::abs(a[2] - b[2]) <= tol;
    }
  }
  EXPECT_GT(probes, 200);
  return probes > 0 ? static_cast<double>(match) / probes : 0.0;
}

// Magenta on `on` of the points impact + radius_in * (cos, sin), none at 1.6 * radius_in.
void ExpectCircle(const cv::Mat& shot, const std::function<cv::Point2d(Vec2)>& screen_from_table,
                  double radius_in) {
  int on = 0, outside = 0;
  for (int k = 0; k < 24; ++k) {
    const double a = k * CV_PI / 12;
    const Vec2 dir{std::cos(a), std::sin(a)};
    on += ColourNear(shot, screen_from_table(kImpact + radius_in * dir), 3, kMagenta, 40);
    outside +=
        ColourNear(shot, screen_from_table(kImpact + 1.6 * radius_in * dir), 2, kMagenta, 40);
  }
  EXPECT_GE(on, 22) << "the hit circle is not where the impact projects";
  EXPECT_EQ(outside, 0) << "magenta outside the circle";
}

// The lowest red value within `radius` px of p: the after frame is red 200 everywhere, and the
// cyan grid (red 0, drawn antialiased, so a thin line may cover two pixels by half) pulls it down.
int MinRedNear(const cv::Mat& bgr, cv::Point2d p, int radius) {
  int lowest = 255;
  for (int dy = -radius; dy <= radius; ++dy) {
    for (int dx = -radius; dx <= radius; ++dx) {
      const cv::Point q(static_cast<int>(std::lround(p.x)) + dx,
                        static_cast<int>(std::lround(p.y)) + dy);
      if (cv::Rect(0, 0, bgr.cols, bgr.rows).contains(q)) {
        lowest = std::min(lowest, static_cast<int>(bgr.at<cv::Vec3b>(q)[2]));
      }
    }
  }
  return lowest;
}

// The grid drawn over the after frame: a line where each square's edges project (their
// midpoints), none at the squares' centres; only where the view shows the frame (`seen`) and away
// from the stands, their labels and the circle.
void ExpectGridLines(const cv::Mat& shot, const std::function<cv::Point2d(Vec2)>& screen_from_table,
                     const std::function<bool(Vec2)>& seen) {
  const double s = kGrid.square_size_in;
  int edges = 0, on_line = 0, centres = 0, in_square = 0;
  std::string inside;  // squares whose centre shows the grid colour
  for (int c = 0; c < kGrid.cols; ++c) {
    for (int r = 0; r < kGrid.rows; ++r) {
      const Vec2 centre{(c + 0.5) * s, (r + 0.5) * s};
      bool near_drawing = Distance(centre, kImpact) < 3.0;
      for (const auto& st : kStands)  // its unit label is written beside it
        near_drawing = near_drawing || Distance(centre, st.footprint.center) < 5.0;
      if (near_drawing) continue;
      for (const Vec2 mid : {Vec2{c * s, (r + 0.5) * s}, Vec2{(c + 0.5) * s, r * s}}) {
        if (!seen(mid)) continue;
        ++edges;
        on_line += MinRedNear(shot, screen_from_table(mid), 2) < 150;
      }
      if (!seen(centre)) continue;
      ++centres;
      if (MinRedNear(shot, screen_from_table(centre), 2) < 150) {
        ++in_square;
        inside += " " + std::string(1, static_cast<char>('A' + c)) + std::to_string(r + 1);
      }
    }
  }
  ASSERT_GT(edges, 100);
  EXPECT_GE(on_line, edges * 95 / 100) << on_line << " of " << edges << " square edges";
  EXPECT_EQ(in_square, 0) << "grid colour inside " << in_square << " of " << centres
                          << " squares:" << inside;
}

// Each stand's four edge midpoints: its side colour on at least three.
void ExpectStandOutlines(const cv::Mat& shot,
                         const std::function<cv::Point2d(Vec2)>& screen_from_table) {
  const auto rgb = DefaultSideColors();
  for (const auto& s : kStands) {
    const auto c = s.footprint.Corners();
    int edges = 0;
    for (size_t i = 0; i < 4; ++i) {
      const Vec2 mid = (c[i] + c[(i + 1) % 4]) * 0.5;
      edges += ColourNear(shot, screen_from_table(mid), 2, rgb.at(s.side), 30);
    }
    EXPECT_GE(edges, 3) << s.id << " is not outlined where the log put it";
  }
}

struct Replayed {
  fs::path log;
  nlohmann::json index;  // screenshots.json
  cv::Mat verdict_png;   // the screenshot at the shot's verdict
};

// Writes the game in a fresh folder and replays it with `extra` options.
Replayed ReplayGame(const std::string& extra, const std::vector<VerdictCheck>& checks = {}) {
  Replayed r;
  const fs::path dir = FreshTestDir("replay_overlay");
  r.log = WriteGame(dir, checks);
  r.index = Replay(r.log, dir / "shots", extra);
  EXPECT_TRUE(r.index.contains("verdict")) << r.index.dump(1);
  r.verdict_png = cv::imread((dir / "shots" / "verdict.png").string());
  EXPECT_FALSE(r.verdict_png.empty());
  return r;
}

class ReplayFrameOverlay : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!HaveXvfb()) GTEST_SKIP() << "xvfb-run is not installed";
  }
};

TEST_F(ReplayFrameOverlay, CameraViewDrawsTheGameOverTheStoredAfterFrame) {
  const Replayed r = ReplayGame("");
  auto index = r.index;
  const auto& table = index["verdict"]["table"];
  ASSERT_EQ(table["mode"], "camera") << table.dump(1);
  EXPECT_EQ(table["message"], "");
  EXPECT_EQ(table["frame"]["kind"], "after");
  const cv::Mat& shot = r.verdict_png;
  const fs::path& log = r.log;
  const TableCalibration cal = ObliqueCalibration();
  const cv::Mat after = FrameStore::ForLog(log).Load(table["frame"]["name"]);
  ASSERT_EQ(after.size(), cal.camera.image_size);
  const Placement at = PlacementOf(table["frame"], after.size());
  EXPECT_GT(at.rect.width, 700);
  auto screen = [&](Vec2 p) { return at.Screen(cal.ImageFromTable(p)); };

  EXPECT_GT(FrameVisible(
                shot, after, at, [&](cv::Point2d px) { return cal.TableFromImage(px); }, 14),
            0.95)
      << "the stored after frame is not what the window shows";
  // Not the before frame (red 100): the step's own frame is shown.
  EXPECT_LT(
      FrameVisible(
          shot, GradientFrame(100), at, [&](cv::Point2d px) { return cal.TableFromImage(px); }, 14),
      0.05);
  ExpectCircle(shot, screen, 1.0);
  ExpectStandOutlines(shot, screen);
  ExpectGridLines(shot, screen, [&](Vec2 p) {  // inside the camera's picture
    const cv::Point2d px = cal.ImageFromTable(p);
    return cv::Rect2d(3, 3, after.cols - 6, after.rows - 6).contains(px);
  });

  // Before any frame was stored: the schematic map, said so.
  ASSERT_TRUE(index.contains("first"));
  EXPECT_EQ(index["first"]["table"]["mode"], "schematic");
  EXPECT_NE(index["first"]["table"]["message"].get<std::string>().find("No camera frame"),
            std::string::npos);
  EXPECT_TRUE(index["first"].contains("map"));
  // The last event (a turn change) still shows the shot on its frame.
  EXPECT_EQ(index["last"]["table"]["mode"], "camera");
  EXPECT_TRUE(index["last"]["table"].contains("impact_px"));
}

TEST_F(ReplayFrameOverlay, TopViewDrawsTheCircleToScaleOnTheRectifiedFrame) {
  const Replayed r = ReplayGame("--top-view");
  auto index = r.index;
  const auto& table = index["verdict"]["table"];
  ASSERT_EQ(table["mode"], "top") << table.dump(1);
  const cv::Mat& shot = r.verdict_png;
  const fs::path& log = r.log;
  const TopView top(ObliqueCalibration());
  const cv::Mat rectified = top.Rectify(FrameStore::ForLog(log).Load(table["frame"]["name"]));
  ASSERT_EQ(table["frame"]["image_size"][0].get<int>(), rectified.cols);
  const Placement at = PlacementOf(table["frame"], rectified.size());
  auto screen = [&](Vec2 p) { return at.Screen(top.RectifiedFromTable(p)); };
  // Probes only where the top view sees the camera image (the rest is skipped as if drawn on).
  EXPECT_GT(FrameVisible(
                shot, rectified, at,
                [&](cv::Point2d px) {
                  const cv::Point p(static_cast<int>(px.x), static_cast<int>(px.y));
                  return top.seen_mask().at<uchar>(p) ? top.TableFromRectified(px) : kImpact;
                },
                16),
            0.95);
  ExpectCircle(shot, screen, 1.0);
  // To scale: the circle's radius on screen is 1" of the top view.
  EXPECT_NEAR(table["circle_radius_px"].get<double>(), top.px_per_inch() * at.scale, 0.5);
  ExpectStandOutlines(shot, screen);
  ExpectGridLines(shot, screen, [&](Vec2 p) {
    const cv::Point2d px = top.RectifiedFromTable(p);
    const cv::Point q(static_cast<int>(px.x), static_cast<int>(px.y));
    return cv::Rect(0, 0, rectified.cols, rectified.rows).contains(q) &&
           top.seen_mask().at<uchar>(q) != 0;
  });
}

// Magenta points on a quarter-inch ring around `centre`, of 24 probed.
int RingPointsDrawn(const cv::Mat& shot, const std::function<cv::Point2d(Vec2)>& screen_from_table,
                    Vec2 centre) {
  int on = 0;
  for (int k = 0; k < 24; ++k) {
    const double a = k * CV_PI / 12;
    on += ColourNear(shot, screen_from_table(centre + 0.25 * Vec2{std::cos(a), std::sin(a)}), 2,
                     kMagenta, 40);
  }
  return on;
}

// A verdict's check (a side's colour no found stand explains) is ringed where the log put it,
// on the camera frame through the oblique camera, and nothing is ringed there without one.
TEST_F(ReplayFrameOverlay, ACheckIsRingedWhereTheLogPutIt) {
  const Vec2 look{26.5, 23.0};  // clear of the stands, the circle and the grid lines
  const VerdictCheck check{"red colour no found stand explains", "red", look, 180.0, 20.0};
  const TableCalibration cal = ObliqueCalibration();
  const Replayed with = ReplayGame("", {check});
  const auto& table = with.index["verdict"]["table"];
  ASSERT_EQ(table["mode"], "camera") << table.dump(1);
  const Placement at = PlacementOf(table["frame"], cal.camera.image_size);
  auto screen = [&](Vec2 p) { return at.Screen(cal.ImageFromTable(p)); };
  EXPECT_GE(RingPointsDrawn(with.verdict_png, screen, look), 22)
      << "no ring where the check points";
  ASSERT_TRUE(table.contains("checks")) << table.dump(1);
  ASSERT_EQ(table["checks"].size(), 1u);
  EXPECT_EQ(table["checks"][0]["side"], "red");

  const Replayed without = ReplayGame("");
  EXPECT_EQ(RingPointsDrawn(without.verdict_png, screen, look), 0);
}

TEST_F(ReplayFrameOverlay, FrameWithoutCalibrationFallsBackToTheSchematicMapAndSaysWhy) {
  const fs::path dir = FreshTestDir("replay_overlay");
  // The sample game's calibration event holds no camera model.
  const fs::path log = testing::WriteSampleGame(dir).log;
  const auto index = Replay(log, dir / "shots", "");
  ASSERT_TRUE(index.contains("verdict")) << index.dump(1);
  const auto& v = index["verdict"];
  EXPECT_EQ(v["table"]["mode"], "picture+schematic");
  EXPECT_NE(v["table"]["message"].get<std::string>().find("calibration"), std::string::npos);
  // The frame is still shown as stored, and the units are on the map in their side colours.
  const cv::Mat shot = cv::imread((dir / "shots" / "verdict.png").string());
  ASSERT_FALSE(shot.empty());
  const cv::Mat after = FrameStore::ForLog(log).Load(v["table"]["frame"]["name"]);
  ASSERT_FALSE(after.empty());
  const Placement at = PlacementOf(v["table"]["frame"], after.size());
  cv::Mat expected;
  const cv::Rect inner(static_cast<int>(std::ceil(at.rect.x)),
                       static_cast<int>(std::ceil(at.rect.y)), static_cast<int>(at.rect.width) - 2,
                       static_cast<int>(at.rect.height) - 2);
  cv::resize(after, expected, inner.size(), 0, 0, cv::INTER_AREA);
  cv::Mat diff;
  cv::absdiff(shot(inner), expected, diff);
  const cv::Scalar m = cv::mean(diff);
  EXPECT_LT(m[0] + m[1] + m[2], 3 * 12.0);
  int drawn = 0;
  for (const auto& s : v["map"]["stands"])
    drawn += ColourNear(shot, {s["center_px"][0], s["center_px"][1]}, 2,
                        s["side_rgb"].get<std::array<int, 3>>(), 20);
  EXPECT_GE(drawn, static_cast<int>(v["map"]["stands"].size()) - 1);
  EXPECT_GE(v["map"]["stands"].size(), 4u);
}

}  // namespace
}  // namespace referee::live
