// Bad input: a torn or corrupted line is reported with its line number, every complete event
// before and after it is kept, and the game resumes on a fresh line.
#include <gtest/gtest.h>

#include "engine/game_log.hpp"
#include "game_log_test_util.hpp"

namespace referee {
namespace {

using testing::FreshDir;
using testing::ReadText;
using testing::WriteText;

std::filesystem::path WriteTurns(const std::filesystem::path& dir, int n) {
  auto path = dir / "game.jsonl";
  GameLogWriter writer(path);
  for (int t = 1; t <= n; ++t) writer.Append(TurnChange{t, "red", "movement"});
  return path;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t end = text.find('\n', pos);
    lines.push_back(text.substr(pos, end == std::string::npos ? std::string::npos : end - pos));
    if (end == std::string::npos) break;
    pos = end + 1;
  }
  return lines;
}

TEST(GameLogCorruption, CorruptedMiddleLineIsReportedAndTheRestKept) {
  const auto path = WriteTurns(FreshDir("game_log_corrupt"), 5);
  auto lines = Lines(ReadText(path));
  ASSERT_EQ(lines.size(), 5u);
  lines[2] = lines[2].substr(0, lines[2].size() / 2) + "\x01garbage";
  std::string text;
  for (const auto& l : lines) text += l + "\n";
  WriteText(path, text);

  const GameLog log = ReadGameLog(path);
  ASSERT_EQ(log.problems.size(), 1u);
  EXPECT_EQ(log.problems[0].line, 3);
  ASSERT_EQ(log.events.size(), 4u);
  EXPECT_EQ(log.events[0].seq, 1);
  EXPECT_EQ(log.events[1].seq, 2);
  EXPECT_EQ(log.events[2].seq, 4);  // after the bad line
  EXPECT_EQ(log.events[3].seq, 5);
  EXPECT_FALSE(log.ends_mid_line);
}

TEST(GameLogCorruption, TornLastLineIsReportedAndResumeStartsAFreshLine) {
  const auto path = WriteTurns(FreshDir("game_log_corrupt"), 3);
  std::string text = ReadText(path);
  text += R"({"seq":4,"time_utc":"2026-11-21T22:00:00.000Z","type":"turn_ch)";  // torn write
  WriteText(path, text);

  GameLog log = ReadGameLog(path);
  EXPECT_TRUE(log.ends_mid_line);
  ASSERT_EQ(log.problems.size(), 1u);
  EXPECT_EQ(log.problems[0].line, 4);
  EXPECT_NE(log.problems[0].what.find("truncated"), std::string::npos);
  EXPECT_EQ(log.events.size(), 3u);

  {
    GameLogWriter writer(path);
    EXPECT_EQ(writer.next_seq(), 4);  // the torn event was never acknowledged
    EXPECT_EQ(writer.Append(TurnChange{4, "blue", "movement"}), 4);
    EXPECT_EQ(writer.Append(TurnChange{5, "red", "movement"}), 5);
  }
  log = ReadGameLog(path);
  EXPECT_FALSE(log.ends_mid_line);
  ASSERT_EQ(log.problems.size(), 1u);  // the torn bytes stay as evidence, on their own line
  EXPECT_EQ(log.problems[0].line, 4);
  ASSERT_EQ(log.events.size(), 5u);
  EXPECT_EQ(log.events[3].As<TurnChange>()->side, "blue");
  EXPECT_EQ(log.events[4].seq, 5);
}

TEST(GameLogCorruption, DuplicateOrBackwardSeqIsReportedAndTheFirstKept) {
  const auto path = WriteTurns(FreshDir("game_log_corrupt"), 3);
  auto lines = Lines(ReadText(path));
  const std::string text = lines[0] + "\n" + lines[1] + "\n" + lines[1] + "\n" + lines[2] + "\n";
  WriteText(path, text);
  const GameLog log = ReadGameLog(path);
  ASSERT_EQ(log.problems.size(), 1u);
  EXPECT_EQ(log.problems[0].line, 3);
  EXPECT_NE(log.problems[0].what.find("duplicate"), std::string::npos);
  ASSERT_EQ(log.events.size(), 3u);
  EXPECT_EQ(log.events[2].seq, 3);
}

TEST(GameLogCorruption, ValidJsonWithBadFieldsIsABadLineNotACrash) {
  const auto dir = FreshDir("game_log_corrupt");
  const auto path = dir / "game.jsonl";
  WriteText(
      path,
      "{\"seq\":1,\"time_utc\":\"x\",\"type\":\"turn_change\",\"format_version\":1,\"turn\":1}\n"
      "[1,2,3]\n"
      "{\"seq\":2,\"time_utc\":\"x\",\"type\":\"teleport\",\"format_version\":1}\n"
      "{\"seq\":3,\"time_utc\":\"x\",\"type\":\"dice\",\"format_version\":1,\"results\":\"six\"}\n"
      "\n"
      "{\"seq\":4,\"time_utc\":\"x\",\"type\":\"undo\",\"format_version\":1,\"target_seq\":1}\n");
  const GameLog log = ReadGameLog(path);
  ASSERT_EQ(log.problems.size(), 3u);
  EXPECT_EQ(log.problems[0].line, 2);
  EXPECT_EQ(log.problems[1].line, 3);
  EXPECT_NE(log.problems[1].what.find("teleport"), std::string::npos);
  EXPECT_EQ(log.problems[2].line, 4);
  EXPECT_NE(log.problems[2].what.find("results"), std::string::npos);
  ASSERT_EQ(log.events.size(), 2u);
  EXPECT_EQ(log.events[1].seq, 4);
}

TEST(GameLogCorruption, EmptyFileIsAnEmptyGame) {
  const auto path = FreshDir("game_log_corrupt") / "game.jsonl";
  WriteText(path, "");
  const GameLog log = ReadGameLog(path);
  EXPECT_TRUE(log.events.empty());
  EXPECT_TRUE(log.problems.empty());
  GameLogWriter writer(path);
  EXPECT_EQ(writer.Append(TurnChange{}), 1);
}

}  // namespace
}  // namespace referee
