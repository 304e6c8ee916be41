// Fire by dice: the Ancient missile table as printed, dice per unit and modifiers, range bands
// counted the rules' way, canister dice, and battery shots by losses.
#include <gtest/gtest.h>

#include "engine/grid.hpp"
#include "engine/input_error.hpp"
#include "engine/rules/fire.hpp"
#include "engine/rules/ruleset_loader.hpp"

namespace referee::rules {
namespace {

TEST(RulesFire, ParsesThePrintedCells) {
  const FireCell a = ParseFireCell("1, 2, or 3", "f", "x");
  EXPECT_EQ(a.faces, (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(a.multiple, 1);
  const FireCell b = ParseFireCell("Double 1’s", "f", "x");
  EXPECT_EQ(b.faces, (std::vector<int>{1}));
  EXPECT_EQ(b.multiple, 2);
  const FireCell c = ParseFireCell("Triple 1’’s or Triple 2’s", "f", "x");
  EXPECT_EQ(c.faces, (std::vector<int>{1, 2}));
  EXPECT_EQ(c.multiple, 3);
  EXPECT_TRUE(ParseFireCell("Impossible", "f", "x").impossible);
  EXPECT_THROW(ParseFireCell("double 1 or 2", "f", "x"), InputError);  // mixes kinds
  EXPECT_THROW(ParseFireCell("seven", "f", "x"), InputError);
}

TEST(RulesFire, HitsFromTheAncientTable) {
  const FireRules& f = LoadRuleset("ancient").fire;
  const std::vector<int> all = {1, 2, 3, 4, 5, 6};
  EXPECT_EQ(HitsFromDice(f, "light_infantry_foot_crew", 1, all).hits, 3);  // 1, 2 or 3
  EXPECT_EQ(HitsFromDice(f, "light_infantry_foot_crew", 2, all).hits, 2);  // 1 or 2
  EXPECT_EQ(HitsFromDice(f, "light_infantry_foot_crew", 3, all).hits, 1);  // 1
  EXPECT_EQ(HitsFromDice(f, "heavy_cavalry", 1, {1, 1, 1, 2}).hits, 3);    // 1
  EXPECT_EQ(HitsFromDice(f, "heavy_cavalry", 1.5, {1, 1, 1, 2}).hits, 1);  // double 1: one pair
  EXPECT_EQ(HitsFromDice(f, "heavy_cavalry", 1.5, {1, 1, 1, 1}).hits, 2);  // two pairs
  EXPECT_EQ(HitsFromDice(f, "heavy_cavalry", 3, {1, 1, 2, 6}).hits, 0);    // triple 1
  EXPECT_EQ(HitsFromDice(f, "chariot_elephant", 1, {1, 1, 2, 2, 3}).hits,
            2);                                                             // double 1 or double 2
  EXPECT_EQ(HitsFromDice(f, "chariot_elephant", 2, {2, 2, 2, 1}).hits, 1);  // triple 2
  EXPECT_EQ(HitsFromDice(f, "commander", 4, {1, 1, 1, 1, 1, 1}).hits, 0);   // impossible
  EXPECT_EQ(HitsFromDice(f, "commander", 1, {1, 1, 4}).hits, 1);
  // Low rolls are good: sixes never hit.
  EXPECT_EQ(HitsFromDice(f, "light_infantry_foot_crew", 1, {6, 6, 6, 5, 4}).hits, 0);
}

TEST(RulesFire, RangeIsCountedWithTheTargetSquareAndDiagonalsAtOneAndAHalf) {
  const FireRules& f = LoadRuleset("ancient").fire;
  EXPECT_DOUBLE_EQ(RangeSquares({0, 0}, {1, 0}), 1);  // adjacent: the target square counts
  EXPECT_DOUBLE_EQ(RangeSquares({0, 0}, {1, 1}), 1.5);
  EXPECT_DOUBLE_EQ(RangeSquares({0, 0}, {2, 1}), 2.5);
  EXPECT_EQ(f.bands[*RangeBand(f, RangeSquares({0, 0}, {1, 0}))].name, "1");
  EXPECT_EQ(f.bands[*RangeBand(f, RangeSquares({0, 0}, {1, 1}))].name, "1.5-2");
  EXPECT_EQ(f.bands[*RangeBand(f, RangeSquares({0, 0}, {2, 0}))].name, "1.5-2");
  EXPECT_EQ(f.bands[*RangeBand(f, RangeSquares({0, 0}, {2, 1}))].name, "over 2");
}

TEST(RulesFire, NapoleonicDicePerUnit) {
  const RulesetData r = LoadRuleset("napoleonic");
  FireDiceRequest q{"line_infantry", 4, false, 0, "line_infantry", false};
  EXPECT_EQ(CountFireDice(r, q).dice, 4);  // one die per stand
  q.firer_type = "guards_infantry";
  EXPECT_EQ(CountFireDice(r, q).dice, 5);  // +1 guards
  q.commander_present = true;
  EXPECT_EQ(CountFireDice(r, q).dice, 6);  // +1 commander
  q.earlier_units_on_target = 1;
  EXPECT_EQ(CountFireDice(r, q).dice, 7);  // +1 as the second unit on the same target
  q.target_protected = true;
  EXPECT_EQ(CountFireDice(r, q).dice, 6);  // -1 protected square
}

TEST(RulesFire, AncientDicePerUnit) {
  const RulesetData r = LoadRuleset("ancient");
  // Heavy Chariots get two shots per stand.
  EXPECT_EQ(CountFireDice(r, {"heavy_chariot", 1, false, 0, "heavy_infantry", false}).dice, 2);
  // Assyrian heavy archers always count as in a protected square when shot at.
  EXPECT_EQ(CountFireDice(r, {"light_infantry", 3, false, 0, "assyrian_heavy_archer", false}).dice,
            2);
  // No guards or commander dice in the Ancient rules.
  EXPECT_EQ(CountFireDice(r, {"light_infantry", 3, true, 0, "heavy_infantry", false}).dice, 3);
  EXPECT_EQ(CountFireDice(r, {"light_infantry", 3, false, 2, "heavy_infantry", false}).dice, 5);
}

TEST(RulesFire, CanisterDiceAndBatteryShots) {
  const RulesetData r = LoadRuleset("napoleonic");
  EXPECT_EQ(CountCanisterDice(r, "field_gun", 1, false).dice, 3);
  EXPECT_EQ(CountCanisterDice(r, "howitzer", 1, false).dice, 3);
  EXPECT_EQ(CountCanisterDice(r, "horse_gun", 1, false).dice, 2);
  EXPECT_EQ(CountCanisterDice(r, "field_gun", 3, true).dice, 6);  // one die less per gun
  EXPECT_EQ(FootBatteryShots(r, 0, false), 3);
  EXPECT_EQ(FootBatteryShots(r, 1, false), 2);
  EXPECT_EQ(FootBatteryShots(r, 0, true), 2);
  EXPECT_EQ(FootBatteryShots(r, 1, true), 1);
  EXPECT_EQ(FootBatteryShots(r, 2, false), 0);
}

}  // namespace
}  // namespace referee::rules
