// Club history: real games written through the real writer go into a real SQLite file through
// the `referee club` command; standings and artillery accuracy come back out.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>

#include "engine/input_error.hpp"
#include "log_sample_game.hpp"
#include "ui/club/club_db.hpp"

namespace referee::club_test {
namespace {

struct CommandRun {
  int exit_code = -1;
  std::string out;
};

CommandRun Referee(const std::string& args) {
  const std::string cmd = std::string(REFEREE_BINARY) + " " + args + " 2>&1";
  CommandRun r;
  FILE* p = ::popen(cmd.c_str(), "r");
  std::array<char, 4096> buf;
  size_t n;
  while ((n = std::fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  const int status = ::pclose(p);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

TEST(Club, AddTwoGamesThenStandingsAndAccuracy) {
  const auto dir = testing::FreshTestDir("club");
  const auto db = dir / "club.sqlite";
  const auto g1 = testing::WriteSampleGame(dir, "night-1", "Alice", "Bob");
  const auto g2 = testing::WriteSampleGame(dir, "night-2", "Carol", "Alice");  // Alice is blue

  CommandRun r = Referee("club add '" + g1.log.string() + "' --db '" + db.string() + "'");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("added game night-1 (2 sides, 4 shots)"), std::string::npos) << r.out;
  r = Referee("club add '" + g2.log.string() + "' --db '" + db.string() + "'");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  r = Referee("club add '" + g1.log.string() + "' --db '" + db.string() + "'");
  EXPECT_EQ(r.exit_code, 1) << "adding a game twice must be refused";
  EXPECT_NE(r.out.find("already"), std::string::npos) << r.out;

  club::ClubDb club(db);
  EXPECT_EQ(club.GameCount(), 2);
  const auto standings = club.Standings();
  ASSERT_EQ(standings.size(), 3u);
  // Alice: won night-1 as red (7 pts), lost night-2 as blue (3 pts).
  const auto alice = std::find_if(standings.begin(), standings.end(),
                                  [](const club::Standing& s) { return s.player == "Alice"; });
  ASSERT_NE(alice, standings.end());
  EXPECT_EQ(alice->games, 2);
  EXPECT_EQ(alice->wins, 1);
  EXPECT_EQ(alice->losses, 1);
  EXPECT_DOUBLE_EQ(alice->points, 10.0);
  EXPECT_EQ(standings.back().player, "Bob");  // no win, 3 points
  // Alice: 2/2 as red plus 1/2 as blue = 3/4; Carol 2/2; Bob 1/2.
  const auto art = club.Artillery();
  ASSERT_EQ(art.size(), 3u);
  EXPECT_EQ(art[0].player, "Carol");
  EXPECT_EQ(art[1].player, "Alice");
  EXPECT_EQ(art[1].judged, 4);
  EXPECT_EQ(art[1].hits, 3);
  EXPECT_DOUBLE_EQ(art[2].HitRate(), 0.5);

  r = Referee("club stats --db '" + db.string() + "'");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("2 games"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Standings"), std::string::npos);
  EXPECT_NE(r.out.find("Artillery accuracy"), std::string::npos);
  EXPECT_NE(r.out.find("75%"), std::string::npos) << r.out;   // Alice
  EXPECT_NE(r.out.find("100%"), std::string::npos) << r.out;  // Carol
}

TEST(Club, UnfinishedGameIsRefusedClearly) {
  const auto dir = testing::FreshTestDir("club");
  const auto log = dir / "unfinished.jsonl";
  {
    GameLogWriter w(log);
    w.Append(GameStart{"u1", "napoleonic", "", {{"Alice", "red", "french"}}, 12, 8, 4.0});
    w.Append(TurnChange{1, "red", "movement"});
  }
  const CommandRun r =
      Referee("club add '" + log.string() + "' --db '" + (dir / "c.sqlite").string() + "'");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.out.find("not finished"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("unfinished.jsonl"), std::string::npos) << r.out;
}

TEST(Club, NotADatabaseIsAnInputError) {
  const auto dir = testing::FreshTestDir("club");
  const auto bogus = dir / "bogus.sqlite";
  std::ofstream(bogus) << "this is not sqlite, just text long enough to have a header......\n";
  EXPECT_THROW(club::ClubDb db(bogus), InputError);
}

// A club database damaged on disk past its header: `club stats` and `club add` say so in one
// line naming the file, and print no half table. Before the fix the message was "club db:
// database disk image is malformed", with no file, after a partial "club history: " line.
TEST(Club, ADamagedDatabaseIsOneLineNamingTheFile) {
  const auto dir = testing::FreshTestDir("club_damaged");
  const auto db = dir / "club.sqlite";
  const auto game = testing::WriteSampleGame(dir, "night-1", "Alice", "Bob");
  ASSERT_EQ(Referee("club add '" + game.log.string() + "' --db '" + db.string() + "'").exit_code,
            0);
  {
    std::fstream f(db, std::ios::in | std::ios::out | std::ios::binary);
    std::array<unsigned char, 2> page_size{};
    f.seekg(16);  // the SQLite header's page size, big-endian
    f.read(reinterpret_cast<char*>(page_size.data()), 2);
    const auto first_page = static_cast<std::streamoff>(page_size[0] << 8 | page_size[1]);
    const auto size = static_cast<std::streamoff>(std::filesystem::file_size(db));
    ASSERT_GT(size, first_page);
    f.seekp(first_page);  // every table's pages, not the schema's
    const std::string garbage(static_cast<size_t>(size - first_page), 'Z');
    f.write(garbage.data(), static_cast<std::streamsize>(garbage.size()));
  }
  for (const std::string& cmd :
       {std::string("club stats"), "club add '" + game.log.string() + "'"}) {
    const CommandRun r = Referee(cmd + " --db '" + db.string() + "'");
    SCOPED_TRACE(cmd);
    EXPECT_EQ(r.exit_code, 2) << r.out;
    EXPECT_EQ(r.out.rfind("referee club: " + db.string() + ": club database: ", 0), 0u) << r.out;
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
  }
}

TEST(Club, DefaultPathFollowsXdgDataHome) {
  ::setenv("XDG_DATA_HOME", "/tmp/xdg-test", 1);
  EXPECT_EQ(club::DefaultClubDbPath(),
            std::filesystem::path("/tmp/xdg-test/tabletop-referee/club.sqlite"));
  ::unsetenv("XDG_DATA_HOME");
  ::setenv("HOME", "/home/someone", 1);
  EXPECT_EQ(club::DefaultClubDbPath(),
            std::filesystem::path("/home/someone/.local/share/tabletop-referee/club.sqlite"));
}

}  // namespace
}  // namespace referee::club_test
