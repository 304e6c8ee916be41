// A gridded ruleset as data: what engine/rulesets/<name>.json holds, loaded and validated by
// ruleset_loader. Numbers from the rule books live in the JSON, never in code.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/board.hpp"

namespace referee::rules {

// Per stand kind: what it is worth in melee and in points, and how it is shot at.
struct StandValue {
  double melee = 0;                     // value in melee
  std::optional<double> charge_melee;   // "2/3*": value when charging into the contact square
  std::optional<double> melee_reduced;  // "1.5/1#": phalanx value at <= reduced_at_stands
  int reduced_at_stands = 0;
  double points = 0;                          // cost per stand
  std::string target_class;                   // row of the fire table
  int dice_per_stand = 1;                     // Heavy Chariots shoot two
  bool always_protected_vs_shooting = false;  // Assyrian heavy archers
};

enum class FireArc { kNone, kStraight, kArc45 };
enum class MoraleRule { kExempt, kRetreatAtOneStand };

struct UnitType {
  std::string name;
  std::map<std::string, int> stands;  // stand kind -> count in a full unit
  double move = 0;                    // squares
  double firing_range = 0;            // squares, 0 = does not shoot
  FireArc fire_arc = FireArc::kNone;
  char support = 'D';  // A/B/C/D
  MoraleRule morale = MoraleRule::kExempt;
  bool reforms = false;
  bool guards = false;
  bool can_form_square = false;
  std::string arm;      // infantry|cavalry|artillery|commander|chariot|elephant|catapult|crew
  std::string battery;  // "foot"|"horse"|"" (Napoleonic artillery)
  int StandCount() const;
};

// One cell of the fire table ("1, 2 or 3", "double 1", "triple 1 or triple 2", "impossible").
// Each group of `multiple` dice all showing one of `faces` is one hit.
struct FireCell {
  std::string text;
  std::vector<int> faces;
  int multiple = 1;
  bool impossible = false;
};

struct RangeBand {
  std::string name;
  std::optional<double> max;  // inclusive upper bound in squares; nullopt = no limit
};

struct FireRules {
  std::vector<RangeBand> bands;
  std::map<std::string, std::vector<FireCell>> table;  // target class -> one cell per band
  int dice_per_stand = 1;
  int guards_extra_die = 0;
  int commander_extra_die = 0;
  int extra_die_per_further_unit = 1;
  int protected_target_dice = -1;
  std::string source;
};

struct BatteryShots {
  int guns_lost = 0;
  bool wagon_lost = false;
  int shots = 0;
  std::string mix;
};

struct ArtilleryRules {
  std::vector<BatteryShots> foot_battery_shots;
  int horse_gun_shots = 0;
  std::map<std::string, int> canister_dice;  // gun kind -> dice per shot
  double canister_range = 0;
  int catapult_shots = 0;
  int needs_crew_to_fire = 1;
  std::vector<std::string> manning_kinds;
  // Ancient CATAPULT FIRE 1: the stand manning a catapult cannot otherwise fire or support.
  bool manning_stand_cannot_fire_or_support = false;
  // Napoleonic 2G/3B: guns limber and unlimber (attacker only); a limbered gun cannot fire.
  bool limbering = false;
  // A gun that moves limbers to do so (the attacker may limber freely); off: guns move unlimbered.
  bool gun_moves_limbered = false;
  // Napoleonic 3E: a square of friendly troops adjacent to a gun screens it in that direction;
  // off (Ancient CATAPULT FIRE 2, "overhead fire is allowed"): no artillery screening at all.
  bool adjacent_friends_screen = false;
  // Stand kinds that fire over any screen (Napoleonic 3G: "a howitzer cannot be screened").
  std::vector<std::string> unscreened_guns;
};

// Napoleonic 6D: a projectile touching a tree, house or bridge may set the square alight.
struct BurningRules {
  std::vector<Terrain> inflammable;  // terrain that can burn
  int dice = 2;                      // dice rolled when a tip touches it
  int ones_to_burn = 1;              // exactly this many ones: the square burns
  int ones_to_burn_up = 2;           // this many ones: burns up with everyone in it
  int retreat_squares = 1;           // units leave a burning square by this many squares
};

// Napoleonic 8A: a Square of one or more units needs stands on every face of its block.
struct SquareFormationRules {
  int stands_per_frontage_square = 1;  // per grid square of frontage, on each of the four faces
  bool square_blocks_only = true;      // k x k blocks: "long rectangular squares are not allowed"
};

enum class Mdi { kLine, kColumn, kSquare, kFlanking, kPincers, kWithdrawal };
inline constexpr int kMdiCount = 6;
std::string MdiName(Mdi m);
std::optional<Mdi> ParseMdi(const std::string& name);

enum class Comparison { kGreater, kAtLeast };

struct MeleeRules {
  double destruction_ratio = 3;
  Comparison destruction_equal = Comparison::kGreater;
  Comparison destruction_unequal = Comparison::kAtLeast;
  double inferior_loss_first_point = 1;
  double inferior_loss_per_remaining_superior_point = 0.5;
  double superior_loss_per_inferior_loss = 0.5;
  // "attacker_destroys_one_less" (Napoleonic 6A) or "attacker_worth_one_less" (Ancient 8).
  std::string protected_contact;
  int retreat_squares = 2;
  std::string equipment_capture;
  bool cavalry_may_melee_unbroken_square = true;
  bool defending_cavalry_support_needs_start_facing = false;
  int defender_support_turn_eighths = 4;
  int attacker_support_turn_eighths = 4;
  bool mounted_supports_foot_only_from_side = false;
  std::vector<int> elephant_charge_stays_on;  // die faces on which an elephant may not charge
  std::vector<std::string> cavalry_barred_by_full_units;
  int cavalry_barred_stands = 4;
  bool run_down = false;
  bool type_a_faces_sides_only = false;  // Ancient MOVEMENT 6
  // 5A / Ancient 2: all supports before any melee is fought, the attacker's first.
  bool supports_attacker_first = true;
};

struct MdiRules {
  bool superior[kMdiCount][kMdiCount] = {};  // [a][b]: a is superior to b
  bool withdrawal_succeeds[kMdiCount] = {};  // against the other's card
  bool withdrawal_vs_withdrawal_both_withdraw = false;
};

struct MoraleRules {
  int retreat_at_stands = 1;
  bool attached_commander_exempts = false;
};

struct ArmyEntry {
  std::string type;
  int count = 1;
  std::optional<int> stands;  // overrides the unit type's stand count (crew bought by stand)
  std::string note;
  bool printed = true;  // false: not in the printed list (e.g. a catapult's crew)
};

struct ArmyList {
  std::string name;
  std::string title;
  double printed_points = 0;
  std::optional<double> computed_points;  // set where the printed total cannot be reached
  std::string discrepancy_why;
  std::vector<ArmyEntry> units;
};

struct SupportType {
  std::vector<std::string> directions;  // front, front_left, left, rear_left, rear, ...
};

struct RulesetData {
  std::string file;  // where it was loaded from (for errors)
  std::string name;
  std::string title;
  std::string geometry;  // "gridded" (measured rulesets come later)
  double square_size_in = 4;
  std::vector<std::string> turn_sequence;
  std::map<std::string, std::string> options;  // option -> chosen value
  std::map<std::string, StandValue> stand_values;
  std::map<std::string, UnitType> unit_types;
  std::map<char, SupportType> support_types;
  FireRules fire;
  ArtilleryRules artillery;
  MeleeRules melee;
  MdiRules mdi;
  MoraleRules morale;
  std::map<std::string, ArmyList> armies;
  std::optional<BurningRules> burning;                   // absent: nothing burns (Ancient)
  std::optional<SquareFormationRules> square_formation;  // absent: no infantry squares
  bool destroy_own_equipment_at_end_of_turn = false;     // Napoleonic 11

  const StandValue& Stand(const std::string& kind) const;
  const UnitType& Unit(const std::string& type) const;
  double UnitPoints(const std::string& type, std::optional<int> stands = std::nullopt) const;
  double ArmyPoints(const ArmyList& army) const;
  // The same list without the entries marked "printed": false.
  double PrintedEntriesPoints(const ArmyList& army) const;
};

}  // namespace referee::rules
