// Declared gun and catapult shots, one test per clause of the text: screening of a gun by
// adjacent friendly troops (Napoleonic 3E), the unscreenable howitzer (3G), catapults' overhead
// fire, arc and range (Ancient CATAPULT FIRE 2-3) and the stand that mans a catapult (CATAPULT
// FIRE 1), which is tied by the shot whether or not the shell hits.
#include <gtest/gtest.h>

#include "engine/rules/game.hpp"
#include "engine/rules/ruleset_loader.hpp"
#include "rules_test_units.hpp"

namespace referee::rules {
namespace {

// A red horse gun at F7 facing north, a blue target far ahead, and `friends` on red's side.
Game HorseGun(const RulesetData& nap, std::vector<GameUnit> friends) {
  std::vector<GameUnit> units = {MakeUnit(nap, "gun", "red", "horse_battery", {5, 6}, Facing::kN),
                                 MakeUnit(nap, "far", "blue", "line_infantry", {5, 1}, Facing::kS)};
  for (auto& f : friends) units.push_back(std::move(f));
  return Game(nap, TwoSides(std::move(units)));
}

// ---- Napoleonic 3E: "Squares occupied by friendly troops adjacent to a gun screen it and keep it
// from firing in that direction." -----------------------------------------------------------------

TEST(RulesArtillery, FriendlyTroopsInTheAdjacentSquareAheadScreenTheGun) {
  const RulesetData nap = LoadRuleset("napoleonic");
  Game g = HorseGun(nap, {MakeUnit(nap, "inf", "red", "line_infantry", {5, 5}, Facing::kN)});
  EXPECT_TRUE(Mentions(g.WhyCannotFireArtillery({"gun", {5, 2}}), "screened by friendly inf"));
  // Into the adjacent square itself too: it is "that direction".
  EXPECT_TRUE(Mentions(g.WhyCannotFireArtillery({"gun", {5, 5}}), "screened"));
  PhysicalDice none;
  EXPECT_FALSE(g.Apply(FireArtillery{"gun", {5, 2}}, none).ok);
}

TEST(RulesArtillery, FriendlyTroopsAdjacentInAnotherDirectionDoNotScreen) {
  const RulesetData nap = LoadRuleset("napoleonic");
  // Friends at the front-left corner (E6) and to the left (E7): straight ahead is open...
  Game g = HorseGun(nap, {MakeUnit(nap, "a", "red", "line_infantry", {4, 5}, Facing::kN),
                          MakeUnit(nap, "b", "red", "line_infantry", {4, 6}, Facing::kN)});
  EXPECT_FALSE(g.WhyCannotFireArtillery({"gun", {5, 2}}));
  // ...but the diagonal through E6 is screened by it.
  EXPECT_TRUE(Mentions(g.WhyCannotFireArtillery({"gun", {3, 4}}), "screened by friendly"));
}

TEST(RulesArtillery, FriendlyTroopsTwoOrMoreSquaresAwayDoNotScreen) {
  const RulesetData nap = LoadRuleset("napoleonic");
  Game g = HorseGun(nap, {MakeUnit(nap, "inf", "red", "line_infantry", {5, 4}, Facing::kN)});
  EXPECT_FALSE(g.WhyCannotFireArtillery({"gun", {5, 1}}));
  PhysicalDice none;
  EXPECT_TRUE(g.Apply(FireArtillery{"gun", {5, 1}}, none).ok);
}

TEST(RulesArtillery, EnemyTroopsAdjacentToAGunDoNotScreenIt) {
  const RulesetData nap = LoadRuleset("napoleonic");
  // The text names friendly troops only; an enemy in front of the gun is a target, not a screen.
  Game g2(nap, TwoSides({MakeUnit(nap, "gun", "red", "horse_battery", {5, 6}, Facing::kN),
                         MakeUnit(nap, "e", "blue", "line_infantry", {5, 5}, Facing::kS)}));
  EXPECT_FALSE(g2.WhyCannotFireArtillery({"gun", {5, 3}}));
}

TEST(RulesArtillery, AHitOnAFriendlyStandDestroysIt) {
  const RulesetData nap = LoadRuleset("napoleonic");
  Game g = HorseGun(nap, {MakeUnit(nap, "inf", "red", "line_infantry", {5, 4}, Facing::kN)});
  PhysicalDice none;
  ASSERT_TRUE(g.Apply(FireArtillery{"gun", {5, 2}}, none).ok);
  // The Q-tip fell short, on the gun's own infantry two squares ahead.
  const ActionResult r = g.Apply(ArtilleryCasualty{"gun", "inf", "line_infantry"}, none);
  ASSERT_TRUE(r.ok) << r.refusal;
  EXPECT_EQ(g.FindUnit("inf")->stands.size(), 3u);
}

// ---- Napoleonic 3G: "A howitzer cannot be screened." --------------------------------------------

TEST(RulesArtillery, AHowitzerFiresOverAdjacentFriendsAFieldGunDoesNot) {
  const RulesetData nap = LoadRuleset("napoleonic");
  Game g(nap, TwoSides({MakeUnit(nap, "bat", "red", "foot_battery", {5, 6}, Facing::kN),
                        MakeUnit(nap, "inf", "red", "line_infantry", {5, 5}, Facing::kN),
                        MakeUnit(nap, "far", "blue", "line_infantry", {5, 1}, Facing::kS)}));
  EXPECT_TRUE(Mentions(g.WhyCannotFireArtillery({"bat", {5, 2}, "field_gun"}), "screened"));
  EXPECT_FALSE(g.WhyCannotFireArtillery({"bat", {5, 2}, "howitzer"}));
  EXPECT_TRUE(Mentions(g.WhyCannotFireArtillery({"bat", {5, 2}, "horse_gun"}), "no horse_gun"));
}

// ---- 3E arc: "A gun may not fire at an angle greater than +45 from the direction it is facing."

TEST(RulesArtillery, AGunFiresOnlyWithin45DegreesOfItsFacing) {
  const RulesetData nap = LoadRuleset("napoleonic");
  Game g = HorseGun(nap, {});
  EXPECT_FALSE(g.WhyCannotFireArtillery({"gun", {3, 4}}));  // exactly on the diagonal
  EXPECT_TRUE(Mentions(g.WhyCannotFireArtillery({"gun", {2, 5}}), "45"));
  EXPECT_TRUE(Mentions(g.WhyCannotFireArtillery({"gun", {5, 7}}), "45"));
}

// ---- A declared shot uses the shot; its hit, if any, uses no other ----------------------------

TEST(RulesArtillery, ADeclaredShotIsSpentWhetherOrNotItHits) {
  const RulesetData nap = LoadRuleset("napoleonic");
  PhysicalDice none;
  Game g = HorseGun(nap, {});  // a horse gun: 1 shot a turn (3D)
  ASSERT_TRUE(g.Apply(FireArtillery{"gun", {5, 1}}, none).ok);
  // The hit of that shot is accepted...
  ASSERT_TRUE(g.Apply(ArtilleryCasualty{"gun", "far", "line_infantry"}, none).ok);
  // ...but it was the only shot: nothing more, declared or reported.
  EXPECT_TRUE(Mentions(g.WhyCannotFireArtillery({"gun", {5, 1}}), "no shot left"));
  EXPECT_FALSE(g.Apply(ArtilleryCasualty{"gun", "far", "line_infantry"}, none).ok);
  // A miss spends it too.
  Game m = HorseGun(nap, {});
  ASSERT_TRUE(m.Apply(FireArtillery{"gun", {5, 1}}, none).ok);
  EXPECT_TRUE(Mentions(m.WhyCannotFireArtillery({"gun", {5, 2}}), "no shot left"));
}

// ---- Ancient CATAPULT FIRE 2: "Overhead fire is allowed." ---------------------------------------

TEST(RulesArtillery, NothingScreensACatapult) {
  const RulesetData anc = LoadRuleset("ancient");
  Game g(anc, TwoSides({MakeUnit(anc, "cat", "red", "heavy_catapult", {5, 6}, Facing::kN),
                        MakeUnit(anc, "crew", "red", "foot_crew", {5, 6}, Facing::kN),
                        MakeUnit(anc, "hi", "red", "heavy_infantry", {5, 5}, Facing::kN),
                        MakeUnit(anc, "e", "blue", "heavy_infantry", {5, 2}, Facing::kS)}));
  EXPECT_FALSE(g.WhyCannotFireArtillery({"cat", {5, 2}}));
  EXPECT_TRUE(Mentions(g.WhyCannotFireArtillery({"cat", {2, 6}}), "45"));  // CATAPULT FIRE 2 arc
}

// ---- CATAPULT FIRE 3: "ranges are measured counting the target's square but not that of the
// shooter" (light catapult 4, heavy 6; diagonals 1.5). ----------------------------------------

TEST(RulesArtillery, CatapultRangeCountsTheTargetSquareAndDiagonalsAtOneAndAHalf) {
  const RulesetData anc = LoadRuleset("ancient");
  Game g(anc, TwoSides({MakeUnit(anc, "cat", "red", "light_catapult", {5, 6}, Facing::kN),
                        MakeUnit(anc, "crew", "red", "horse_crew", {5, 6}, Facing::kN),
                        MakeUnit(anc, "e", "blue", "heavy_infantry", {5, 0}, Facing::kS)}));
  EXPECT_FALSE(g.WhyCannotFireArtillery({"cat", {5, 2}}));                    // 4
  EXPECT_TRUE(Mentions(g.WhyCannotFireArtillery({"cat", {5, 1}}), "range"));  // 5
  EXPECT_FALSE(g.WhyCannotFireArtillery({"cat", {7, 4}}));                    // 1.5 + 1.5
  EXPECT_TRUE(Mentions(g.WhyCannotFireArtillery({"cat", {8, 3}}), "range"));  // 4.5
}

// ---- CATAPULT FIRE 1: "a Catapult must have at least one stand of crew, Infantry, or a commander
// to man it. Any stand manning a catapult cannot otherwise fire or support melee in that turn."

Game CatapultWithLightInfantry(const RulesetData& anc, bool with_crew) {
  std::vector<GameUnit> u = {MakeUnit(anc, "cat", "red", "light_catapult", {5, 6}, Facing::kN),
                             MakeUnit(anc, "li", "red", "light_infantry", {5, 6}, Facing::kN),
                             MakeUnit(anc, "hi", "blue", "heavy_infantry", {5, 4}, Facing::kS)};
  if (with_crew) u.push_back(MakeUnit(anc, "crew", "red", "horse_crew", {5, 6}, Facing::kN));
  return Game(anc, TwoSides(std::move(u)));
}

TEST(RulesArtillery, AMissedCatapultShotStillTiesTheStandThatMannedIt) {
  const RulesetData anc = LoadRuleset("ancient");
  SeededDice d(1);
  PhysicalDice none;
  Game g = CatapultWithLightInfantry(anc, false);
  const ActionResult shot = g.Apply(FireArtillery{"cat", {5, 3}}, none);
  ASSERT_TRUE(shot.ok) << shot.refusal;
  EXPECT_NE(shot.entries.at(0).text.find("manned by li"), std::string::npos);
  // No hit is reported: the shell missed. The light infantry still shoot one die short.
  To(g, d, Phase::kMusketry);
  PhysicalDice two({6, 6}, {});  // exactly two dice: a third would throw DiceExhausted
  const ActionResult r = g.Apply(FireMusketry{"li", "hi"}, two);
  ASSERT_TRUE(r.ok) << r.refusal;
  EXPECT_EQ(r.entries.at(0).dice.size(), 2u);
}

TEST(RulesArtillery, TheFirerNamesTheManningStandOrTheRulesPickTheCrew) {
  const RulesetData anc = LoadRuleset("ancient");
  SeededDice d(1);
  PhysicalDice none;
  // Unnamed: the crew mans it and the light infantry keep all three dice.
  Game g = CatapultWithLightInfantry(anc, true);
  const ActionResult shot = g.Apply(FireArtillery{"cat", {5, 3}}, none);
  ASSERT_TRUE(shot.ok) << shot.refusal;
  EXPECT_NE(shot.entries.at(0).text.find("manned by crew"), std::string::npos);
  To(g, d, Phase::kMusketry);
  PhysicalDice three({6, 6, 6}, {});
  const ActionResult r = g.Apply(FireMusketry{"li", "hi"}, three);
  ASSERT_TRUE(r.ok) << r.refusal;
  EXPECT_EQ(r.entries.at(0).dice.size(), 3u);
  // Named: the light infantry man it even with a crew at hand.
  Game n = CatapultWithLightInfantry(anc, true);
  const ActionResult named = n.Apply(FireArtillery{"cat", {5, 3}, "", "li"}, none);
  ASSERT_TRUE(named.ok) << named.refusal;
  EXPECT_NE(named.entries.at(0).text.find("manned by li"), std::string::npos);
  To(n, d, Phase::kMusketry);
  PhysicalDice two({6, 6}, {});
  const ActionResult r2 = n.Apply(FireMusketry{"li", "hi"}, two);
  ASSERT_TRUE(r2.ok) << r2.refusal;
  EXPECT_EQ(r2.entries.at(0).dice.size(), 2u);
}

TEST(RulesArtillery, OnlyAFriendlyStandInTheCatapultsSquareMayManIt) {
  const RulesetData anc = LoadRuleset("ancient");
  Game g(anc, TwoSides({MakeUnit(anc, "cat", "red", "light_catapult", {5, 6}, Facing::kN),
                        MakeUnit(anc, "lc", "red", "light_cavalry", {5, 6}, Facing::kN),
                        MakeUnit(anc, "li", "red", "light_infantry", {4, 6}, Facing::kN),
                        MakeUnit(anc, "hi", "blue", "heavy_infantry", {5, 4}, Facing::kS)}));
  // Cavalry are not crew, infantry or a commander; the infantry are next door, not in the square.
  EXPECT_TRUE(Mentions(g.WhyCannotFireArtillery({"cat", {5, 4}}), "no crew, infantry"));
  EXPECT_TRUE(Mentions(g.WhyCannotFireArtillery({"cat", {5, 4}, "", "li"}), "could man"));
  EXPECT_TRUE(Mentions(g.WhyCannotFireArtillery({"cat", {5, 4}, "", "hi"}), "could man"));
}

}  // namespace
}  // namespace referee::rules
