// Stands (bases) on the table and the catalogue of stand kinds with their default footprints.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/geometry.hpp"
#include "engine/grid.hpp"

namespace referee {

// What a kind of stand is, for the rules that care: equipment dies only when the tip touches
// it, crews go with their gun, commanders attach to units.
enum class StandCategory {
  kInfantry,
  kCavalry,
  kChariot,
  kElephant,
  kGun,       // field gun, horse gun, howitzer (equipment)
  kCatapult,  // equipment
  kWagon,     // supply wagon (equipment)
  kFootCrew,
  kMountedCrew,
  kCommander,
};

std::string CategoryName(StandCategory c);
std::optional<StandCategory> ParseCategory(const std::string& name);
bool IsEquipment(StandCategory c);
bool IsCrew(StandCategory c);

struct StandKind {
  std::string name;  // e.g. "line_infantry", "field_gun", "heavy_catapult"
  StandCategory category = StandCategory::kInfantry;
  double width_mm = 40.0;  // default base, TABLE_KIT; rulesets and army files may override
  double depth_mm = 20.0;
};

// Same base in either orientation (within 0.5 mm): size alone cannot tell these kinds apart.
bool SameBaseSize(const StandKind& a, const StandKind& b);

// The known kinds, loaded from engine/rulesets/stand_kinds.json at start-up.
struct StandKindCatalog {
  std::map<std::string, StandKind> kinds;
  const StandKind* Find(const std::string& name) const;
};

// Another base the camera could not tell this stand's from: a catalogue size (with its kind)
// whose outline the image explains as well as the one reported.
struct OtherOutline {
  std::string kind;
  OrientedRect footprint;
};

struct Stand {
  std::string id;
  std::string side;  // "red", "blue", or any configured side name
  std::string kind;  // a StandKindCatalog key
  OrientedRect footprint;
  bool facing_known = true;  // false when no front stripe was seen (facing up to 180 degrees)
  // Sizes the camera could not rule out (a blurred border whose band fits several): the
  // verdict measures every one and asks the players when they disagree. Usually empty.
  std::vector<OtherOutline> other_outlines;
};

// Whether two kinds have one base (the same kind, or catalogue bases of one size either way
// round): the camera cannot tell them apart.
bool SameBase(const StandKindCatalog& catalog, const std::string& kind_a,
              const std::string& kind_b);

// The players' answer to CONFIRM SIZE: `stand` put at the outline of `kind`'s base when that is
// one of the sizes the camera could not rule out (Stand::other_outlines), its kind `kind` and
// no doubt left. False (unchanged) when `kind` is of the size reported or no outline has it.
bool AdoptOutlineOf(Stand& stand, const std::string& kind, const StandKindCatalog& catalog);

// The stand at each outline the camera allows, none left in doubt: the one reported first.
std::vector<Stand> OutlinesOf(const Stand& s);

// An outline for the players: "line_cavalry 40 x 30 mm".
std::string OutlineName(const Stand& s);

}  // namespace referee
