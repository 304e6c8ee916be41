#include "engine/rules/fire.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace referee::rules {

FireDiceCount CountFireDice(const RulesetData& rules, const FireDiceRequest& req) {
  const UnitType& u = rules.Unit(req.firer_type);
  const FireRules& f = rules.fire;
  int per_stand = f.dice_per_stand;
  for (const auto& [kind, n] : u.stands)
    per_stand = std::max(per_stand, rules.Stand(kind).dice_per_stand);
  FireDiceCount c;
  c.dice = req.firing_stands * per_stand;
  c.breakdown = std::to_string(req.firing_stands) + " stands x " + std::to_string(per_stand);
  if (u.guards && f.guards_extra_die) {
    c.dice += f.guards_extra_die;
    c.breakdown += " + " + std::to_string(f.guards_extra_die) + " guards";
  }
  if (req.commander_present && f.commander_extra_die) {
    c.dice += f.commander_extra_die;
    c.breakdown += " + " + std::to_string(f.commander_extra_die) + " commander";
  }
  if (req.earlier_units_on_target > 0) {
    const int extra = req.earlier_units_on_target * f.extra_die_per_further_unit;
    c.dice += extra;
    c.breakdown += " + " + std::to_string(extra) + " further unit(s) on the same target";
  }
  const bool prot =
      req.target_protected ||
      (!req.target_kind.empty() && rules.Stand(req.target_kind).always_protected_vs_shooting);
  if (prot) {
    c.dice += f.protected_target_dice;
    c.breakdown += " " + std::to_string(f.protected_target_dice) + " protected target";
  }
  c.dice = std::max(0, c.dice);
  c.breakdown += " = " + std::to_string(c.dice);
  return c;
}

FireDiceCount CountCanisterDice(const RulesetData& rules, const std::string& gun_kind, int shots,
                                bool target_protected) {
  auto it = rules.artillery.canister_dice.find(gun_kind);
  if (it == rules.artillery.canister_dice.end())
    throw std::invalid_argument(gun_kind + " cannot fire canister");
  FireDiceCount c;
  const int per_shot = it->second - (target_protected ? -rules.fire.protected_target_dice : 0);
  c.dice = std::max(0, per_shot) * shots;
  c.breakdown = std::to_string(shots) + " " + gun_kind + " shot(s) x (" +
                std::to_string(it->second) + (target_protected ? " - 1 protected" : "") +
                ") = " + std::to_string(c.dice);
  return c;
}

std::optional<int> RangeBand(const FireRules& fire, double range_squares) {
  if (range_squares <= 0) return std::nullopt;
  for (size_t i = 0; i < fire.bands.size(); ++i)
    if (!fire.bands[i].max || range_squares <= *fire.bands[i].max + 1e-9)
      return static_cast<int>(i);
  return std::nullopt;
}

FireHits HitsFromDice(const FireRules& fire, const std::string& target_class, double range_squares,
                      const std::vector<int>& dice) {
  FireHits h;
  auto row = fire.table.find(target_class);
  if (row == fire.table.end())
    throw std::invalid_argument("no fire table row '" + target_class + "'");
  const auto band = RangeBand(fire, range_squares);
  if (!band)
    throw std::invalid_argument("range " + std::to_string(range_squares) + " is in no range band");
  const FireCell& cell = row->second[*band];
  h.band = fire.bands[*band].name;
  h.cell = cell.text;
  if (cell.impossible) return h;
  std::map<int, int> count;
  for (int d : dice) ++count[d];
  for (int face : cell.faces) h.hits += count[face] / cell.multiple;
  return h;
}

int FootBatteryShots(const RulesetData& rules, int guns_lost, bool wagon_lost) {
  for (const auto& row : rules.artillery.foot_battery_shots)
    if (row.guns_lost == std::min(guns_lost, 2) && row.wagon_lost == wagon_lost) return row.shots;
  return 0;
}

}  // namespace referee::rules
