#include "ui/club/club_db.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <stdexcept>

#include "engine/input_error.hpp"

namespace referee::club {
namespace {

constexpr int kSchemaVersion = 1;

const char* kSchema = R"sql(
CREATE TABLE IF NOT EXISTS games (
  id INTEGER PRIMARY KEY,
  game_key TEXT NOT NULL UNIQUE,   -- game_id from the log, or its first event's time
  log_path TEXT, ruleset TEXT, scenario TEXT,
  started_utc TEXT, ended_utc TEXT,
  winner_side TEXT,                -- '' for a draw
  reason TEXT, added_utc TEXT);
CREATE TABLE IF NOT EXISTS players (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS game_sides (
  game INTEGER NOT NULL REFERENCES games(id),
  player INTEGER NOT NULL REFERENCES players(id),
  side TEXT NOT NULL, army TEXT, points REAL NOT NULL,
  result TEXT NOT NULL CHECK (result IN ('win', 'loss', 'draw')),
  PRIMARY KEY (game, side));
CREATE TABLE IF NOT EXISTS shots (
  game INTEGER NOT NULL REFERENCES games(id),
  shot_id TEXT NOT NULL,
  player INTEGER REFERENCES players(id),
  side TEXT, weapon TEXT, turn INTEGER,
  judged INTEGER NOT NULL, hit INTEGER NOT NULL,
  impact_x_in REAL, impact_y_in REAL,
  PRIMARY KEY (game, shot_id));
)sql";

// The CLI's one-line error for the statement that failed last, naming the database's file. A
// damaged schema can put control characters in SQLite's message; they are shown as '?'.
[[noreturn]] void ThrowDbError(sqlite3* db) {
  std::string why = sqlite3_errmsg(db);
  std::ranges::replace_if(
      why, [](unsigned char c) { return c < 0x20 || c == 0x7f; }, '?');
  const char* file = sqlite3_db_filename(db, "main");
  throw InputError(file != nullptr && *file != '\0' ? file : "club database", "",
                   "club database: " + why);
}

// A prepared statement that finalizes itself.
class Stmt {
 public:
  Stmt(sqlite3* db, const char* sql) : db_(db) {
    if (sqlite3_prepare_v2(db, sql, -1, &s_, nullptr) != SQLITE_OK) ThrowDbError(db);
  }
  ~Stmt() { sqlite3_finalize(s_); }
  Stmt& Bind(int i, const std::string& v) {
    sqlite3_bind_text(s_, i, v.c_str(), -1, SQLITE_TRANSIENT);
    return *this;
  }
  Stmt& Bind(int i, double v) {
    sqlite3_bind_double(s_, i, v);
    return *this;
  }
  Stmt& Bind(int i, int64_t v) {
    sqlite3_bind_int64(s_, i, v);
    return *this;
  }
  Stmt& BindNull(int i) {
    sqlite3_bind_null(s_, i);
    return *this;
  }
  bool Step() {
    const int rc = sqlite3_step(s_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    ThrowDbError(db_);
  }
  std::string Text(int col) const {
    const auto* t = sqlite3_column_text(s_, col);
    return t ? reinterpret_cast<const char*>(t) : "";
  }
  double Real(int col) const { return sqlite3_column_double(s_, col); }
  int Int(int col) const { return sqlite3_column_int(s_, col); }

 private:
  sqlite3* db_;
  sqlite3_stmt* s_ = nullptr;
};

int64_t PlayerId(sqlite3* db, const std::string& name) {
  Stmt(db, "INSERT OR IGNORE INTO players(name) VALUES (?)").Bind(1, name).Step();
  Stmt q(db, "SELECT id FROM players WHERE name = ?");
  q.Bind(1, name).Step();
  return q.Int(0);
}

}  // namespace

std::filesystem::path DefaultClubDbPath() {
  if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg)
    return std::filesystem::path(xdg) / "tabletop-referee" / "club.sqlite";
  const char* home = std::getenv("HOME");
  return std::filesystem::path(home && *home ? home : ".") / ".local" / "share" /
         "tabletop-referee" / "club.sqlite";
}

ClubDb::ClubDb(const std::filesystem::path& path) {
  std::error_code ec;
  if (!path.parent_path().empty()) std::filesystem::create_directories(path.parent_path(), ec);
  if (sqlite3_open(path.c_str(), &db_) != SQLITE_OK) {
    const std::string why = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    db_ = nullptr;
    throw InputError(path.string(), "", "cannot open the club database: " + why);
  }
  sqlite3_busy_timeout(db_, 5000);  // another referee may be adding a game
  int version = 0;
  try {
    Stmt q(db_, "PRAGMA user_version");
    if (q.Step()) version = q.Int(0);
  } catch (const std::exception&) {
    sqlite3_close(db_);
    db_ = nullptr;
    throw InputError(path.string(), "", "not a club database (not SQLite)");
  }
  if (version > kSchemaVersion) {
    sqlite3_close(db_);
    db_ = nullptr;
    throw InputError(path.string(), "user_version",
                     std::to_string(version) + " is newer than this referee's schema (" +
                         std::to_string(kSchemaVersion) + ")");
  }
  Exec("PRAGMA foreign_keys = ON");
  Exec(kSchema);
  Exec("PRAGMA user_version = " + std::to_string(kSchemaVersion));
}

ClubDb::~ClubDb() { sqlite3_close(db_); }

void ClubDb::Exec(const std::string& sql) const {
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK) ThrowDbError(db_);
}

AddResult ClubDb::AddGame(const GameLog& log) {
  const GameState state = FoldGameLog(log.events);
  if (!state.end)
    throw InputError(log.path.string(), "game_end", "the game is not finished (no game_end event)");
  if (state.start.players.empty())
    throw InputError(log.path.string(), "game_start.players", "no players recorded");
  AddResult r;
  r.game_key = !state.start.game_id.empty()
                   ? state.start.game_id
                   : (log.events.empty() ? "" : log.events.front().time_utc);
  Exec("BEGIN IMMEDIATE");
  try {
    {
      Stmt exists(db_, "SELECT 1 FROM games WHERE game_key = ?");
      if (exists.Bind(1, r.game_key).Step()) {
        Exec("ROLLBACK");
        return r;
      }
    }
    Stmt ins(db_,
             "INSERT INTO games(game_key, log_path, ruleset, scenario, started_utc, ended_utc, "
             "winner_side, reason, added_utc) VALUES (?,?,?,?,?,?,?,?,?)");
    ins.Bind(1, r.game_key)
        .Bind(2, std::filesystem::absolute(log.path).string())
        .Bind(3, state.start.ruleset)
        .Bind(4, state.start.scenario)
        .Bind(5, log.events.empty() ? "" : log.events.front().time_utc)
        .Bind(6, log.events.empty() ? "" : log.events.back().time_utc)
        .Bind(7, state.end->winner)
        .Bind(8, state.end->reason)
        .Bind(9, UtcNowIso8601())
        .Step();
    const int64_t game = sqlite3_last_insert_rowid(db_);
    std::map<std::string, int64_t> player_of_side;
    for (const auto& p : state.start.players) {
      const int64_t player = PlayerId(db_, p.name);
      player_of_side[p.side] = player;
      // Final points from game_end when given, else what the log's casualties scored.
      double points = 0.0;
      if (auto it = state.end->points.find(p.side); it != state.end->points.end())
        points = it->second;
      else if (auto it2 = state.points_by_side.find(p.side); it2 != state.points_by_side.end())
        points = it2->second;
      const std::string result = state.end->winner.empty()     ? "draw"
                                 : state.end->winner == p.side ? "win"
                                                               : "loss";
      Stmt(db_,
           "INSERT INTO game_sides(game, player, side, army, points, result) "
           "VALUES (?,?,?,?,?,?)")
          .Bind(1, game)
          .Bind(2, player)
          .Bind(3, p.side)
          .Bind(4, p.army)
          .Bind(5, points)
          .Bind(6, result)
          .Step();
      ++r.sides;
    }
    for (const auto& shot : state.shots) {
      Stmt s(db_,
             "INSERT OR REPLACE INTO shots(game, shot_id, player, side, weapon, turn, judged, "
             "hit, impact_x_in, impact_y_in) VALUES (?,?,?,?,?,?,?,?,?,?)");
      s.Bind(1, game).Bind(2, shot.shot_id);
      const std::string player_name = shot.player;
      if (!player_name.empty())
        s.Bind(3, PlayerId(db_, player_name));
      else if (auto it = player_of_side.find(shot.side); it != player_of_side.end())
        s.Bind(3, it->second);
      else
        s.BindNull(3);
      const bool judged = shot.verdict_seq != 0 || shot.corrected;
      s.Bind(4, shot.side).Bind(5, shot.weapon).Bind(6, static_cast<int64_t>(shot.turn));
      s.Bind(7, static_cast<int64_t>(judged)).Bind(8, static_cast<int64_t>(judged && shot.Hit()));
      if (shot.impact_in)
        s.Bind(9, shot.impact_in->x).Bind(10, shot.impact_in->y);
      else
        s.BindNull(9).BindNull(10);
      s.Step();
      ++r.shots;
    }
    Exec("COMMIT");
  } catch (...) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
  r.added = true;
  return r;
}

std::vector<Standing> ClubDb::Standings() const {
  Stmt q(db_,
         "SELECT p.name, COUNT(*), SUM(gs.result = 'win'), SUM(gs.result = 'draw'), "
         "SUM(gs.result = 'loss'), SUM(gs.points) FROM game_sides gs JOIN players p ON "
         "p.id = gs.player GROUP BY p.id ORDER BY SUM(gs.result = 'win') DESC, "
         "SUM(gs.result = 'draw') DESC, SUM(gs.points) DESC, p.name");
  std::vector<Standing> out;
  while (q.Step()) out.push_back({q.Text(0), q.Int(1), q.Int(2), q.Int(3), q.Int(4), q.Real(5)});
  return out;
}

std::vector<PlayerArtillery> ClubDb::Artillery() const {
  Stmt q(db_,
         "SELECT p.name, COUNT(*), SUM(s.judged), SUM(s.hit) FROM shots s JOIN players p ON "
         "p.id = s.player GROUP BY p.id ORDER BY CAST(SUM(s.hit) AS REAL) / MAX(SUM(s.judged), 1) "
         "DESC, SUM(s.judged) DESC, p.name");
  std::vector<PlayerArtillery> out;
  while (q.Step()) out.push_back({q.Text(0), q.Int(1), q.Int(2), q.Int(3)});
  return out;
}

int ClubDb::GameCount() const {
  Stmt q(db_, "SELECT COUNT(*) FROM games");
  q.Step();
  return q.Int(0);
}

}  // namespace referee::club
