// `referee rules melee|fire|army`: the rules engine for a referee without a camera.
//   referee rules melee CASE.json [--json] [--seed N] [--ruleset-file PATH]
//   referee rules fire --ruleset R --firer TYPE --stands N --target KIND --range SQ [...]
//   referee rules army [NAME] [--ruleset R]
#include <boost/program_options.hpp>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "engine/input_error.hpp"
#include "engine/json_input.hpp"
#include "engine/rules/dice.hpp"
#include "engine/rules/fire.hpp"
#include "engine/rules/loss_allocation.hpp"
#include "engine/rules/melee.hpp"
#include "engine/rules/ruleset_loader.hpp"
#include "ui/cli/command_line.hpp"
#include "ui/cli/commands.hpp"

namespace referee::cli {

namespace {

namespace po = boost::program_options;
using nlohmann::json;
using namespace referee::rules;

json DiceJson(const std::vector<DiceEvent>& ev) {
  json a = json::array();
  for (const auto& e : ev)
    a.push_back({{"kind", e.kind == DiceEvent::Kind::kCoin ? "coin" : "die"},
                 {"value", e.value},
                 {"purpose", e.purpose}});
  return a;
}

// ---- melee ---------------------------------------------------------------------------------

struct MeleeOptions {
  std::string case_path;
  bool as_json = false;
  std::uint64_t seed = 1;  // for coin flips when the case gives stands but no "coins"
  std::string ruleset_file;
  void Check() const {
    if (case_path.empty()) throw InputError("command line", "CASE.json", "missing melee case file");
  }
};

struct CaseSide {
  double strength = 0;
  Mdi mdi = Mdi::kLine;
  std::vector<LossUnit> units;  // optional: stands to take the loss from
};

// Stands one unit of a melee case may list: more than any army list fields, few enough that a
// typo (a count of a million) is refused rather than allocated.
constexpr int kMaxCaseStandsPerKind = 1000;

CaseSide ReadSide(const json& j, const std::string& file, const std::string& name,
                  const RulesetData& rules) {
  CaseSide s;
  if (!j.contains(name) || !j.at(name).is_object())
    throw InputError(file, name, "missing (an object with strength and mdi)");
  const json& o = j.at(name);
  const auto m = ParseMdi(GetString(o, "mdi", file, name));
  if (!m)
    throw InputError(file, name + ".mdi", "must be line|column|square|flanking|pincers|withdrawal");
  s.mdi = *m;
  // Units: [{"id": "...", "stands": {"line_infantry": 2}}] in contact-first, clockwise order.
  if (o.contains("units")) {
    const std::string units_field = FieldPath(name, "units");
    const json& units = o.at("units");
    RequireArray(units, file, units_field);
    for (size_t i = 0; i < units.size(); ++i) {
      const json& u = units[i];
      const std::string f = FieldPath(units_field, i);
      RequireObject(u, file, f);
      LossUnit lu;
      lu.id = GetStringOr(u, "id", f, file, f);
      const std::string stands_field = FieldPath(f, "stands");
      const json& stands = RequireKey(u, "stands", file, f);
      RequireObject(stands, file, stands_field);
      for (const auto& [kind, n] : stands.items()) {
        const std::string field = FieldPath(stands_field, kind);
        if (!rules.stand_values.count(kind))
          throw InputError(file, field, "unknown stand kind in " + rules.name);
        const int count = AsInt(n, file, field);
        if (count < 0 || count > kMaxCaseStandsPerKind)
          throw InputError(file, field,
                           "must be a count from 0 to " + std::to_string(kMaxCaseStandsPerKind));
        lu.stand_values.insert(lu.stand_values.end(), count, rules.Stand(kind).melee);
      }
      for (double v : lu.stand_values) s.strength += v;
      s.units.push_back(lu);
    }
  }
  if (o.contains("strength")) {
    const double strength = GetFiniteNumber(o, "strength", file, name);
    if (strength <= 0)
      throw InputError(file, name + ".strength", "must be a number > 0 (points in the melee)");
    if (!s.units.empty() && std::abs(strength - s.strength) > 1e-9)
      throw InputError(file, name + ".strength",
                       "disagrees with the units' stands (" + std::to_string(s.strength) + ")");
    s.strength = strength;
  }
  if (s.strength <= 0)
    throw InputError(file, name + ".strength",
                     "missing (points in the melee, or units with stands)");
  return s;
}

// The case's ruleset, or the club's file given on the command line. An unknown name is the
// case file's error.
RulesetData CaseRuleset(const std::string& case_ruleset, const MeleeOptions& opt) {
  if (!opt.ruleset_file.empty()) return LoadRuleset(opt.ruleset_file);
  try {
    return LoadRuleset(case_ruleset);
  } catch (const InputError& e) {
    if (e.file() != case_ruleset) throw;  // an error inside the ruleset's own file
    throw InputError(opt.case_path, "ruleset",
                     "unknown ruleset '" + case_ruleset +
                         "' (known: napoleonic, ancient; or give a .json path)");
  }
}

int RunMelee(const std::vector<std::string>& args) {
  MeleeOptions opt;
  po::options_description desc(
      "usage: referee rules melee CASE.json [--json] [--seed N] [--ruleset-file PATH]\n"
      "CASE.json: {\"ruleset\": \"napoleonic\"|\"ancient\", \"attacker\": {\"strength\": 4, "
      "\"mdi\": \"line\"}, \"defender\": {...}, \"protected_contact\": false}");
  desc.add_options()("help,h", "show this help")("case", po::value(&opt.case_path), "CASE.json")(
      "json", po::bool_switch(&opt.as_json), "print the outcome as JSON")(
      "seed", po::value(&opt.seed),
      "seed for coin flips when the case lists stands but no coins (default 1)")(
      "ruleset-file", po::value(&opt.ruleset_file),
      "a club's ruleset JSON instead of the case's ruleset");
  po::positional_options_description pos;
  pos.add("case", 1);
  po::variables_map vm;
  if (!ParseCommandLine(args, desc, pos, vm)) return 0;
  opt.Check();
  json j = ReadJsonFile(opt.case_path);
  RequireObject(j, opt.case_path, "");
  if (!opt.ruleset_file.empty() && !j.contains("ruleset")) j["ruleset"] = opt.ruleset_file;
  if (!j.contains("ruleset") || !j.at("ruleset").is_string())
    throw InputError(opt.case_path, "ruleset", "missing (napoleonic|ancient)");
  const RulesetData rules = CaseRuleset(j.at("ruleset").get<std::string>(), opt);
  const CaseSide a = ReadSide(j, opt.case_path, "attacker", rules);
  const CaseSide d = ReadSide(j, opt.case_path, "defender", rules);
  MeleeInput mi{a.strength, d.strength, a.mdi, d.mdi,
                GetBoolOr(j, "protected_contact", false, opt.case_path, "")};
  const MeleeOutcome out = ResolveMelee(rules, mi);
  json o = {{"ruleset", rules.name},
            {"attacker_loss", out.attacker_loss},
            {"defender_loss", out.defender_loss},
            {"retreats", WhoName(out.retreats)},
            {"destroyed", WhoName(out.destroyed)},
            {"clause", out.clause},
            {"relation", MdiRelationName(out.relation)},
            {"captures_equipment", WhoName(out.captures_equipment)},
            {"attacker_strength", out.attacker_strength_used},
            {"defender_strength", out.defender_strength_used},
            {"explanation", out.explanation}};
  // With stands listed, the loss is taken stand by stand; part-stands go to a coin flip, from
  // the case's "coins" (physical) or the seeded source.
  std::unique_ptr<DiceSource> dice;
  if (j.contains("coins")) {
    RequireArray(j.at("coins"), opt.case_path, "coins");
    std::vector<int> coins;
    for (const auto& c : j.at("coins")) {
      if (!c.is_number_integer() || (c.get<int>() != 0 && c.get<int>() != 1))
        throw InputError(opt.case_path, "coins", "each coin is 1 (heads) or 0 (tails)");
      coins.push_back(c.get<int>());
    }
    dice = std::make_unique<PhysicalDice>(std::vector<int>{}, coins);
  } else {
    dice = std::make_unique<SeededDice>(opt.seed);
  }
  const std::pair<const CaseSide*, double> sides[2] = {{&a, out.attacker_loss},
                                                       {&d, out.defender_loss}};
  const char* names[2] = {"attacker", "defender"};
  for (int s = 0; s < 2; ++s) {
    if (sides[s].first->units.empty()) continue;
    LossResult lr;
    try {
      lr = AllocateLosses(sides[s].first->units, sides[s].second, *dice,
                          std::string(names[s]) + " melee loss");
    } catch (const DiceExhausted& e) {
      throw InputError(opt.case_path, "coins",
                       std::string("not enough coin flips given: ") + e.what());
    }
    json st = json::array();
    for (const auto& r : lr.removed) st.push_back(sides[s].first->units[r.unit].id);
    o[std::string(names[s]) + "_stands_lost"] = st;
    o[std::string(names[s]) + "_points_lost"] = lr.removed_points;
  }
  o["dice"] = DiceJson(dice->Events());
  if (opt.as_json) {
    std::cout << o.dump(2) << "\n";
    return 0;
  }
  std::cout << rules.name << " melee: " << out.explanation << "\n"
            << "  clause: " << out.clause << "\n  attacker loses " << out.attacker_loss
            << ", defender loses " << out.defender_loss
            << " points\n  retreats: " << WhoName(out.retreats)
            << "\n  destroyed: " << WhoName(out.destroyed)
            << "\n  captures equipment: " << WhoName(out.captures_equipment) << "\n";
  for (const char* n : names)
    if (o.contains(std::string(n) + "_stands_lost"))
      std::cout << "  " << n << " stands lost: " << o[std::string(n) + "_stands_lost"].dump()
                << " (" << o[std::string(n) + "_points_lost"].get<double>() << " points)\n";
  for (const auto& e : dice->Events())
    std::cout << "  "
              << (e.kind == DiceEvent::Kind::kCoin ? (e.value ? "coin: heads" : "coin: tails")
                                                   : "die: " + std::to_string(e.value))
              << " - " << e.purpose << "\n";
  return 0;
}

// ---- fire ----------------------------------------------------------------------------------

struct FireOptions {
  std::string ruleset = "napoleonic";
  std::string firer;     // unit type, e.g. line_infantry
  int stands = 0;        // firing stands
  std::string canister;  // gun kind: fire canister instead of musketry
  int shots = 1;         // canister shots
  std::string target;    // target stand kind
  double range = 1;      // squares, counted the rules' way (target square counts, diagonal 1.5)
  bool commander = false;
  int further = 0;  // units that already fired at this target this phase
  bool protected_target = false;
  std::string dice;  // "1,4,6": physical dice; otherwise seeded
  std::uint64_t seed = 1;
  bool as_json = false;
  void Check() const {
    if (target.empty()) throw InputError("command line", "--target", "missing target stand kind");
    if (canister.empty() && firer.empty())
      throw InputError("command line", "--firer", "missing firing unit type (or --canister GUN)");
    if (canister.empty() && stands <= 0)
      throw InputError("command line", "--stands", "must be >= 1");
    if (range <= 0) throw InputError("command line", "--range", "must be > 0 squares");
    if (further < 0) throw InputError("command line", "--further-units", "must be >= 0");
    if (shots < 1) throw InputError("command line", "--shots", "must be >= 1");
  }
};

int RunFire(const std::vector<std::string>& args) {
  FireOptions opt;
  po::options_description desc(
      "usage: referee rules fire --ruleset R --firer TYPE --stands N --target KIND --range SQ "
      "[--commander]\n"
      "       [--further-units N] [--protected] [--dice 1,2,6 | --seed N] [--json]\n"
      "   or: referee rules fire --canister field_gun|howitzer|horse_gun [--shots N] --target KIND "
      "...");
  desc.add_options()("help,h", "show this help")("ruleset", po::value(&opt.ruleset),
                                                 "napoleonic|ancient|PATH.json")(
      "ruleset-file", po::value(&opt.ruleset), "a club's ruleset JSON")(
      "firer", po::value(&opt.firer), "firing unit type")(
      "stands", po::value(&opt.stands), "stands able to fire")("canister", po::value(&opt.canister),
                                                               "gun kind firing canister")(
      "shots", po::value(&opt.shots), "canister shots (default 1)")(
      "target", po::value(&opt.target), "target stand kind")(
      "range", po::value(&opt.range), "range in squares (adjacent = 1, diagonal = 1.5)")(
      "commander", po::bool_switch(&opt.commander), "a commander is with the firing unit")(
      "further-units", po::value(&opt.further), "units that fired at this target before this one")(
      "protected", po::bool_switch(&opt.protected_target), "target in a protected square")(
      "dice", po::value(&opt.dice), "the dice rolled, comma separated (physical dice mode)")(
      "seed", po::value(&opt.seed), "seed for rolled dice (default 1)")(
      "json", po::bool_switch(&opt.as_json), "JSON output");
  po::variables_map vm;
  if (!ParseCommandLine(args, desc, vm)) return 0;
  opt.Check();
  const RulesetData rules = LoadRuleset(opt.ruleset);
  if (!rules.stand_values.count(opt.target))
    throw InputError("command line", "--target",
                     "unknown stand kind '" + opt.target + "' in " + rules.name);
  FireDiceCount n;
  double range = opt.range;
  if (!opt.canister.empty()) {
    if (!rules.artillery.canister_dice.count(opt.canister))
      throw InputError("command line", "--canister",
                       opt.canister + " cannot fire canister in " + rules.name);
    if (range > rules.artillery.canister_range + 1e-9)
      throw InputError("command line", "--range", "canister reaches adjacent squares only");
    n = CountCanisterDice(rules, opt.canister, opt.shots, opt.protected_target);
  } else {
    if (!rules.unit_types.count(opt.firer))
      throw InputError("command line", "--firer",
                       "unknown unit type '" + opt.firer + "' in " + rules.name);
    const UnitType& u = rules.Unit(opt.firer);
    if (u.firing_range <= 0)
      throw InputError("command line", "--firer", opt.firer + " does not shoot in " + rules.name);
    if (range > u.firing_range + 1e-9)
      throw InputError(
          "command line", "--range",
          "out of range: " + opt.firer + " reaches " + std::to_string(u.firing_range) + " squares");
    n = CountFireDice(rules, {opt.firer, opt.stands, opt.commander, opt.further, opt.target,
                              opt.protected_target});
  }
  std::unique_ptr<DiceSource> dice;
  if (!opt.dice.empty()) {
    std::vector<int> faces;
    std::stringstream ss(opt.dice);
    std::string tok;
    while (std::getline(ss, tok, ',')) {
      try {
        const int f = std::stoi(tok);
        if (f < 1 || f > 6) throw std::out_of_range("face");
        faces.push_back(f);
      } catch (const std::exception&) {
        throw InputError("command line", "--dice", "'" + tok + "' is not a die face 1..6");
      }
    }
    if (static_cast<int>(faces.size()) != n.dice)
      throw InputError("command line", "--dice",
                       "give exactly " + std::to_string(n.dice) + " dice (" + n.breakdown + ")");
    dice = std::make_unique<PhysicalDice>(faces, std::vector<int>{});
  } else {
    dice = std::make_unique<SeededDice>(opt.seed);
  }
  const auto rolled =
      dice->RollDice(n.dice, (opt.canister.empty() ? opt.firer : opt.canister + " canister") +
                                 " at " + opt.target);
  const FireHits h = HitsFromDice(rules.fire, rules.Stand(opt.target).target_class, range, rolled);
  if (opt.as_json) {
    std::cout << json{{"ruleset", rules.name},
                      {"dice", n.dice},
                      {"breakdown", n.breakdown},
                      {"rolled", rolled},
                      {"band", h.band},
                      {"table_entry", h.cell},
                      {"hits", h.hits},
                      {"target_class", rules.Stand(opt.target).target_class},
                      {"events", DiceJson(dice->Events())}}
                     .dump(2)
              << "\n";
    return 0;
  }
  std::cout << rules.name << " fire: " << n.breakdown << " dice; rolled";
  for (int r : rolled) std::cout << " " << r;
  std::cout << "\n  target " << opt.target << " (" << rules.Stand(opt.target).target_class
            << "), range " << range << " -> band '" << h.band << "': " << h.cell
            << "\n  hits: " << h.hits << " (each hit destroys one target stand)\n";
  return 0;
}

// ---- army ----------------------------------------------------------------------------------

int RunArmy(const std::vector<std::string>& args) {
  std::string name, ruleset;
  bool as_json = false;
  po::options_description desc(
      "usage: referee rules army [NAME] [--ruleset napoleonic|ancient|PATH] [--json]");
  desc.add_options()("help,h", "show this help")("name", po::value(&name), "army name")(
      "ruleset", po::value(&ruleset), "only this ruleset")("ruleset-file", po::value(&ruleset),
                                                           "a club's ruleset JSON")(
      "json", po::bool_switch(&as_json), "JSON output");
  po::positional_options_description pos;
  pos.add("name", 1);
  po::variables_map vm;
  if (!ParseCommandLine(args, desc, pos, vm)) return 0;
  std::vector<RulesetData> sets;
  if (ruleset.empty()) {
    sets.push_back(LoadRuleset("napoleonic"));
    sets.push_back(LoadRuleset("ancient"));
  } else {
    sets.push_back(LoadRuleset(ruleset));
  }
  json all = json::array();
  bool found = false;
  for (const auto& r : sets)
    for (const auto& [key, a] : r.armies) {
      if (!name.empty() && key != name) continue;
      found = true;
      const double pts = r.ArmyPoints(a);
      json units = json::array();
      for (const auto& e : a.units)
        units.push_back({{"type", e.type},
                         {"count", e.count},
                         {"stands", e.stands.value_or(r.Unit(e.type).StandCount())},
                         {"points_each", r.UnitPoints(e.type, e.stands)},
                         {"printed", e.printed},
                         {"note", e.note}});
      all.push_back({{"ruleset", r.name},
                     {"army", key},
                     {"title", a.title},
                     {"points", pts},
                     {"printed_points", a.printed_points},
                     {"printed_units_points", r.PrintedEntriesPoints(a)},
                     {"discrepancy", a.discrepancy_why},
                     {"units", units}});
      if (as_json) continue;
      if (name.empty()) {
        std::cout << r.name << "/" << key << "  " << pts << " points"
                  << (pts != a.printed_points
                          ? " (printed " + std::to_string(static_cast<int>(a.printed_points)) + ")"
                          : "")
                  << "  " << a.title << "\n";
        continue;
      }
      std::cout << a.title << " (" << r.name << "): " << pts << " points, printed "
                << a.printed_points << "; the units as printed cost " << r.PrintedEntriesPoints(a)
                << "\n";
      for (const auto& u : units)
        std::cout << "  " << u["count"].get<int>() << " x " << u["type"].get<std::string>() << " ("
                  << u["stands"].get<int>() << " stands, " << u["points_each"].get<double>()
                  << " points each)"
                  << (u["note"].get<std::string>().empty() ? ""
                                                           : "  - " + u["note"].get<std::string>())
                  << "\n";
      if (!a.discrepancy_why.empty()) std::cout << "  note: " << a.discrepancy_why << "\n";
    }
  if (!found)
    throw InputError("command line", "NAME",
                     "no army '" + name + "' (run `referee rules army` for the list)");
  if (as_json) std::cout << (name.empty() ? all : all[0]).dump(2) << "\n";
  return 0;
}

}  // namespace

int RunRules(const std::vector<std::string>& args) {
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    std::cerr << "usage: referee rules melee|fire|army ...\n"
                 "  melee CASE.json [--json] [--seed N]   resolve one melee by the MDI cards\n"
                 "  fire --firer T --stands N --target K --range R [--dice ...]   "
                 "musketry/missiles/canister\n"
                 "  army [NAME]                           army lists and points\n";
    return args.empty() ? 2 : 0;
  }
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  if (args[0] == "melee") return RunMelee(rest);
  if (args[0] == "fire") return RunFire(rest);
  if (args[0] == "army") return RunArmy(rest);
  throw InputError("command line", "",
                   "unknown rules subcommand '" + args[0] + "' (melee|fire|army)");
}

}  // namespace referee::cli
