// Club history: finished games in a SQLite database (players, sides, armies, result, points,
// shots and hit rates), and the standings and artillery accuracy read back from it.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "engine/game_log.hpp"

struct sqlite3;

namespace referee::club {

// $XDG_DATA_HOME/tabletop-referee/club.sqlite, else ~/.local/share/tabletop-referee/club.sqlite.
std::filesystem::path DefaultClubDbPath();

struct Standing {
  std::string player;
  int games = 0, wins = 0, draws = 0, losses = 0;
  double points = 0.0;  // points scored over all games
};

struct PlayerArtillery {
  std::string player;
  int shots = 0, judged = 0, hits = 0;
  double HitRate() const { return judged > 0 ? static_cast<double>(hits) / judged : 0.0; }
};

struct AddResult {
  bool added = false;    // false: the game was already in the database
  std::string game_key;  // game_id, or the first event's time when the log has none
  int sides = 0, shots = 0;
};

class ClubDb {
 public:
  // Opens (creating file, folder and schema if needed). Throws InputError if the file is not
  // a club database or has a newer schema.
  explicit ClubDb(const std::filesystem::path& path);
  ~ClubDb();
  ClubDb(const ClubDb&) = delete;
  ClubDb& operator=(const ClubDb&) = delete;

  // Adds a finished game (the log must hold a game_end). One transaction: all or nothing.
  // Throws InputError when the game is not finished or has no players.
  AddResult AddGame(const GameLog& log);

  std::vector<Standing> Standings() const;         // most wins first, then points
  std::vector<PlayerArtillery> Artillery() const;  // best hit rate first
  int GameCount() const;

 private:
  void Exec(const std::string& sql) const;
  sqlite3* db_ = nullptr;
};

}  // namespace referee::club
