// `referee club add LOG [--db FILE]`: put a finished game into the club's history.
// `referee club stats [--db FILE]`: standings and per-player artillery accuracy.
// Default database: ~/.local/share/tabletop-referee/club.sqlite ($XDG_DATA_HOME respected).
#include <boost/program_options.hpp>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "engine/game_log.hpp"
#include "engine/input_error.hpp"
#include "ui/cli/command_line.hpp"
#include "ui/cli/commands.hpp"
#include "ui/club/club_db.hpp"

namespace referee::cli {

namespace {

namespace po = boost::program_options;

struct ClubOptions {
  std::string log_path;  // club add only
  std::string db_path;   // empty: club::DefaultClubDbPath()
};

bool ParseClub(const std::vector<std::string>& args, const std::string& usage, bool with_log,
               ClubOptions& opt) {
  po::options_description desc(usage);
  desc.add_options()("help,h", "show this help")(
      "db", po::value(&opt.db_path),
      ("club database (default " + club::DefaultClubDbPath().string() + ")").c_str());
  po::positional_options_description pos;
  if (with_log) {
    desc.add_options()("log", po::value(&opt.log_path), "LOG.jsonl");
    pos.add("log", 1);
  }
  po::variables_map vm;
  if (!ParseCommandLine(args, desc, pos, vm)) return false;  // --help was printed
  if (with_log && opt.log_path.empty())
    throw InputError("command line", "LOG", "missing game log file");
  if (opt.db_path.empty()) opt.db_path = club::DefaultClubDbPath().string();
  return true;
}

int RunClubAdd(const std::vector<std::string>& args) {
  ClubOptions opt;
  if (!ParseClub(args, "usage: referee club add LOG.jsonl [--db FILE]", true, opt)) return 0;
  const GameLog log = ReadGameLog(opt.log_path);
  for (const auto& p : log.problems)
    std::cerr << opt.log_path << ":" << p.line << ": " << p.what << " (skipped)\n";
  club::ClubDb db(opt.db_path);
  const auto r = db.AddGame(log);
  if (!r.added) {
    std::cout << "game " << r.game_key << " is already in " << opt.db_path << "\n";
    return 1;
  }
  std::cout << "added game " << r.game_key << " (" << r.sides << " sides, " << r.shots
            << " shots) to " << opt.db_path << "\n";
  return 0;
}

int RunClubStats(const std::vector<std::string>& args) {
  ClubOptions opt;
  if (!ParseClub(args, "usage: referee club stats [--db FILE]", false, opt)) return 0;
  club::ClubDb db(opt.db_path);
  // Everything is read before anything is printed: a damaged database is its one-line error,
  // not half a table.
  const int games = db.GameCount();
  const auto standings = db.Standings();
  const auto artillery = db.Artillery();
  std::cout << "club history: " << games << " games (" << opt.db_path << ")\n\n";
  std::printf("Standings\n%-20s %5s %4s %4s %4s %8s\n", "player", "games", "won", "drew", "lost",
              "points");
  for (const auto& s : standings)
    std::printf("%-20s %5d %4d %4d %4d %8.1f\n", s.player.c_str(), s.games, s.wins, s.draws,
                s.losses, s.points);
  std::printf("\nArtillery accuracy\n%-20s %5s %6s %4s %8s\n", "player", "shots", "judged", "hits",
              "hit rate");
  for (const auto& a : artillery) {
    if (a.judged > 0)
      std::printf("%-20s %5d %6d %4d %7.0f%%\n", a.player.c_str(), a.shots, a.judged, a.hits,
                  100.0 * a.HitRate());
    else
      std::printf("%-20s %5d %6d %4d %8s\n", a.player.c_str(), a.shots, a.judged, a.hits, "-");
  }
  std::fflush(stdout);
  return 0;
}

}  // namespace

int RunClub(const std::vector<std::string>& args) {
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    (args.empty() ? std::cerr : std::cout)
        << "usage: referee club add LOG.jsonl [--db FILE]   add a finished game\n"
           "       referee club stats [--db FILE]           standings and artillery accuracy\n"
           "default database: "
        << club::DefaultClubDbPath().string() << "\n";
    return args.empty() ? 2 : 0;
  }
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  if (args[0] == "add") return RunClubAdd(rest);
  if (args[0] == "stats") return RunClubStats(rest);
  throw InputError("command line", "", "unknown club subcommand '" + args[0] + "' (add, stats)");
}

}  // namespace referee::cli
