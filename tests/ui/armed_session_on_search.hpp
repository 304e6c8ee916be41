// A live session on a rendered scene's table under the Napoleonic rules, calibrated and given a
// stand search as its last one, armed for a shot: what the checks on a verdict are tested on.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <memory>

#include "../vision/rendered_detection.hpp"
#include "engine/shot_adjudication.hpp"
#include "engine/stand_kind_catalog_loader.hpp"
#include "log_sample_game.hpp"
#include "ui/live/live_session.hpp"

namespace referee::live {

// The session logs to `log`; the state stays where the session was built (it calls back).
// kit: the board file's kit keys (its board is r's).
inline std::unique_ptr<LiveSession> ArmedSessionOnSearch(const RenderedDetection& r,
                                                         const StandDetection& search,
                                                         const std::filesystem::path& log,
                                                         const BoardFile& kit = BoardFile()) {
  SessionConfig config;
  config.board = kit;
  config.board.board = r.scene.board;
  config.board.side_colors_srgb = DefaultSideColors();
  config.catalog = LoadStandKinds();
  config.shot = LoadShotOptions("napoleonic");
  config.log_path = log;
  auto session = std::make_unique<LiveSession>(config);
  auto& st = session->state();
  st.OnCalibrationFound({0.5, 0.3, 0.9, 60, 63});
  EXPECT_TRUE(st.AcceptCalibration());
  session->OnStandSearch(std::make_shared<const StandDetection>(search),
                         std::make_shared<const TopView>(TruthCalibration(r.scene)));
  session->Step();
  EXPECT_TRUE(st.Arm()) << st.notice();
  session->Step();
  return session;
}

}  // namespace referee::live
