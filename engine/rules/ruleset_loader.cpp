#include "engine/rules/ruleset_loader.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "engine/data_paths.hpp"
#include "engine/input_error.hpp"

namespace referee::rules {

namespace {

using nlohmann::json;

struct Ctx {
  std::string file;
  // The dotted field of `key` inside `where` ("" at the top level).
  static std::string Path(const std::string& where, const std::string& key) {
    return where.empty() ? key : where + "." + key;
  }
  [[noreturn]] void Fail(const std::string& field, const std::string& what) const {
    throw InputError(file, field, what);
  }
  const json& Need(const json& j, const std::string& key, const std::string& where) const {
    if (!j.is_object() || !j.contains(key)) Fail(Path(where, key), "missing");
    return j.at(key);
  }
  double Number(const json& j, const std::string& key, const std::string& where) const {
    const json& v = Need(j, key, where);
    if (!v.is_number()) Fail(Path(where, key), "must be a number");
    return v.get<double>();
  }
  double NonNegative(const json& j, const std::string& key, const std::string& where) const {
    const double v = Number(j, key, where);
    if (v < 0) Fail(Path(where, key), "must be >= 0, got " + std::to_string(v));
    return v;
  }
  std::string String(const json& j, const std::string& key, const std::string& where) const {
    const json& v = Need(j, key, where);
    if (!v.is_string()) Fail(Path(where, key), "must be a string");
    return v.get<std::string>();
  }
  bool Bool(const json& j, const std::string& key, const std::string& where, bool dflt) const {
    if (!j.contains(key)) return dflt;
    if (!j.at(key).is_boolean()) Fail(Path(where, key), "must be true or false");
    return j.at(key).get<bool>();
  }
  // An optional string: absent is `dflt`, present must be a string.
  std::string OptString(const json& j, const std::string& key, const std::string& where,
                        const std::string& dflt) const {
    if (!j.is_object() || !j.contains(key)) return dflt;
    return String(j, key, where);
  }
  // A list of strings, each named by its index when it is not one.
  std::vector<std::string> Strings(const json& j, const std::string& key,
                                   const std::string& where) const {
    const json& v = Need(j, key, where);
    const std::string field = Path(where, key);
    if (!v.is_array()) Fail(field, "must be a list of strings");
    std::vector<std::string> out;
    for (size_t i = 0; i < v.size(); ++i) {
      if (!v[i].is_string()) Fail(field + "[" + std::to_string(i) + "]", "must be a string");
      out.push_back(v[i].get<std::string>());
    }
    return out;
  }
  std::vector<int> Ints(const json& j, const std::string& key, const std::string& where) const {
    const json& v = Need(j, key, where);
    const std::string field = Path(where, key);
    if (!v.is_array()) Fail(field, "must be a list of whole numbers");
    std::vector<int> out;
    for (size_t i = 0; i < v.size(); ++i) {
      if (!v[i].is_number_integer())
        Fail(field + "[" + std::to_string(i) + "]", "must be a whole number");
      out.push_back(v[i].get<int>());
    }
    return out;
  }
  const json& Object(const json& j, const std::string& key, const std::string& where) const {
    const json& v = Need(j, key, where);
    if (!v.is_object()) Fail(Path(where, key), "must be an object");
    return v;
  }
};

std::string Lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

Comparison ParseComparison(const Ctx& c, const json& j, const std::string& key,
                           const std::string& where) {
  const std::string v = c.String(j, key, where);
  if (v == "greater") return Comparison::kGreater;
  if (v == "at_least") return Comparison::kAtLeast;
  c.Fail(where + "." + key, "must be 'greater' or 'at_least', got '" + v + "'");
}

void LoadStandValues(const Ctx& c, const json& root, RulesetData& d) {
  const json& sv = c.Object(root, "stand_values", "");
  for (const auto& [kind, v] : sv.items()) {
    if (kind == "source") continue;
    const std::string where = "stand_values." + kind;
    if (!v.is_object()) c.Fail(where, "must be an object");
    StandValue s;
    s.melee = c.NonNegative(v, "melee", where);
    if (v.contains("charge_melee")) s.charge_melee = c.NonNegative(v, "charge_melee", where);
    if (v.contains("melee_reduced")) {
      s.melee_reduced = c.NonNegative(v, "melee_reduced", where);
      s.reduced_at_stands = static_cast<int>(c.NonNegative(v, "reduced_at_stands", where));
    }
    s.points = c.NonNegative(v, "points", where);
    s.target_class = c.String(v, "target_class", where);
    if (v.contains("dice_per_stand"))
      s.dice_per_stand = static_cast<int>(c.NonNegative(v, "dice_per_stand", where));
    s.always_protected_vs_shooting = c.Bool(v, "always_protected_vs_shooting", where, false);
    d.stand_values[kind] = s;
  }
  if (d.stand_values.empty()) c.Fail("stand_values", "no stand kinds");
}

void LoadUnitTypes(const Ctx& c, const json& root, RulesetData& d) {
  const json& ut = c.Object(root, "unit_types", "");
  for (const auto& [name, v] : ut.items()) {
    if (name == "source") continue;
    const std::string where = "unit_types." + name;
    if (!v.is_object()) c.Fail(where, "must be an object");
    UnitType u;
    u.name = name;
    const json& stands = c.Object(v, "stands", where);
    for (const auto& [kind, n] : stands.items()) {
      std::string field = where;
      field += ".stands.";
      field += kind;
      if (!d.stand_values.count(kind)) c.Fail(field, "unknown stand kind (not in stand_values)");
      if (!n.is_number_integer() || n.get<int>() < 1) c.Fail(field, "must be a whole number >= 1");
      u.stands[kind] = n.get<int>();
    }
    if (u.stands.empty()) c.Fail(where + ".stands", "a unit needs at least one stand");
    u.move = c.NonNegative(v, "move", where);
    u.firing_range = c.NonNegative(v, "firing_range", where);
    const std::string arc = c.String(v, "fire_arc", where);
    if (arc == "none")
      u.fire_arc = FireArc::kNone;
    else if (arc == "straight")
      u.fire_arc = FireArc::kStraight;
    else if (arc == "arc45")
      u.fire_arc = FireArc::kArc45;
    else
      c.Fail(where + ".fire_arc", "must be none|straight|arc45, got '" + arc + "'");
    const std::string sup = c.String(v, "support", where);
    if (sup.size() != 1 || sup[0] < 'A' || sup[0] > 'D')
      c.Fail(where + ".support", "must be A, B, C or D");
    u.support = sup[0];
    const std::string morale = c.String(v, "morale", where);
    if (morale == "exempt")
      u.morale = MoraleRule::kExempt;
    else if (morale == "retreat_at_one_stand")
      u.morale = MoraleRule::kRetreatAtOneStand;
    else
      c.Fail(where + ".morale", "must be exempt|retreat_at_one_stand");
    u.reforms = c.Bool(v, "reforms", where, false);
    u.guards = c.Bool(v, "guards", where, false);
    u.can_form_square = c.Bool(v, "can_form_square", where, false);
    u.arm = c.String(v, "arm", where);
    if (v.contains("battery")) u.battery = c.String(v, "battery", where);
    d.unit_types[name] = u;
  }
}

void LoadFire(const Ctx& c, const json& root, RulesetData& d) {
  const json& f = c.Object(root, "fire", "");
  d.fire.source = c.OptString(f, "source", "fire", "");
  const json& bands = c.Need(f, "range_bands", "fire");
  if (!bands.is_array() || bands.empty()) c.Fail("fire.range_bands", "must be a non-empty array");
  for (size_t i = 0; i < bands.size(); ++i) {
    const std::string where = "fire.range_bands[" + std::to_string(i) + "]";
    RangeBand b;
    b.name = c.String(bands[i], "name", where);
    const json& mx = c.Need(bands[i], "max", where);
    if (!mx.is_null()) {
      if (!mx.is_number()) c.Fail(where + ".max", "must be a number or null");
      b.max = mx.get<double>();
      if (!d.fire.bands.empty() && d.fire.bands.back().max && *b.max <= *d.fire.bands.back().max)
        c.Fail(where + ".max", "bands must be in increasing range");
    } else if (i + 1 != bands.size()) {
      c.Fail(where + ".max", "only the last band may be unlimited (null)");
    }
    d.fire.bands.push_back(b);
  }
  const json& table = c.Object(f, "table", "fire");
  for (const auto& [cls, row] : table.items()) {
    const std::string where = "fire.table." + cls;
    if (!row.is_array() || row.size() != d.fire.bands.size())
      c.Fail(where,
             "must hold one entry per range band (" + std::to_string(d.fire.bands.size()) + ")");
    std::vector<FireCell> cells;
    for (size_t i = 0; i < row.size(); ++i) {
      if (!row[i].is_string()) c.Fail(where + "[" + std::to_string(i) + "]", "must be a string");
      cells.push_back(
          ParseFireCell(row[i].get<std::string>(), c.file, where + "[" + std::to_string(i) + "]"));
    }
    d.fire.table[cls] = cells;
  }
  d.fire.dice_per_stand = static_cast<int>(c.NonNegative(f, "dice_per_stand", "fire"));
  d.fire.guards_extra_die = static_cast<int>(c.NonNegative(f, "guards_extra_die", "fire"));
  d.fire.commander_extra_die = static_cast<int>(c.NonNegative(f, "commander_extra_die", "fire"));
  d.fire.extra_die_per_further_unit =
      static_cast<int>(c.NonNegative(f, "extra_die_per_further_unit", "fire"));
  d.fire.protected_target_dice = static_cast<int>(c.Number(f, "protected_target_dice", "fire"));
  for (const auto& [kind, s] : d.stand_values)
    if (!d.fire.table.count(s.target_class))
      c.Fail("stand_values." + kind + ".target_class",
             "'" + s.target_class + "' is not a row of fire.table");
}

void LoadArtillery(const Ctx& c, const json& root, RulesetData& d) {
  const json& a = c.Object(root, "artillery", "");
  if (a.contains("foot_battery_shots")) {
    for (const auto& row : a.at("foot_battery_shots")) {
      BatteryShots b;
      b.guns_lost =
          static_cast<int>(c.NonNegative(row, "guns_lost", "artillery.foot_battery_shots"));
      b.wagon_lost = c.Bool(row, "wagon_lost", "artillery.foot_battery_shots", false);
      b.shots = static_cast<int>(c.NonNegative(row, "shots", "artillery.foot_battery_shots"));
      b.mix = c.OptString(row, "mix", "artillery.foot_battery_shots", "");
      d.artillery.foot_battery_shots.push_back(b);
    }
  }
  if (a.contains("horse_gun_shots"))
    d.artillery.horse_gun_shots =
        static_cast<int>(c.NonNegative(a, "horse_gun_shots", "artillery"));
  if (a.contains("canister_dice")) {
    for (const auto& [kind, n] : a.at("canister_dice").items()) {
      if (!d.stand_values.count(kind))
        c.Fail("artillery.canister_dice." + kind, "unknown stand kind");
      if (!n.is_number_integer() || n.get<int>() < 0)
        c.Fail("artillery.canister_dice." + kind, "must be a whole number >= 0");
      d.artillery.canister_dice[kind] = n.get<int>();
    }
    d.artillery.canister_range = c.NonNegative(a, "canister_range", "artillery");
  }
  if (a.contains("catapult_shots"))
    d.artillery.catapult_shots = static_cast<int>(c.NonNegative(a, "catapult_shots", "artillery"));
  if (a.contains("needs_crew_to_fire"))
    d.artillery.needs_crew_to_fire =
        static_cast<int>(c.NonNegative(a, "needs_crew_to_fire", "artillery"));
  if (a.contains("manning_kinds"))
    d.artillery.manning_kinds = c.Strings(a, "manning_kinds", "artillery");
  d.artillery.manning_stand_cannot_fire_or_support =
      c.Bool(a, "manning_stand_cannot_fire_or_support", "artillery", false);
  d.artillery.limbering = c.Bool(a, "limbering", "artillery", false);
  d.artillery.gun_moves_limbered = c.Bool(a, "gun_moves_limbered", "artillery", false);
  if (d.artillery.gun_moves_limbered && !d.artillery.limbering)
    c.Fail("artillery.gun_moves_limbered", "needs artillery.limbering: true");
  d.artillery.adjacent_friends_screen = c.Bool(a, "adjacent_friends_screen", "artillery", false);
  if (a.contains("unscreened_guns")) {
    const json& u = a.at("unscreened_guns");
    if (!u.is_array()) c.Fail("artillery.unscreened_guns", "must be a list of stand kinds");
    for (const auto& k : u) {
      if (!k.is_string() || !d.stand_values.count(k.get<std::string>()))
        c.Fail("artillery.unscreened_guns", "unknown stand kind " + k.dump());
      d.artillery.unscreened_guns.push_back(k.get<std::string>());
    }
  }
}

int WholeNumber(const Ctx& c, const json& j, const std::string& key, const std::string& where,
                int lo, int hi) {
  const json& v = c.Need(j, key, where);
  if (!v.is_number_integer() || v.get<int>() < lo || v.get<int>() > hi)
    c.Fail(where + "." + key,
           "must be a whole number from " + std::to_string(lo) + " to " + std::to_string(hi));
  return v.get<int>();
}

void LoadBurning(const Ctx& c, const json& root, RulesetData& d) {
  if (!root.contains("burning")) return;
  const json& b = c.Object(root, "burning", "");
  BurningRules r;
  for (const auto& t : c.Need(b, "inflammable", "burning")) {
    const auto terrain = t.is_string() ? ParseTerrain(t.get<std::string>()) : std::nullopt;
    if (!terrain) c.Fail("burning.inflammable", "unknown terrain " + t.dump());
    r.inflammable.push_back(*terrain);
  }
  r.dice = WholeNumber(c, b, "dice", "burning", 1, 6);
  r.ones_to_burn = WholeNumber(c, b, "ones_to_burn", "burning", 1, r.dice);
  r.ones_to_burn_up = WholeNumber(c, b, "ones_to_burn_up", "burning", 1, r.dice);
  if (r.ones_to_burn_up <= r.ones_to_burn)
    c.Fail("burning.ones_to_burn_up", "must be more than ones_to_burn");
  r.retreat_squares = WholeNumber(c, b, "retreat_squares", "burning", 1, 10);
  d.burning = r;
}

void LoadSquares(const Ctx& c, const json& root, RulesetData& d) {
  if (!root.contains("square_formation")) return;
  const json& s = c.Object(root, "square_formation", "");
  SquareFormationRules r;
  r.stands_per_frontage_square =
      WholeNumber(c, s, "stands_per_frontage_square", "square_formation", 1, 10);
  r.square_blocks_only = c.Bool(s, "square_blocks_only", "square_formation", true);
  d.square_formation = r;
}

void LoadMelee(const Ctx& c, const json& root, RulesetData& d) {
  const json& m = c.Object(root, "melee", "");
  MeleeRules& r = d.melee;
  r.destruction_ratio = c.NonNegative(m, "destruction_ratio", "melee");
  if (r.destruction_ratio < 1) c.Fail("melee.destruction_ratio", "must be >= 1");
  r.destruction_equal = ParseComparison(c, m, "destruction_ratio_equal", "melee");
  r.destruction_unequal = ParseComparison(c, m, "destruction_ratio_unequal", "melee");
  r.inferior_loss_first_point = c.NonNegative(m, "inferior_loss_first_point", "melee");
  r.inferior_loss_per_remaining_superior_point =
      c.NonNegative(m, "inferior_loss_per_remaining_superior_point", "melee");
  r.superior_loss_per_inferior_loss = c.NonNegative(m, "superior_loss_per_inferior_loss", "melee");
  r.protected_contact = c.String(m, "protected_contact", "melee");
  if (r.protected_contact != "attacker_destroys_one_less" &&
      r.protected_contact != "attacker_worth_one_less")
    c.Fail("melee.protected_contact", "must be attacker_destroys_one_less|attacker_worth_one_less");
  r.retreat_squares = static_cast<int>(c.NonNegative(m, "retreat_squares", "melee"));
  r.equipment_capture = c.String(m, "equipment_capture", "melee");
  r.cavalry_may_melee_unbroken_square =
      c.Bool(m, "cavalry_may_melee_unbroken_square", "melee", true);
  r.defending_cavalry_support_needs_start_facing =
      c.Bool(m, "defending_cavalry_support_needs_start_facing", "melee", false);
  r.defender_support_turn_eighths =
      static_cast<int>(c.NonNegative(m, "defender_support_turn_eighths", "melee"));
  r.attacker_support_turn_eighths =
      static_cast<int>(c.NonNegative(m, "attacker_support_turn_eighths", "melee"));
  r.mounted_supports_foot_only_from_side =
      c.Bool(m, "mounted_supports_foot_only_from_side", "melee", false);
  if (m.contains("elephant_charge_stays_on"))
    r.elephant_charge_stays_on = c.Ints(m, "elephant_charge_stays_on", "melee");
  if (m.contains("cavalry_barred_by_full_units")) {
    r.cavalry_barred_by_full_units = c.Strings(m, "cavalry_barred_by_full_units", "melee");
    for (const auto& u : r.cavalry_barred_by_full_units)
      if (!d.unit_types.count(u))
        c.Fail("melee.cavalry_barred_by_full_units", "unknown unit type '" + u + "'");
    r.cavalry_barred_stands = static_cast<int>(c.NonNegative(m, "cavalry_barred_stands", "melee"));
  }
  r.run_down = c.Bool(m, "run_down", "melee", false);
  r.type_a_faces_sides_only = c.Bool(m, "type_a_faces_sides_only", "melee", false);
  r.supports_attacker_first = c.Bool(m, "supports_attacker_first", "melee", true);
}

void LoadMdi(const Ctx& c, const json& root, RulesetData& d) {
  const json& m = c.Object(root, "mdi", "");
  const json& sup = c.Object(m, "superior_to", "mdi");
  auto mdi = [&](const std::string& s, const std::string& field) {
    auto v = ParseMdi(s);
    if (!v)
      c.Fail(field, "unknown MDI '" + s + "' (line|column|square|flanking|pincers|withdrawal)");
    return *v;
  };
  for (const auto& entry : sup.items()) {
    const std::string& a = entry.key();
    const Mdi ma = mdi(a, "mdi.superior_to");
    if (ma == Mdi::kWithdrawal)
      c.Fail("mdi.superior_to.withdrawal", "withdrawal succeeds or fails; it is never superior");
    for (const auto& b : c.Strings(sup, a, "mdi.superior_to")) {
      const Mdi mb = mdi(b, "mdi.superior_to." + a);
      d.mdi.superior[static_cast<int>(ma)][static_cast<int>(mb)] = true;
    }
  }
  // The five fighting deployments must form a consistent cycle: exactly one side superior.
  for (int a = 0; a < 5; ++a)
    for (int b = 0; b < 5; ++b) {
      if (a == b) {
        if (d.mdi.superior[a][b])
          c.Fail("mdi.superior_to", MdiName(Mdi(a)) + " cannot be superior to itself");
        continue;
      }
      if (d.mdi.superior[a][b] == d.mdi.superior[b][a])
        c.Fail("mdi.superior_to",
               MdiName(Mdi(a)) + " vs " + MdiName(Mdi(b)) + ": exactly one must be superior");
    }
  for (const auto& s : c.Strings(m, "withdrawal_succeeds_against", "mdi"))
    d.mdi.withdrawal_succeeds[static_cast<int>(mdi(s, "mdi.withdrawal_succeeds_against"))] = true;
  // Options settle what the texts leave open or contradict.
  auto opt = [&](const std::string& key) {
    auto it = d.options.find(key);
    if (it == d.options.end()) c.Fail("options." + key, "missing");
    return it->second;
  };
  d.mdi.withdrawal_succeeds[static_cast<int>(Mdi::kSquare)] =
      opt("withdrawal_vs_square") == "succeeds";
  d.mdi.withdrawal_succeeds[static_cast<int>(Mdi::kFlanking)] =
      opt("withdrawal_vs_flanking") == "succeeds";
  d.mdi.withdrawal_vs_withdrawal_both_withdraw = opt("withdrawal_vs_withdrawal") == "both_withdraw";
}

void LoadOptions(const Ctx& c, const json& root, RulesetData& d) {
  const json& o = c.Object(root, "options", "");
  for (const auto& [key, v] : o.items()) {
    const std::string where = "options." + key;
    const std::string value = c.String(v, "value", where);
    const json& choices = c.Need(v, "choices", where);
    bool ok = false;
    for (const auto& ch : choices) ok = ok || ch == value;
    if (!ok) c.Fail(where + ".value", "'" + value + "' is not one of " + choices.dump());
    d.options[key] = value;
  }
}

void LoadArmies(const Ctx& c, const json& root, RulesetData& d) {
  const json& a = c.Object(root, "armies", "");
  for (const auto& [name, v] : a.items()) {
    if (name == "reading" || name == "contradictions") continue;  // prose for the reader
    const std::string where = "armies." + name;
    ArmyList l;
    l.name = name;
    l.title = c.String(v, "title", where);
    l.printed_points = c.NonNegative(v, "printed_points", where);
    if (v.contains("computed_points")) {
      l.computed_points = c.NonNegative(v, "computed_points", where);
      l.discrepancy_why = c.String(v, "discrepancy_why", where);
    }
    const json& units = c.Need(v, "units", where);
    if (!units.is_array()) c.Fail(where + ".units", "must be a list of units");
    for (size_t i = 0; i < units.size(); ++i) {
      const std::string uw = where + ".units[" + std::to_string(i) + "]";
      ArmyEntry e;
      e.type = c.String(units[i], "type", uw);
      if (!d.unit_types.count(e.type)) c.Fail(uw + ".type", "unknown unit type '" + e.type + "'");
      e.count = static_cast<int>(c.NonNegative(units[i], "count", uw));
      if (units[i].contains("stands"))
        e.stands = static_cast<int>(c.NonNegative(units[i], "stands", uw));
      e.note = c.OptString(units[i], "note", uw, "");
      e.printed = c.Bool(units[i], "printed", uw, true);
      l.units.push_back(e);
    }
    const double total = d.ArmyPoints(l);
    const double expected = l.computed_points.value_or(l.printed_points);
    if (std::abs(total - expected) > 1e-9)
      c.Fail(where, "units cost " + std::to_string(total) + " points but the file says " +
                        std::to_string(expected) +
                        (l.computed_points ? " (computed_points)" : " (printed_points)"));
    d.armies[name] = l;
  }
}

}  // namespace

FireCell ParseFireCell(const std::string& text, const std::string& file, const std::string& field) {
  FireCell cell;
  cell.text = text;
  std::string s = Lower(text);
  if (s.find("impossible") != std::string::npos) {
    cell.impossible = true;
    return cell;
  }
  // Tokens: words and digits; apostrophes and "s" plurals are decoration ("Double 1's").
  std::vector<std::string> tokens;
  std::string cur;
  for (char ch : s) {
    if (std::isalnum(static_cast<unsigned char>(ch))) {
      cur += ch;
    } else if (!cur.empty()) {
      tokens.push_back(cur);
      cur.clear();
    }
  }
  if (!cur.empty()) tokens.push_back(cur);
  int multiple = 0;  // 0 = not yet known
  int pending = 1;
  for (const auto& t : tokens) {
    if (t == "or" || t == "s") continue;
    if (t == "double" || t == "triple" || t == "single") {
      pending = t == "double" ? 2 : t == "triple" ? 3 : 1;
      continue;
    }
    std::string digits = t;
    if (digits.size() == 2 && digits[1] == 's') digits.pop_back();
    if (digits.size() != 1 || digits[0] < '1' || digits[0] > '6')
      throw InputError(file, field,
                       "cannot read fire table entry '" + text +
                           "' (e.g. '1, 2 or 3', 'double 1', 'impossible')");
    if (multiple != 0 && multiple != pending)
      throw InputError(file, field,
                       "fire table entry '" + text + "' mixes single, double and triple faces");
    multiple = pending;
    pending = 1;  // "double 1 or 2" is ambiguous: each face names its own multiple
    cell.faces.push_back(digits[0] - '0');
  }
  if (cell.faces.empty())
    throw InputError(file, field, "fire table entry '" + text + "' names no die face");
  cell.multiple = multiple;
  return cell;
}

RulesetData LoadRulesetFile(const std::filesystem::path& path) {
  const Ctx c{path.string()};
  std::ifstream in(path);
  if (!in) c.Fail("", "cannot open ruleset file");
  json root;
  try {
    root = json::parse(in);
  } catch (const json::exception& e) {
    c.Fail("", std::string("not valid JSON: ") + e.what());
  }
  RulesetData d;
  try {
    d.file = c.file;
    d.name = c.String(root, "name", "");
    d.title = c.OptString(root, "title", "", d.name);
    d.geometry = c.String(root, "geometry", "");
    if (d.geometry != "gridded")
      c.Fail("geometry",
             "only 'gridded' rulesets are implemented so far, got '" + d.geometry + "'");
    d.square_size_in = c.NonNegative(root, "square_size_in", "");
    static const std::set<std::string> kPhases = {"artillery",     "musketry", "attacker_moves",
                                                  "held_canister", "melees",   "end_of_turn"};
    for (const auto& p : c.Need(root, "turn_sequence", "")) {
      if (!p.is_string() || !kPhases.count(p.get<std::string>()))
        c.Fail("turn_sequence", "unknown phase " + p.dump());
      d.turn_sequence.push_back(p.get<std::string>());
    }
    LoadOptions(c, root, d);
    LoadStandValues(c, root, d);
    LoadUnitTypes(c, root, d);
    for (const auto& [name, v] : c.Object(root, "support_types", "").items()) {
      if (name.size() != 1) c.Fail("support_types." + name, "must be a single letter");
      d.support_types[name[0]].directions = c.Strings(v, "directions", "support_types." + name);
    }
    for (const auto& [name, u] : d.unit_types)
      if (!d.support_types.count(u.support))
        c.Fail("unit_types." + name + ".support", "no such support type");
    LoadFire(c, root, d);
    LoadArtillery(c, root, d);
    LoadMelee(c, root, d);
    LoadMdi(c, root, d);
    LoadBurning(c, root, d);
    LoadSquares(c, root, d);
    if (root.contains("equipment"))
      d.destroy_own_equipment_at_end_of_turn =
          c.Bool(c.Object(root, "equipment", ""), "destroy_own_at_end_of_turn", "equipment", false);
    const json& mo = c.Object(root, "morale", "");
    d.morale.retreat_at_stands = static_cast<int>(c.NonNegative(mo, "retreat_at_stands", "morale"));
    d.morale.attached_commander_exempts = c.Bool(mo, "attached_commander_exempts", "morale", false);
    LoadArmies(c, root, d);
  } catch (const json::exception& e) {
    c.Fail("", std::string("wrong type: ") + e.what());
  }
  return d;
}

RulesetData LoadRuleset(const std::string& name_or_path) {
  const bool is_path =
      name_or_path.find('/') != std::string::npos ||
      (name_or_path.size() > 5 && name_or_path.substr(name_or_path.size() - 5) == ".json");
  if (is_path) return LoadRulesetFile(name_or_path);
  const auto path = RulesetDir() / (name_or_path + ".json");
  std::error_code ec;  // a name too long for a path is as unknown as any other
  if (!std::filesystem::exists(path, ec))
    throw InputError(name_or_path, "ruleset",
                     "unknown ruleset (known: napoleonic, ancient; or give a .json path)");
  return LoadRulesetFile(path);
}

}  // namespace referee::rules
