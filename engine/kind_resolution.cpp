#include "engine/kind_resolution.hpp"

#include "engine/rules/ruleset_loader.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <set>
#include <tuple>
#include <utility>

namespace referee {

namespace {

// Kinds any unit organisation of the ruleset holds.
std::set<std::string> OrganisationKinds(const rules::RulesetData& ruleset) {
  std::set<std::string> out;
  for (const auto& entry : ruleset.unit_types) {
    for (const auto& [kind, count] : entry.second.stands) {
      if (count > 0) out.insert(kind);
    }
  }
  return out;
}

enum class Role { kTroops, kArtillery, kCommander };

struct CellStand {
  size_t index = 0;  // into the input
  std::string kind;  // as given
  KindSource source = KindSource::kSize;
  std::vector<std::string> candidates;  // ordered: preferred kinds first, then by name
  Vec2 center;
};

// Lower is better, compared in this order (see the header).
struct Score {
  int excess = 0;
  int orphan_crews = 0;
  int units = 0;
  int missing_plus_chosen_changed = 0;
  int chosen_changed = 0;
  int guesses_changed = 0;
  int preference = 0;
  auto Key() const {
    return std::tie(excess, orphan_crews, units, missing_plus_chosen_changed, chosen_changed,
                    guesses_changed, preference);
  }
};

struct Reading {
  Score score;
  std::vector<std::string> kinds;  // parallel to the cell's stands
  std::vector<bool> held;          // the kind is within an organisation's count
  std::vector<std::string> types;
};

class CellReader {
 public:
  CellReader(const std::vector<CellStand>& stands, const StandKindCatalog& catalog,
             const rules::RulesetData& ruleset, const std::vector<std::string>& preference)
      : stands_(stands), catalog_(catalog), ruleset_(ruleset), preference_(preference) {}

  int Rank(const std::string& kind) const {
    const auto it = std::ranges::find(preference_, kind);
    return static_cast<int>(it - preference_.begin());
  }

  Reading Read(const std::vector<std::string>& types) const {
    std::map<std::string, int> remaining;
    for (const auto& t : types) {
      for (const auto& [kind, count] : ruleset_.unit_types.at(t).stands) remaining[kind] += count;
    }
    const size_t n = stands_.size();
    Reading r;
    r.types = types;
    r.kinds.assign(n, "");
    r.held.assign(n, false);
    auto take = [&](size_t i, const std::string& kind) {
      r.kinds[i] = kind;
      auto it = remaining.find(kind);
      if (it != remaining.end() && it->second > 0) {
        --it->second;
        r.held[i] = true;
      }
    };
    // The players' kinds first, then kinds the stands already have (chosen before first), then
    // the rest left to right into what the organisations still lack.
    for (size_t i = 0; i < n; ++i) {
      if (stands_[i].source == KindSource::kUser) take(i, stands_[i].kind);
    }
    for (const KindSource pass : {KindSource::kOrganisation, KindSource::kSize}) {
      for (size_t i = 0; i < n; ++i) {
        if (stands_[i].source != pass) continue;
        auto it = remaining.find(stands_[i].kind);
        if (it != remaining.end() && it->second > 0) take(i, stands_[i].kind);
      }
    }
    for (size_t i = 0; i < n; ++i) {
      if (!r.kinds[i].empty()) continue;
      for (const auto& k : stands_[i].candidates) {
        auto it = remaining.find(k);
        if (it != remaining.end() && it->second > 0) {
          take(i, k);
          break;
        }
      }
      if (r.kinds[i].empty()) r.kinds[i] = stands_[i].kind;  // held by no organisation
    }

    Score& s = r.score;
    bool equipment = false;
    int crews = 0;
    for (size_t i = 0; i < n; ++i) {
      const StandCategory c = catalog_.Find(r.kinds[i])->category;
      equipment = equipment || IsEquipment(c);
      // A crew read from a size guess must serve equipment in its square; a crew known before
      // may have lost its gun.
      crews += IsCrew(c) && stands_[i].source == KindSource::kSize ? 1 : 0;
      s.excess += r.held[i] ? 0 : 1;
      const bool changed = r.kinds[i] != stands_[i].kind;
      if (changed && stands_[i].source == KindSource::kOrganisation) ++s.chosen_changed;
      if (changed && stands_[i].source == KindSource::kSize) ++s.guesses_changed;
      if (stands_[i].candidates.size() > 1) s.preference += Rank(r.kinds[i]);
    }
    s.orphan_crews = equipment ? 0 : crews;
    s.units = static_cast<int>(types.size());
    for (const auto& [kind, left] : remaining) s.missing_plus_chosen_changed += left;
    s.missing_plus_chosen_changed += s.chosen_changed;
    return r;
  }

 private:
  const std::vector<CellStand>& stands_;
  const StandKindCatalog& catalog_;
  const rules::RulesetData& ruleset_;
  const std::vector<std::string>& preference_;
};

Role RoleOf(const rules::UnitType& type, const StandKindCatalog& catalog,
            const SquareStacking& stacking) {
  bool all_commander = true, all_artillery = true;
  for (const auto& [kind, count] : type.stands) {
    const StandKind* k = catalog.Find(kind);
    if (k == nullptr) return Role::kTroops;
    all_commander = all_commander && k->category == StandCategory::kCommander;
    all_artillery = all_artillery && stacking.IsArtillery(k->category);
  }
  if (all_commander) return Role::kCommander;
  return all_artillery ? Role::kArtillery : Role::kTroops;
}

// Every way to read a cell: at most one troop type, up to three artillery types, at most one
// commander, each type holding at least one kind a stand there may be.
std::vector<std::vector<std::string>> Readings(const std::vector<CellStand>& stands,
                                               const StandKindCatalog& catalog,
                                               const rules::RulesetData& ruleset,
                                               const SquareStacking& stacking) {
  std::set<std::string> possible;
  for (const auto& s : stands) {
    if (s.source == KindSource::kUser) {
      possible.insert(s.kind);
    } else {
      possible.insert(s.candidates.begin(), s.candidates.end());
    }
  }
  std::array<std::vector<std::string>, 3> by_role;
  for (const auto& [name, type] : ruleset.unit_types) {
    const bool relevant = std::ranges::any_of(
        type.stands, [&](const auto& kc) { return kc.second > 0 && possible.contains(kc.first); });
    if (relevant) by_role[static_cast<size_t>(RoleOf(type, catalog, stacking))].push_back(name);
  }
  const auto& troops = by_role[static_cast<size_t>(Role::kTroops)];
  const auto& artillery = by_role[static_cast<size_t>(Role::kArtillery)];
  const auto& commanders = by_role[static_cast<size_t>(Role::kCommander)];
  std::vector<std::vector<std::string>> art_sets = {{}};
  for (size_t a = 0; a < artillery.size(); ++a) {
    art_sets.push_back({artillery[a]});
    for (size_t b = a + 1; b < artillery.size(); ++b) {
      art_sets.push_back({artillery[a], artillery[b]});
      for (size_t c = b + 1; c < artillery.size(); ++c) {
        art_sets.push_back({artillery[a], artillery[b], artillery[c]});
      }
    }
  }
  std::vector<std::vector<std::string>> out;
  for (int t = -1; t < static_cast<int>(troops.size()); ++t) {
    for (const auto& arts : art_sets) {
      for (int c = -1; c < static_cast<int>(commanders.size()); ++c) {
        std::vector<std::string> types;
        if (t >= 0) types.push_back(troops[static_cast<size_t>(t)]);
        types.insert(types.end(), arts.begin(), arts.end());
        if (c >= 0) types.push_back(commanders[static_cast<size_t>(c)]);
        out.push_back(std::move(types));  // the empty reading too: nothing fits
      }
    }
  }
  return out;
}

std::string Join(const std::vector<std::string>& v, const std::string& sep) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : sep) + s;
  return out;
}

}  // namespace

std::string KindSourceName(KindSource s) {
  switch (s) {
    case KindSource::kSize:
      return "size";
    case KindSource::kOrganisation:
      return "organisation";
    case KindSource::kUser:
      return "user";
  }
  return "size";
}

std::optional<KindSource> ParseKindSource(const std::string& name) {
  for (const KindSource s : {KindSource::kSize, KindSource::kOrganisation, KindSource::kUser}) {
    if (KindSourceName(s) == name) return s;
  }
  return std::nullopt;
}

std::vector<std::string> KindsOfSameBase(const std::string& kind, const StandKindCatalog& catalog,
                                         const rules::RulesetData& ruleset) {
  const StandKind* k = catalog.Find(kind);
  if (k == nullptr) return {};
  std::set<std::string> out = {kind};
  for (const auto& other : OrganisationKinds(ruleset)) {
    const StandKind* o = catalog.Find(other);
    if (o != nullptr && SameBaseSize(*k, *o)) out.insert(other);
  }
  return {out.begin(), out.end()};
}

KindResolution ResolveKindsByOrganisation(const Grid& grid, const std::vector<Stand>& stands,
                                          const std::vector<KindSource>& sources,
                                          const StandKindCatalog& catalog,
                                          const rules::RulesetData& ruleset,
                                          const SquareStacking& stacking,
                                          const std::vector<std::string>& kind_preference) {
  KindResolution out;
  out.stands = stands;
  out.sources = sources;
  out.sources.resize(stands.size(), KindSource::kSize);
  std::map<std::pair<std::string, Square>, std::vector<CellStand>> cells;
  for (size_t i = 0; i < stands.size(); ++i) {
    const Stand& s = stands[i];
    const auto sq = grid.SquareOf(s.footprint.center);
    if (!sq || catalog.Find(s.kind) == nullptr) continue;
    CellStand c;
    c.index = i;
    c.kind = s.kind;
    c.source = out.sources[i];
    c.center = s.footprint.center;
    c.candidates = KindsOfSameBase(s.kind, catalog, ruleset);
    cells[{s.side, *sq}].push_back(std::move(c));
  }
  for (auto& [key, cell] : cells) {
    // A lone base shows no organisation (a unit worn down to one stand, a commander, a gun
    // whose crew fell): its size guess stands.
    if (cell.size() < 2) continue;
    // Left to right (then top to bottom): which base gets which inferred kind.
    std::ranges::sort(cell, [](const CellStand& a, const CellStand& b) {
      return std::tie(a.center.x, a.center.y, a.index) < std::tie(b.center.x, b.center.y, b.index);
    });
    for (auto& c : cell) {
      std::ranges::stable_sort(c.candidates, [&](const std::string& a, const std::string& b) {
        const auto ra = std::ranges::find(kind_preference, a) - kind_preference.begin();
        const auto rb = std::ranges::find(kind_preference, b) - kind_preference.begin();
        return ra < rb;
      });
    }
    const CellReader reader(cell, catalog, ruleset, kind_preference);
    std::optional<Reading> best;
    for (const auto& types : Readings(cell, catalog, ruleset, stacking)) {
      Reading r = reader.Read(types);
      if (!best || r.score.Key() < best->score.Key()) best = std::move(r);
    }
    for (size_t i = 0; i < cell.size(); ++i) {
      const CellStand& c = cell[i];
      if (c.source == KindSource::kUser) continue;
      out.stands[c.index].kind = best->kinds[i];
      if (best->held[i] && c.candidates.size() > 1)
        out.sources[c.index] = KindSource::kOrganisation;
    }
    if (!best->types.empty()) {
      out.readings.push_back(key.first + " " + SquareName(key.second) + ": " +
                             Join(best->types, " + "));
    }
  }
  return out;
}

KindResolution ResolveKindsByOrganisation(const Grid& grid, const std::vector<Stand>& stands,
                                          const StandKindCatalog& catalog,
                                          const std::string& ruleset_name,
                                          const std::vector<std::string>& kind_preference) {
  return ResolveKindsByOrganisation(grid, stands, {}, catalog, rules::LoadRuleset(ruleset_name),
                                    LoadSquareStacking(ruleset_name), kind_preference);
}

}  // namespace referee
