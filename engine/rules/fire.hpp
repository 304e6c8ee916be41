// Musketry / missile fire and canister by dice (Napoleonic 3-4, Ancient MISSILE FIRE): how many
// dice a unit throws and how many hits the table gives. Low rolls are good in these rules.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/rules/ruleset_data.hpp"

namespace referee::rules {

struct FireDiceRequest {
  std::string firer_type;  // unit type, e.g. "line_infantry"
  int firing_stands = 0;   // stands of the unit able to fire
  bool commander_present = false;
  int earlier_units_on_target = 0;  // units already firing at this target this phase
  std::string target_kind;          // stand kind of the target stands
  bool target_protected = false;    // target square is protected (woods, houses, rocks)
};

struct FireDiceCount {
  int dice = 0;
  std::string breakdown;  // "4 stands + 1 guards - 1 protected = 4"
};
FireDiceCount CountFireDice(const RulesetData& rules, const FireDiceRequest& req);

// Canister: dice per gun shot by gun kind, minus one per gun into a protected square.
FireDiceCount CountCanisterDice(const RulesetData& rules, const std::string& gun_kind, int shots,
                                bool target_protected);

// Index of the range band holding `range_squares`, or nullopt when no band does.
std::optional<int> RangeBand(const FireRules& fire, double range_squares);

struct FireHits {
  int hits = 0;
  std::string band;
  std::string cell;  // the table text applied
};
// Hits from the dice thrown: each die showing a listed face is a hit ("1 or 2"); for "double"
// and "triple" entries every pair/triple of dice showing the same listed face is one hit.
FireHits HitsFromDice(const FireRules& fire, const std::string& target_class, double range_squares,
                      const std::vector<int>& dice);

// Shots a foot battery has this turn (Napoleonic 2C).
int FootBatteryShots(const RulesetData& rules, int guns_lost, bool wagon_lost);

}  // namespace referee::rules
