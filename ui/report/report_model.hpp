// What a game report shows, computed from a game log: the timeline by turn and phase, losses
// and points by side and unit, artillery accuracy per player, the board's extent.
#pragma once

#include <string>
#include <vector>

#include "engine/game_log.hpp"

namespace referee::report {

struct TimelineEntry {
  int64_t seq = 0;
  std::string time_utc;
  std::string type;
  std::string summary;    // one readable line
  int64_t undone_by = 0;  // seq of the undo that cancelled it, 0 if it counts
};

struct TimelineGroup {
  int turn = 0;  // 0 = before the first turn (set-up)
  std::string side;
  std::string phase;
  std::vector<TimelineEntry> entries;
};

struct UnitLosses {
  std::string side;
  std::string unit;
  int stands = 0;
  double points = 0.0;
};

// Shots with a verdict count as judged; a judged shot hits when its 1" circle took a stand
// (after human corrections). Undone shots do not count.
struct PlayerAccuracy {
  std::string player;  // "" when the log does not name one
  std::string side;
  int shots = 0;   // armed
  int judged = 0;  // with a verdict
  int hits = 0;
  double HitRate() const { return judged > 0 ? static_cast<double>(hits) / judged : 0.0; }
};

struct BoardExtent {
  double width_in = 48.0;  // TABLE_KIT default board: 12 x 8 squares of 4"
  double height_in = 32.0;
  double square_in = 4.0;
};

struct ReportModel {
  GameState state;
  std::vector<TimelineGroup> timeline;
  std::vector<UnitLosses> losses;  // sorted by side then unit
  std::vector<PlayerAccuracy> accuracy;
  BoardExtent board;
};

ReportModel BuildReportModel(const GameLog& log);
std::vector<PlayerAccuracy> ArtilleryAccuracy(const GameState& state);
std::string EventSummary(const GameEvent& event);

}  // namespace referee::report
