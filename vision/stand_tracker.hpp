// Stand identities from one snapshot of the table to the next. Each new snapshot's stands are
// matched to the known ones by a minimum-cost assignment (sum of squared centre moves) that
// only allows pairs of the same side whose move fits the ruleset's allowance for that kind of
// stand; what is left over is a stand added (new id) or a stand not seen (kept a few snapshots
// in case a hand covered it, then removed). The user can correct any identity (Reassign).
//
// Typical use (the live session, once per still table):
//   StandTracker tracker(board.grid, catalog, MoveAllowanceFromRuleset(ruleset, catalog));
//   const TrackingUpdate u = tracker.Update(StandsOf(detection));  // stands carry track ids
//   ... user says "blue-3 is really blue-7": tracker.Reassign("blue-3", "blue-7");
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/front_edge_facing.hpp"
#include "engine/grid.hpp"
#include "engine/kind_resolution.hpp"
#include "engine/rules/ruleset_data.hpp"
#include "engine/stand.hpp"

namespace referee {

// How far (in squares, diagonals 1.5) a stand of each kind may move between two snapshots.
struct MoveAllowance {
  std::map<std::string, double> squares_by_kind;
  // Kinds the ruleset does not list. Default 0: such a stand may only stay in its square
  // (plus the tracker's slack).
  double unknown_kind_squares = 0.0;
  double SquaresFor(const std::string& kind) const;
};

// Per stand kind: the largest `move` of any unit type made of stands that look the same to the
// camera (same catalogue base size: a line and a light infantry base cannot be told apart),
// plus the melee retreat (`melee.retreat_squares`), which may follow a move within one turn.
// turns (default 1): how many turns may pass between two snapshots.
MoveAllowance MoveAllowanceFromRuleset(const rules::RulesetData& ruleset,
                                       const StandKindCatalog& catalog, int turns = 1);

struct StandTrackerOptions {
  // Extra move allowed on top of the ruleset's, squares. Default 1: a base whose centre sits on
  // a grid line may be counted in either square, and players nudge bases. Lower to 0.5 for
  // tidy players; raise if stands are re-placed loosely after melee.
  double slack_squares = 1.0;
  // Snapshots a stand may go unseen (covered by a hand, knocked over) before it is dropped.
  // Default 3; raise for long occlusions.
  int keep_missing_snapshots = 3;
  // Cost added to a pair whose base sizes differ (squared inches). Default 400 = as if moved
  // 20" further: the detector tells 40 x 20 from 40 x 30 reliably, so a stand of the same base
  // size wins unless none fits. Kinds sharing a base size cost nothing (the camera cannot tell
  // line from light infantry; the track keeps the kind it was given, see SetKind).
  double base_change_cost_in2 = 400.0;
};

struct Track {
  std::string id;  // "<side>-<n>", stable; or what the user named it
  Stand stand;     // last seen footprint and kind (stand.id == id)
  // Where stand.kind came from: the detector's size guess, the ruleset's organisations
  // (ResolveKindsByOrganisation) or the players. Kept with the kind while the base size agrees.
  KindSource kind_source = KindSource::kSize;
  // The players' answer to CONFIRM FACING (SetFacing): the base is turned to face that way at
  // every re-detection while it stays where it was when they said it.
  std::optional<ToldFacing> told_facing;
  int missed = 0;  // snapshots in a row it was not seen
  int seen = 0;    // snapshots it was seen in
};

struct TrackingUpdate {
  std::vector<Stand> stands;         // the observed stands, in input order, with track ids
  std::vector<std::string> added;    // ids new this snapshot
  std::vector<std::string> missing;  // ids not seen this snapshot but still kept
  std::vector<std::string> removed;  // ids dropped this snapshot (unseen too long)
};

class StandTracker {
 public:
  StandTracker(Grid grid, StandKindCatalog catalog, MoveAllowance allowance,
               StandTrackerOptions options = {});

  // One snapshot: the observed stands (their id is ignored). Returns them with track ids.
  TrackingUpdate Update(const std::vector<Stand>& observed);

  // User correction: the stand now called `current_id` is really `true_id`. If another track
  // holds `true_id`, the two swap ids. Returns false (and changes nothing) when current_id is
  // unknown or the two are on different sides.
  bool Reassign(const std::string& current_id, const std::string& true_id);

  // Correction of a kind (e.g. "that 40 x 20 base is light infantry"), by the players (kUser)
  // or from the organisations (kOrganisation). The track keeps it while the camera sees a base
  // of the same size; a re-detection never changes it. A kind of another size that one of the
  // base's other outlines has (a size the camera could not tell) puts the base at that outline,
  // now and at every re-detection that offers it again. False when id is unknown.
  bool SetKind(const std::string& id, const std::string& kind,
               KindSource source = KindSource::kUser);
  // A base reported with sizes the camera could not tell (Stand::other_outlines) put at the
  // outline of `kind`'s base size, if it offers one; false (unchanged) otherwise, and when
  // `kind` is of the size reported.
  bool AdoptOutlineOf(Stand& stand, const std::string& kind) const;
  // The players say which way a base faces (their answer to CONFIRM FACING: one overhead camera
  // cannot tell the front of a base without a front stripe). The track's stand is turned to
  // present that front, its facing known, now and at every re-detection while the base stays
  // where it was (StillWhereTold); moved or wheeled, it is the camera's again. False (nothing
  // changed) when id is unknown or its base cannot present that front.
  bool SetFacing(const std::string& id, Facing facing);
  // The facing the players gave the track, while it holds; nullopt otherwise.
  std::optional<Facing> ToldFacingOf(const std::string& id) const;
  // The source of the track's kind (kSize when id is unknown).
  KindSource KindSourceOf(const std::string& id) const;

  // A stand known from before the tracker started (a resumed game log): kept under its id with
  // its kind and that kind's source, as if seen in the last snapshot; the next Update matches it
  // like any track, and a facing the players gave it is kept as SetFacing keeps it. False
  // (nothing changed) when the id is empty or already tracked.
  bool Restore(const Stand& stand, KindSource source,
               std::optional<ToldFacing> told_facing = std::nullopt);

  // Every kept track, seen or missing, sorted by id.
  const std::vector<Track>& tracks() const { return tracks_; }
  // The stands seen in the last snapshot, with their ids.
  std::vector<Stand> VisibleStands() const;

  // Squares (diagonals 1.5) between two centres: square to square when both are on the board,
  // else the continuous octile distance.
  double MoveSquares(Vec2 from, Vec2 to) const;

 private:
  std::string NewId(const std::string& side);
  void SortTracks();

  bool SameBase(const std::string& kind_a, const std::string& kind_b) const;
  // The track's stand turned to its told facing when it still stands where it was told; the
  // told facing forgotten otherwise. True when the stand was turned.
  bool KeepToldFacing(Track& t) const;

  Grid grid_;
  StandKindCatalog catalog_;
  MoveAllowance allowance_;
  StandTrackerOptions options_;
  std::vector<Track> tracks_;
  std::map<std::string, int> next_number_;  // per side
};

}  // namespace referee
