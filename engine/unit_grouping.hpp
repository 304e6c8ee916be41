// Stands -> units, by the ruleset's stacking rules (engine/rulesets/square_stacking.json, e.g.
// Napoleonic ORGANIZATION C, Ancient MOVEMENT 2) read from the table:
//  - a unit is the stands of one side whose centres lie in one square;
//  - artillery (the ruleset's artillery categories: guns, catapults, wagons, crews) forms its
//    own group in a square ("artillery may form in any way"), separate from the troops there;
//  - a commander joins the troops in its square, else the artillery there, else stands alone
//    ("commanders may join any unit").
// Breaches of the stacking limits (two kinds of troops of one side in a square when the ruleset
// allows one unit, more stands of a category than its limit) are reported, not corrected: the
// rules engine decides what they mean. Game state (which stands belong to which regiment) is
// the rules engine's job; this is only what the table shows.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "engine/data_paths.hpp"
#include "engine/grid.hpp"
#include "engine/stand.hpp"

namespace referee {

enum class UnitType { kTroops, kArtillery, kCommander };
std::string UnitTypeName(UnitType t);

struct TableUnit {
  std::string side;
  Square square;
  UnitType type = UnitType::kTroops;
  std::vector<std::string> stand_ids;       // troops or artillery stands, sorted
  std::optional<std::string> commander_id;  // attached commander (or the lone commander)
};

struct GroupingIssue {
  std::string side;
  Square square;
  std::string what;  // e.g. "3 guns in one square (at most 2, Napoleonic 1C)"
};

struct UnitGrouping {
  std::vector<TableUnit> units;  // sorted by side, square, type
  std::vector<GroupingIssue> issues;
  std::vector<std::string> off_board;  // ids whose centre is off the board (or kind unknown)
};

// One ruleset's stacking rules (an entry of square_stacking.json).
struct StackingLimit {
  std::vector<StandCategory> categories;
  int max = 0;
  std::string what;  // plural noun for reports, e.g. "guns"
};
struct SquareStacking {
  std::string ruleset;  // e.g. "napoleonic"
  std::vector<StandCategory> artillery;
  bool one_troop_kind_per_square = true;
  std::vector<StackingLimit> limits;
  bool IsArtillery(StandCategory c) const;
};

// The entry for `ruleset` ("napoleonic", "ancient", ...). Throws InputError naming the file and
// field when the file is unreadable, the ruleset is absent or a field is wrong.
SquareStacking LoadSquareStacking(const std::string& ruleset,
                                  const std::filesystem::path& path = RulesetDir() /
                                                                      "square_stacking.json");

UnitGrouping GroupStandsIntoUnits(const Grid& grid, const std::vector<Stand>& stands,
                                  const StandKindCatalog& catalog, const SquareStacking& stacking);
// Napoleonic stacking, loaded from square_stacking.json on each call (keep a SquareStacking and
// use the overload above on a hot path).
UnitGrouping GroupStandsIntoUnits(const Grid& grid, const std::vector<Stand>& stands,
                                  const StandKindCatalog& catalog);

}  // namespace referee
