#include "ui/live/table_setup.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

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

}  // namespace

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
  const UnitGrouping grouping = GroupStandsIntoUnits(board.grid, stands, catalog);
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

  auto add_unit = [&](const std::string& side, Square square, const std::vector<std::string>& ids) {
    std::vector<const Stand*> group;
    std::vector<std::string> kinds;
    for (const auto& id : ids) {
      group.push_back(by_id.at(id));
      kinds.push_back(by_id.at(id)->kind);
    }
    const std::string type = UnitTypeForKinds(rules, kinds);
    if (type.empty()) {
      out.problems.push_back(side + " " + SquareName(square) + ": no " + rules.name +
                             " unit type holds stands of kinds " + JoinKinds(kinds));
      return;
    }
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

  for (const auto& u : grouping.units) {
    if (!u.stand_ids.empty()) add_unit(u.side, u.square, u.stand_ids);
    // A commander is a unit of its own in the rules, sharing the square it joined.
    if (u.commander_id) add_unit(u.side, u.square, {*u.commander_id});
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
