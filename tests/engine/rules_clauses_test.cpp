// Clauses added in session 2, each built from the rule text on a real board: burning squares
// (Napoleonic 6D), limbering (2G, 3B), commanders moving with the unit they have joined (2B,
// Ancient MOVEMENT 2), destroying one's own equipment (11), the order of support declarations
// (5A, Ancient TURN SEQUENCE 3-4) and Squares of several units (8A-8C).
#include <gtest/gtest.h>

#include "engine/rules/game.hpp"
#include "engine/rules/ruleset_loader.hpp"
#include "rules_test_units.hpp"

namespace referee::rules {
namespace {

// ---- 6D burning squares -------------------------------------------------------------------

TEST(RulesClauses, OneOneSetsTheSquareBurningEveryoneLeavesItIsImpassableAndScreens) {
  const RulesetData nap = LoadRuleset("napoleonic");
  GameSetup s = TwoSides({MakeUnit(nap, "gun", "red", "horse_battery", {5, 7}, Facing::kN),
                          MakeUnit(nap, "li", "red", "light_infantry", {5, 5}, Facing::kN),
                          MakeUnit(nap, "cav", "red", "light_cavalry", {4, 4}, Facing::kN),
                          MakeUnit(nap, "b", "blue", "line_infantry", {5, 3}, Facing::kS)});
  s.board.terrain[{5, 3}] = Terrain::kWoods;
  Game g(nap, s);
  // "roll 2 dice. If one 1 shows, the square is burning and all units must retreat 1 out of it."
  PhysicalDice dice({1, 4}, {});
  const ActionResult r = g.Apply(ShellOnInflammable{"gun", {5, 3}}, dice);
  ASSERT_TRUE(r.ok) << r.refusal;
  ASSERT_EQ(r.entries.at(0).dice.size(), 2u);
  EXPECT_NE(r.entries[0].dice[0].purpose.find("woods"), std::string::npos);
  EXPECT_TRUE(g.BurningSquares().count({5, 3}));
  EXPECT_EQ(g.FindUnit("b")->square, (Square{5, 2})) << "one square toward its rear";
  EXPECT_EQ(g.FindUnit("b")->stands.size(), 4u);
  EXPECT_FALSE(g.Apply(ShellOnInflammable{"gun", {5, 3}}, dice).ok) << "already burning";
  // "A burning square screens as units normally do": light infantry (range 3) at 5,5 cannot
  // shoot through it at 5,2.
  SeededDice d(1);
  To(g, d, Phase::kMusketry);
  EXPECT_TRUE(Mentions(g.WhyCannotFire({"li", "b"}), "burning"));
  // "Thereafter it is impassable."
  To(g, d, Phase::kAttackerMoves);
  EXPECT_TRUE(Mentions(g.WhyCannotMove({"cav", {{5, 3}}, Facing::kN}), "burning"));
  EXPECT_FALSE(g.WhyCannotMove({"cav", {{4, 3}}, Facing::kN}));
}

TEST(RulesClauses, DoubleOnesBurnTheSquareUpWithEveryoneInItThenItIsNormal) {
  const RulesetData nap = LoadRuleset("napoleonic");
  // Beattenburg: "dropped a howitzer shell into the woods and burnt up an entire infantry
  // regiment (12 points)... roll snake-eyes".
  GameSetup s = TwoSides({MakeUnit(nap, "fb", "red", "foot_battery", {5, 7}, Facing::kN),
                          MakeUnit(nap, "cav", "red", "light_cavalry", {5, 4}, Facing::kN),
                          MakeUnit(nap, "reg", "blue", "line_infantry", {5, 2}, Facing::kS),
                          MakeUnit(nap, "house", "blue", "light_infantry", {2, 2}, Facing::kS)});
  s.board.terrain[{5, 2}] = Terrain::kWoods;
  s.board.terrain[{2, 2}] = Terrain::kHouse;
  s.board.terrain[{7, 2}] = Terrain::kRocks;
  Game g(nap, s);
  PhysicalDice no_ones({2, 6}, {});
  ASSERT_TRUE(g.Apply(ShellOnInflammable{"fb", {2, 2}}, no_ones).ok);
  EXPECT_EQ(g.FindUnit("house")->square, (Square{2, 2})) << "no one: nothing happens";
  EXPECT_TRUE(g.BurningSquares().empty());
  EXPECT_FALSE(g.Apply(ShellOnInflammable{"fb", {7, 2}}, no_ones).ok) << "rocks do not burn";
  EXPECT_FALSE(g.Apply(ShellOnInflammable{"reg", {2, 2}}, no_ones).ok) << "not a gun";
  PhysicalDice snake_eyes({1, 1}, {});
  ASSERT_TRUE(g.Apply(ShellOnInflammable{"fb", {5, 2}}, snake_eyes).ok);
  EXPECT_EQ(g.FindUnit("reg")->status, UnitStatus::kDestroyed);
  EXPECT_DOUBLE_EQ(g.PointsOf("blue").destroyed, 12);
  EXPECT_TRUE(g.BurningSquares().empty());
  EXPECT_FALSE(g.board().IsProtected({5, 2})) << "thereafter the square is considered normal";
  SeededDice d(1);
  To(g, d, Phase::kAttackerMoves);
  EXPECT_FALSE(g.WhyCannotMove({"cav", {{5, 3}, {5, 2}, {5, 1}}, Facing::kN}));
  // The Ancient rules have no burning.
  const RulesetData anc = LoadRuleset("ancient");
  GameSetup a = TwoSides({MakeUnit(anc, "cat", "red", "heavy_catapult", {5, 7}, Facing::kN),
                          MakeUnit(anc, "hi", "blue", "heavy_infantry", {5, 2}, Facing::kS)});
  a.board.terrain[{5, 2}] = Terrain::kWoods;
  Game ga(anc, a);
  EXPECT_FALSE(ga.Apply(ShellOnInflammable{"cat", {5, 2}}, snake_eyes).ok);
}

// ---- 2G / 3B limbering ---------------------------------------------------------------------

TEST(RulesClauses, AttackerLimbersFreelyDefenderMayNotAndALimberedGunCannotFire) {
  const RulesetData nap = LoadRuleset("napoleonic");
  SeededDice d(1);
  PhysicalDice none;
  Game g(nap, TwoSides({MakeUnit(nap, "rb", "red", "foot_battery", {5, 6}, Facing::kN),
                        MakeUnit(nap, "bb", "blue", "horse_battery", {5, 1}, Facing::kS),
                        MakeUnit(nap, "inf", "blue", "line_infantry", {2, 1}, Facing::kS)}));
  EXPECT_TRUE(Mentions(g.WhyCannotLimber({"bb", true}), "defender"));
  ASSERT_TRUE(g.Apply(Limber{"rb", true}, d).ok);
  EXPECT_TRUE(g.FindUnit("rb")->limbered);
  EXPECT_FALSE(g.Apply(ArtilleryCasualty{"rb", "inf", "line_infantry"}, none).ok);
  EXPECT_FALSE(g.Apply(HoldCanister{"rb"}, none).ok);
  ASSERT_TRUE(g.Apply(Limber{"rb", false}, d).ok);
  ASSERT_TRUE(g.Apply(ArtilleryCasualty{"rb", "inf", "line_infantry"}, none).ok);
  // A gun that moves limbers; left limbered, it cannot fire when its side defends next turn.
  To(g, d, Phase::kAttackerMoves);
  const ActionResult mv = g.Apply(MoveUnit{"rb", {{5, 5}}, Facing::kN}, d);
  ASSERT_TRUE(mv.ok) << mv.refusal;
  EXPECT_TRUE(g.FindUnit("rb")->limbered);
  EXPECT_NE(mv.entries.at(0).text.find("limbers"), std::string::npos);
  To(g, d, Phase::kEndOfTurn);
  ASSERT_TRUE(g.Apply(EndPhase{}, d).ok);
  ASSERT_EQ(g.attacker(), "blue");
  EXPECT_TRUE(Mentions(g.WhyCannotLimber({"rb", false}), "defender"));
  EXPECT_FALSE(g.Apply(ArtilleryCasualty{"rb", "inf", "line_infantry"}, none).ok);
  EXPECT_TRUE(g.Apply(ArtilleryCasualty{"bb", "rb", "foot_crew"}, none).ok);
  // The Ancient catapults do not limber.
  const RulesetData anc = LoadRuleset("ancient");
  Game ga(anc, TwoSides({MakeUnit(anc, "cat", "red", "heavy_catapult", {5, 7}, Facing::kN),
                         MakeUnit(anc, "hi", "blue", "heavy_infantry", {5, 2}, Facing::kS)}));
  EXPECT_TRUE(ga.WhyCannotLimber({"cat", true}));
}

// ---- 2B / Ancient MOVEMENT 2: commanders join units and move with them -----------------------

TEST(RulesClauses, ACommanderWhoHasJoinedAUnitChargesWithItAndCountsInTheMelee) {
  const RulesetData nap = LoadRuleset("napoleonic");
  SeededDice d(1);
  // Red line infantry (4) with its commander (2) charges blue line infantry of 2 stands. LINE v
  // LINE are equal deployments: each side loses half the weaker (1). Left: 6-1 = 5 against 1,
  // more than 3 times: blue is destroyed. Without the commander 3 against 1 is not more than 3
  // times and blue would only retreat.
  Game g(nap, TwoSides({MakeUnit(nap, "inf", "red", "line_infantry", {5, 6}, Facing::kN),
                        MakeUnit(nap, "cmd", "red", "commander", {5, 6}, Facing::kN),
                        MakeUnit(nap, "def", "blue", "line_infantry", {5, 4}, Facing::kS, 2)}));
  EXPECT_EQ(g.FindUnit("cmd")->attached_to, "inf") << "set up together: it has joined";
  To(g, d, Phase::kAttackerMoves);
  const ActionResult mv = g.Apply(MoveUnit{"inf", {{5, 5}, {5, 4}}, Facing::kN}, d);
  ASSERT_TRUE(mv.ok) << mv.refusal;
  EXPECT_EQ(g.FindUnit("cmd")->square, (Square{5, 4}));
  EXPECT_TRUE(Mentions(g.WhyCannotMove({"cmd", {{5, 3}}, Facing::kN}), "already moved"));
  To(g, d, Phase::kMelees);
  ASSERT_TRUE(g.Apply(FightMelee{{5, 4}, Mdi::kLine, Mdi::kLine}, d).ok);
  EXPECT_EQ(g.FindUnit("def")->status, UnitStatus::kDestroyed);
}

TEST(RulesClauses, ACommanderLeavesAndJoinsUnitsAndGoesWithItsUnitsRetreat) {
  const RulesetData nap = LoadRuleset("napoleonic");
  SeededDice d(1);
  Game g(nap, TwoSides({MakeUnit(nap, "inf", "red", "line_infantry", {5, 6}, Facing::kN),
                        MakeUnit(nap, "cmd", "red", "commander", {5, 6}, Facing::kN),
                        MakeUnit(nap, "lone", "red", "line_cavalry", {2, 2}, Facing::kN, 1),
                        MakeUnit(nap, "cmd2", "red", "commander", {2, 2}, Facing::kN),
                        MakeUnit(nap, "b", "blue", "line_infantry", {9, 0}, Facing::kS)}));
  // Red's move begins: the cavalry, down to one stand, retreats a full move (4 squares) toward
  // red's baseline (9); the commander who has joined it goes with it.
  To(g, d, Phase::kAttackerMoves);
  EXPECT_EQ(g.FindUnit("lone")->square, (Square{2, 6}));
  EXPECT_EQ(g.FindUnit("cmd2")->square, (Square{2, 6}));
  // "Commanders may join or leave any unit."
  ASSERT_TRUE(g.Apply(AttachCommander{"cmd", ""}, d).ok);
  ASSERT_TRUE(g.Apply(MoveUnit{"inf", {{5, 5}}, Facing::kN}, d).ok);
  EXPECT_EQ(g.FindUnit("cmd")->square, (Square{5, 6})) << "it left the unit: it stays";
  ASSERT_TRUE(g.Apply(MoveUnit{"cmd", {{5, 5}}, Facing::kN}, d).ok);
  EXPECT_EQ(g.FindUnit("cmd")->attached_to, "inf") << "moving into its square joins it";
  EXPECT_FALSE(g.Apply(AttachCommander{"cmd", "b"}, d).ok) << "not a friendly unit";
}

// ---- 11: destroying one's own equipment at the end of a turn --------------------------------

TEST(RulesClauses, EitherSideMayDestroyItsOwnEquipmentAtTheEndOfATurn) {
  const RulesetData nap = LoadRuleset("napoleonic");
  SeededDice d(1);
  PhysicalDice none;
  Game g(nap, TwoSides({MakeUnit(nap, "rb", "red", "foot_battery", {5, 6}, Facing::kN),
                        MakeUnit(nap, "inf", "blue", "line_infantry", {5, 1}, Facing::kS)}));
  EXPECT_TRUE(Mentions(g.WhyCannotDestroyEquipment({"rb", "field_gun"}), "end of a turn"));
  To(g, d, Phase::kEndOfTurn);
  EXPECT_TRUE(Mentions(g.WhyCannotDestroyEquipment({"rb", "foot_crew"}), "not equipment"));
  ASSERT_TRUE(g.Apply(DestroyEquipment{"rb", "field_gun"}, d).ok);
  EXPECT_EQ(g.FindUnit("rb")->stands.size(), 7u) << "the crew is not destroyed with it";
  EXPECT_DOUBLE_EQ(g.PointsOf("red").destroyed, 5);
  EXPECT_DOUBLE_EQ(g.PointsOf("red").captured_from, 0);
  // Next turn the battery has lost a gun: two shots (2C).
  ASSERT_TRUE(g.Apply(EndPhase{}, d).ok);
  ASSERT_EQ(g.phase(), Phase::kArtillery);
  ASSERT_TRUE(g.Apply(ArtilleryCasualty{"rb", "inf", "line_infantry"}, none).ok);
  ASSERT_TRUE(g.Apply(ArtilleryCasualty{"rb", "inf", "line_infantry"}, none).ok);
  EXPECT_FALSE(g.Apply(ArtilleryCasualty{"rb", "inf", "line_infantry"}, none).ok);
  const RulesetData anc = LoadRuleset("ancient");
  Game ga(anc, TwoSides({MakeUnit(anc, "cat", "red", "heavy_catapult", {5, 7}, Facing::kN),
                         MakeUnit(anc, "hi", "blue", "heavy_infantry", {5, 2}, Facing::kS)}));
  To(ga, d, Phase::kEndOfTurn);
  EXPECT_TRUE(ga.WhyCannotDestroyEquipment({"cat", "heavy_catapult"}));
}

// ---- 5A: supports, attacker first, then defender, all before the melees ----------------------

TEST(RulesClauses, SupportsAreIndicatedAttackerFirstThenDefenderBeforeAnyMelee) {
  for (const std::string name : {"napoleonic", "ancient"}) {
    SCOPED_TRACE(name);
    const RulesetData rs = LoadRuleset(name);
    const std::string inf = name == "napoleonic" ? "line_infantry" : "heavy_infantry";
    SeededDice d(1);
    Game g(rs, TwoSides({MakeUnit(rs, "att", "red", inf, {5, 5}, Facing::kN),
                         MakeUnit(rs, "def", "blue", inf, {5, 4}, Facing::kS),
                         MakeUnit(rs, "rs", "red", inf, {4, 4}, Facing::kE),
                         MakeUnit(rs, "bs", "blue", inf, {6, 4}, Facing::kW),
                         MakeUnit(rs, "att2", "red", inf, {9, 5}, Facing::kN),
                         MakeUnit(rs, "def2", "blue", inf, {9, 4}, Facing::kS),
                         MakeUnit(rs, "rs2", "red", inf, {10, 4}, Facing::kW),
                         MakeUnit(rs, "bs2", "blue", inf, {8, 4}, Facing::kE)}));
    To(g, d, Phase::kAttackerMoves);
    ASSERT_TRUE(g.Apply(MoveUnit{"att", {{5, 4}}, Facing::kN}, d).ok);
    ASSERT_TRUE(g.Apply(MoveUnit{"att2", {{9, 4}}, Facing::kN}, d).ok);
    EXPECT_TRUE(Mentions(g.WhyCannotSupport({"bs", {5, 4}}), "after the attacker"));
    ASSERT_TRUE(g.Apply(DeclareSupport{"rs", {5, 4}}, d).ok);
    ASSERT_TRUE(g.Apply(EndPhase{}, d).ok);  // the attacker's move is over
    EXPECT_FALSE(g.WhyCannotSupport({"rs2", {9, 4}})) << "the defender has not begun";
    ASSERT_TRUE(g.Apply(DeclareSupport{"bs", {5, 4}}, d).ok);
    EXPECT_TRUE(Mentions(g.WhyCannotSupport({"rs2", {9, 4}}), "attacker indicates supports first"));
    To(g, d, Phase::kMelees);
    ASSERT_TRUE(g.Apply(FightMelee{{5, 4}, Mdi::kLine, Mdi::kColumn}, d).ok);
    EXPECT_TRUE(Mentions(g.WhyCannotSupport({"bs2", {9, 4}}), "before the melees"));
    EXPECT_TRUE(g.Apply(FightMelee{{9, 4}, Mdi::kLine, Mdi::kColumn}, d).ok);
  }
}

// ---- 8A-8C: Squares of several units ---------------------------------------------------------

TEST(RulesClauses, FourUnitsFormOneSquareInATwoByTwoBlockAndBreakTogether) {
  const RulesetData nap = LoadRuleset("napoleonic");
  SeededDice d(1);
  PhysicalDice none;
  // Four red line infantry units of 2 stands each: in a 2 x 2 block every unit is on two faces
  // and needs 2 stands (1 stand per square of frontage on each face).
  Game g(nap, TwoSides({MakeUnit(nap, "a", "red", "line_infantry", {4, 4}, Facing::kN, 2),
                        MakeUnit(nap, "b", "red", "line_infantry", {5, 4}, Facing::kN, 2),
                        MakeUnit(nap, "c", "red", "line_infantry", {4, 5}, Facing::kN, 2),
                        MakeUnit(nap, "e", "red", "line_infantry", {5, 5}, Facing::kN, 2),
                        MakeUnit(nap, "lone", "red", "line_infantry", {8, 5}, Facing::kN, 2),
                        MakeUnit(nap, "cav", "blue", "line_cavalry", {5, 7}, Facing::kN),
                        MakeUnit(nap, "gun", "blue", "horse_battery", {6, 7}, Facing::kNW)}));
  To(g, d, Phase::kAttackerMoves);
  MoveUnit pair{"a", {}, Facing::kN, true, false, {"b"}};
  EXPECT_TRUE(Mentions(g.WhyCannotMove(pair), "long rectangular"));
  MoveUnit alone{"lone", {}, Facing::kN, true, false, {}};
  EXPECT_TRUE(Mentions(g.WhyCannotMove(alone), "needs 4"));
  MoveUnit block{"a", {}, Facing::kN, true, false, {"b", "c", "e"}};
  ASSERT_FALSE(g.WhyCannotMove(block)) << *g.WhyCannotMove(block);
  ASSERT_TRUE(g.Apply(block, d).ok);
  EXPECT_EQ(g.SquareMembers("e").size(), 4u);
  EXPECT_TRUE(g.FindUnit("c")->formed_square);
  EXPECT_TRUE(Mentions(g.WhyCannotMove({"e", {{5, 6}}, Facing::kS}), "already moved"));
  // Blue's turn: "Cavalry cannot melee an unbroken square."
  To(g, d, Phase::kEndOfTurn);
  ASSERT_TRUE(g.Apply(EndPhase{}, d).ok);
  ASSERT_EQ(g.attacker(), "blue");
  // The horse gun hits a stand of e: e now has 1 stand for two faces, so the Square is broken
  // (8C) - all four units, not just e.
  const ActionResult hit = g.Apply(ArtilleryCasualty{"gun", "e", "line_infantry"}, none);
  ASSERT_TRUE(hit.ok) << hit.refusal;
  bool logged = false;
  for (const auto& en : hit.entries) logged = logged || en.text.find("broken") != std::string::npos;
  EXPECT_TRUE(logged);
  for (const char* id : {"a", "b", "c", "e"}) EXPECT_FALSE(g.FindUnit(id)->formed_square) << id;
  To(g, d, Phase::kAttackerMoves);
  EXPECT_FALSE(g.WhyCannotMove({"cav", {{5, 6}, {5, 5}}, Facing::kN})) << "broken: it may charge";
}

TEST(RulesClauses, AnUnbrokenSquareOfFourUnitsStopsCavalryAndCannotMove) {
  const RulesetData nap = LoadRuleset("napoleonic");
  SeededDice d(1);
  GameSetup s = TwoSides({MakeUnit(nap, "a", "red", "line_infantry", {4, 4}, Facing::kN, 2),
                          MakeUnit(nap, "b", "red", "line_infantry", {5, 4}, Facing::kN, 2),
                          MakeUnit(nap, "c", "red", "line_infantry", {4, 5}, Facing::kN, 2),
                          MakeUnit(nap, "e", "red", "line_infantry", {5, 5}, Facing::kN, 2),
                          MakeUnit(nap, "cav", "blue", "line_cavalry", {5, 7}, Facing::kN),
                          MakeUnit(nap, "inf", "blue", "line_infantry", {6, 6}, Facing::kN)});
  s.first_attacker = 1;  // blue attacks the Square
  for (auto& u : s.units)
    if (u.side == "red") u.formed_square = true, u.square_group = 7;
  Game g(nap, s);
  To(g, d, Phase::kAttackerMoves);
  EXPECT_TRUE(Mentions(g.WhyCannotMove({"cav", {{5, 6}, {5, 5}}, Facing::kN}), "square"));
  EXPECT_FALSE(g.WhyCannotMove({"inf", {{5, 5}}, Facing::kNW})) << "infantry may attack it";
  EXPECT_EQ(g.StandsNeededInSquare(*g.FindUnit("a")), 2);
  // The Ancient rules have no infantry squares.
  const RulesetData anc = LoadRuleset("ancient");
  Game ga(anc, TwoSides({MakeUnit(anc, "hi", "red", "heavy_infantry", {5, 5}, Facing::kN),
                         MakeUnit(anc, "b", "blue", "heavy_infantry", {5, 1}, Facing::kS)}));
  To(ga, d, Phase::kAttackerMoves);
  EXPECT_TRUE(ga.WhyCannotMove({"hi", {}, Facing::kN, true, false, {}}));
}

}  // namespace
}  // namespace referee::rules

namespace referee::rules {
namespace {

// ---- Ancient CATAPULT FIRE 1: the stand manning a catapult ------------------------------------

TEST(RulesClauses, TheStandThatMannedACatapultDoesNotOtherwiseShoot) {
  const RulesetData anc = LoadRuleset("ancient");
  SeededDice d(1);
  PhysicalDice none;
  // Light infantry (3 stands, range 3) man a light catapult in their square; after the
  // catapult's hit they shoot with 2 dice, not 3.
  Game g(anc, TwoSides({MakeUnit(anc, "cat", "red", "light_catapult", {5, 6}, Facing::kN),
                        MakeUnit(anc, "li", "red", "light_infantry", {5, 6}, Facing::kN),
                        MakeUnit(anc, "hi", "blue", "heavy_infantry", {5, 4}, Facing::kS),
                        MakeUnit(anc, "hi2", "blue", "heavy_infantry", {5, 3}, Facing::kS)}));
  const ActionResult shot = g.Apply(ArtilleryCasualty{"cat", "hi2", "heavy_infantry"}, none);
  ASSERT_TRUE(shot.ok) << shot.refusal;
  EXPECT_NE(shot.entries.at(0).text.find("manned by li"), std::string::npos);
  To(g, d, Phase::kMusketry);
  PhysicalDice two({6, 6}, {});  // exactly two dice: a third would throw DiceExhausted
  const ActionResult r = g.Apply(FireMusketry{"li", "hi"}, two);
  ASSERT_TRUE(r.ok) << r.refusal;
  EXPECT_EQ(r.entries.at(0).dice.size(), 2u);
}

}  // namespace
}  // namespace referee::rules
