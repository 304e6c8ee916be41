// Stands -> units by Napoleonic 1C ("No two different units of one side may be in the same
// square, except artillery may form in any way, as long as there are no more that 2 guns,
// 1 supply wagon, or 6 crew stands in one square, and commanders may join any unit with a limit
// of 1 commander per square").
#include "engine/unit_grouping.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "engine/input_error.hpp"
#include "engine/stand_kind_catalog_loader.hpp"

namespace referee {
namespace {

class Grouping : public ::testing::Test {
 protected:
  void Add(const std::string& id, const std::string& side, const std::string& kind, double x,
           double y) {
    stands_.push_back({id, side, kind, {{x, y}, 1.5, 0.7, 0.0}, true, {}});
  }
  UnitGrouping Group() { return GroupStandsIntoUnits(grid_, stands_, catalog_); }

  Grid grid_{12, 8, 4.0};
  StandKindCatalog catalog_ = LoadStandKinds();
  std::vector<Stand> stands_;
};

TEST_F(Grouping, OneSideOneSquareIsOneUnitByTheStandCentre) {
  Add("a", "red", "line_infantry", 1.0, 1.0);
  Add("b", "red", "line_infantry", 3.9, 3.0);
  Add("c", "red", "line_infantry", 4.1, 3.0);   // centre over the line: next square
  Add("d", "blue", "line_infantry", 2.0, 2.0);  // other side, same square
  const UnitGrouping g = Group();
  ASSERT_EQ(g.units.size(), 3u);
  EXPECT_EQ(g.units[0].side, "blue");
  EXPECT_EQ(g.units[1].stand_ids, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(g.units[1].square, (Square{0, 0}));
  EXPECT_EQ(g.units[2].stand_ids, std::vector<std::string>{"c"});
  EXPECT_EQ(g.units[2].square, (Square{1, 0}));
  EXPECT_TRUE(g.issues.empty());
}

TEST_F(Grouping, ArtilleryIsItsOwnGroupAndCommandersJoinTroops) {
  Add("gun1", "red", "field_gun", 1.0, 1.0);
  Add("gun2", "red", "field_gun", 3.0, 1.0);
  Add("crew", "red", "foot_crew", 1.0, 3.0);
  Add("inf", "red", "line_infantry", 3.0, 3.0);
  Add("cmd", "red", "commander", 2.0, 2.0);
  const UnitGrouping g = Group();
  ASSERT_EQ(g.units.size(), 2u);
  EXPECT_EQ(g.units[0].type, UnitType::kTroops);
  EXPECT_EQ(g.units[0].commander_id, "cmd");
  EXPECT_EQ(g.units[1].type, UnitType::kArtillery);
  EXPECT_EQ(g.units[1].stand_ids, (std::vector<std::string>{"crew", "gun1", "gun2"}));
  EXPECT_FALSE(g.units[1].commander_id.has_value());
  EXPECT_TRUE(g.issues.empty());
}

TEST_F(Grouping, LoneCommanderIsAUnitAndLimitsAreReported) {
  Add("cmd", "blue", "commander", 10.0, 10.0);
  Add("cmd2", "blue", "sub_commander", 11.0, 11.0);
  for (int i = 0; i < 3; ++i) Add("g" + std::to_string(i), "red", "field_gun", 17.0 + i, 17.0);
  Add("w1", "red", "supply_wagon", 17.0, 19.0);
  Add("w2", "red", "supply_wagon", 18.0, 19.0);
  for (int i = 0; i < 7; ++i)
    Add("c" + std::to_string(i), "red", "foot_crew", 16.2 + 0.5 * i, 18.0);
  Add("li", "red", "line_infantry", 30.0, 30.0);
  Add("cav", "red", "line_cavalry", 31.0, 31.0);
  Add("off", "red", "line_infantry", 50.0, 1.0);
  const UnitGrouping g = Group();
  ASSERT_GE(g.units.size(), 2u);
  EXPECT_EQ(g.units[0].type, UnitType::kCommander);
  EXPECT_EQ(g.units[1].type, UnitType::kCommander);
  // 2 commanders, 3 guns, 2 wagons, 7 crew, infantry + cavalry in one square: five issues.
  EXPECT_EQ(g.issues.size(), 5u);
  EXPECT_EQ(g.off_board, std::vector<std::string>{"off"});
}

TEST_F(Grouping, AncientStackingComesFromItsOwnRules) {
  // Ancient MOVEMENT 2: one catapult and up to six crew per square; catapults and their crew
  // group apart from the troops they share a square with.
  const SquareStacking ancient = LoadSquareStacking("ancient");
  Add("inf", "red", "heavy_infantry", 1.0, 1.0);
  Add("cat1", "red", "light_catapult", 2.0, 2.0);
  Add("crew", "red", "foot_crew", 3.0, 1.0);
  Add("cmd", "red", "sub_commander", 3.0, 3.0);
  UnitGrouping g = GroupStandsIntoUnits(grid_, stands_, catalog_, ancient);
  ASSERT_EQ(g.units.size(), 2u);
  EXPECT_EQ(g.units[0].stand_ids, std::vector<std::string>{"inf"});
  EXPECT_EQ(g.units[0].commander_id, "cmd");
  EXPECT_EQ(g.units[1].stand_ids, (std::vector<std::string>{"cat1", "crew"}));
  EXPECT_TRUE(g.issues.empty());
  // A second catapult breaks the ancient limit of 1; Napoleonic would allow 2 "guns".
  Add("cat2", "red", "heavy_catapult", 2.5, 2.5);
  g = GroupStandsIntoUnits(grid_, stands_, catalog_, ancient);
  ASSERT_EQ(g.issues.size(), 1u);
  EXPECT_NE(g.issues[0].what.find("2 catapults"), std::string::npos) << g.issues[0].what;
  EXPECT_TRUE(GroupStandsIntoUnits(grid_, stands_, catalog_).issues.empty());
}

TEST(StackingFile, BadEntriesNameTheFileAndField) {
  const std::filesystem::path dir = std::filesystem::path(REFEREE_TEST_TMP) / "stacking";
  std::filesystem::create_directories(dir);
  const auto write = [&](const std::string& text) {
    auto p = dir / "square_stacking.json";
    std::ofstream(p) << text;
    return p;
  };
  const auto expect_error = [](const std::filesystem::path& p, const std::string& ruleset,
                               const std::string& field) {
    try {
      LoadSquareStacking(ruleset, p);
      ADD_FAILURE() << "no error for " << field;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(field), std::string::npos) << e.what();
    }
  };
  expect_error(write(R"({"rulesets": {}})"), "napoleonic", "rulesets.napoleonic");
  expect_error(write(R"({"rulesets": {"x": {"artillery_categories": ["gunz"], "limits": []}}})"),
               "x", "rulesets.x.artillery_categories[0]");
  expect_error(write(R"({"rulesets": {"x": {"artillery_categories": [], "limits": [
      {"categories": ["gun"], "max": -1, "what": "guns"}]}}})"),
               "x", "rulesets.x.limits[0].max");
  expect_error(dir / "missing.json", "napoleonic", "missing.json");
}

}  // namespace
}  // namespace referee
