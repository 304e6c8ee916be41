// The stands a game log leaves on the table, folded once for every reader: FoldGameLog (replay,
// `referee log`, reports, the club's results) and `referee live --resume` (the stand tracker).
// Where each stand was last logged (snapshots, hand moves), under the id the players last gave
// it ("is really" swaps) and with the kind they said it is ("is a": the camera cannot tell kinds
// of one base size apart, so that word must survive a restart).
#pragma once

#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/front_edge_facing.hpp"
#include "engine/game_log.hpp"
#include "engine/kind_resolution.hpp"

namespace referee {

struct FoldedStand {
  SnapshotStand stand;
  // kUser when a "stand_kind" correction set the kind (and no later snapshot or hand move saw a
  // base of another kind under that id); kSize otherwise: the log does not say how other kinds
  // were read.
  KindSource kind_source = KindSource::kSize;
  // A "stand_facing" correction (the players' answer to CONFIRM FACING), kept while the stand
  // is logged where it stood then (StillWhereTold).
  std::optional<ToldFacing> told_facing;
};

// Folds counted events one at a time (the caller skips undone events and the undos).
// "snapshot" replaces the table; "casualties_removed" and corrections of subject "stand"
// (moved or added), "remove_stand", "stand_kind", "stand_facing" (value {"stand", "faces",
// "from", "footprint"}: the stand as the players turned it) and "stand_identity" (value
// {"stand", "is"}:
// the stand called `stand` is really `is`; the two swap ids when both exist, each keeping its
// place and kind) change it. Other events change nothing here.
class StandFold {
 public:
  void Apply(const GameEvent& event);
  const std::map<std::string, FoldedStand>& stands() const { return stands_; }
  // The stands by id, as GameState::stands holds them.
  std::map<std::string, SnapshotStand> Positions() const;

 private:
  void ApplyCorrection(const Correction& c);
  std::map<std::string, FoldedStand> stands_;
};

// Every counted event of `events` folded (undone ones skipped); sorted by id.
std::vector<FoldedStand> FoldStands(std::span<const GameEvent> events);

}  // namespace referee
