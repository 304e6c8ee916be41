// A rules-engine game set up from what the camera sees: the stands on the table grouped into
// units (engine/unit_grouping.hpp), each group given the ruleset unit type whose organisation
// holds its stand kinds, placed on its square and facing the way its stands face. The table's
// stand ids are kept beside each unit so the engine's results ("the unit loses a stand of line
// infantry") can be shown as the physical stands to take off.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "engine/board.hpp"
#include "engine/rules/game.hpp"
#include "engine/rules/ruleset_data.hpp"
#include "engine/stand.hpp"

namespace referee::live {

struct TableSetup {
  rules::GameSetup setup;
  // unit id -> table stand ids, parallel to GameUnit::stands (same order, same kinds).
  std::map<std::string, std::vector<std::string>> stand_ids;
  // Groups that became no unit, one line each (e.g. "red A3: no napoleonic unit type holds
  // stands of kinds supply_wagon, line_cavalry"); shown to the players before they start.
  std::vector<std::string> problems;
};

// Sides are taken in name order; the side whose units stand nearer the bottom (higher rows)
// has its home row at the bottom. first_attacker is side 0 (the players may swap it).
TableSetup SetupFromTable(const rules::RulesetData& rules, const Board& board,
                          const std::vector<Stand>& stands, const StandKindCatalog& catalog,
                          int agreed_turns);

// The ruleset unit type for a group of stand kinds: every kind must be part of the type's
// organisation; among those, the type with the fewest kinds the group lacks. "" when none.
std::string UnitTypeForKinds(const rules::RulesetData& rules,
                             const std::vector<std::string>& kinds);

// A group of one side's stands in one square read as the ruleset's units: a group no single
// unit type holds (an Ancient catapult with its crew: the catapult is a unit, its crew another,
// sharing the square) is split into units whose organisations hold its kinds, counts included.
struct UnitSplit {
  std::string type;             // ruleset unit type
  std::vector<size_t> members;  // indices into the kinds given
};
struct GroupReading {
  std::vector<UnitSplit> units;
  std::vector<size_t> unheld;  // stands no unit type of the ruleset takes
};
// One unit when UnitTypeForKinds holds every kind (as before); else the split with the fewest
// stands left over, then the fewest units, then the fewest stands missing from the units.
GroupReading ReadGroupAsUnits(const rules::RulesetData& rules,
                              const std::vector<std::string>& kinds);

}  // namespace referee::live
