// Folding a game log into the game state: positions, shots, casualties, points, corrections,
// and undo as a compensating event (including undo of an undo).
#include <gtest/gtest.h>

#include "engine/game_log.hpp"
#include "engine/stand_fold.hpp"

namespace referee {
namespace {

GameEvent Ev(int64_t seq, EventPayload p) {
  GameEvent e;
  e.seq = seq;
  e.time_utc = "2026-11-21T22:00:00.000Z";
  e.payload = std::move(p);
  return e;
}

SnapshotStand StandAt(const std::string& id, const std::string& side, double x, double y) {
  return {id, side, "line_infantry", side + "-inf", {{x, y}, 1.575, 0.787, 0.0}, true};
}

std::vector<GameEvent> AGame() {
  return {
      Ev(1,
         GameStart{
             "g", "napoleonic", "", {{"Alice", "red", "french"}, {"Bob", "blue", "austrian"}}}),
      Ev(2, Snapshot{{StandAt("r1", "red", 10, 10), StandAt("r2", "red", 12, 10),
                      StandAt("b1", "blue", 30, 20)},
                     ""}),
      Ev(3, TurnChange{1, "blue", "artillery"}),
      Ev(4, ShotArmed{"s1", "blue", "", "blue-art", "bg", "field_gun", "before.jpg"}),
      Ev(5, ShotVerdict{"s1", "after.jpg", Vec2{10.3, 10.2}, {"r1"}, "", {}, {}}),
      Ev(6, CasualtiesRemoved{"red", "red-inf", {"r1"}, 3.0, "blue", "shot", 5}),
      Ev(7, TurnChange{1, "red", "artillery"}),
      Ev(8, ShotArmed{"s2", "red", "", "red-art", "rg", "field_gun", "b2.jpg"}),
      Ev(9, ShotVerdict{"s2", "a2.jpg", Vec2{40.0, 2.0}, {}, "", {}, {}}),
  };
}

TEST(GameLogFold, FoldsPositionsShotsCasualtiesAndPoints) {
  const auto events = AGame();
  const GameState s = FoldGameLog(events);
  EXPECT_EQ(s.turn, 1);
  EXPECT_EQ(s.active_side, "red");
  EXPECT_EQ(s.phase, "artillery");
  EXPECT_EQ(s.stands.size(), 2u);
  EXPECT_FALSE(s.stands.count("r1"));
  ASSERT_EQ(s.shots.size(), 2u);
  EXPECT_EQ(s.shots[0].player, "Bob");  // resolved from the side
  EXPECT_EQ(s.shots[0].phase, "artillery");
  EXPECT_TRUE(s.shots[0].Hit());
  EXPECT_FALSE(s.shots[1].Hit());
  EXPECT_EQ(s.shots[1].player, "Alice");
  ASSERT_EQ(s.casualties.size(), 1u);
  EXPECT_DOUBLE_EQ(s.points_by_side.at("blue"), 3.0);
  EXPECT_EQ(s.last_seq, 9);
}

TEST(GameLogFold, UndoCompensatesWithoutRewriting) {
  auto events = AGame();
  events.push_back(Ev(10, Undo{6, "wrong stand"}));
  GameState s = FoldGameLog(events);
  EXPECT_TRUE(s.undone_seqs.count(6));
  EXPECT_TRUE(s.stands.count("r1"));  // back on the table
  EXPECT_TRUE(s.casualties.empty());
  EXPECT_EQ(s.points_by_side.count("blue") ? s.points_by_side.at("blue") : 0.0, 0.0);

  // Undo the undo: the casualty counts again.
  events.push_back(Ev(11, Undo{10, "it was right"}));
  s = FoldGameLog(events);
  EXPECT_FALSE(s.undone_seqs.count(6));
  EXPECT_TRUE(s.undone_seqs.count(10));
  EXPECT_FALSE(s.stands.count("r1"));
  EXPECT_DOUBLE_EQ(s.points_by_side.at("blue"), 3.0);
}

TEST(GameLogFold, UndoOfAVerdictLeavesTheShotUnjudgedUntilANewOne) {
  auto events = AGame();
  events.push_back(Ev(10, Undo{9, "hand in frame"}));
  GameState s = FoldGameLog(events);
  EXPECT_EQ(s.shots[1].verdict_seq, 0);
  EXPECT_FALSE(s.shots[1].impact_in.has_value());
  events.push_back(Ev(11, ShotVerdict{"s2", "a3.jpg", Vec2{12.0, 10.0}, {"r2"}, "", {}, {}}));
  s = FoldGameLog(events);
  EXPECT_EQ(s.shots[1].verdict_seq, 11);
  EXPECT_TRUE(s.shots[1].Hit());
}

TEST(GameLogFold, CorrectionsMoveStandsOverrideShotsAndAdjustPoints) {
  auto events = AGame();
  events.push_back(
      Ev(10, Correction{"stand", 2, StandToJson(StandAt("b1", "blue", 31, 21)), "nudged"}));
  events.push_back(
      Ev(11, Correction{"shot", 9, {{"shot_id", "s2"}, {"hit_stand_ids", {"b1"}}}, ""}));
  events.push_back(Ev(12, Correction{"points", 0, {{"side", "red"}, {"delta", 2.0}}, ""}));
  events.push_back(Ev(13, Correction{"remove_stand", 0, {{"id", "r2"}}, ""}));
  const GameState s = FoldGameLog(events);
  EXPECT_DOUBLE_EQ(s.stands.at("b1").footprint.center.x, 31.0);
  EXPECT_TRUE(s.shots[1].Hit());
  EXPECT_TRUE(s.shots[1].corrected);
  EXPECT_DOUBLE_EQ(s.points_by_side.at("red"), 2.0);
  EXPECT_FALSE(s.stands.count("r2"));
}

TEST(GameLogFold, ReplayStepSeesOnlyWhatWasKnownThen) {
  auto events = AGame();
  events.push_back(Ev(10, Undo{6, ""}));
  // At seq 7 the casualty still counted; the later undo does not change that step.
  const GameState at7 = FoldGameLogUpTo(events, 7);
  EXPECT_FALSE(at7.stands.count("r1"));
  EXPECT_EQ(at7.shots.size(), 1u);
  const GameState now = FoldGameLog(events);
  EXPECT_TRUE(now.stands.count("r1"));
}

TEST(GameLogFold, UndoPointingForwardOrAtNothingIsIgnored) {
  auto events = AGame();
  events.push_back(Ev(10, Undo{99, ""}));
  events.push_back(Ev(11, Undo{11, ""}));
  const GameState s = FoldGameLog(events);
  EXPECT_TRUE(s.undone_seqs.empty());  // an undo can only reach back in time
  EXPECT_EQ(s.casualties.size(), 1u);
}

// "red-1 is really red-2": the two bases keep their places and kinds, their names swap. Replay,
// `referee log` and reports then follow the stand the players named, e.g. when it is shot.
TEST(GameLogFold, IdentitySwapRenamesTheBasesWhereTheyStand) {
  auto events = AGame();
  SnapshotStand gun = StandAt("r3", "red", 14, 10);
  gun.kind = "field_gun";
  events.push_back(Ev(10, Snapshot{{StandAt("r2", "red", 12, 10), gun}, ""}));
  events.push_back(
      Ev(11, Correction{"stand_kind", 0, {{"stand", "r3"}, {"kind", "howitzer"}}, ""}));
  events.push_back(Ev(12, Correction{"stand_identity", 0, {{"stand", "r3"}, {"is", "r2"}}, ""}));
  GameState s = FoldGameLog(events);
  ASSERT_EQ(s.stands.size(), 2u);
  EXPECT_EQ(s.stands.at("r2").id, "r2");
  EXPECT_DOUBLE_EQ(s.stands.at("r2").footprint.center.x, 14.0);
  EXPECT_EQ(s.stands.at("r2").kind, "howitzer");
  EXPECT_DOUBLE_EQ(s.stands.at("r3").footprint.center.x, 12.0);
  EXPECT_EQ(s.stands.at("r3").kind, "line_infantry");
  // The renamed gun is shot: the base at x = 14 leaves the table.
  events.push_back(Ev(13, CasualtiesRemoved{"red", "", {"r2"}, 1.0, "blue", "shot", 0}));
  s = FoldGameLog(events);
  ASSERT_EQ(s.stands.size(), 1u);
  EXPECT_DOUBLE_EQ(s.stands.at("r3").footprint.center.x, 12.0);
  // Renaming to an id nobody holds; and undoing the swap puts the names back.
  events.push_back(Ev(14, Correction{"stand_identity", 0, {{"stand", "r3"}, {"is", "r9"}}, ""}));
  s = FoldGameLog(events);
  ASSERT_TRUE(s.stands.count("r9"));
  EXPECT_EQ(s.stands.at("r9").id, "r9");
  events.push_back(Ev(15, Undo{12, ""}));
  events.push_back(Ev(16, Undo{14, ""}));
  s = FoldGameLog(events);
  EXPECT_EQ(s.stands.at("r3").kind, "howitzer") << "r3 is the gun again, and still on the table";
  EXPECT_FALSE(s.stands.count("r2"));
  // The replay's step right after the swap already sees it.
  EXPECT_DOUBLE_EQ(FoldGameLogUpTo(events, 12).stands.at("r2").footprint.center.x, 14.0);
}

// The players' answer to CONFIRM FACING ("stand_facing"): the base as they turned it, its
// facing known, and their word kept through later snapshots of the base where it stood (a
// resumed game keeps asking nothing); a snapshot of the base moved or wheeled drops the word.
TEST(GameLogFold, AFacingThePlayersGaveIsKeptWhileTheBaseStaysPut) {
  SnapshotStand el = StandAt("el", "red", 20, 10);
  el.kind = "elephant";
  el.footprint.width_in = el.footprint.depth_in = 1.575;
  el.footprint.angle_deg = 90.0;  // the outline faces east
  el.facing_known = false;
  std::vector<GameEvent> events{Ev(1, Snapshot{{el}, ""})};
  SnapshotStand turned = el;
  turned.footprint.angle_deg = 0.0;  // faces north
  turned.facing_known = true;
  events.push_back(Ev(
      2, Correction{
             "stand_facing",
             0,
             {{"stand", "el"}, {"faces", "N"}, {"from", "?"}, {"footprint", StandToJson(turned)}},
             ""}));
  auto folded = FoldStands(events);
  ASSERT_EQ(folded.size(), 1u);
  EXPECT_TRUE(folded[0].stand.facing_known);
  EXPECT_DOUBLE_EQ(folded[0].stand.footprint.angle_deg, 0.0);
  ASSERT_TRUE(folded[0].told_facing.has_value());
  EXPECT_EQ(folded[0].told_facing->facing, Facing::kN);
  EXPECT_TRUE(FoldGameLog(events).stands.at("el").facing_known);

  // The next snapshot sees the base nudged, outline east again and no stripe: the word stays.
  SnapshotStand nudged = el;
  nudged.footprint.center.x += 0.1;
  events.push_back(Ev(3, Snapshot{{nudged}, ""}));
  folded = FoldStands(events);
  ASSERT_TRUE(folded[0].told_facing.has_value());
  EXPECT_EQ(folded[0].told_facing->facing, Facing::kN);

  // Moved a square on: the camera's again.
  SnapshotStand moved = el;
  moved.footprint.center.y += 3.0;
  events.push_back(Ev(4, Snapshot{{moved}, ""}));
  EXPECT_FALSE(FoldStands(events)[0].told_facing.has_value());

  // An undone answer does not count; an answer naming no facing changes nothing.
  events.resize(2);
  events.push_back(Ev(3, Undo{2, ""}));
  EXPECT_FALSE(FoldStands(events)[0].told_facing.has_value());
  EXPECT_FALSE(FoldStands(events)[0].stand.facing_known);
  events.push_back(Ev(4, Correction{"stand_facing", 0, {{"stand", "el"}, {"faces", "up"}}, ""}));
  EXPECT_FALSE(FoldStands(events)[0].told_facing.has_value());
}

}  // namespace
}  // namespace referee
