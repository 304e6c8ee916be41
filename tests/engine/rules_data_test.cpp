// The ruleset files: loaded and validated, army totals exact, the unit table as printed, and
// clear errors (file + field) for a broken club file.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "engine/data_paths.hpp"
#include "engine/input_error.hpp"
#include "engine/rules/ruleset_loader.hpp"

namespace referee::rules {
namespace {

TEST(RulesData, AncientArmiesTotalAsPrintedOrDocumentWhyNot) {
  const RulesetData r = LoadRuleset("ancient");
  const std::map<std::string, double> printed = {
      {"egyptian", 200}, {"assyrian", 200},     {"macedonian", 200}, {"indian", 201},
      {"roman", 200},    {"carthaginian", 200}, {"generic", 200}};
  ASSERT_EQ(r.armies.size(), 7u);
  for (const auto& [name, pts] : printed) {
    const ArmyList& a = r.armies.at(name);
    EXPECT_DOUBLE_EQ(a.printed_points, pts) << name;
    if (a.computed_points) {
      EXPECT_FALSE(a.discrepancy_why.empty()) << name;
      EXPECT_DOUBLE_EQ(r.ArmyPoints(a), *a.computed_points) << name;
    } else {
      EXPECT_DOUBLE_EQ(r.ArmyPoints(a), pts) << name;
    }
  }
  // The units as printed, at Points x Stands each (the arithmetic in ancient.json's reading).
  const std::map<std::string, double> as_printed = {
      {"egyptian", 229}, {"assyrian", 194},     {"macedonian", 172}, {"indian", 198},
      {"roman", 177},    {"carthaginian", 196}, {"generic", 193}};
  for (const auto& [name, pts] : as_printed)
    EXPECT_DOUBLE_EQ(r.PrintedEntriesPoints(r.armies.at(name)), pts) << name;
  // One reading for every list: the unprinted entries are exactly one foot crew unit per heavy
  // catapult and one horse crew per light catapult, the same in every army (no per-army padding).
  for (const auto& [name, a] : r.armies) {
    int heavy = 0, light = 0, foot_crews = 0, horse_crews = 0;
    for (const auto& e : a.units) {
      if (e.type == "heavy_catapult") heavy += e.count;
      if (e.type == "light_catapult") light += e.count;
      if (e.printed) continue;
      EXPECT_EQ(r.Unit(e.type).arm, "crew") << name;
      EXPECT_FALSE(e.stands) << name << ": an unprinted crew has its table's stands";
      (e.type == "foot_crew" ? foot_crews : horse_crews) += e.count;
    }
    EXPECT_EQ(foot_crews, heavy) << name;
    EXPECT_EQ(horse_crews, light) << name;
  }
  EXPECT_DOUBLE_EQ(r.ArmyPoints(r.armies.at("generic")), 200);
  const std::map<std::string, double> computed = {
      {"egyptian", 229}, {"assyrian", 198},     {"macedonian", 179}, {"indian", 205},
      {"roman", 184},    {"carthaginian", 203}, {"generic", 200}};
  for (const auto& [name, pts] : computed)
    EXPECT_DOUBLE_EQ(r.ArmyPoints(r.armies.at(name)), pts) << name;
}

TEST(RulesData, NoReadingGivesEveryPrintedAncientTotal) {
  // ancient.json "contradictions": lists with the same catapults (1 heavy, 1 light) need their
  // crews to be worth printed - printed units: Macedonian 28, Roman 23, Indian 3, Carthaginian 4.
  const RulesetData r = LoadRuleset("ancient");
  auto crews_needed = [&r](const std::string& name) {
    const ArmyList& a = r.armies.at(name);
    return a.printed_points - r.PrintedEntriesPoints(a);
  };
  EXPECT_DOUBLE_EQ(crews_needed("macedonian"), 28);
  EXPECT_DOUBLE_EQ(crews_needed("roman"), 23);
  EXPECT_DOUBLE_EQ(crews_needed("indian"), 3);
  EXPECT_DOUBLE_EQ(crews_needed("carthaginian"), 4);
  // Indian against Carthaginian: whatever the crews cost, the Indian is 2 points dearer by the
  // table, 1 by the printed totals.
  const ArmyList& ind = r.armies.at("indian");
  const ArmyList& car = r.armies.at("carthaginian");
  EXPECT_DOUBLE_EQ(r.ArmyPoints(ind) - r.ArmyPoints(car), 2);
  EXPECT_DOUBLE_EQ(ind.printed_points - car.printed_points, 1);
  // Egyptian: the units other than its guard already cost more than 200.
  const ArmyList& egy = r.armies.at("egyptian");
  double without_guard = 0;
  for (const auto& e : egy.units)
    if (e.type != "guard_infantry") {
      ArmyList one;
      one.units = {e};
      without_guard += r.ArmyPoints(one);
    }
  EXPECT_DOUBLE_EQ(without_guard, 213);
}

TEST(RulesData, NapoleonicDivisionIs180PointsLikeBeattenburg) {
  const RulesetData r = LoadRuleset("napoleonic");
  EXPECT_DOUBLE_EQ(r.ArmyPoints(r.armies.at("division")), 180);
  // A 4-stand infantry regiment is 12 points ("burnt up an entire infantry regiment (12 points)").
  EXPECT_DOUBLE_EQ(r.UnitPoints("line_infantry"), 12);
  // ORGANIZATION: stands per unit.
  EXPECT_EQ(r.Unit("line_infantry").StandCount(), 4);
  EXPECT_EQ(r.Unit("guards_cavalry").StandCount(), 4);
  EXPECT_EQ(r.Unit("light_infantry").StandCount(), 3);
  EXPECT_EQ(r.Unit("line_cavalry").StandCount(), 3);
  EXPECT_EQ(r.Unit("foot_battery").StandCount(), 8);  // 4 foot crew, 1 mounted, 2 guns, 1 wagon
  EXPECT_EQ(r.Unit("horse_battery").StandCount(), 2);
}

TEST(RulesData, AncientUnitTableAsPrinted) {
  const RulesetData r = LoadRuleset("ancient");
  EXPECT_DOUBLE_EQ(r.Unit("light_infantry").move, 3);
  EXPECT_DOUBLE_EQ(r.Unit("roman_legionary").firing_range, 1.5);
  EXPECT_DOUBLE_EQ(r.Unit("light_cavalry").firing_range, 2.5);
  EXPECT_EQ(r.Unit("numidian_light_cavalry").move, 6);
  EXPECT_EQ(r.Unit("heavy_infantry").support, 'A');
  EXPECT_EQ(r.Unit("light_infantry").support, 'B');
  EXPECT_EQ(r.Unit("commander").support, 'C');
  EXPECT_EQ(r.Unit("foot_crew").support, 'D');
  EXPECT_DOUBLE_EQ(r.Stand("macedonian_phalangite").melee, 1.5);
  EXPECT_DOUBLE_EQ(*r.Stand("macedonian_phalangite").melee_reduced, 1.0);
  EXPECT_DOUBLE_EQ(*r.Stand("elephant").charge_melee, 4);
  EXPECT_DOUBLE_EQ(*r.Stand("light_chariot").charge_melee, 3);
  EXPECT_EQ(r.Stand("heavy_chariot").dice_per_stand, 2);
  EXPECT_EQ(r.Stand("indian_medium_archer").target_class, "light_infantry_foot_crew");  // '@'
  EXPECT_TRUE(r.Stand("assyrian_heavy_archer").always_protected_vs_shooting);
}

TEST(RulesData, StandKindsAreTheSharedCatalogueNames) {
  std::ifstream in(RulesetDir() / "stand_kinds.json");
  const auto kinds = nlohmann::json::parse(in).at("kinds");
  for (const char* rs : {"napoleonic", "ancient"})
    for (const auto& [kind, v] : LoadRuleset(rs).stand_values)
      EXPECT_TRUE(kinds.contains(kind)) << rs << ": " << kind;
}

TEST(RulesData, NapoleonicDefaultsAreMarkedAsNotPublished) {
  std::ifstream in(RulesetDir() / "napoleonic.json");
  const auto j = nlohmann::json::parse(in);
  EXPECT_NE(
      j.at("fire").at("source").get<std::string>().find("default, not from the published rules"),
      std::string::npos);
  EXPECT_NE(j.at("stand_values")
                .at("source")
                .get<std::string>()
                .find("default, not from the published rules"),
            std::string::npos);
}

class BrokenFile : public ::testing::Test {
 protected:
  std::filesystem::path Write(const std::function<void(nlohmann::json&)>& edit) {
    std::ifstream in(RulesetDir() / "ancient.json");
    auto j = nlohmann::json::parse(in);
    edit(j);
    const auto dir = std::filesystem::path(REFEREE_TEST_TMP) / "rules_data";
    std::filesystem::create_directories(dir);
    auto p = dir / "club.json";
    std::ofstream(p) << j.dump(1);
    return p;
  }
  std::string ErrorOf(const std::filesystem::path& p) {
    try {
      LoadRulesetFile(p);
    } catch (const InputError& e) {
      EXPECT_EQ(e.file(), p.string());
      return std::string(e.field()) + " | " + e.what();
    }
    return "no error";
  }
};

TEST_F(BrokenFile, NamesFileAndField) {
  EXPECT_NE(ErrorOf(Write([](auto& j) {
              j["fire"]["table"]["heavy_cavalry"][1] = "double seven";
            })).find("fire.table.heavy_cavalry[1]"),
            std::string::npos);
  EXPECT_NE(ErrorOf(Write([](auto& j) {
              j["unit_types"]["light_infantry"]["move"] = -1;
            })).find("unit_types.light_infantry.move"),
            std::string::npos);
  EXPECT_NE(ErrorOf(Write([](auto& j) {
              j["mdi"]["superior_to"]["line"] = {"column"};
            })).find("mdi.superior_to"),
            std::string::npos);
  EXPECT_NE(ErrorOf(Write([](auto& j) {
              j["options"]["withdrawal_vs_square"]["value"] = "maybe";
            })).find("options.withdrawal_vs_square.value"),
            std::string::npos);
  EXPECT_NE(ErrorOf(Write([](auto& j) {
              j["armies"]["roman"]["units"][0]["type"] = "tank";
            })).find("armies.roman.units[0].type"),
            std::string::npos);
  EXPECT_NE(ErrorOf(Write([](auto& j) {
              j["armies"]["generic"]["printed_points"] = 202;
            })).find("armies.generic"),
            std::string::npos);
  EXPECT_NE(ErrorOf(Write([](auto& j) {
              j["armies"]["indian"]["computed_points"] = 201;  // padded to the printed figure
            })).find("armies.indian"),
            std::string::npos);
  EXPECT_NE(ErrorOf(Write([](auto& j) {
              j["stand_values"]["heavy_cavalry"]["target_class"] = "ghosts";
            })).find("stand_values.heavy_cavalry.target_class"),
            std::string::npos);
  EXPECT_EQ(ErrorOf(Write([](auto&) {})), "no error");
}

// A list or an optional text of the wrong type names its field. Before the fix these fell to
// the loader's catch-all: the file named, but only nlohmann's "type must be string, but is
// number" after it.
TEST_F(BrokenFile, AWrongTypeInAListOrOptionalTextNamesItsField) {
  const std::pair<std::function<void(nlohmann::json&)>, std::string> cases[] = {
      {[](auto& j) { j["mdi"]["superior_to"]["line"] = {0}; }, "mdi.superior_to.line[0]"},
      {[](auto& j) { j["mdi"]["withdrawal_succeeds_against"] = 5; },
       "mdi.withdrawal_succeeds_against"},
      {[](auto& j) { j["support_types"]["A"]["directions"] = "front"; },
       "support_types.A.directions"},
      {[](auto& j) {
         j["melee"]["elephant_charge_stays_on"] = {5, "six"};
       },
       "melee.elephant_charge_stays_on[1]"},
      {[](auto& j) { j["artillery"]["manning_kinds"] = {{"crew"}}; }, "artillery.manning_kinds[0]"},
      {[](auto& j) { j["armies"]["roman"]["units"][0]["note"] = 3; }, "armies.roman.units[0].note"},
      {[](auto& j) { j["title"] = nlohmann::json::array(); }, "title"},
      {[](auto& j) { j["armies"]["roman"]["units"] = true; }, "armies.roman.units"},
  };
  for (const auto& [edit, field] : cases) {
    const std::string error = ErrorOf(Write(edit));
    EXPECT_EQ(error.rfind(field + " | ", 0), 0u) << error;
    EXPECT_EQ(error.find("json.exception"), std::string::npos) << error;
  }
}

TEST(RulesData, UnknownRulesetNameIsAnInputError) {
  EXPECT_THROW(LoadRuleset("chess"), InputError);
  // Too long for a file name: still unknown, not a filesystem error.
  EXPECT_THROW(LoadRuleset(std::string(5000, 'a')), InputError);
}

}  // namespace
}  // namespace referee::rules

#include "engine/rules/ruleset.hpp"

namespace referee::rules {
namespace {

TEST(RulesInterface, DeGreSweetThroughTheRulesetInterface) {
  const std::unique_ptr<Ruleset> r = MakeRuleset("napoleonic");
  EXPECT_EQ(r->geometry(), Geometry::kGridded);
  EXPECT_EQ(r->TurnPhases().size(), 6u);
  Placement a{Square{5, 6}, Facing::kN, {}, 0}, b{Square{5, 4}, Facing::kS, {}, 0},
      c{Square{6, 4}, Facing::kS, {}, 0};
  EXPECT_DOUBLE_EQ(r->Range(a, b), 2);
  EXPECT_DOUBLE_EQ(r->Range(a, c), 2.5);
  EXPECT_TRUE(r->InFireArc("line_infantry", a, b));
  EXPECT_FALSE(r->InFireArc("line_infantry", a, c));  // straight ahead only
  EXPECT_TRUE(r->InFireArc("light_infantry", a, c));
  EXPECT_FALSE(r->InFireArc("line_cavalry", a, b));  // does not fire
  EXPECT_DOUBLE_EQ(r->ArmyPoints("division"), r->PrintedArmyPoints("division"));
  const std::unique_ptr<Ruleset> anc = MakeRuleset("ancient");
  EXPECT_EQ(anc->TurnPhases().size(), 5u);
  EXPECT_EQ(anc->ArmyNames().size(), 7u);
}

}  // namespace
}  // namespace referee::rules
