// Stands -> units, by the Napoleonic organisation rules (1C, 4B, 9) read from the table:
//  - a unit is the stands of one side whose centres lie in one square;
//  - artillery (guns, howitzers, catapults, wagons, crews) forms its own group in a square
//    ("artillery may form in any way"), separate from the troops there;
//  - a commander joins the troops in its square, else the artillery there, else stands alone
//    ("commanders may join any unit"; "except for a commander, a unit must consist of more
//    than one stand").
// Breaches of the stacking limits (two kinds of troops of one side in a square, more than
// 2 guns, 1 wagon, 6 crew or 1 commander in a square) are reported, not corrected: the rules
// engine decides what they mean. Game state (which stands belong to which regiment) is the
// rules engine's job; this is only what the table shows.
#pragma once

#include <optional>
#include <string>
#include <vector>

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

UnitGrouping GroupStandsIntoUnits(const Grid& grid, const std::vector<Stand>& stands,
                                  const StandKindCatalog& catalog);

}  // namespace referee
