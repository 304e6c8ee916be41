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
  // Unprinted entries are catapult crews only.
  for (const auto& [name, a] : r.armies)
    for (const auto& e : a.units)
      if (!e.printed) {
        EXPECT_EQ(r.Unit(e.type).arm, "crew") << name;
      }
  // Four lists reach their printed totals exactly (the odd 201 of the Indian included).
  EXPECT_DOUBLE_EQ(r.ArmyPoints(r.armies.at("indian")), 201);
  EXPECT_DOUBLE_EQ(r.ArmyPoints(r.armies.at("carthaginian")), 200);
  EXPECT_DOUBLE_EQ(r.ArmyPoints(r.armies.at("assyrian")), 200);
  EXPECT_DOUBLE_EQ(r.ArmyPoints(r.armies.at("generic")), 200);
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
    const auto p = dir / "club.json";
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
              j["armies"]["indian"]["printed_points"] = 202;
            })).find("armies.indian"),
            std::string::npos);
  EXPECT_NE(ErrorOf(Write([](auto& j) {
              j["stand_values"]["heavy_cavalry"]["target_class"] = "ghosts";
            })).find("stand_values.heavy_cavalry.target_class"),
            std::string::npos);
  EXPECT_EQ(ErrorOf(Write([](auto&) {})), "no error");
}

TEST(RulesData, UnknownRulesetNameIsAnInputError) {
  EXPECT_THROW(LoadRuleset("chess"), InputError);
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
