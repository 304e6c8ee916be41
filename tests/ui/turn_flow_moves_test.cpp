// Reading the attacker's moves off the table by the stand tracker's ids, and the Squares the
// move panel offers: every block the ruleset allows (Napoleonic 8A).
#include <gtest/gtest.h>

#include <algorithm>

#include "engine/rules/ruleset.hpp"
#include "engine/stand_kind_catalog_loader.hpp"
#include "napoleonic_turn_flow.hpp"
#include "table_blocks.hpp"
#include "ui/live/table_setup.hpp"
#include "ui/live/turn_flow.hpp"

namespace referee::live {
namespace {

using testing::Block;
using testing::Concat;
using testing::OfType;
using testing::UnitAt;

// Two red line-infantry units, `first` in square a and `second` in b, both at angle_deg,
// beside blue's: the table before or after the attacker's move.
std::vector<Stand> RedPairAndBlue(const std::string& first, Square a, const std::string& second,
                                  Square b, double angle_deg, const std::vector<Stand>& blue) {
  return Concat(Concat(Block(first, "red", "line_infantry", a, angle_deg),
                       Block(second, "red", "line_infantry", b, angle_deg)),
                blue);
}

class TurnFlowMoves : public NapoleonicTurnFlow {
 protected:
  // Starts with red (side 1) attacking and ends phases until red moves.
  void StartAndReachMoves(const std::vector<Stand>& stands) {
    ASSERT_TRUE(flow_.Start(SetupFromTable(ruleset_->data(), Board(), stands, catalog_, 8), 1))
        << flow_.notice();
    ASSERT_EQ(flow_.attacker(), "red");
    for (int i = 0; i < 8 && flow_.PhaseName() != "attacker_moves"; ++i) {
      ASSERT_TRUE(flow_.EndPhase());
    }
    ASSERT_EQ(flow_.PhaseName(), "attacker_moves");
  }
};

TEST_F(TurnFlowMoves, TwoUnitsSwappingSquaresAreReadAsTwoMoves) {
  const auto blue = Block("b", "blue", "line_infantry", {5, 1}, 180);
  StartAndReachMoves(RedPairAndBlue("a", {4, 5}, "c", {5, 5}, 0, blue));
  const std::string a = UnitAt(*flow_.game(), {4, 5}, "red");
  const std::string c = UnitAt(*flow_.game(), {5, 5}, "red");
  ASSERT_FALSE(a.empty());
  ASSERT_FALSE(c.empty());
  // On the table the two units change places; the tracker keeps each stand's id.
  const auto swapped = RedPairAndBlue("a", {5, 5}, "c", {4, 5}, 0, blue);
  flow_.RefreshStandIds(swapped, catalog_);  // the window does this on every frame
  EXPECT_EQ(flow_.UnitOfStand("a1"), a) << "a unit moved on the table keeps its stands";
  EXPECT_EQ(flow_.UnitOfStand("c1"), c);
  const auto moves = flow_.MovesSeenOnTable(swapped, catalog_);
  ASSERT_EQ(moves.size(), 2u) << "same type, swapped squares: nearest-square matching reads none";
  for (const auto& m : moves) {
    ASSERT_EQ(m.path.size(), 1u);
    EXPECT_EQ(m.path.back(), (m.unit == a ? Square{5, 5} : Square{4, 5})) << m.unit;
  }
}

// Two friends swapping squares: the rules allow it (1E bars moving through enemies only, 1C
// bars two units of a side in one square once all have moved). Gap: the engine checked one move
// at a time and refused both; the swap is now played as one set of moves (rules::MoveUnits),
// and the log's turn_action holds it for a resumed game.
TEST_F(TurnFlowMoves, TwoFriendsSwappingSquaresArePlayedAsOneSetOfMoves) {
  const auto blue = Block("b", "blue", "line_infantry", {5, 1}, 180);
  StartAndReachMoves(RedPairAndBlue("a", {4, 5}, "c", {5, 5}, 0, blue));
  const std::string a = UnitAt(*flow_.game(), {4, 5}, "red");
  const std::string c = UnitAt(*flow_.game(), {5, 5}, "red");
  const auto swapped = RedPairAndBlue("a", {5, 5}, "c", {4, 5}, 0, blue);
  flow_.RefreshStandIds(swapped, catalog_);
  flow_.TakeEvents();
  EXPECT_EQ(flow_.ApplyTableMoves(swapped, catalog_), 2) << flow_.notice();
  EXPECT_TRUE(flow_.notice().empty()) << flow_.notice();
  EXPECT_EQ(flow_.game()->FindUnit(a)->square, (Square{5, 5}));
  EXPECT_EQ(flow_.game()->FindUnit(c)->square, (Square{4, 5}));
  EXPECT_EQ(flow_.UnitOfStand("a1"), a) << "each unit keeps the stands that moved with it";
  EXPECT_EQ(flow_.UnitOfStand("c4"), c);
  const auto events = flow_.TakeEvents();
  const auto choices = OfType<FirerChoice>(events);
  ASSERT_EQ(choices.size(), 1u);
  EXPECT_EQ(choices[0]->choice, "turn_action");
  EXPECT_EQ(choices[0]->details["action"]["action"], "move_together");
  EXPECT_EQ(choices[0]->details["action"]["moves"].size(), 2u);
  // Both have moved: neither moves again this turn.
  EXPECT_FALSE(flow_.MoveUnit(a, {5, 4}, Facing::kN));
}

// A swap the rules refuse as a set is explained in the engine's words, nothing half-played.
TEST_F(TurnFlowMoves, ASwapTheRulesRefuseIsExplainedAndNothingMoves) {
  const auto blue = Block("b", "blue", "line_infantry", {5, 1}, 180);
  // Three squares apart: beyond line infantry's move of 2 for both.
  StartAndReachMoves(RedPairAndBlue("a", {2, 5}, "c", {5, 5}, 0, blue));
  const std::string a = UnitAt(*flow_.game(), {2, 5}, "red");
  const auto swapped = RedPairAndBlue("a", {5, 5}, "c", {2, 5}, 0, blue);
  flow_.RefreshStandIds(swapped, catalog_);
  EXPECT_EQ(flow_.ApplyTableMoves(swapped, catalog_), 0);
  const std::string& why = flow_.notice();
  EXPECT_NE(why.find("changing places"), std::string::npos) << why;
  EXPECT_NE(why.find("moves 2"), std::string::npos) << why;
  EXPECT_EQ(flow_.game()->FindUnit(a)->square, (Square{2, 5})) << "nothing half-played";
}

TEST_F(TurnFlowMoves, AUnitSteppingIntoASquareAnotherLeavesIsAppliedAfterIt) {
  // A column marching south: the rear unit steps into the square the front unit leaves. The
  // engine takes one move at a time and allows no two units of a side in one square.
  const auto blue = Block("b", "blue", "line_infantry", {9, 1}, 180);
  StartAndReachMoves(RedPairAndBlue("rear", {5, 3}, "front", {5, 4}, 180, blue));
  const std::string rear = UnitAt(*flow_.game(), {5, 3}, "red");
  const std::string front = UnitAt(*flow_.game(), {5, 4}, "red");
  const auto marched = RedPairAndBlue("rear", {5, 4}, "front", {5, 5}, 180, blue);
  flow_.RefreshStandIds(marched, catalog_);
  EXPECT_EQ(flow_.ApplyTableMoves(marched, catalog_), 2) << flow_.notice();
  EXPECT_EQ(flow_.game()->FindUnit(rear)->square, (Square{5, 4}));
  EXPECT_EQ(flow_.game()->FindUnit(front)->square, (Square{5, 5}));
  EXPECT_EQ(flow_.UnitOfStand("rear1"), rear);
  EXPECT_EQ(flow_.UnitOfStand("front1"), front);
}

TEST_F(TurnFlowMoves, EveryKByKBlockIsOfferedAsASquareButNoLongRectangle) {
  // Nine red line infantry units fill D4..F6 (a 3 x 3 block) and two more stand in a row
  // beside it (H5, I5).
  std::vector<Stand> stands;
  int n = 0;
  for (int row = 3; row <= 5; ++row) {
    for (int col = 3; col <= 5; ++col) {
      stands = Concat(
          stands, Block("r" + std::to_string(++n) + "-", "red", "line_infantry", {col, row}, 0));
    }
  }
  stands = Concat(stands, Block("p", "red", "line_infantry", {7, 4}, 0));
  stands = Concat(stands, Block("q", "red", "line_infantry", {8, 4}, 0));
  stands = Concat(stands, Block("b", "blue", "line_infantry", {5, 0}, 180));
  StartAndReachMoves(stands);
  const auto options = flow_.SquareOptions();
  std::map<size_t, int> by_size;
  for (const auto& o : options) ++by_size[o.size()];
  EXPECT_EQ(by_size[1], 11) << "every unit alone";
  EXPECT_EQ(by_size[4], 4) << "the four 2 x 2 blocks inside the 3 x 3";
  EXPECT_EQ(by_size[9], 1) << "the 3 x 3 block";
  EXPECT_EQ(by_size[2], 0) << "8A: long rectangular squares are not allowed (H5 + I5)";
  EXPECT_EQ(by_size[6], 0);
  EXPECT_TRUE(std::ranges::is_sorted(options, {}, &std::vector<std::string>::size));

  const auto nine = std::ranges::find(options, 9u, &std::vector<std::string>::size);
  ASSERT_NE(nine, options.end());
  EXPECT_EQ(nine->front(), UnitAt(*flow_.game(), {3, 3}, "red")) << "the top-left forms it";
  flow_.TakeEvents();
  ASSERT_TRUE(flow_.FormSquare(nine->front(), {nine->begin() + 1, nine->end()})) << flow_.notice();
  EXPECT_EQ(flow_.UnitsInSquare().size(), 9u);
  const auto events = flow_.TakeEvents();  // the choices point into it
  const auto choices = testing::PlayersChoices(events);
  ASSERT_EQ(choices.size(), 1u);
  EXPECT_EQ(choices[0]->details["units"].size(), 9u);
  // The units in the Square are offered no other Square.
  for (const auto& o : flow_.SquareOptions()) {
    for (const auto& id : o) EXPECT_EQ(std::ranges::count(*nine, id), 0) << id;
  }
}

}  // namespace
}  // namespace referee::live
