#include "ui/live/table_setup.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "engine/input_error.hpp"
#include "engine/unit_grouping.hpp"

namespace referee::live {

namespace {

// Mean heading of the stands (deg from +x toward +y), as the unit's facing.
Facing FacingOf(const std::vector<const Stand*>& stands) {
  Vec2 sum{0, 0};
  for (const Stand* s : stands) sum = sum + s->footprint.FacingDir();
  if (Norm(sum) < 1e-9) return Facing::kN;
  return NearestFacing(RadToDeg(std::atan2(sum.y, sum.x)));
}

std::string JoinKinds(const std::vector<std::string>& kinds) {
  std::string out;
  for (const auto& k : std::set<std::string>(kinds.begin(), kinds.end())) {
    out += (out.empty() ? "" : ", ") + k;
  }
  return out;
}

// Every way to cut a group into units of the ruleset, keeping the best (see ReadGroupAsUnits).
class GroupSplitter {
 public:
  GroupSplitter(const rules::RulesetData& rules, const std::vector<std::string>& kinds)
      : rules_(rules), kinds_(kinds), used_(kinds.size(), false) {}

  GroupReading Best() {
    Search();
    return best_;
  }

 private:
  auto Key(const GroupReading& r, int missing) const {
    return std::tuple(r.unheld.size(), r.units.size(), missing);
  }

  void Search() {
    if (found_ && now_.unheld.size() > best_.unheld.size()) return;
    const auto first = std::ranges::find(used_, false);
    if (first == used_.end()) {
      if (!found_ || Key(now_, missing_) < Key(best_, best_missing_)) {
        best_ = now_;
        best_missing_ = missing_;
        found_ = true;
      }
      return;
    }
    const auto i = static_cast<size_t>(first - used_.begin());
    for (const auto& [name, type] : rules_.unit_types) {
      const auto own = type.stands.find(kinds_[i]);
      if (own == type.stands.end() || own->second <= 0) continue;
      // The unit takes as many of the group's stands as its organisation holds, in order.
      std::map<std::string, int> room(type.stands.begin(), type.stands.end());
      UnitSplit unit{name, {}};
      for (size_t j = i; j < kinds_.size(); ++j) {
        auto it = room.find(kinds_[j]);
        if (used_[j] || it == room.end() || it->second <= 0) continue;
        --it->second;
        used_[j] = true;
        unit.members.push_back(j);
      }
      int missing = 0;
      for (const auto& kv : room) missing += std::max(0, kv.second);
      now_.units.push_back(unit);
      missing_ += missing;
      Search();
      missing_ -= missing;
      now_.units.pop_back();
      for (size_t j : unit.members) used_[j] = false;
    }
    used_[i] = true;
    now_.unheld.push_back(i);
    Search();
    now_.unheld.pop_back();
    used_[i] = false;
  }

  const rules::RulesetData& rules_;
  const std::vector<std::string>& kinds_;
  std::vector<bool> used_;
  GroupReading now_, best_;
  int missing_ = 0, best_missing_ = 0;
  bool found_ = false;
};

}  // namespace

GroupReading ReadGroupAsUnits(const rules::RulesetData& rules,
                              const std::vector<std::string>& kinds) {
  if (kinds.empty()) return {};
  if (std::string type = UnitTypeForKinds(rules, kinds); !type.empty()) {
    GroupReading one;
    one.units.push_back({std::move(type), {}});
    for (size_t i = 0; i < kinds.size(); ++i) one.units.back().members.push_back(i);
    return one;
  }
  return GroupSplitter(rules, kinds).Best();
}

std::string UnitTypeForKinds(const rules::RulesetData& rules,
                             const std::vector<std::string>& kinds) {
  const std::set<std::string> have(kinds.begin(), kinds.end());
  std::string best;
  size_t best_missing = std::numeric_limits<size_t>::max();
  for (const auto& entry : rules.unit_types) {
    const std::string& name = entry.first;
    const rules::UnitType& type = entry.second;
    if (!std::ranges::all_of(have, [&](const auto& k) { return type.stands.contains(k); })) {
      continue;
    }
    const size_t missing = type.stands.size() - have.size();
    if (missing < best_missing) {
      best_missing = missing;
      best = name;
    }
  }
  return best;
}

TableSetup SetupFromTable(const rules::RulesetData& rules, const Board& board,
                          const std::vector<Stand>& stands, const StandKindCatalog& catalog,
                          int agreed_turns) {
  TableSetup out;
  out.setup.board = board;
  out.setup.agreed_turns = agreed_turns;
  // The ruleset's own stacking rules (Ancient: catapults and crews are artillery, wagons are
  // not); Napoleonic's for a ruleset square_stacking.json does not list.
  std::optional<SquareStacking> stacking;
  try {
    stacking = LoadSquareStacking(rules.name);
  } catch (const InputError&) {
    stacking.reset();
  }
  const UnitGrouping grouping = stacking
                                    ? GroupStandsIntoUnits(board.grid, stands, catalog, *stacking)
                                    : GroupStandsIntoUnits(board.grid, stands, catalog);
  std::map<std::string, const Stand*> by_id;
  for (const auto& s : stands) by_id[s.id] = &s;

  std::set<std::string> side_names;
  for (const auto& u : grouping.units) side_names.insert(u.side);
  if (side_names.size() != 2) {
    out.problems.push_back("the table shows " + std::to_string(side_names.size()) +
                           " side(s); a game needs two");
    return out;
  }
  const std::vector<std::string> sides(side_names.begin(), side_names.end());
  std::map<std::string, double> row_sum, row_count;
  std::map<std::string, int> numbered;  // side/type -> units so far, for "red/line_infantry#2"

  auto add_one = [&](const std::string& side, Square square, const std::string& type,
                     const std::vector<const Stand*>& group, const std::vector<std::string>& ids,
                     const std::vector<std::string>& kinds) {
    rules::GameUnit u;
    u.id = side + "/" + type + "#" + std::to_string(++numbered[side + "/" + type]);
    u.side = side;
    u.type = type;
    u.square = square;
    u.facing = FacingOf(group);
    u.facing_at_turn_start = u.facing;
    u.stands = kinds;
    out.stand_ids[u.id] = ids;
    out.setup.units.push_back(std::move(u));
    row_sum[side] += square.row;
    row_count[side] += 1;
  };
  auto add_unit = [&](const std::string& side, Square square, const std::vector<std::string>& ids,
                      bool artillery) {
    std::vector<std::string> kinds;
    kinds.reserve(ids.size());
    for (const auto& id : ids) kinds.push_back(by_id.at(id)->kind);
    // Artillery "may form in any way": a catapult and its crew are two units in one square.
    // Troops of two kinds in one square break the one-unit rule: the players are told.
    GroupReading reading;
    if (artillery) {
      reading = ReadGroupAsUnits(rules, kinds);
    } else if (std::string type = UnitTypeForKinds(rules, kinds); !type.empty()) {
      reading.units.push_back({std::move(type), {}});
      for (size_t i = 0; i < ids.size(); ++i) reading.units.back().members.push_back(i);
    } else {
      for (size_t i = 0; i < ids.size(); ++i) reading.unheld.push_back(i);
    }
    if (!reading.unheld.empty()) {
      std::vector<std::string> left;
      for (size_t i : reading.unheld) left.push_back(kinds[i]);
      out.problems.push_back(side + " " + SquareName(square) + ": no " + rules.name +
                             " unit type holds stands of kinds " + JoinKinds(left));
    }
    for (const UnitSplit& split : reading.units) {
      std::vector<const Stand*> group;
      std::vector<std::string> unit_ids, unit_kinds;
      for (size_t i : split.members) {
        group.push_back(by_id.at(ids[i]));
        unit_ids.push_back(ids[i]);
        unit_kinds.push_back(kinds[i]);
      }
      add_one(side, square, split.type, group, unit_ids, unit_kinds);
    }
  };

  for (const auto& u : grouping.units) {
    if (!u.stand_ids.empty()) {
      add_unit(u.side, u.square, u.stand_ids, u.type == UnitType::kArtillery);
    }
    // A commander is a unit of its own in the rules, sharing the square it joined.
    if (u.commander_id) add_unit(u.side, u.square, {*u.commander_id}, false);
  }
  for (const auto& id : grouping.off_board) out.problems.push_back(id + " is off the board");
  for (const auto& i : grouping.issues) {
    out.problems.push_back(i.side + " " + SquareName(i.square) + ": " + i.what);
  }
  auto mean_row = [&](const std::string& side) {
    return row_count[side] > 0 ? row_sum[side] / row_count[side] : 0.0;
  };
  const bool first_is_bottom = mean_row(sides[0]) >= mean_row(sides[1]);
  const int bottom = board.grid.rows - 1;
  out.setup.sides[0] = {sides[0], first_is_bottom ? bottom : 0};
  out.setup.sides[1] = {sides[1], first_is_bottom ? 0 : bottom};
  out.setup.first_attacker = 0;
  return out;
}

}  // namespace referee::live
