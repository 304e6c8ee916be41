// A small finished game written through the real writer and frame store, for the report and
// club tests: two players, four shots (three hits), casualties, dice, an undo, a correction.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include <opencv2/imgproc.hpp>

#include "../engine/game_log_test_util.hpp"
#include "engine/game_log.hpp"
#include "vision/frame_store.hpp"

namespace referee::testing {

// A fresh scratch folder per test (the game-log tests' FreshDir).
inline std::filesystem::path FreshTestDir(const std::string& name) { return FreshDir(name); }

inline SnapshotStand SampleStand(const std::string& id, const std::string& side, double x,
                                 double y) {
  return {id, side, "line_infantry", side + "-inf-1", {{x, y}, 1.575, 0.787, 0.0}, true};
}

// A top view of the table at 16 px per inch: mat, grid, stands, and optionally a Q-tip.
inline cv::Mat SampleFrame(const std::vector<SnapshotStand>& stands, const Vec2* tip) {
  const double ppi = 16.0;
  cv::Mat img(static_cast<int>(32 * ppi), static_cast<int>(48 * ppi), CV_8UC3,
              cv::Scalar(70, 120, 90));
  for (int c = 0; c <= 12; ++c)
    cv::line(img, {int(c * 4 * ppi), 0}, {int(c * 4 * ppi), img.rows}, {30, 30, 30}, 2);
  for (int r = 0; r <= 8; ++r)
    cv::line(img, {0, int(r * 4 * ppi)}, {img.cols, int(r * 4 * ppi)}, {30, 30, 30}, 2);
  for (const auto& s : stands) {
    const auto& f = s.footprint;
    const cv::Scalar color = s.side == "red" ? cv::Scalar(42, 48, 192) : cv::Scalar(192, 75, 42);
    cv::rectangle(
        img, cv::Point2d((f.center.x - f.width_in / 2) * ppi, (f.center.y - f.depth_in / 2) * ppi),
        cv::Point2d((f.center.x + f.width_in / 2) * ppi, (f.center.y + f.depth_in / 2) * ppi),
        color, cv::FILLED);
  }
  if (tip) {
    const cv::Point2d p(tip->x * ppi, tip->y * ppi);
    cv::line(img, p, p + cv::Point2d(60, 25), {240, 240, 240}, 3);
    cv::circle(img, p, 4, {10, 10, 10}, cv::FILLED);
  }
  return img;
}

struct SampleGame {
  std::filesystem::path log;
  int shots = 4;
  int hits = 3;
};

// Alice (red, french) beats Bob (blue, austrian) 7.0 to 3.0 points.
inline SampleGame WriteSampleGame(const std::filesystem::path& dir,
                                  const std::string& game_id = "club-night-1",
                                  const std::string& red = "Alice",
                                  const std::string& blue = "Bob") {
  SampleGame g;
  g.log = dir / (game_id + ".jsonl");
  GameLogWriter w(g.log);
  FrameStore store = FrameStore::ForLog(g.log);
  std::vector<SnapshotStand> stands = {
      SampleStand("r1", "red", 10, 10),  SampleStand("r2", "red", 14, 10),
      SampleStand("r3", "red", 18, 10),  SampleStand("b1", "blue", 10, 22),
      SampleStand("b2", "blue", 14, 22), SampleStand("b3", "blue", 18, 22)};
  w.Append(GameStart{game_id,
                     "napoleonic",
                     "meeting engagement",
                     {{red, "red", "french_1809"}, {blue, "blue", "austrian_1809"}},
                     12,
                     8,
                     4.0});
  w.Append(Calibration{{{"rms_px", 0.5}}, store.PutJpeg(SampleFrame(stands, nullptr))});
  w.Append(Snapshot{stands, ""});
  auto shoot = [&](const std::string& id, const std::string& side, Vec2 at,
                   const std::vector<std::string>& hits) {
    const std::string before = store.PutJpeg(SampleFrame(stands, nullptr));
    w.Append(ShotArmed{id, side, "", side + "-art-1", side + "-gun", "field_gun", before});
    const std::string after = store.PutJpeg(SampleFrame(stands, &at));
    nlohmann::json verdict = {{"stands_near", nlohmann::json::array()},
                              {"explanation", {"2E: a stand within the 1\" circle is a casualty"}}};
    for (const auto& h : hits)
      verdict["stands_near"].push_back({{"id", h},
                                        {"side", side == "red" ? "blue" : "red"},
                                        {"distance_mm", 8.0},
                                        {"distance_in", 0.315},
                                        {"margin_in", 0.685},
                                        {"inside_circle", true},
                                        {"candidate", true}});
    return w.Append(ShotVerdict{id, after, at, hits, "", verdict, {}});
  };
  auto remove = [&](const std::string& side, const std::string& id, double pts, int64_t cause) {
    std::erase_if(stands, [&](const SnapshotStand& s) { return s.id == id; });
    return w.Append(CasualtiesRemoved{
        side, side + "-inf-1", {id}, pts, side == "red" ? "blue" : "red", "shot", cause});
  };
  w.Append(CoinFlip{"initiative", "red", true});
  w.Append(TurnChange{1, "red", "artillery"});
  int64_t v = shoot("t1-red-1", "red", {10.4, 22.3}, {"b1"});
  w.Append(FirerChoice{"t1-red-1", "red", "remove_stand", {{"stand", "b1"}}});
  remove("blue", "b1", 3.5, v);
  w.Append(TurnChange{1, "blue", "artillery"});
  v = shoot("t1-blue-1", "blue", {30.0, 5.0}, {});
  w.Append(DiceRoll{"morale", "blue", 6, {2, 5}, 0, 7});
  w.Append(TurnChange{2, "red", "artillery"});
  v = shoot("t2-red-1", "red", {14.2, 21.7}, {"b2"});
  const int64_t wrong = remove("blue", "b3", 3.5, v);  // the wrong stand was lifted...
  w.Append(Undo{wrong, "wrong stand lifted"});         // ...undone,
  stands.push_back(SampleStand("b3", "blue", 18, 22));
  remove("blue", "b2", 3.5, v);  // ...and the right one removed.
  w.Append(TurnChange{2, "blue", "artillery"});
  v = shoot("t2-blue-1", "blue", {18.3, 10.2}, {"r3"});
  remove("red", "r3", 3.0, v);
  w.Append(GameEnd{"red", "army_broken", {{"red", 7.0}, {"blue", 3.0}}});
  return g;
}

}  // namespace referee::testing
