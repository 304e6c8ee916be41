// A camera bumped mid-game and re-calibrated: the new calibration is logged with the frame it
// was found on, like the first one, so a report or a replay shows what the camera then saw.
#include <gtest/gtest.h>

#include <filesystem>
#include <vector>

#include <opencv2/imgcodecs.hpp>

#include "calibration/calibrate_table.hpp"
#include "engine/board_file.hpp"
#include "engine/data_paths.hpp"
#include "engine/game_log.hpp"
#include "engine/shot_adjudication.hpp"
#include "engine/stand_kind_catalog_loader.hpp"
#include "log_sample_game.hpp"
#include "ui/live/live_session.hpp"
#include "ui/live/vision_worker.hpp"
#include "vision/frame_source.hpp"

namespace referee::live {
namespace {

namespace fs = std::filesystem;

TEST(LiveSessionLog, RecalibrationAfterABumpIsLoggedWithItsFrame) {
  const fs::path sample = DatasetsDir() / "sample" / "sequence_0001";
  const std::vector<fs::path> files = NumberedImages(sample);
  ASSERT_GE(files.size(), 2u);
  // The first frame (empty table) and the last (projectile at rest, hand gone): different
  // pictures, so different names in the content-addressed store.
  const cv::Mat first = cv::imread(files.front().string());
  const cv::Mat later = cv::imread(files.back().string());
  const BoardFile board = LoadBoardFile(DatasetsDir() / "sample" / "board.json");
  const CalibrationResult found = CalibrateTable(first, board.board.grid, std::nullopt);
  ASSERT_TRUE(std::holds_alternative<TableCalibration>(found));

  const fs::path dir = testing::FreshTestDir("live_session_recalibration");
  SessionConfig config;
  config.board = board;
  config.catalog = LoadStandKinds();
  config.shot = LoadShotOptions("napoleonic");
  config.log_path = dir / "game.jsonl";
  LiveSession session(config);
  PipelineConfig pipeline;
  pipeline.board = board.board.grid;
  VisionWorker worker(FrameSource::OpenImages(sample), pipeline, /*lockstep=*/true);

  FrameResult calibrating;
  calibrating.frame = first;
  calibrating.calibration = found;
  session.OnFrame(calibrating);
  ASSERT_TRUE(session.AcceptCalibration(worker));
  session.Step();

  FrameResult bumped;
  bumped.frame = later;
  bumped.recalibrated = std::get<TableCalibration>(found);
  session.OnFrame(bumped);
  ASSERT_TRUE(session.AcceptRecalibration(worker));

  const GameLog log = ReadGameLog(dir / "game.jsonl");
  std::vector<const Calibration*> calibrations;
  for (const auto& e : log.events) {
    if (const auto* c = e.As<Calibration>()) calibrations.push_back(c);
  }
  ASSERT_EQ(calibrations.size(), 2u);
  for (const auto* c : calibrations) {
    ASSERT_FALSE(c->frame.empty()) << "calibration logged without its frame";
    EXPECT_TRUE(fs::exists(dir / "frames" / c->frame)) << c->frame;
  }
  EXPECT_NE(calibrations[0]->frame, calibrations[1]->frame);
}

}  // namespace
}  // namespace referee::live
