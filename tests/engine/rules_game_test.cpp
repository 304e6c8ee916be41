// The game facade on real boards: turn sequence, movement, charges and their restrictions,
// fire arcs and screening, supports, retreats, morale, artillery losses, points and the end.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "engine/rules/action_json.hpp"
#include "engine/rules/game.hpp"
#include "engine/rules/ruleset_loader.hpp"
#include "rules_test_units.hpp"

namespace referee::rules {
namespace {

void EndPhases(Game& g, DiceSource& d, int n) {
  for (int i = 0; i < n; ++i) ASSERT_TRUE(g.Apply(EndPhase{}, d).ok) << PhaseName(g.phase());
}

void ToMoves(Game& g, DiceSource& d) {
  while (g.phase() != Phase::kAttackerMoves) ASSERT_TRUE(g.Apply(EndPhase{}, d).ok);
}

TEST(RulesGame, TurnSequenceAndAttackerSwap) {
  const RulesetData nap = LoadRuleset("napoleonic");
  SeededDice d(1);
  Game g(nap, TwoSides({MakeUnit(nap, "r", "red", "line_infantry", {1, 6}, Facing::kN),
                        MakeUnit(nap, "b", "blue", "line_infantry", {1, 1}, Facing::kS)}));
  std::vector<std::string> seen;
  for (int i = 0; i < 6; ++i) {
    seen.push_back(PhaseName(g.phase()));
    g.Apply(EndPhase{}, d);
  }
  EXPECT_EQ(seen, (std::vector<std::string>{"artillery", "musketry", "attacker_moves",
                                            "held_canister", "melees", "end_of_turn"}));
  EXPECT_EQ(g.phase(), Phase::kArtillery);
  EXPECT_EQ(g.turn(), 2);
  EXPECT_EQ(g.attacker(), "blue");  // "the attacker becoming the defender, and vice versa"
  const RulesetData anc = LoadRuleset("ancient");
  Game a(anc, TwoSides({MakeUnit(anc, "r", "red", "heavy_infantry", {1, 6}, Facing::kN),
                        MakeUnit(anc, "b", "blue", "heavy_infantry", {1, 1}, Facing::kS)}));
  EndPhases(a, d, 2);
  EXPECT_EQ(a.phase(), Phase::kAttackerMoves);
  EndPhases(a, d, 1);
  EXPECT_EQ(a.phase(), Phase::kMelees) << "no held canister in the Ancient rules";
}

TEST(RulesGame, GameEndsAfterAgreedTurnsAndOffBoardUnitsCount) {
  const RulesetData nap = LoadRuleset("napoleonic");
  SeededDice d(1);
  auto red = MakeUnit(nap, "r", "red", "line_infantry", {1, 6}, Facing::kN);
  auto gone = MakeUnit(nap, "r2", "red", "line_cavalry", {3, 7}, Facing::kN);
  gone.status = UnitStatus::kOffTable;  // retreated off the board earlier
  Game g(
      nap,
      TwoSides({red, gone, MakeUnit(nap, "b", "blue", "guards_infantry", {1, 1}, Facing::kS)}, 2));
  while (!g.Over()) ASSERT_TRUE(g.Apply(EndPhase{}, d).ok);
  EXPECT_EQ(g.turn(), 2);
  EXPECT_DOUBLE_EQ(g.PointsOf("red").off_table, 12);
  EXPECT_DOUBLE_EQ(g.PointsOf("red").Score(), 24);  // 12 on the table + 12 off it
  EXPECT_DOUBLE_EQ(g.PointsOf("blue").Score(), 16);
  EXPECT_EQ(g.Winner(), "red");
  EXPECT_FALSE(g.Apply(EndPhase{}, d).ok);
}

TEST(RulesGame, SurrenderEndsTheGame) {
  const RulesetData nap = LoadRuleset("napoleonic");
  SeededDice d(1);
  Game g(nap, TwoSides({MakeUnit(nap, "r", "red", "line_infantry", {1, 6}, Facing::kN),
                        MakeUnit(nap, "b", "blue", "line_infantry", {1, 1}, Facing::kS)}));
  ASSERT_TRUE(g.Apply(Surrender{"blue"}, d).ok);
  EXPECT_TRUE(g.Over());
  EXPECT_EQ(g.Winner(), "red");
}

TEST(RulesGame, DiagonalsCostOneAndAHalfAndRoadsAddOne) {
  const RulesetData nap = LoadRuleset("napoleonic");
  SeededDice d(1);
  GameSetup s = TwoSides({MakeUnit(nap, "r", "red", "line_infantry", {5, 6}, Facing::kN),
                          MakeUnit(nap, "b", "blue", "line_infantry", {0, 0}, Facing::kS)});
  for (int row = 2; row <= 6; ++row) s.board.terrain[{9, row}] = Terrain::kRoad;
  s.units.push_back(MakeUnit(nap, "r2", "red", "line_infantry", {9, 6}, Facing::kN));
  Game g(nap, s);
  ToMoves(g, d);
  EXPECT_TRUE(g.WhyCannotMove({"r", {{6, 5}, {7, 4}}, Facing::kN}));  // 1.5 + 1.5 = 3 > 2
  EXPECT_TRUE(g.WhyCannotMove({"r", {{6, 5}, {6, 4}}, Facing::kN}));  // 1.5 + 1 = 2.5 > 2
  EXPECT_FALSE(g.WhyCannotMove({"r", {{5, 5}, {5, 4}}, Facing::kN}));
  EXPECT_TRUE(g.WhyCannotMove({"r", {{5, 5}, {5, 4}, {5, 3}}, Facing::kN}));
  // "A move begun, travelled entirely upon, and ended on a road is lengthened by one square."
  EXPECT_FALSE(g.WhyCannotMove({"r2", {{9, 5}, {9, 4}, {9, 3}}, Facing::kN}));
  EXPECT_TRUE(g.WhyCannotMove({"r2", {{9, 5}, {9, 4}, {9, 3}, {9, 2}}, Facing::kN}));
}

TEST(RulesGame, NoMovingThroughEnemiesOrBetweenDiagonalEnemies) {
  const RulesetData nap = LoadRuleset("napoleonic");
  SeededDice d(1);
  Game g(nap, TwoSides({MakeUnit(nap, "r", "red", "light_cavalry", {5, 6}, Facing::kN),
                        MakeUnit(nap, "b1", "blue", "line_infantry", {5, 5}, Facing::kS),
                        MakeUnit(nap, "b2", "blue", "line_infantry", {6, 6}, Facing::kS)}));
  ToMoves(g, d);
  EXPECT_TRUE(g.WhyCannotMove({"r", {{5, 5}, {5, 4}}, Facing::kN}));  // through b1
  EXPECT_TRUE(g.WhyCannotMove({"r", {{6, 5}, {6, 4}}, Facing::kN}));  // between b1 and b2
  EXPECT_FALSE(g.WhyCannotMove({"r", {{4, 5}, {4, 4}}, Facing::kN}));
}

// 1E: friends may pass through each other; 1C: no two units of a side in one square. Two
// friends swapping squares (or a ring of three) is legal, but only as one set of moves.
TEST(RulesGame, FriendsSwapSquaresWhenMovedTogether) {
  const RulesetData nap = LoadRuleset("napoleonic");
  SeededDice d(1);
  Game g(nap, TwoSides({MakeUnit(nap, "r1", "red", "line_infantry", {5, 6}, Facing::kN),
                        MakeUnit(nap, "r2", "red", "line_infantry", {5, 5}, Facing::kN),
                        MakeUnit(nap, "r3", "red", "line_infantry", {6, 5}, Facing::kN),
                        MakeUnit(nap, "r4", "red", "line_infantry", {2, 6}, Facing::kN),
                        MakeUnit(nap, "b", "blue", "line_infantry", {5, 1}, Facing::kS)}));
  ToMoves(g, d);
  const MoveUnit up{"r1", {{5, 5}}, Facing::kN};
  const MoveUnit down{"r2", {{5, 6}}, Facing::kS};
  // One at a time each ends on the other: refused.
  EXPECT_TRUE(g.WhyCannotMove(up));
  EXPECT_TRUE(g.WhyCannotMove(down));
  // Together: legal, and both end where the other stood.
  EXPECT_FALSE(g.WhyCannotMoveTogether({{up, down}}));
  // Two movers may not end in one square, nor one on a friend that stays.
  EXPECT_TRUE(g.WhyCannotMoveTogether({{up, MoveUnit{"r3", {{5, 5}}, Facing::kN}}}));
  EXPECT_TRUE(g.WhyCannotMoveTogether({{up, MoveUnit{"r2", {}, Facing::kS}}}));
  EXPECT_TRUE(g.WhyCannotMoveTogether({{MoveUnit{"r4", {{3, 5}, {4, 5}, {5, 5}}, Facing::kN},
                                        MoveUnit{"r2", {{5, 4}}, Facing::kN}}}))
      << "three squares is beyond line infantry's move of 2";
  EXPECT_TRUE(g.WhyCannotMoveTogether({{up, up}}));
  const ActionResult r = g.Apply(MoveUnits{{up, down}}, d);
  ASSERT_TRUE(r.ok) << r.refusal;
  EXPECT_EQ(g.FindUnit("r1")->square, (Square{5, 5}));
  EXPECT_EQ(g.FindUnit("r2")->square, (Square{5, 6}));
  EXPECT_EQ(g.FindUnit("r2")->facing, Facing::kS);
  EXPECT_EQ(r.entries.size(), 2u);
  // Both have moved this turn.
  EXPECT_TRUE(g.WhyCannotMove({"r1", {{5, 4}}, Facing::kN}));
  EXPECT_TRUE(g.WhyCannotMove({"r2", {{4, 6}}, Facing::kN}));
  // A ring of three the next turn red attacks: r1 to r3's square, r3 to r2's, r2 to r1's.
  do {
    ASSERT_TRUE(g.Apply(EndPhase{}, d).ok);
  } while (!(g.phase() == Phase::kAttackerMoves && g.attacker() == "red"));
  const ActionResult ring =
      g.Apply(MoveUnits{{MoveUnit{"r1", {{6, 5}}, Facing::kN}, MoveUnit{"r3", {{5, 6}}, Facing::kN},
                         MoveUnit{"r2", {{5, 5}}, Facing::kN}}},
              d);
  ASSERT_TRUE(ring.ok) << ring.refusal;
  EXPECT_EQ(g.FindUnit("r1")->square, (Square{6, 5}));
  EXPECT_EQ(g.FindUnit("r3")->square, (Square{5, 6}));
  EXPECT_EQ(g.FindUnit("r2")->square, (Square{5, 5}));
}

TEST(RulesGame, CavalryCannotMeleeAnUnbrokenSquare) {
  const RulesetData nap = LoadRuleset("napoleonic");
  SeededDice d(1);
  auto sq = MakeUnit(nap, "b", "blue", "line_infantry", {5, 4}, Facing::kS);
  sq.formed_square = true;
  Game g(nap, TwoSides({MakeUnit(nap, "cav", "red", "line_cavalry", {5, 6}, Facing::kN),
                        MakeUnit(nap, "inf", "red", "line_infantry", {4, 5}, Facing::kN),
                        MakeUnit(nap, "gun", "red", "foot_battery", {2, 6}, Facing::kNE), sq}));
  // Artillery knocks a stand out of the square before movement: it is broken (8B, 8C).
  PhysicalDice none;
  ToMoves(g, d);
  EXPECT_NE(g.WhyCannotMove({"cav", {{5, 5}, {5, 4}}, Facing::kN}).value_or("").find("square"),
            std::string::npos);
  EXPECT_FALSE(g.WhyCannotMove({"inf", {{5, 4}}, Facing::kE}));  // infantry may attack it
  // Next red turn: the battery hits the square first.
  while (!(g.phase() == Phase::kArtillery && g.attacker() == "red"))
    ASSERT_TRUE(g.Apply(EndPhase{}, d).ok);
  ASSERT_TRUE(g.Apply(ArtilleryCasualty{"gun", "b", "line_infantry"}, none).ok);
  EXPECT_FALSE(g.FindUnit("b")->formed_square);
  ToMoves(g, d);
  EXPECT_FALSE(g.WhyCannotMove({"cav", {{5, 5}, {5, 4}}, Facing::kN}));
}

TEST(RulesGame, AncientCavalryCannotChargeFourStandsOfLegionaries) {
  const RulesetData anc = LoadRuleset("ancient");
  SeededDice d(1);
  Game g(anc, TwoSides({MakeUnit(anc, "hc", "red", "heavy_cavalry", {5, 6}, Facing::kN),
                        MakeUnit(anc, "hc2", "red", "heavy_cavalry", {8, 6}, Facing::kN),
                        MakeUnit(anc, "leg", "blue", "roman_legionary", {5, 4}, Facing::kS),
                        MakeUnit(anc, "leg3", "blue", "roman_legionary", {8, 4}, Facing::kS, 3)}));
  ToMoves(g, d);
  EXPECT_TRUE(g.WhyCannotMove({"hc", {{5, 5}, {5, 4}}, Facing::kN}));
  EXPECT_FALSE(g.WhyCannotMove({"hc2", {{8, 5}, {8, 4}}, Facing::kN}));  // only 3 stands left
}

TEST(RulesGame, ElephantsRollToCharge) {
  const RulesetData anc = LoadRuleset("ancient");
  SeededDice d(1);
  for (int roll : {5, 3}) {
    Game g(anc, TwoSides({MakeUnit(anc, "el", "red", "elephant", {5, 6}, Facing::kN),
                          MakeUnit(anc, "hi", "blue", "heavy_infantry", {5, 4}, Facing::kS)}));
    ToMoves(g, d);
    PhysicalDice die({roll}, {});
    const ActionResult r = g.Apply(MoveUnit{"el", {{5, 5}, {5, 4}}, Facing::kN}, die);
    ASSERT_TRUE(r.ok);
    ASSERT_EQ(r.entries.at(0).dice.size(), 1u);
    EXPECT_NE(r.entries[0].dice[0].purpose.find("elephant"), std::string::npos);
    if (roll == 5) {
      EXPECT_EQ(g.FindUnit("el")->square, (Square{5, 6})) << "on 5 or 6 the elephant stays";
      EXPECT_TRUE(g.PendingMelees().empty());
    } else {
      EXPECT_EQ(g.FindUnit("el")->square, (Square{5, 4}));
      EXPECT_EQ(g.PendingMelees().size(), 1u);
    }
  }
}

TEST(RulesGame, MountedTroopsRunDownASingleFootStandInTheOpen) {
  const RulesetData anc = LoadRuleset("ancient");
  SeededDice d(1);
  GameSetup s = TwoSides({MakeUnit(anc, "hc", "red", "heavy_cavalry", {5, 6}, Facing::kN),
                          MakeUnit(anc, "li", "blue", "light_infantry", {5, 5}, Facing::kS, 1),
                          MakeUnit(anc, "li2", "blue", "light_infantry", {7, 5}, Facing::kS, 1),
                          MakeUnit(anc, "hc2", "red", "heavy_cavalry", {7, 6}, Facing::kN)});
  s.board.terrain[{7, 5}] = Terrain::kWoods;  // not in the open
  Game g(anc, s);
  ToMoves(g, d);
  ASSERT_TRUE(g.Apply(MoveUnit{"hc", {{5, 5}, {5, 4}}, Facing::kN}, d).ok);
  EXPECT_EQ(g.FindUnit("li")->status, UnitStatus::kDestroyed);
  EXPECT_TRUE(g.WhyCannotMove({"hc2", {{7, 5}, {7, 4}}, Facing::kN}));
}

TEST(RulesGame, LineInfantryFiresStraightAheadOthersWithinFortyFive) {
  const RulesetData nap = LoadRuleset("napoleonic");
  SeededDice d(1);
  Game g(nap, TwoSides({MakeUnit(nap, "line", "red", "line_infantry", {5, 6}, Facing::kN),
                        MakeUnit(nap, "light", "red", "light_infantry", {9, 6}, Facing::kN),
                        MakeUnit(nap, "t1", "blue", "line_infantry", {6, 4}, Facing::kS),
                        MakeUnit(nap, "t2", "blue", "line_infantry", {5, 4}, Facing::kS),
                        MakeUnit(nap, "t3", "blue", "line_infantry", {10, 5}, Facing::kS),
                        MakeUnit(nap, "screen", "red", "light_cavalry", {8, 5}, Facing::kN),
                        MakeUnit(nap, "t4", "blue", "line_infantry", {7, 4}, Facing::kS)}));
  ASSERT_TRUE(g.Apply(EndPhase{}, d).ok);          // to musketry
  EXPECT_TRUE(g.WhyCannotFire({"line", "t1"}));    // not straight ahead
  EXPECT_FALSE(g.WhyCannotFire({"line", "t2"}));   // straight ahead, range 2
  EXPECT_FALSE(g.WhyCannotFire({"light", "t3"}));  // +/-45 degrees
  EXPECT_NE(g.WhyCannotFire({"light", "t4"}).value_or("").find("screened"), std::string::npos);
  // The fire is logged with its dice.
  const ActionResult r = g.Apply(FireMusketry{"line", "t2"}, d);
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.entries.at(0).dice.size(), 4u);    // one die per stand
  EXPECT_TRUE(g.WhyCannotFire({"line", "t2"}));  // once per phase
}

TEST(RulesGame, AncientSupportTypes) {
  const RulesetData anc = LoadRuleset("ancient");
  SeededDice d(1);
  Game g(anc, TwoSides({MakeUnit(anc, "att", "red", "heavy_infantry", {5, 5}, Facing::kN),
                        MakeUnit(anc, "def", "blue", "heavy_infantry", {5, 4}, Facing::kS),
                        MakeUnit(anc, "a_diag", "red", "heavy_infantry", {4, 5}, Facing::kN),
                        MakeUnit(anc, "b_diag", "red", "light_infantry", {6, 5}, Facing::kN),
                        MakeUnit(anc, "a_side", "blue", "heavy_infantry", {4, 4}, Facing::kS),
                        MakeUnit(anc, "crew", "blue", "foot_crew", {6, 4}, Facing::kS),
                        MakeUnit(anc, "hc_behind", "blue", "heavy_cavalry", {5, 3}, Facing::kS)}));
  ToMoves(g, d);
  ASSERT_TRUE(g.Apply(MoveUnit{"att", {{5, 4}}, Facing::kN}, d).ok);
  ASSERT_TRUE(g.Apply(EndPhase{}, d).ok);  // the defender indicates supports after the move
  const Square c{5, 4};
  EXPECT_TRUE(g.WhyCannotSupport({"a_diag", c}));   // type A never diagonally
  EXPECT_FALSE(g.WhyCannotSupport({"b_diag", c}));  // type B may
  EXPECT_FALSE(g.WhyCannotSupport({"a_side", c}));  // type A to its side
  EXPECT_TRUE(g.WhyCannotSupport({"crew", c}));     // type D never
  // Cavalry supports infantry only from directly to the side: behind the contact square, no.
  EXPECT_TRUE(g.WhyCannotSupport({"hc_behind", c}));
}

TEST(RulesGame, NapoleonicDefendingCavalryCannotWheelToSupportInfantry) {
  const RulesetData nap = LoadRuleset("napoleonic");
  SeededDice d(1);
  Game g(nap, TwoSides({MakeUnit(nap, "att", "red", "line_infantry", {5, 5}, Facing::kN),
                        MakeUnit(nap, "def", "blue", "line_infantry", {5, 4}, Facing::kS),
                        MakeUnit(nap, "cav_away", "blue", "line_cavalry", {4, 4}, Facing::kW),
                        MakeUnit(nap, "cav_facing", "blue", "line_cavalry", {6, 4}, Facing::kW),
                        MakeUnit(nap, "inf_away", "blue", "line_infantry", {5, 3}, Facing::kW)}));
  ToMoves(g, d);
  ASSERT_TRUE(g.Apply(MoveUnit{"att", {{5, 4}}, Facing::kN}, d).ok);
  ASSERT_TRUE(g.Apply(EndPhase{}, d).ok);  // the defender indicates supports after the move
  EXPECT_TRUE(g.WhyCannotSupport({"cav_away", {5, 4}}));     // faced away at the start of the turn
  EXPECT_FALSE(g.WhyCannotSupport({"cav_facing", {5, 4}}));  // already faced the contact square
  EXPECT_FALSE(g.WhyCannotSupport({"inf_away", {5, 4}}));    // infantry may face around 90 degrees
}

TEST(RulesGame, MeleeOnTheBoardRetreatsTwoSquaresDiagonalsCountingOne) {
  const RulesetData nap = LoadRuleset("napoleonic");
  SeededDice d(1);
  Game g(nap, TwoSides({MakeUnit(nap, "att", "red", "guards_infantry", {5, 5}, Facing::kN),
                        MakeUnit(nap, "def", "blue", "line_infantry", {5, 4}, Facing::kS, 2),
                        MakeUnit(nap, "block", "red", "light_cavalry", {5, 3}, Facing::kN)}));
  ToMoves(g, d);
  ASSERT_TRUE(g.Apply(MoveUnit{"att", {{5, 4}}, Facing::kN}, d).ok);
  while (g.phase() != Phase::kMelees) ASSERT_TRUE(g.Apply(EndPhase{}, d).ok);
  // WITHDRAWAL succeeds against LINE: the defender retreats 2 without loss.
  PhysicalDice none;
  const ActionResult r = g.Apply(FightMelee{{5, 4}, Mdi::kLine, Mdi::kWithdrawal}, none);
  ASSERT_TRUE(r.ok);
  const GameUnit* def = g.FindUnit("def");
  // Rear of a south-facing defender is north; (5,3) holds a red unit, so it skirts it
  // diagonally: two squares of retreat with the diagonal counting 1.
  EXPECT_EQ(def->status, UnitStatus::kOnTable);
  EXPECT_EQ(def->stands.size(), 2u);
  EXPECT_EQ(def->square.row, 2) << SquareName(def->square);
  EXPECT_NE(def->square.col, 5);
}

TEST(RulesGame, RetreatCutOffIsDestroyedAndOffTheEdgeCountsForPoints) {
  const RulesetData nap = LoadRuleset("napoleonic");
  for (bool at_edge : {false, true}) {
    SeededDice d(1);
    const int row = at_edge ? 0 : 2;
    std::vector<GameUnit> u = {
        MakeUnit(nap, "att", "red", "guards_infantry", {5, row + 1}, Facing::kN),
        MakeUnit(nap, "def", "blue", "line_infantry", {5, row}, Facing::kS)};
    if (!at_edge)
      for (int c = 4; c <= 6; ++c)
        u.push_back(MakeUnit(nap, "x" + std::to_string(c), "red", "light_cavalry", {c, row - 1},
                             Facing::kN));
    Game g(nap, TwoSides(u));
    ToMoves(g, d);
    ASSERT_TRUE(g.Apply(MoveUnit{"att", {{5, row}}, Facing::kN}, d).ok);
    while (g.phase() != Phase::kMelees) ASSERT_TRUE(g.Apply(EndPhase{}, d).ok);
    PhysicalDice none;
    ASSERT_TRUE(g.Apply(FightMelee{{5, row}, Mdi::kLine, Mdi::kWithdrawal}, none).ok);
    const GameUnit* def = g.FindUnit("def");
    if (at_edge) {
      EXPECT_EQ(def->status, UnitStatus::kOffTable);
      EXPECT_DOUBLE_EQ(g.PointsOf("blue").off_table, 12);
    } else {
      EXPECT_EQ(def->status, UnitStatus::kDestroyed) << "enemy units cut the retreat off";
      EXPECT_DOUBLE_EQ(g.PointsOf("blue").destroyed, 12);
    }
  }
}

TEST(RulesGame, MeleeLossesTakeStandsAndLogTheCoin) {
  const RulesetData nap = LoadRuleset("napoleonic");
  SeededDice d(1);
  // Red guards infantry (4 x 1.5 = 6) in COLUMN charge blue line infantry (4 x 1) in LINE.
  // LINE beats COLUMN: red loses 1 + (4-1)/2 = 2.5 = one 1.5 stand and a coin for the next;
  // blue loses 1.25 = one stand and a coin for 0.25 of the next.
  Game g(nap, TwoSides({MakeUnit(nap, "att", "red", "guards_infantry", {5, 5}, Facing::kN),
                        MakeUnit(nap, "def", "blue", "line_infantry", {5, 4}, Facing::kS)}));
  ToMoves(g, d);
  ASSERT_TRUE(g.Apply(MoveUnit{"att", {{5, 4}}, Facing::kN}, d).ok);
  while (g.phase() != Phase::kMelees) ASSERT_TRUE(g.Apply(EndPhase{}, d).ok);
  PhysicalDice coins({}, {1, 0});
  const ActionResult r = g.Apply(FightMelee{{5, 4}, Mdi::kColumn, Mdi::kLine}, coins);
  ASSERT_TRUE(r.ok) << r.refusal;
  ASSERT_EQ(coins.Events().size(), 2u);
  EXPECT_NE(coins.Events()[0].purpose.find("attacker"), std::string::npos);
  EXPECT_EQ(g.FindUnit("att")->stands.size(), 2u);  // heads: the second guards stand is lost
  EXPECT_EQ(g.FindUnit("def")->stands.size(), 3u);  // tails: only one line stand
  // Left: red 6 - 2.5 = 3.5, blue 4 - 1.25 = 2.75: the weaker side (blue, the superior
  // deployment) retreats 2 toward its rear; red holds the contact square.
  EXPECT_EQ(g.FindUnit("def")->square, (Square{5, 2}));
  EXPECT_EQ(g.FindUnit("att")->square, (Square{5, 4}));
  EXPECT_EQ(r.entries.at(0).dice.size(), 2u);  // the log entry carries both flips
}

TEST(RulesGame, MoraleOneStandRetreatsExceptExempt) {
  const RulesetData nap = LoadRuleset("napoleonic");
  SeededDice d(1);
  Game g(nap, TwoSides({MakeUnit(nap, "line1", "red", "line_infantry", {2, 3}, Facing::kN, 1),
                        MakeUnit(nap, "guard1", "red", "guards_infantry", {4, 3}, Facing::kN, 1),
                        MakeUnit(nap, "light1", "red", "light_infantry", {6, 3}, Facing::kN, 1),
                        MakeUnit(nap, "b", "blue", "line_infantry", {10, 0}, Facing::kS)}));
  ToMoves(g, d);
  EXPECT_EQ(g.FindUnit("line1")->square, (Square{2, 5})) << "one full move (2) toward its baseline";
  EXPECT_EQ(g.FindUnit("guard1")->square, (Square{4, 3}));
  EXPECT_EQ(g.FindUnit("light1")->square, (Square{6, 3}));
  EXPECT_TRUE(g.WhyCannotMove({"line1", {{2, 4}}, Facing::kN}));  // cannot advance or attack
}

TEST(RulesGame, AncientAttachedCommanderKeepsASingleStandInTheFight) {
  const RulesetData anc = LoadRuleset("ancient");
  SeededDice d(1);
  Game g(anc, TwoSides({MakeUnit(anc, "hi1", "red", "heavy_infantry", {2, 3}, Facing::kN, 1),
                        MakeUnit(anc, "hi2", "red", "heavy_infantry", {4, 3}, Facing::kN, 1),
                        MakeUnit(anc, "cmd", "red", "commander", {4, 3}, Facing::kN),
                        MakeUnit(anc, "pelt", "red", "macedonian_peltasts", {6, 3}, Facing::kN, 1),
                        MakeUnit(anc, "b", "blue", "heavy_infantry", {10, 0}, Facing::kS)}));
  ToMoves(g, d);
  EXPECT_EQ(g.FindUnit("hi1")->square, (Square{2, 5}));
  EXPECT_EQ(g.FindUnit("hi2")->square, (Square{4, 3})) << "attached commander";
  EXPECT_EQ(g.FindUnit("pelt")->square, (Square{6, 3})) << "special troops are exempt";
}

TEST(RulesGame, GunHitTakesItsCrewAndCutsNextTurnsShots) {
  const RulesetData nap = LoadRuleset("napoleonic");
  SeededDice d(1);
  PhysicalDice none;
  Game g(nap, TwoSides({MakeUnit(nap, "rb", "red", "foot_battery", {5, 6}, Facing::kN),
                        MakeUnit(nap, "bb", "blue", "foot_battery", {5, 1}, Facing::kS)}));
  // Turn 1: red's battery has 3 shots; the 4th is refused.
  for (int i = 0; i < 3; ++i)
    ASSERT_TRUE(
        g.Apply(ArtilleryCasualty{"rb", "bb", i == 0 ? "field_gun" : "foot_crew"}, none).ok);
  EXPECT_FALSE(g.Apply(ArtilleryCasualty{"rb", "bb", "foot_crew"}, none).ok);
  const GameUnit* bb = g.FindUnit("bb");
  // field gun + its crew + 2 foot crew: 8 - 4 = 4 stands left.
  EXPECT_EQ(bb->stands.size(), 4u);
  // Blue's battery still fires all three shots this turn (2A: even if destroyed on that turn).
  for (int i = 0; i < 3; ++i)
    ASSERT_TRUE(g.Apply(ArtilleryCasualty{"bb", "rb", "foot_crew"}, none).ok);
  ASSERT_TRUE(g.Apply(EndPhase{}, d).ok);
  while (g.phase() != Phase::kArtillery) ASSERT_TRUE(g.Apply(EndPhase{}, d).ok);
  ASSERT_EQ(g.turn(), 2);
  // Turn 2: one gun lost -> two shots.
  ASSERT_TRUE(g.Apply(ArtilleryCasualty{"bb", "rb", "foot_crew"}, none).ok);
  ASSERT_TRUE(g.Apply(ArtilleryCasualty{"bb", "rb", "mounted_crew"}, none).ok);
  EXPECT_FALSE(g.Apply(ArtilleryCasualty{"bb", "rb", "howitzer"}, none).ok);
}

TEST(RulesGame, CanisterAdjacentInArcNotIntoFriends) {
  const RulesetData nap = LoadRuleset("napoleonic");
  SeededDice d(3);
  Game g(nap, TwoSides({MakeUnit(nap, "hb", "red", "horse_battery", {5, 5}, Facing::kN),
                        MakeUnit(nap, "b", "blue", "light_infantry", {5, 4}, Facing::kS),
                        MakeUnit(nap, "b2", "blue", "light_infantry", {5, 3}, Facing::kS),
                        MakeUnit(nap, "behind", "blue", "light_infantry", {5, 6}, Facing::kS)}));
  EXPECT_FALSE(g.Apply(FireCanister{"hb", {5, 3}, "b2"}, d).ok);      // not adjacent
  EXPECT_FALSE(g.Apply(FireCanister{"hb", {5, 6}, "behind"}, d).ok);  // outside +/-45
  const ActionResult r = g.Apply(FireCanister{"hb", {5, 4}, "b"}, d);
  ASSERT_TRUE(r.ok) << r.refusal;
  EXPECT_EQ(r.entries.at(0).dice.size(), 2u);  // 2 dice per horse gun shot
}

// A resumed game log plays every action again from its JSON: each kind comes back the same,
// and a damaged one is refused naming the field.
TEST(RulesGame, ActionsAndSetUpsRoundTripThroughJson) {
  const MoveUnit move{"r1", {{5, 5}, {6, 4}}, Facing::kNE};
  const std::vector<Action> actions = {
      ArtilleryCasualty{"g", "b", "line_infantry"},
      HoldCanister{"g"},
      FireCanister{"g", {3, 2}, "b"},
      FireMusketry{"r", "b"},
      move,
      MoveUnit{"r2", {}, Facing::kS, true, false, {"r3", "r4", "r5"}},
      DeclareSupport{"r", {4, 4}},
      FightMelee{{4, 4}, Mdi::kColumn, Mdi::kSquare},
      EndPhase{},
      Surrender{"blue"},
      ShellOnInflammable{"g", {1, 1}},
      Limber{"g", false},
      DestroyEquipment{"g", "supply_wagon"},
      AttachCommander{"c", "r"},
      FireArtillery{"g", {7, 1}, "howitzer", "crew"},
      MoveUnits{{move, MoveUnit{"r2", {{5, 6}}, Facing::kS}}},
  };
  ASSERT_EQ(actions.size(), std::variant_size_v<Action> + 1);  // MoveUnit: a move and a Square
  for (const auto& a : actions) {
    const nlohmann::json j = ActionToJson(a);
    const Action back = ActionFromJson(j);
    EXPECT_EQ(back.index(), a.index()) << j.dump();
    EXPECT_EQ(ActionToJson(back), j);
  }
  nlohmann::json bad = ActionToJson(move);
  bad["path"] = {{5}};
  EXPECT_THROW(ActionFromJson(bad), std::invalid_argument);
  EXPECT_THROW(ActionFromJson({{"action", "teleport"}}), std::invalid_argument);

  const RulesetData nap = LoadRuleset("napoleonic");
  GameSetup s = TwoSides({MakeUnit(nap, "r", "red", "line_infantry", {5, 6}, Facing::kN, 3),
                          MakeUnit(nap, "b", "blue", "line_infantry", {5, 1}, Facing::kS)},
                         6);
  s.units[0].formed_square = true;
  s.units[0].square_group = 2;
  s.first_attacker = 1;
  Board board;
  board.terrain[{2, 2}] = Terrain::kWoods;
  const GameSetup back = SetupFromJson(SetupToJson(s), board);
  EXPECT_EQ(SetupToJson(back), SetupToJson(s));
  EXPECT_EQ(back.units[0].stands.size(), 3u);
  EXPECT_EQ(back.board.TerrainAt({2, 2}), Terrain::kWoods) << "the board is the caller's";
  EXPECT_EQ(back.agreed_turns, 6);
}

}  // namespace
}  // namespace referee::rules

namespace referee::rules {
namespace {

TEST(RulesGame, PhysicalDiceShortOfValuesLeaveTheStateUnchanged) {
  const RulesetData nap = LoadRuleset("napoleonic");
  SeededDice d(1);
  Game g(nap, TwoSides({MakeUnit(nap, "att", "red", "guards_infantry", {5, 5}, Facing::kN),
                        MakeUnit(nap, "def", "blue", "line_infantry", {5, 4}, Facing::kS)}));
  ToMoves(g, d);
  ASSERT_TRUE(g.Apply(MoveUnit{"att", {{5, 4}}, Facing::kN}, d).ok);
  while (g.phase() != Phase::kMelees) ASSERT_TRUE(g.Apply(EndPhase{}, d).ok);
  PhysicalDice one({}, {1});  // the melee needs two flips (see MeleeLossesTakeStandsAndLogTheCoin)
  EXPECT_THROW(g.Apply(FightMelee{{5, 4}, Mdi::kColumn, Mdi::kLine}, one), DiceExhausted);
  EXPECT_EQ(g.FindUnit("att")->stands.size(), 4u);
  EXPECT_EQ(g.FindUnit("def")->stands.size(), 4u);
  ASSERT_EQ(g.PendingMelees().size(), 1u);
  PhysicalDice two({}, {1, 0});
  EXPECT_TRUE(g.Apply(FightMelee{{5, 4}, Mdi::kColumn, Mdi::kLine}, two).ok);
  EXPECT_EQ(g.FindUnit("att")->stands.size(), 2u);
}

}  // namespace
}  // namespace referee::rules

namespace referee::rules {
namespace {

TEST(RulesGame, PhalanxAndChargeMeleeValues) {
  const RulesetData anc = LoadRuleset("ancient");
  SeededDice d(1);
  Game g(anc, TwoSides({MakeUnit(anc, "ph4", "red", "macedonian_phalanx", {1, 6}, Facing::kN),
                        MakeUnit(anc, "ph3", "red", "macedonian_phalanx", {3, 6}, Facing::kN, 3),
                        MakeUnit(anc, "ph2", "red", "macedonian_phalanx", {5, 6}, Facing::kN, 2),
                        MakeUnit(anc, "ch", "red", "chariot", {7, 6}, Facing::kN),
                        MakeUnit(anc, "hi", "blue", "heavy_infantry", {7, 4}, Facing::kS)}));
  // '#': 1.5 a stand while three or four stands remain, 1 with two or one.
  EXPECT_DOUBLE_EQ(g.MeleeValue(*g.FindUnit("ph4")), 6);
  EXPECT_DOUBLE_EQ(g.MeleeValue(*g.FindUnit("ph3")), 4.5);
  EXPECT_DOUBLE_EQ(g.MeleeValue(*g.FindUnit("ph2")), 2);
  // '*': a chariot is worth 2, or 3 when it charges into the contact square.
  EXPECT_DOUBLE_EQ(g.MeleeValue(*g.FindUnit("ch")), 2);
  ToMoves(g, d);
  ASSERT_TRUE(g.Apply(MoveUnit{"ch", {{7, 5}, {7, 4}}, Facing::kN}, d).ok);
  EXPECT_DOUBLE_EQ(g.MeleeValue(*g.FindUnit("ch")), 3);
}

}  // namespace
}  // namespace referee::rules
