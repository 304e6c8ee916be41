// Writing and reading a game log: every event type round-trips through the file, seqs are
// acknowledged in order, each event is its own fsynced line, and resuming continues the seqs.
#include <gtest/gtest.h>

#include <regex>

#include "engine/game_log.hpp"
#include "engine/input_error.hpp"
#include "game_log_test_util.hpp"

namespace referee {
namespace {

using nlohmann::json;
using testing::FreshDir;
using testing::ReadText;

std::vector<EventPayload> OneOfEach() {
  const SnapshotStand s1{
      "r1", "red", "line_infantry", "red-inf-1", {{10.0, 4.5}, 1.575, 0.787, 90.0}, true};
  const SnapshotStand s2{
      "b1",  "blue", "field_gun", "blue-art-1", {{20.0, 30.0}, 1.575, 1.575, 0.0},
      false, true,   true};
  return {
      GameStart{"g1",
                "napoleonic",
                "demo",
                {{"Alice", "red", "french"}, {"Bob", "blue", "austrian"}},
                12,
                8,
                4.0},
      Calibration{{{"rms_px", 0.4}}, "0123456789abcdef.jpg"},
      Snapshot{{s1, s2}, "aaaaaaaaaaaaaaaa.jpg"},
      TurnChange{1, "blue", "artillery"},
      ShotArmed{"t1-blue-1", "blue", "", "blue-art-1", "b1", "field_gun", "bbbbbbbbbbbbbbbb.jpg"},
      ShotVerdict{"t1-blue-1",
                  "cccccccccccccccc.jpg",
                  Vec2{10.2, 4.9},
                  {"r1"},
                  "ev.png",
                  {{"candidates", {"r1"}}},
                  {{"blue colour beside the circle", "blue", Vec2{10.6, 5.3}, 48.5, 14.0}}},
      FirerChoice{"t1-blue-1", "blue", "remove_stand", {{"stand", "r1"}}},
      DiceRoll{"fire_roll", "blue", 6, {3, 5}, 1, 9},
      CoinFlip{"initiative", "red", false},
      Musketry{"red", "red-inf-1", "blue-inf-2", {{"hits", 1}}},
      Melee{{"red-inf-1", "blue-inf-2"},
            {{"pairs", json::array({{"red-inf-1", "blue-inf-2"}})}},
            {{"winner", "red"}}},
      CasualtiesRemoved{"red", "red-inf-1", {"r1"}, 2.5, "blue", "shot", 6},
      Correction{"points", 0, {{"side", "red"}, {"delta", 1.0}}, "agreed"},
      Undo{13, "misclick"},
      GameEnd{"blue", "army_broken", {{"blue", 2.5}, {"red", 0.0}}},
  };
}

TEST(GameLogWriteRead, EveryEventTypeRoundTripsThroughTheFile) {
  const auto path = FreshDir("game_log_rw") / "game.jsonl";
  const auto payloads = OneOfEach();
  {
    GameLogWriter writer(path);
    for (size_t i = 0; i < payloads.size(); ++i)
      EXPECT_EQ(writer.Append(payloads[i]), static_cast<int64_t>(i + 1));
  }
  const GameLog log = ReadGameLog(path);
  EXPECT_TRUE(log.problems.empty());
  EXPECT_FALSE(log.ends_mid_line);
  ASSERT_EQ(log.events.size(), payloads.size());
  EXPECT_EQ(log.last_seq, static_cast<int64_t>(payloads.size()));
  const std::regex iso(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)");
  for (size_t i = 0; i < payloads.size(); ++i) {
    const GameEvent& e = log.events[i];
    EXPECT_EQ(e.seq, static_cast<int64_t>(i + 1));
    EXPECT_EQ(e.format_version, kGameLogFormatVersion);
    EXPECT_TRUE(std::regex_match(e.time_utc, iso)) << e.time_utc;
    EXPECT_EQ(e.type(), EventTypeName(payloads[i]));
    // Re-serialising what was read gives the same payload JSON as what was written.
    GameEvent expected = e;
    expected.payload = payloads[i];
    EXPECT_EQ(EventToJson(e), EventToJson(expected)) << e.type();
  }
  const auto* verdict = log.events[5].As<ShotVerdict>();
  ASSERT_NE(verdict, nullptr);
  ASSERT_TRUE(verdict->impact_in.has_value());
  EXPECT_DOUBLE_EQ(verdict->impact_in->x, 10.2);
  EXPECT_EQ(verdict->verdict["candidates"][0], "r1");
  ASSERT_EQ(verdict->check.size(), 1u);
  EXPECT_EQ(verdict->check[0].side, "blue");
  EXPECT_DOUBLE_EQ(verdict->check[0].point_in.y, 5.3);
  EXPECT_DOUBLE_EQ(verdict->check[0].area_mm2, 48.5);
  const auto* snap = log.events[2].As<Snapshot>();
  ASSERT_NE(snap, nullptr);
  EXPECT_DOUBLE_EQ(snap->stands[0].footprint.angle_deg, 90.0);
  EXPECT_FALSE(snap->stands[1].facing_known);
  EXPECT_FALSE(snap->stands[0].partly_hidden);
  EXPECT_TRUE(snap->stands[1].partly_hidden);
  EXPECT_FALSE(snap->stands[0].faint_border);
  EXPECT_TRUE(snap->stands[1].faint_border);
  EXPECT_FALSE(log.events[8].As<CoinFlip>()->heads);
}

// Logs written before the live referee checked for unfound bases have no "check" key.
TEST(GameLogWriteRead, AVerdictWithoutACheckKeyStillLoads) {
  const GameEvent e = EventFromJson(json::parse(
      R"({"seq":4,"time_utc":"2026-11-20T10:00:00.000Z","type":"verdict","format_version":1,)"
      R"("shot_id":"shot-1","after_frame":"","impact_in":[3.0,4.0],"hit_stand_ids":[],)"
      R"("evidence":"","verdict":{}})"));
  const auto* v = e.As<ShotVerdict>();
  ASSERT_NE(v, nullptr);
  EXPECT_TRUE(v->check.empty());
  EXPECT_EQ(v->shot_id, "shot-1");
}

TEST(GameLogWriteRead, OneJsonObjectPerLineWithTheContractKeys) {
  const auto path = FreshDir("game_log_rw") / "game.jsonl";
  {
    GameLogWriter writer(path);
    writer.Append(TurnChange{2, "red", "movement"});
    writer.Append(DiceRoll{"morale", "red", 6, {4}, 0, 4});
  }
  const std::string text = ReadText(path);
  ASSERT_EQ(std::count(text.begin(), text.end(), '\n'), 2);
  const auto first = json::parse(text.substr(0, text.find('\n')));
  for (const char* key : {"seq", "time_utc", "type", "format_version", "turn", "side", "phase"})
    EXPECT_TRUE(first.contains(key)) << key;
  EXPECT_EQ(first["type"], "turn_change");
  EXPECT_EQ(first["seq"], 1);
}

TEST(GameLogWriteRead, ResumeContinuesTheSeqsAndKeepsEverything) {
  const auto path = FreshDir("game_log_rw") / "sub" / "game.jsonl";  // folder is created
  {
    GameLogWriter writer(path);
    writer.Append(TurnChange{1, "red", "movement"});
    writer.Append(TurnChange{1, "red", "artillery"});
  }
  {
    auto resumed = ResumeGameLog(path);
    EXPECT_EQ(resumed.log.events.size(), 2u);
    EXPECT_EQ(resumed.writer.next_seq(), 3);
    EXPECT_EQ(resumed.writer.Append(TurnChange{1, "blue", "movement"}), 3);
  }
  const GameLog log = ReadGameLog(path);
  ASSERT_EQ(log.events.size(), 3u);
  EXPECT_EQ(log.events[2].As<TurnChange>()->side, "blue");
}

TEST(GameLogWriteRead, StreamingReaderYieldsTheSameEvents) {
  const auto path = FreshDir("game_log_rw") / "game.jsonl";
  {
    GameLogWriter writer(path);
    for (int t = 1; t <= 5; ++t) writer.Append(TurnChange{t, t % 2 ? "red" : "blue", "movement"});
  }
  GameLogReader reader(path);
  int count = 0;
  while (auto e = reader.Next()) {
    ++count;
    EXPECT_EQ(e->As<TurnChange>()->turn, count);
  }
  EXPECT_EQ(count, 5);
  EXPECT_EQ(reader.last_seq(), 5);
}

TEST(GameLogWriteRead, MissingFileIsAnInputErrorNamingIt) {
  const auto path = FreshDir("game_log_rw") / "nope.jsonl";
  try {
    ReadGameLog(path);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("nope.jsonl"), std::string::npos);
  }
}

TEST(GameLogWriteRead, FramesLiveBesideTheLog) {
  EXPECT_EQ(FramesDirFor("/games/2026/game.jsonl"), std::filesystem::path("/games/2026/frames"));
  EXPECT_EQ(FramesDirFor("game.jsonl"), std::filesystem::path("./frames"));
}

}  // namespace
}  // namespace referee
