#include "vision/stand_tracker.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "vision/min_cost_assignment.hpp"

namespace referee {

double MoveAllowance::SquaresFor(const std::string& kind) const {
  const auto it = squares_by_kind.find(kind);
  return it != squares_by_kind.end() ? it->second : unknown_kind_squares;
}

MoveAllowance MoveAllowanceFromRuleset(const rules::RulesetData& ruleset,
                                       const StandKindCatalog& catalog, int turns) {
  // Fastest unit type each kind appears in.
  std::map<std::string, double> own;
  for (const auto& [name, type] : ruleset.unit_types) {
    for (const auto& [kind, count] : type.stands) {
      if (count > 0) own[kind] = std::max(own[kind], type.move);
    }
  }
  MoveAllowance out;
  const double per_turn_extra = ruleset.melee.retreat_squares;
  for (const auto& [name, kind] : catalog.kinds) {
    double move = -1;
    for (const auto& [other, squares] : own) {
      const StandKind* k = catalog.Find(other);
      if (other == name || (k != nullptr && SameBaseSize(*k, kind))) move = std::max(move, squares);
    }
    if (move >= 0) out.squares_by_kind[name] = std::max(1, turns) * (move + per_turn_extra);
  }
  return out;
}

StandTracker::StandTracker(Grid grid, StandKindCatalog catalog, MoveAllowance allowance,
                           StandTrackerOptions options)
    : grid_(grid),
      catalog_(std::move(catalog)),
      allowance_(std::move(allowance)),
      options_(options) {}

bool StandTracker::SameBase(const std::string& kind_a, const std::string& kind_b) const {
  return referee::SameBase(catalog_, kind_a, kind_b);
}

bool StandTracker::AdoptOutlineOf(Stand& stand, const std::string& kind) const {
  return referee::AdoptOutlineOf(stand, kind, catalog_);
}

bool StandTracker::SetKind(const std::string& id, const std::string& kind, KindSource source) {
  for (auto& t : tracks_) {
    if (t.id != id) continue;
    // The players' answer to a size the camera could not tell: the base takes that outline.
    AdoptOutlineOf(t.stand, kind);
    t.stand.kind = kind;
    t.kind_source = source;
    return true;
  }
  return false;
}

bool StandTracker::SetFacing(const std::string& id, Facing facing) {
  for (auto& t : tracks_) {
    if (t.id != id) continue;
    const std::optional<Stand> turned = TurnedToFace(t.stand, catalog_.Find(t.stand.kind), facing);
    if (!turned) return false;
    t.stand = *turned;
    t.told_facing = ToldFacing{facing, t.stand.footprint};
    return true;
  }
  return false;
}

std::optional<Facing> StandTracker::ToldFacingOf(const std::string& id) const {
  for (const auto& t : tracks_) {
    if (t.id == id && t.told_facing) return t.told_facing->facing;
  }
  return std::nullopt;
}

bool StandTracker::KeepToldFacing(Track& t) const {
  if (!t.told_facing) return false;
  std::optional<Stand> turned;
  if (StillWhereTold(*t.told_facing, t.stand.footprint))
    turned = TurnedToFace(t.stand, catalog_.Find(t.stand.kind), t.told_facing->facing);
  if (!turned) {
    t.told_facing.reset();
    return false;
  }
  t.stand = *std::move(turned);
  return true;
}

KindSource StandTracker::KindSourceOf(const std::string& id) const {
  for (const auto& t : tracks_) {
    if (t.id == id) return t.kind_source;
  }
  return KindSource::kSize;
}

bool StandTracker::Restore(const Stand& stand, KindSource source,
                           std::optional<ToldFacing> told_facing) {
  if (stand.id.empty() || std::any_of(tracks_.begin(), tracks_.end(),
                                      [&](const Track& t) { return t.id == stand.id; })) {
    return false;
  }
  Track t;
  t.id = stand.id;
  t.stand = stand;
  t.kind_source = source;
  t.told_facing = told_facing;
  KeepToldFacing(t);
  tracks_.push_back(std::move(t));
  SortTracks();
  return true;
}

double StandTracker::MoveSquares(Vec2 from, Vec2 to) const {
  const auto a = grid_.SquareOf(from), b = grid_.SquareOf(to);
  if (a && b) return MoveCost(*a, *b);
  const double dx = std::abs(to.x - from.x) / grid_.square_size_in;
  const double dy = std::abs(to.y - from.y) / grid_.square_size_in;
  return std::max(dx, dy) + 0.5 * std::min(dx, dy);
}

std::string StandTracker::NewId(const std::string& side) {
  for (;;) {
    std::string id = side + "-" + std::to_string(++next_number_[side]);
    const bool taken =
        std::any_of(tracks_.begin(), tracks_.end(), [&](const Track& t) { return t.id == id; });
    if (!taken) return id;
  }
}

void StandTracker::SortTracks() {
  std::sort(tracks_.begin(), tracks_.end(),
            [](const Track& a, const Track& b) { return a.id < b.id; });
}

TrackingUpdate StandTracker::Update(const std::vector<Stand>& observed) {
  const size_t nt = tracks_.size(), no = observed.size();
  // Rows: known tracks, then one "new stand" row per observation. Columns: observations, then
  // one "not seen" column per track. Leaving a track unseen and starting a new one costs more
  // than any allowed move, so the assignment keeps as many identities as the rules allow and
  // among those moves stands the least (squared distance: a unit that advanced keeps its order).
  double max_move_cost = 1.0;
  std::vector<std::vector<double>> cost(nt + no, std::vector<double>(no + nt, kForbiddenCost));
  for (size_t i = 0; i < nt; ++i) {
    const Track& t = tracks_[i];
    for (size_t j = 0; j < no; ++j) {
      const Stand& o = observed[j];
      if (o.side != t.stand.side) continue;
      const double allowed =
          allowance_.SquaresFor(t.stand.kind) * (t.missed + 1) + options_.slack_squares;
      if (MoveSquares(t.stand.footprint.center, o.footprint.center) > allowed + 1e-9) continue;
      const Vec2 d = o.footprint.center - t.stand.footprint.center;
      double c = Dot(d, d);
      if (!SameBase(o.kind, t.stand.kind)) c += options_.base_change_cost_in2;
      cost[i][j] = c;
      max_move_cost = std::max(max_move_cost, c);
    }
  }
  const double unmatched = 4.0 * max_move_cost * static_cast<double>(nt + no + 1);
  for (size_t i = 0; i < nt; ++i) cost[i][no + i] = unmatched;
  for (size_t j = 0; j < no; ++j) {
    cost[nt + j][j] = unmatched;
    for (size_t i = 0; i < nt; ++i) cost[nt + j][no + i] = 0.0;
  }
  const std::vector<int> col_of_row = MinCostAssignment(cost);

  TrackingUpdate u;
  u.stands = observed;
  std::vector<bool> track_seen(nt, false);
  for (size_t i = 0; i < nt; ++i) {
    const int j = col_of_row[i];
    if (j < 0 || static_cast<size_t>(j) >= no) continue;
    Track& t = tracks_[i];
    track_seen[i] = true;
    const std::string kept_kind = t.stand.kind;
    t.stand = observed[static_cast<size_t>(j)];
    t.stand.id = t.id;
    // A size the camera could not tell, named by the players before: that outline again.
    if (t.kind_source == KindSource::kUser && AdoptOutlineOf(t.stand, kept_kind)) {
      u.stands[static_cast<size_t>(j)].footprint = t.stand.footprint;
      u.stands[static_cast<size_t>(j)].other_outlines.clear();
    }
    // Same base size: the kind given before (army file, organisation, user) beats the
    // size-based guess; a base of another size is a new guess.
    if (SameBase(kept_kind, t.stand.kind)) {
      t.stand.kind = kept_kind;
    } else {
      t.kind_source = KindSource::kSize;
    }
    u.stands[static_cast<size_t>(j)].kind = t.stand.kind;
    // Which way it faces, as the players said, while it stands where they said it.
    if (KeepToldFacing(t)) {
      u.stands[static_cast<size_t>(j)].footprint = t.stand.footprint;
      u.stands[static_cast<size_t>(j)].facing_known = true;
    }
    t.missed = 0;
    ++t.seen;
    u.stands[static_cast<size_t>(j)].id = t.id;
  }
  std::vector<Track> kept;
  for (size_t i = 0; i < nt; ++i) {
    Track& t = tracks_[i];
    if (!track_seen[i]) {
      if (++t.missed > options_.keep_missing_snapshots) {
        u.removed.push_back(t.id);
        continue;
      }
      u.missing.push_back(t.id);
    }
    kept.push_back(std::move(t));
  }
  tracks_ = std::move(kept);
  for (size_t j = 0; j < no; ++j) {
    if (col_of_row[nt + j] != static_cast<int>(j)) continue;  // matched to a track
    Track t;
    t.id = NewId(observed[j].side);
    t.stand = observed[j];
    t.stand.id = t.id;
    t.seen = 1;
    u.stands[j].id = t.id;
    u.added.push_back(t.id);
    tracks_.push_back(std::move(t));
  }
  SortTracks();
  return u;
}

bool StandTracker::Reassign(const std::string& current_id, const std::string& true_id) {
  auto find = [&](const std::string& id) {
    return std::find_if(tracks_.begin(), tracks_.end(), [&](const Track& t) { return t.id == id; });
  };
  const auto cur = find(current_id);
  if (cur == tracks_.end() || true_id.empty()) return false;
  if (current_id == true_id) return true;
  const auto other = find(true_id);
  if (other != tracks_.end()) {
    if (other->stand.side != cur->stand.side) return false;
    other->id = current_id;
    other->stand.id = current_id;
  }
  cur->id = true_id;
  cur->stand.id = true_id;
  SortTracks();
  return true;
}

std::vector<Stand> StandTracker::VisibleStands() const {
  std::vector<Stand> out;
  for (const auto& t : tracks_) {
    if (t.missed == 0) out.push_back(t.stand);
  }
  return out;
}

}  // namespace referee
