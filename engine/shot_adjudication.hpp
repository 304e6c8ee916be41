// Deciding one shot by the de Gre Napoleonic (2E-2G, 6A-6D) or Ancient (catapult fire 1-4)
// rules: exact geometry in table inches, no dice (the fire roll is reported, not rolled).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "engine/board.hpp"
#include "engine/data_paths.hpp"
#include "engine/scene.hpp"
#include "engine/stand.hpp"
#include "engine/verdict.hpp"

namespace referee {

// What a ruleset measures the hit circle to, per stand category.
enum class TargetReference {
  kFootprint,  // any part of the base (Napoleonic 2F "any part of it")
  kFrontEdge,  // the base's front edge (Ancient catapult 4: "front axle", "either front leg")
};

// Rounding allowance for "within" tests: a distance of exactly the radius (or the touch
// tolerance) computed as radius + 1e-15 still counts. A nanometre-scale allowance, far below
// anything a camera or a ruler can see.
constexpr double kWithinSlackIn = 1e-9;

struct ShotOptions {
  double hit_radius_in = 1.0;  // rule circle radius (Napoleonic 2F, Ancient catapult 4)
  // How close the tip must be to a gun/wagon footprint to count as touching it; raise it when
  // the camera's impact error is larger than 1 mm, lower it for hand-measured scenes.
  double equipment_touch_tolerance_mm = 1.0;
  CasualtyReading reading = CasualtyReading::kOneStandFirersChoice;
  double report_radius_in = 1.5;  // stands this close are listed in the verdict
  std::string ruleset = "napoleonic";

  // Rule switches, loaded from engine/rulesets/shot_rules.json; defaults are Napoleonic.
  std::vector<ShotKind> allowed_kinds = {ShotKind::kField, ShotKind::kHorse, ShotKind::kHowitzer};
  // Categories that die only when the tip touches them (Napoleonic 2F: guns and wagons).
  std::vector<StandCategory> touch_only = {StandCategory::kGun, StandCategory::kWagon,
                                           StandCategory::kCatapult};
  int crew_lost_with_equipment = 1;  // Napoleonic 2F: "its crew (1 stand)"
  std::vector<std::pair<StandCategory, TargetReference>> target_reference;  // default footprint
  bool water_absorbs_shell = true;  // Napoleonic 2F; TABLE_KIT for Ancient
  bool fire_roll_rule = true;       // Napoleonic 6D; TABLE_KIT for Ancient
  bool field_guns_screened = true;  // Napoleonic 2E (howitzers and catapults never are)
  // The clause labels the explanation cites, e.g. "Napoleonic 2F".
  std::string clause_circle = "Napoleonic 2F";
  std::string clause_howitzer = "Napoleonic 2G";
  std::string clause_equipment = "Napoleonic 2F";
  std::string clause_water = "Napoleonic 2F";
  std::string clause_protected = "Napoleonic 6A";
  std::string clause_bridge = "Napoleonic 6C";
  std::string clause_fire = "Napoleonic 6D";
  std::string clause_screen = "Napoleonic 2E";
  std::string clause_friendly = "Napoleonic 2E";
  std::string clause_choice = "Napoleonic 2F";
};

// Options of a ruleset ("napoleonic" or "ancient") from the shot rules file. InputError on an
// unknown ruleset or a malformed file.
ShotOptions LoadShotOptions(const std::string& ruleset,
                            const std::filesystem::path& path = RulesetDir() / "shot_rules.json");

// The shot's ruling. InputError when the shot kind does not belong to the ruleset.
Verdict AdjudicateShot(const Board& board, const std::vector<Stand>& stands, const Shot& shot,
                       const StandKindCatalog& catalog, const ShotOptions& options);

// Distance the ruleset measures from `p` to a stand (footprint or front edge).
double TargetDistance(Vec2 p, const Stand& stand, StandCategory category,
                      const ShotOptions& options);

}  // namespace referee
