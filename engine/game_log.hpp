// The game log: every event of a game appended to one JSON Lines file, one object per line,
// written with write(2)+fsync before the event is acknowledged. A crash loses at most the event
// being written; undo appends a compensating event and never rewrites history.
//
// Line format (format_version 1): {"seq":N,"time_utc":"2026-11-21T22:40:00.123Z",
// "type":"shot_armed","format_version":1, ...the payload's fields...}. seq starts at 1 and
// grows by one per acknowledged event. Results owned by other parts of the engine (verdicts,
// rules results for musketry and melee, calibration) are stored as JSON objects, so this file
// does not depend on their types.
//
// Frames referenced by events are JPEGs stored beside the log, content-addressed
// (vision/frame_store.hpp writes them); the log holds only their file names.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "engine/geometry.hpp"
#include "engine/stand.hpp"

namespace referee {

// The format this build writes. Readers accept kOldestReadableGameLogVersion..this and refuse
// anything else with the file and line (a newer referee's log is never half-read).
inline constexpr int kGameLogFormatVersion = 1;
inline constexpr int kOldestReadableGameLogVersion = 1;

// ---- Event payloads (one struct per "type"; field names are the JSON keys) ----------------

struct PlayerEntry {
  std::string name;  // as the club knows them, e.g. "Alice"
  std::string side;  // "red", "blue", ...
  std::string army;  // army list name or file, e.g. "french_1809"
};

// type "game_start": who plays what. Written once, first.
struct GameStart {
  std::string game_id;   // free text, unique per game (e.g. start time + table)
  std::string ruleset;   // e.g. "de_gre_napoleonic"
  std::string scenario;  // scenario file or name, may be empty
  std::vector<PlayerEntry> players;
  // The board, for reports and replays; 0 = not stated (TABLE_KIT default 12 x 8 of 4").
  int board_cols = 0;
  int board_rows = 0;
  double square_in = 0.0;
};

// type "calibration": the table calibration in force from now on.
struct Calibration {
  nlohmann::json calibration;  // TableCalibration as JSON (camera model, board, residuals)
  std::string frame;           // frame store file name of the calibration frame, may be empty
};

struct SnapshotStand {
  std::string id;
  std::string side;
  std::string kind;        // StandKindCatalog key
  std::string unit;        // unit id the stand belongs to, may be empty
  OrientedRect footprint;  // table inches
  bool facing_known = true;
  // A side of it ran on under tall terrain as the camera saw it: its size may be short, the
  // players were asked to check it (DetectedStand::partly_hidden).
  bool partly_hidden = false;
  // Found only on a faint border where the table changed since it was seen empty: its place and
  // size were the players' to check (DetectedStand::faint_border).
  bool faint_border = false;
};

// type "snapshot": where every stand on the table is now (replaces the previous snapshot).
struct Snapshot {
  std::vector<SnapshotStand> stands;
  std::string frame;  // frame the positions were read from, may be empty
};

// type "shot_armed": a gun or catapult is about to fire; the before frame is stored.
struct ShotArmed {
  std::string shot_id;   // unique in the game, e.g. "t3-red-1"
  std::string side;      // firing side
  std::string player;    // firing player; empty = the player of `side` in game_start
  std::string unit;      // firing unit id
  std::string stand_id;  // firing stand (gun, catapult)
  std::string weapon;    // "field_gun", "horse_gun", "howitzer", "catapult", ...
  std::string before_frame;
};

// type "verdict": where the projectile came to rest and what it touched.
// A side's colour the camera saw in or beside the hit circle that no found stand explains (a
// base the stand search may have missed): the players were asked to look before accepting.
struct VerdictCheck {
  std::string reason;  // what was seen, for players
  std::string side;    // whose colour
  Vec2 point_in;       // where to look, table inches
  double area_mm2 = 0;
  double length_mm = 0;
};

struct ShotVerdict {
  std::string shot_id;
  std::string after_frame;
  std::optional<Vec2> impact_in;           // tip / shell centre in table inches; none = not found
  std::vector<std::string> hit_stand_ids;  // stands the 1" circle touches (empty = miss)
  std::string evidence;                    // evidence PNG file name beside the log, may be empty
  nlohmann::json verdict;                  // the full verdict (engine/verdict.hpp) as JSON
  std::vector<VerdictCheck> check;         // key "check"; absent in older logs (none asked)
};

// type "firer_choice": a choice the rules leave to the firer (which stand dies, retreat, ...).
struct FirerChoice {
  std::string shot_id;  // may be empty when not about a shot
  std::string side;
  std::string choice;  // short machine-readable key, e.g. "remove_stand"
  nlohmann::json details;
};

// type "dice": a die roll with its purpose.
struct DiceRoll {
  std::string purpose;  // e.g. "fire_roll", "morale", "melee"
  std::string side;
  int faces = 6;
  std::vector<int> results;
  int modifier = 0;
  int total = 0;  // sum(results) + modifier, or what the rule defines
};

// type "coin_flip": a coin flip with its purpose.
struct CoinFlip {
  std::string purpose;  // e.g. "initiative"
  std::string side;
  bool heads = true;
};

// type "musketry": a musketry resolution (rules result as JSON).
struct Musketry {
  std::string side;
  std::string unit;
  std::string target_unit;
  nlohmann::json result;
};

// type "melee": a melee with its MDIs (rules result as JSON).
struct Melee {
  std::vector<std::string> units;  // every unit involved
  nlohmann::json mdis;             // the MDI pairings and values
  nlohmann::json result;
};

// type "casualties_removed": stands taken off the table.
struct CasualtiesRemoved {
  std::string side;  // side that lost the stands
  std::string unit;
  std::vector<std::string> stand_ids;
  double points = 0.0;    // value of the removed stands
  std::string scored_by;  // side credited with the points
  std::string cause;      // "shot", "musketry", "melee", "fire", "correction", ...
  int64_t cause_seq = 0;  // seq of the causing event, 0 if none
};

// type "turn_change": a new turn and/or phase begins.
struct TurnChange {
  int turn = 1;
  std::string side;   // side to act
  std::string phase;  // e.g. "movement", "artillery", "musketry", "melee"
};

// type "correction": a human overrides what the referee saw or decided.
// subject "stand": value = SnapshotStand JSON (moved/added); "remove_stand": value = {"id"};
// "shot": value = {"shot_id", "hit_stand_ids"[, "impact_in"]}; "points": value =
// {"side", "delta"}; "stand_kind": value = {"stand", "kind", "from"} (the players said what a
// base is); "stand_facing": value = {"stand", "faces", "from", "footprint"} (the players said
// which way a base without a seen front stripe faces; footprint = SnapshotStand JSON of the base
// turned that way). Other subjects are kept in the log and shown in reports.
struct Correction {
  std::string subject;
  int64_t target_seq = 0;  // event being corrected, 0 if none
  nlohmann::json value;
  std::string note;  // why, in the players' words
};

// type "undo": the event `target_seq` no longer counts. An undo of an undo restores the target.
struct Undo {
  int64_t target_seq = 0;
  std::string note;
};

// type "game_end": the result.
struct GameEnd {
  std::string winner;                    // side, or "" for a draw
  std::string reason;                    // e.g. "army_broken", "time", "concession"
  std::map<std::string, double> points;  // final points by side
};

using EventPayload = std::variant<GameStart, Calibration, Snapshot, ShotArmed, ShotVerdict,
                                  FirerChoice, DiceRoll, CoinFlip, Musketry, Melee,
                                  CasualtiesRemoved, TurnChange, Correction, Undo, GameEnd>;

// The "type" string of a payload ("game_start", "calibration", "snapshot", "shot_armed",
// "verdict", "firer_choice", "dice", "coin_flip", "musketry", "melee", "casualties_removed",
// "turn_change", "correction", "undo", "game_end").
std::string EventTypeName(const EventPayload& payload);

struct GameEvent {
  int64_t seq = 0;       // 1-based, assigned by the writer
  std::string time_utc;  // ISO 8601 UTC with milliseconds, assigned by the writer
  int format_version = kGameLogFormatVersion;
  EventPayload payload;

  std::string type() const { return EventTypeName(payload); }
  template <class T>
  const T* As() const {
    return std::get_if<T>(&payload);
  }
};

// One line of the file <-> one event. EventFromJson throws std::invalid_argument on a bad
// object (message names the field).
nlohmann::json EventToJson(const GameEvent& event);
GameEvent EventFromJson(const nlohmann::json& j);
nlohmann::json StandToJson(const SnapshotStand& stand);
SnapshotStand StandFromJson(const nlohmann::json& j);
SnapshotStand SnapshotStandFrom(const Stand& stand, std::string unit = "");

// ---- Reading ---------------------------------------------------------------------------------

// A line that is not a complete event: torn by a crash, corrupted, or out of order.
struct GameLogProblem {
  int64_t line = 0;  // 1-based line number in the file
  std::string what;
};

struct GameLog {
  std::filesystem::path path;
  std::vector<GameEvent> events;         // every complete event, in file order
  std::vector<GameLogProblem> problems;  // every bad line, with its number
  bool ends_mid_line = false;            // the file does not end with '\n' (torn last write)
  int64_t last_seq = 0;                  // highest seq among the events
};

// Reads every complete event, before and after any bad line. Throws InputError when the file
// cannot be read or a line has a format_version this build does not read (file, line, version).
// A line is bad (reported, skipped) when it is not a JSON object with valid fields, or its seq
// is not above every earlier seq (duplicates are kept once, the first).
GameLog ReadGameLog(const std::filesystem::path& path);

// Streaming read for big logs: Next() yields complete events in file order; problems() grows
// as bad lines are met. Same rules as ReadGameLog.
class GameLogReader {
 public:
  explicit GameLogReader(const std::filesystem::path& path);  // throws InputError
  ~GameLogReader();
  GameLogReader(const GameLogReader&) = delete;
  GameLogReader& operator=(const GameLogReader&) = delete;

  std::optional<GameEvent> Next();
  const std::vector<GameLogProblem>& problems() const { return problems_; }
  bool ends_mid_line() const { return ends_mid_line_; }
  int64_t last_seq() const { return last_seq_; }

 private:
  std::filesystem::path path_;
  std::string data_;  // the whole file (logs are small: ~1 kB per event)
  size_t pos_ = 0;
  int64_t line_ = 0;
  int64_t last_seq_ = 0;
  bool ends_mid_line_ = false;
  std::vector<GameLogProblem> problems_;
};

// ---- Writing ---------------------------------------------------------------------------------

// Appends events to a game log, creating it (and its folder) if needed. Opening an existing
// log resumes it: seq continues after the highest complete event, and a torn last line is
// ended first so the next event starts on a fresh line. Not thread-safe: one writer per log.
class GameLogWriter {
 public:
  explicit GameLogWriter(const std::filesystem::path& path);  // throws InputError
  ~GameLogWriter();
  GameLogWriter(GameLogWriter&& other) noexcept;
  GameLogWriter& operator=(GameLogWriter&& other) noexcept;
  GameLogWriter(const GameLogWriter&) = delete;
  GameLogWriter& operator=(const GameLogWriter&) = delete;

  // Writes one line with write(2), fsyncs, and returns the acknowledged seq. Throws
  // std::runtime_error if the disk refuses (the event is then not acknowledged).
  int64_t Append(const EventPayload& payload);
  int64_t next_seq() const { return next_seq_; }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  int fd_ = -1;
  int64_t next_seq_ = 1;
  bool mid_line_ = false;  // a failed write left a partial line: start the next on a fresh one
};

// Resume = read what is there, then reopen for append.
struct ResumedGameLog {
  GameLog log;
  GameLogWriter writer;
};
ResumedGameLog ResumeGameLog(const std::filesystem::path& path);

// Where a log's frames and evidence pictures live: "<log folder>/frames".
std::filesystem::path FramesDirFor(const std::filesystem::path& log_path);

// Now as ISO 8601 UTC with milliseconds, e.g. "2026-11-21T22:40:00.123Z".
std::string UtcNowIso8601();

// ---- Folding ---------------------------------------------------------------------------------

struct ShotRecord {
  std::string shot_id;
  int64_t armed_seq = 0;
  int64_t verdict_seq = 0;  // 0 while the shot has no verdict
  int turn = 0;
  std::string phase;
  std::string side;
  std::string player;
  std::string unit;
  std::string stand_id;
  std::string weapon;
  std::string before_frame;
  std::string after_frame;
  std::string evidence;
  std::optional<Vec2> impact_in;
  std::vector<std::string> hit_stand_ids;
  nlohmann::json verdict;
  std::vector<VerdictCheck> check;  // the verdict's unfound-base check, if any
  std::vector<std::string> firer_choices;
  bool corrected = false;  // a human changed the verdict
  bool Hit() const { return !hit_stand_ids.empty(); }
};

struct CasualtyRecord {
  int64_t seq = 0;
  int turn = 0;
  std::string phase;
  CasualtiesRemoved removed;
};

// The game as the events say it is now (undone events do not count).
struct GameState {
  GameStart start;
  int turn = 0;
  std::string phase;
  std::string active_side;
  std::optional<Calibration> calibration;
  std::map<std::string, SnapshotStand> stands;  // on the table, by id
  std::vector<ShotRecord> shots;                // in the order armed
  std::vector<CasualtyRecord> casualties;
  std::map<std::string, double> points_by_side;  // points scored (casualties inflicted + fixes)
  std::optional<GameEnd> end;
  std::set<int64_t> undone_seqs;  // events that no longer count
  int64_t last_seq = 0;           // last event folded (counted or not)

  std::string PlayerOfSide(const std::string& side) const;  // "" if unknown
};

// Folds events in order. Undo is honoured retroactively: an event undone by any later event
// in `events` is skipped (an undone undo restores its target).
GameState FoldGameLog(std::span<const GameEvent> events);
// The state as it was right after the event with seq `upto_seq` (for replay): folds only the
// events up to it, so a later undo does not change an earlier step.
GameState FoldGameLogUpTo(std::span<const GameEvent> events, int64_t upto_seq);
// Which events are undone by later events of `events` (an undone undo restores its target).
std::set<int64_t> UndoneSeqs(std::span<const GameEvent> events);

}  // namespace referee
