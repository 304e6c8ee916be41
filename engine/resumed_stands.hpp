// The stands a resumed game log leaves on the table, as the live referee's stand tracker must
// know them again: where each stand was last logged (snapshots, hand moves), under the id the
// players last gave it ("is really" swaps) and with the kind they said it is ("is a": the camera
// cannot tell kinds of one base size apart, so that word must survive a restart).
#pragma once

#include <span>
#include <vector>

#include "engine/game_log.hpp"
#include "engine/kind_resolution.hpp"

namespace referee {

struct ResumedStand {
  SnapshotStand stand;
  // kUser when a "stand_kind" correction set the kind (and no later snapshot saw a base of
  // another size under that id); kSize otherwise: the log does not say how other kinds were read.
  KindSource kind_source = KindSource::kSize;
};

// Folds the events in order, undone ones skipped: "snapshot" replaces the table, corrections of
// subject "stand", "remove_stand", "stand_kind" and "stand_identity" (value {"stand", "is"}: the
// two ids swap) and "casualties_removed" change it. Sorted by id.
std::vector<ResumedStand> StandsToResume(std::span<const GameEvent> events);

}  // namespace referee
