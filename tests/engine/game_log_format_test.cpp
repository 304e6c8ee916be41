// Older and newer formats: a log this build cannot read is refused with the file and the line,
// never half-read and never appended to.
#include <gtest/gtest.h>

#include "engine/game_log.hpp"
#include "engine/input_error.hpp"
#include "game_log_test_util.hpp"

namespace referee {
namespace {

using testing::FreshDir;
using testing::ReadText;
using testing::WriteText;

const char* kV1Line =
    "{\"seq\":1,\"time_utc\":\"2026-11-01T10:00:00.000Z\",\"type\":\"turn_change\","
    "\"format_version\":1,\"turn\":1,\"side\":\"red\",\"phase\":\"movement\"}\n";

std::string RefusalOf(const std::filesystem::path& path) {
  try {
    ReadGameLog(path);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(GameLogFormat, ReadsAVersionOneLogWrittenByHand) {
  const auto path = FreshDir("game_log_format") / "v1.jsonl";
  WriteText(path, kV1Line);
  const GameLog log = ReadGameLog(path);
  ASSERT_EQ(log.events.size(), 1u);
  EXPECT_EQ(log.events[0].format_version, 1);
  EXPECT_EQ(log.events[0].As<TurnChange>()->phase, "movement");
}

TEST(GameLogFormat, PreVersionLogIsRefusedWithFileAndLine) {
  const auto path = FreshDir("game_log_format") / "old.jsonl";
  WriteText(path, "{\"seq\":1,\"type\":\"turn_change\",\"turn\":1}\n");
  const std::string why = RefusalOf(path);
  EXPECT_NE(why.find("old.jsonl"), std::string::npos) << why;
  EXPECT_NE(why.find("line 1"), std::string::npos) << why;
  EXPECT_NE(why.find("format_version"), std::string::npos) << why;
  EXPECT_NE(why.find("older"), std::string::npos) << why;
}

TEST(GameLogFormat, VersionZeroIsRefused) {
  const auto path = FreshDir("game_log_format") / "v0.jsonl";
  WriteText(path,
            std::string(kV1Line) +
                "{\"seq\":2,\"time_utc\":\"x\",\"type\":\"turn_change\",\"format_version\":0}\n");
  const std::string why = RefusalOf(path);
  EXPECT_NE(why.find("line 2"), std::string::npos) << why;
  EXPECT_NE(why.find("older than this build reads"), std::string::npos) << why;
}

TEST(GameLogFormat, NewerVersionIsRefusedAndNotAppendedTo) {
  const auto path = FreshDir("game_log_format") / "future.jsonl";
  const std::string text =
      std::string(kV1Line) +
      "{\"seq\":2,\"time_utc\":\"x\",\"type\":\"hologram\",\"format_version\":7}\n";
  WriteText(path, text);
  const std::string why = RefusalOf(path);
  EXPECT_NE(why.find("future.jsonl"), std::string::npos) << why;
  EXPECT_NE(why.find("line 2"), std::string::npos) << why;
  EXPECT_NE(why.find("newer referee"), std::string::npos) << why;
  EXPECT_THROW(GameLogWriter writer(path), InputError);
  EXPECT_EQ(ReadText(path), text);  // untouched
}

}  // namespace
}  // namespace referee
