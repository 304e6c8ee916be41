// `referee replay`'s state without a window: a position in a game log, moved event by event,
// shot by shot or turn by turn, and what the window shows there (the game as it stood right
// after that event, the picture the referee had last stored, the shot on the table, the
// corrections so far). Unit-tested in tests/ui/replay_controller_test.cpp.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "engine/game_log.hpp"

namespace referee::live {

enum class ReplayCommand {
  kNextEvent,
  kPreviousEvent,
  kNextShot,
  kPreviousShot,
  kNextTurn,
  kPreviousTurn,
  kFirst,
  kLast,
};

// The board the replay draws, table inches.
struct ReplayBoard {
  int cols = 12;  // TABLE_KIT default: 12 x 8 squares of 4"
  int rows = 8;
  double square_in = 4.0;
};

// A correction or undo met so far, for the corrections list.
struct ReplayCorrection {
  int64_t seq = 0;
  std::string type;     // "correction" or "undo"
  std::string summary;  // one readable line
};

// What the window shows at one position.
struct ReplayStep {
  size_t index = 0;  // position among the log's events, 0-based
  size_t count = 0;  // events in the log
  GameEvent event;
  std::string summary;    // one readable line about the event
  int64_t undone_by = 0;  // seq of a later undo that cancels this event, 0 if it counts
  GameState state;        // the game right after this event (later undos not yet applied)
  // The shot on the table: the last shot armed up to here (with its verdict, if any yet).
  std::optional<ShotRecord> shot;
  // The picture to show: a frame store name ("" when the log stored none up to here) and what
  // it is ("evidence", "after", "before", "snapshot", "calibration").
  std::string picture;
  std::string picture_kind;
  int64_t picture_seq = 0;  // event that stored the picture
  // The camera frame the game is drawn over: the last camera frame stored up to here (never an
  // evidence picture), what it is, the event that stored it, and the calibration in force when
  // it was taken (the last calibration event at or before it; none if the log has none yet).
  std::string frame;
  std::string frame_kind;  // "after", "before", "snapshot", "calibration"
  int64_t frame_seq = 0;
  std::optional<Calibration> frame_calibration;
  int64_t frame_calibration_seq = 0;
  std::vector<ReplayCorrection> corrections;  // every correction and undo up to here
};

class ReplayController {
 public:
  // Throws InputError when the log holds no complete event (nothing to replay).
  explicit ReplayController(GameLog log);

  const GameLog& log() const { return log_; }
  const ReplayBoard& board() const { return board_; }
  const ReplayStep& step() const { return step_; }
  size_t index() const { return step_.index; }
  size_t size() const { return log_.events.size(); }
  bool at_end() const { return step_.index + 1 == size(); }

  // Moves; false (and no move) when there is nowhere to go in that direction.
  bool Apply(ReplayCommand command);
  bool GoTo(size_t index);

 private:
  // Where "next shot" stops: each shot's first verdict, or its arming when it has none.
  std::vector<size_t> ShotStops() const;
  std::vector<size_t> TurnStops() const;  // every turn_change
  bool NextIn(const std::vector<size_t>& stops);
  bool PreviousIn(const std::vector<size_t>& stops);
  void Build(size_t index);

  GameLog log_;
  ReplayBoard board_;
  std::vector<int64_t> undone_by_;  // per event: seq of the undo that cancels it, or 0
  ReplayStep step_;
};

}  // namespace referee::live
