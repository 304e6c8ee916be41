// The replay's controller without a window, on a real log written through the real writer and
// frame store (log_sample_game.hpp): moving by event, shot and turn, the game as it stood at
// each step, the picture shown, undos and corrections.
#include <gtest/gtest.h>

#include <fstream>

#include "engine/input_error.hpp"
#include "log_sample_game.hpp"
#include "ui/live/replay_controller.hpp"

namespace referee::live {
namespace {

ReplayController Sample() {
  const auto game = testing::WriteSampleGame(testing::FreshTestDir("replay"));
  return ReplayController(ReadGameLog(game.log));
}

TEST(ReplayController, StartsAtTheFirstEventWithTheSetUp) {
  const ReplayController r = Sample();
  ASSERT_EQ(r.size(), 24u);
  EXPECT_EQ(r.index(), 0u);
  EXPECT_EQ(r.step().event.type(), "game_start");
  EXPECT_EQ(r.step().state.turn, 0);
  EXPECT_TRUE(r.step().picture.empty());
  EXPECT_TRUE(r.step().frame.empty());  // no frame yet: the window shows the schematic map
  EXPECT_FALSE(r.step().frame_calibration.has_value());
  EXPECT_FALSE(r.step().shot.has_value());
  EXPECT_EQ(r.board().cols, 12);
  EXPECT_EQ(r.board().rows, 8);
  EXPECT_DOUBLE_EQ(r.board().square_in, 4.0);
}

TEST(ReplayController, EventByEventShowsPositionsAndTheLastStoredFrame) {
  ReplayController r = Sample();
  ASSERT_TRUE(r.Apply(ReplayCommand::kNextEvent));  // calibration
  EXPECT_EQ(r.step().picture_kind, "calibration");
  const std::string calibration_frame = r.step().picture;
  EXPECT_TRUE(std::filesystem::exists(FramesDirFor(r.log().path) / calibration_frame));
  ASSERT_TRUE(r.Apply(ReplayCommand::kNextEvent));  // snapshot (no frame of its own)
  EXPECT_EQ(r.step().event.type(), "snapshot");
  EXPECT_EQ(r.step().picture, calibration_frame);
  ASSERT_EQ(r.step().state.stands.size(), 6u);
  EXPECT_DOUBLE_EQ(r.step().state.stands.at("r1").footprint.center.x, 10.0);
  EXPECT_DOUBLE_EQ(r.step().state.stands.at("b1").footprint.center.y, 22.0);
  ASSERT_TRUE(r.Apply(ReplayCommand::kPreviousEvent));
  EXPECT_EQ(r.step().event.type(), "calibration");
  ASSERT_TRUE(r.Apply(ReplayCommand::kPreviousEvent));
  EXPECT_FALSE(r.Apply(ReplayCommand::kPreviousEvent));  // nothing before the first
  EXPECT_EQ(r.index(), 0u);
}

TEST(ReplayController, ShotByShotStopsAtEachVerdictWithItsFramesAndHits) {
  ReplayController r = Sample();
  ASSERT_TRUE(r.Apply(ReplayCommand::kNextShot));
  EXPECT_EQ(r.step().event.seq, 7);
  EXPECT_EQ(r.step().event.type(), "verdict");
  ASSERT_TRUE(r.step().shot.has_value());
  EXPECT_EQ(r.step().shot->shot_id, "t1-red-1");
  EXPECT_EQ(r.step().shot->hit_stand_ids, std::vector<std::string>{"b1"});
  EXPECT_EQ(r.step().picture_kind, "after");
  EXPECT_EQ(r.step().picture, r.step().event.As<ShotVerdict>()->after_frame);
  EXPECT_TRUE(r.step().state.stands.contains("b1"));  // not removed yet
  // The camera frame the game is drawn over, and the calibration in force when it was taken.
  EXPECT_EQ(r.step().frame, r.step().picture);
  EXPECT_EQ(r.step().frame_kind, "after");
  EXPECT_EQ(r.step().frame_seq, 7);
  ASSERT_TRUE(r.step().frame_calibration.has_value());
  EXPECT_EQ(r.step().frame_calibration_seq, 2);
  ASSERT_TRUE(r.Apply(ReplayCommand::kNextEvent));  // firer's choice
  ASSERT_TRUE(r.Apply(ReplayCommand::kNextEvent));  // casualties removed
  EXPECT_EQ(r.step().event.type(), "casualties_removed");
  EXPECT_FALSE(r.step().state.stands.contains("b1"));
  EXPECT_EQ(r.step().shot->shot_id, "t1-red-1");  // still the shot on the table

  ASSERT_TRUE(r.Apply(ReplayCommand::kNextShot));
  EXPECT_EQ(r.step().event.seq, 12);
  EXPECT_EQ(r.step().shot->shot_id, "t1-blue-1");
  EXPECT_TRUE(r.step().shot->hit_stand_ids.empty());  // the miss
  ASSERT_TRUE(r.Apply(ReplayCommand::kNextShot));
  ASSERT_TRUE(r.Apply(ReplayCommand::kNextShot));
  EXPECT_EQ(r.step().shot->shot_id, "t2-blue-1");
  EXPECT_FALSE(r.Apply(ReplayCommand::kNextShot));  // no fifth shot
  ASSERT_TRUE(r.Apply(ReplayCommand::kPreviousShot));
  EXPECT_EQ(r.step().shot->shot_id, "t2-red-1");
  EXPECT_EQ(r.step().event.seq, 16);
}

TEST(ReplayController, TurnByTurnStopsAtEachTurnChange) {
  ReplayController r = Sample();
  ASSERT_TRUE(r.Apply(ReplayCommand::kNextTurn));
  EXPECT_EQ(r.step().event.seq, 5);
  EXPECT_EQ(r.step().state.turn, 1);
  EXPECT_EQ(r.step().state.active_side, "red");
  ASSERT_TRUE(r.Apply(ReplayCommand::kNextTurn));
  ASSERT_TRUE(r.Apply(ReplayCommand::kNextTurn));
  EXPECT_EQ(r.step().state.turn, 2);
  EXPECT_EQ(r.step().state.active_side, "red");
  EXPECT_DOUBLE_EQ(r.step().state.points_by_side.at("red"), 3.5);
  ASSERT_TRUE(r.Apply(ReplayCommand::kPreviousTurn));
  EXPECT_EQ(r.step().event.seq, 10);
  EXPECT_EQ(r.step().state.active_side, "blue");
  ASSERT_TRUE(r.Apply(ReplayCommand::kLast));
  EXPECT_EQ(r.step().event.type(), "game_end");
  EXPECT_TRUE(r.at_end());
  EXPECT_FALSE(r.Apply(ReplayCommand::kNextTurn));
  EXPECT_FALSE(r.Apply(ReplayCommand::kNextEvent));
}

TEST(ReplayController, AnUndoneEventIsShownAsItWasThenMarkedAndReversed) {
  ReplayController r = Sample();
  ASSERT_TRUE(r.GoTo(16));  // seq 17: the wrong stand lifted
  EXPECT_EQ(r.step().event.seq, 17);
  EXPECT_EQ(r.step().undone_by, 18);
  EXPECT_FALSE(r.step().state.stands.contains("b3"));  // as the table was at that moment
  EXPECT_TRUE(r.step().corrections.empty());
  ASSERT_TRUE(r.Apply(ReplayCommand::kNextEvent));  // the undo
  EXPECT_TRUE(r.step().state.stands.contains("b3"));
  ASSERT_EQ(r.step().corrections.size(), 1u);
  EXPECT_EQ(r.step().corrections[0].type, "undo");
  EXPECT_EQ(r.step().corrections[0].seq, 18);
  ASSERT_TRUE(r.Apply(ReplayCommand::kNextEvent));  // the right stand removed
  EXPECT_FALSE(r.step().state.stands.contains("b2"));
  EXPECT_TRUE(r.step().state.stands.contains("b3"));
  EXPECT_EQ(r.step().undone_by, 0);
}

TEST(ReplayController, ALogWithNoCompleteEventIsRefusedNamingTheFile) {
  const auto dir = testing::FreshTestDir("replay");
  const auto empty = dir / "empty.jsonl";
  std::ofstream(empty).close();
  try {
    ReplayController r(ReadGameLog(empty));
    FAIL() << "an empty log was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("empty.jsonl"), std::string::npos) << e.what();
  }
  const auto garbage = dir / "garbage.jsonl";
  std::ofstream(garbage) << "not json at all\n{\"seq\":\n";
  try {
    ReplayController r(ReadGameLog(garbage));
    FAIL() << "a log of bad lines was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("line 1"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace referee::live
