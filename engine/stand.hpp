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

struct Stand {
  std::string id;
  std::string side;  // "red", "blue", or any configured side name
  std::string kind;  // a StandKindCatalog key
  OrientedRect footprint;
  bool facing_known = true;  // false when no front stripe was seen (facing up to 180 degrees)
};

}  // namespace referee
