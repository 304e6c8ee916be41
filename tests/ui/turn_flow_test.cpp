// The turn flow without a window: a game set up from stands on a real 12 x 8 board of 4"
// squares, driven the way the turn panel drives it, checked against the rules engine and the
// game-log events it must produce.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <set>

#include "engine/game_log.hpp"

#include "engine/rules/fire.hpp"
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

class TurnFlowTest : public NapoleonicTurnFlow {
 protected:
  TableSetup Setup(const std::vector<Stand>& stands) {
    Board board;
    return SetupFromTable(ruleset_->data(), board, stands, catalog_, 8);
  }
  // Starts the game on `stands` (red attacks) and fires red's unit at (5, 6) at blue's at (5, 4).
  void StartAndFireTheFirstVolley(const std::vector<Stand>& stands) {
    ASSERT_TRUE(flow_.Start(Setup(stands), 1));
    ASSERT_TRUE(flow_.EndPhase());
    ASSERT_TRUE(flow_.FireMusketry(UnitAt(*flow_.game(), {5, 6}, "red"),
                                   UnitAt(*flow_.game(), {5, 4}, "blue")))
        << flow_.notice();
  }
  void EndPhasesUntil(const std::string& phase) {
    for (int i = 0; i < 8 && flow_.PhaseName() != phase; ++i) ASSERT_TRUE(flow_.EndPhase());
    ASSERT_EQ(flow_.PhaseName(), phase);
  }
};

TEST_F(TurnFlowTest, TableStandsBecomeUnitsOfTheRuleset) {
  auto stands = Concat(Block("r", "red", "line_infantry", {5, 6}, 0),
                       Block("b", "blue", "light_infantry", {5, 2}, 180, 3));
  Stand gun;
  gun.id = "rg";
  gun.side = "red";
  gun.kind = "field_gun";
  gun.footprint = {Grid().Center({8, 6}), 1.575, 1.575, 0};
  Stand crew = gun;
  crew.id = "rc";
  crew.kind = "foot_crew";
  crew.footprint = {Grid().Center({8, 6}) + Vec2{0, 1.3}, 1.575, 0.787, 0};
  stands.push_back(gun);
  stands.push_back(crew);
  const TableSetup t = Setup(stands);
  EXPECT_TRUE(t.problems.empty()) << t.problems.front();
  ASSERT_EQ(t.setup.units.size(), 3u);
  std::map<std::string, const rules::GameUnit*> by_type;
  for (const auto& u : t.setup.units) by_type[u.type] = &u;
  ASSERT_TRUE(by_type.contains("line_infantry"));
  ASSERT_TRUE(by_type.contains("light_infantry"));
  ASSERT_TRUE(by_type.contains("foot_battery"));  // a gun with its crew is a foot battery
  const auto* line = by_type["line_infantry"];
  EXPECT_EQ(line->square, (Square{5, 6}));
  EXPECT_EQ(line->facing, Facing::kN);
  EXPECT_EQ(line->stands.size(), 4u);
  EXPECT_EQ(t.stand_ids.at(line->id), (std::vector<std::string>{"r1", "r2", "r3", "r4"}));
  EXPECT_EQ(by_type["light_infantry"]->facing, Facing::kS);
  // Red stands lower on the board: its home row is the bottom one.
  EXPECT_EQ(t.setup.sides[0].name, "blue");
  EXPECT_EQ(t.setup.sides[0].home_row, 0);
  EXPECT_EQ(t.setup.sides[1].home_row, 7);
  // One side alone is no game.
  const TableSetup alone = Setup(Block("r", "red", "line_infantry", {5, 6}, 0));
  EXPECT_FALSE(alone.problems.empty());
  EXPECT_FALSE(flow_.Start(alone, 0));
  EXPECT_FALSE(flow_.notice().empty());
  EXPECT_EQ(UnitTypeForKinds(ruleset_->data(), {"line_infantry", "line_cavalry"}), "");
}

TEST_F(TurnFlowTest, MusketryWithTypedDiceWaitsUntilEveryDieIsIn) {
  // Red line infantry at F7 fires straight ahead at blue line infantry two squares away.
  const auto stands = Concat(Block("r", "red", "line_infantry", {5, 6}, 0),
                             Block("b", "blue", "line_infantry", {5, 4}, 180));
  ASSERT_TRUE(flow_.Start(Setup(stands), 1));  // red (side 1) attacks first
  EXPECT_EQ(flow_.attacker(), "red");
  EXPECT_EQ(flow_.defender(), "blue");
  EXPECT_EQ(flow_.PhaseName(), "artillery");
  EXPECT_FALSE(flow_.FireMusketry("red/line_infantry#1", "blue/line_infantry#1"));
  EXPECT_FALSE(flow_.notice().empty()) << "musketry is refused in the artillery phase";
  ASSERT_TRUE(flow_.EndPhase());
  EXPECT_EQ(flow_.PhaseName(), "musketry");
  auto events = flow_.TakeEvents();
  ASSERT_EQ(OfType<TurnChange>(events).size(), 2u);  // the start and the musketry phase
  EXPECT_EQ(OfType<TurnChange>(events).back()->phase, "musketry");
  EXPECT_EQ(OfType<TurnChange>(events).back()->side, "red");

  const auto shooters = flow_.Shooters();
  ASSERT_NE(std::ranges::find(shooters, "red/line_infantry#1"), shooters.end());
  EXPECT_EQ(flow_.TargetsOf("red/line_infantry#1"),
            (std::vector<std::string>{"blue/line_infantry#1"}));

  flow_.SetDiceMode(DiceMode::kPhysical);
  EXPECT_FALSE(flow_.FireMusketry("red/line_infantry#1", "blue/line_infantry#1"));
  ASSERT_TRUE(flow_.needed());
  EXPECT_FALSE(flow_.needed()->coin);
  EXPECT_FALSE(flow_.needed()->purpose.empty());
  EXPECT_FALSE(flow_.EnterDie(7));  // not a die face
  // Nothing happens to the target until every die is typed.
  int typed = 0;
  while (flow_.needed() && typed < 20) {
    EXPECT_EQ(flow_.game()->FindUnit("blue/line_infantry#1")->stands.size(), 4u);
    flow_.EnterDie(1);
    ++typed;
  }
  ASSERT_FALSE(flow_.needed());
  const int dice =
      rules::CountFireDice(ruleset_->data(), {"line_infantry", 4, false, 0, "line_infantry", false})
          .dice;
  EXPECT_EQ(typed, dice);
  events = flow_.TakeEvents();
  const auto rolls = OfType<DiceRoll>(events);
  ASSERT_EQ(rolls.size(), 1u);
  EXPECT_EQ(rolls[0]->results, std::vector<int>(static_cast<size_t>(dice), 1));
  EXPECT_EQ(rolls[0]->side, "red");
  ASSERT_EQ(OfType<Musketry>(events).size(), 1u);
  EXPECT_EQ(OfType<Musketry>(events)[0]->target_unit, "blue/line_infantry#1");
  // All ones hit at two squares: the stands the engine took are named by their table ids.
  const size_t left = flow_.game()->FindUnit("blue/line_infantry#1")->stands.size();
  ASSERT_LT(left, 4u);
  const auto removed = OfType<CasualtiesRemoved>(events);
  ASSERT_EQ(removed.size(), 1u);
  EXPECT_EQ(removed[0]->side, "blue");
  EXPECT_EQ(removed[0]->scored_by, "red");
  EXPECT_EQ(removed[0]->cause, "musketry");
  EXPECT_EQ(removed[0]->stand_ids.size(), 4u - left);
  for (const auto& id : removed[0]->stand_ids) EXPECT_EQ(id[0], 'b') << id;
  EXPECT_DOUBLE_EQ(removed[0]->points,
                   static_cast<double>(4u - left) * ruleset_->data().Stand("line_infantry").points);
  ASSERT_EQ(flow_.table_changes().size(), 1u);
  EXPECT_EQ(flow_.table_changes()[0].remove_stand_ids, removed[0]->stand_ids);
  EXPECT_TRUE(flow_.ConfirmTableMatches());
  EXPECT_TRUE(flow_.table_changes().empty());
  // The removed stands belong to no unit any more.
  EXPECT_EQ(flow_.UnitOfStand(removed[0]->stand_ids[0]), "");
}

TEST_F(TurnFlowTest, MdiCardsStayHiddenUntilBothAreInThenTheMeleeIsApplied) {
  // The worked example of the engine tests: red guards in COLUMN charge blue line in LINE.
  const auto stands = Concat(Block("r", "red", "guards_infantry", {5, 5}, 0),
                             Block("b", "blue", "line_infantry", {5, 4}, 180));
  ASSERT_TRUE(flow_.Start(Setup(stands), 1));
  EndPhasesUntil("attacker_moves");
  // The charge as the table shows it: red's stands now stand in blue's square.
  auto moved = Concat(Block("r", "red", "guards_infantry", {5, 4}, 0),
                      Block("b", "blue", "line_infantry", {5, 4}, 180));
  ASSERT_EQ(flow_.MovesSeenOnTable(moved, catalog_).size(), 1u);
  ASSERT_EQ(flow_.ApplyTableMoves(moved, catalog_), 1) << flow_.notice();
  EXPECT_EQ(flow_.game()->FindUnit("red/guards_infantry#1")->square, (Square{5, 4}));
  EndPhasesUntil("melees");
  ASSERT_EQ(flow_.PendingMelees(), (std::vector<Square>{{5, 4}}));
  EXPECT_FALSE(flow_.Fight());
  ASSERT_TRUE(flow_.SelectMelee({5, 4}));
  flow_.TakeEvents();

  ASSERT_TRUE(flow_.ChooseMdi(MeleeRole::kAttacker, rules::Mdi::kColumn));
  EXPECT_TRUE(flow_.MdiIn(MeleeRole::kAttacker));
  EXPECT_FALSE(flow_.MdiIn(MeleeRole::kDefender));
  EXPECT_FALSE(flow_.RevealedMdi()) << "one card alone is never shown";
  EXPECT_TRUE(flow_.TakeEvents().empty()) << "nor logged";
  EXPECT_FALSE(flow_.ChooseMdi(MeleeRole::kAttacker, rules::Mdi::kLine)) << "no second thoughts";
  EXPECT_FALSE(flow_.Fight());
  ASSERT_TRUE(flow_.ChooseMdi(MeleeRole::kDefender, rules::Mdi::kLine));
  ASSERT_TRUE(flow_.RevealedMdi());
  EXPECT_EQ(flow_.RevealedMdi()->first, rules::Mdi::kColumn);
  auto events = flow_.TakeEvents();
  const auto choices = testing::PlayersChoices(events);
  ASSERT_EQ(choices.size(), 2u);
  EXPECT_EQ(choices[0]->side, "red");
  EXPECT_EQ(choices[0]->details["card"], rules::MdiName(rules::Mdi::kColumn));
  EXPECT_EQ(choices[1]->side, "blue");

  // The melee's two coin flips typed in: heads, then tails.
  flow_.SetDiceMode(DiceMode::kPhysical);
  EXPECT_FALSE(flow_.Fight());
  ASSERT_TRUE(flow_.needed());
  EXPECT_TRUE(flow_.needed()->coin);
  EXPECT_FALSE(flow_.EnterDie(3)) << "a coin is due";
  EXPECT_FALSE(flow_.EnterCoin(true));
  ASSERT_TRUE(flow_.EnterCoin(false)) << flow_.notice();
  // Results applied to the units exactly as the engine's own test has them.
  EXPECT_EQ(flow_.game()->FindUnit("red/guards_infantry#1")->stands.size(), 2u);
  EXPECT_EQ(flow_.game()->FindUnit("blue/line_infantry#1")->stands.size(), 3u);
  events = flow_.TakeEvents();
  ASSERT_EQ(OfType<CoinFlip>(events).size(), 2u);
  EXPECT_TRUE(OfType<CoinFlip>(events)[0]->heads);
  EXPECT_FALSE(OfType<CoinFlip>(events)[1]->heads);
  const auto melees = OfType<Melee>(events);
  ASSERT_EQ(melees.size(), 1u);
  EXPECT_EQ(melees[0]->mdis["attacker"]["mdi"], rules::MdiName(rules::Mdi::kColumn));
  EXPECT_EQ(melees[0]->mdis["defender"]["mdi"], rules::MdiName(rules::Mdi::kLine));
  EXPECT_EQ(melees[0]->units.size(), 2u);
  const auto removed = OfType<CasualtiesRemoved>(events);
  ASSERT_EQ(removed.size(), 2u);
  size_t red_lost = 0;
  for (const auto* r : removed) {
    if (r->side == "red") red_lost = r->stand_ids.size();
    EXPECT_EQ(r->cause, "melee");
  }
  EXPECT_EQ(red_lost, 2u);
  // Blue retreats two squares toward its rear: the players are told where to put it.
  bool blue_moves = false;
  for (const auto& c : flow_.table_changes()) {
    if (c.unit == "blue/line_infantry#1" && c.move_to == Square{5, 2}) blue_moves = true;
  }
  EXPECT_TRUE(blue_moves);
  EXPECT_FALSE(flow_.RevealedMdi()) << "the cards are put away after the fight";
}

TEST_F(TurnFlowTest, ShotCasualtiesFeedTheArtilleryPhaseWithoutLoggingThemTwice) {
  auto stands = Concat(Block("r", "red", "line_infantry", {5, 6}, 0),
                       Block("b", "blue", "line_infantry", {5, 2}, 180));
  Stand gun;
  gun.id = "rg";
  gun.side = "red";
  gun.kind = "horse_gun";
  gun.footprint = {Grid().Center({7, 6}), 1.575, 1.575, 0};
  Stand crew = gun;
  crew.id = "rc";
  crew.kind = "mounted_crew";
  crew.footprint = {Grid().Center({7, 6}) + Vec2{0, 1.3}, 1.575, 1.18, 0};
  stands.push_back(gun);
  stands.push_back(crew);
  EXPECT_FALSE(flow_.OnShotCasualties("rg", {"b2"})) << "no game yet";
  ASSERT_TRUE(flow_.Start(Setup(stands), 1));
  flow_.TakeEvents();
  ASSERT_TRUE(flow_.OnShotCasualties("rg", {"b2"})) << flow_.notice();
  EXPECT_EQ(flow_.game()->FindUnit("blue/line_infantry#1")->stands.size(), 3u);
  EXPECT_EQ(flow_.UnitOfStand("b2"), "");
  EXPECT_EQ(flow_.UnitOfStand("b3"), "blue/line_infantry#1");
  EXPECT_TRUE(OfType<CasualtiesRemoved>(flow_.TakeEvents()).empty());
  EXPECT_TRUE(flow_.table_changes().empty()) << "the shot flow already had it removed";
  // The players undo the verdict: the game is played again without that casualty.
  ASSERT_TRUE(flow_.UndoShotCasualties({"b2"})) << flow_.notice();
  EXPECT_EQ(flow_.game()->FindUnit("blue/line_infantry#1")->stands.size(), 4u);
  EXPECT_EQ(flow_.stand_ids().at("blue/line_infantry#1").size(), 4u);
  EXPECT_EQ(flow_.actions_played(), 0u);
  ASSERT_TRUE(flow_.EndPhase());
  EXPECT_FALSE(flow_.OnShotCasualties("rg", {"b3"})) << "artillery fires in its own phase";
}

TEST_F(TurnFlowTest, UndoPlaysTheGameAgainWithTheSameDiceAndLogsUndoEvents) {
  const auto stands = Concat(Block("r", "red", "line_infantry", {5, 6}, 0),
                             Block("b", "blue", "line_infantry", {5, 4}, 180));
  ASSERT_TRUE(flow_.Start(Setup(stands), 1));
  ASSERT_TRUE(flow_.EndPhase());
  // Fire until a volley hits (seeded: the same volleys every run).
  int64_t seq = 100;
  const std::string target = "blue/line_infantry#1";
  for (const auto& e : flow_.TakeTurnEvents()) flow_.NoteLogged(e.action, ++seq);
  ASSERT_TRUE(flow_.FireMusketry("red/line_infantry#1", target)) << flow_.notice();
  std::vector<int64_t> musketry_seqs;
  for (const auto& e : flow_.TakeTurnEvents()) {
    flow_.NoteLogged(e.action, ++seq);
    if (e.action == 1) musketry_seqs.push_back(seq);
  }
  ASSERT_FALSE(musketry_seqs.empty());
  const auto stands_after = flow_.game()->FindUnit(target)->stands.size();
  ASSERT_TRUE(flow_.EndPhase());
  EXPECT_EQ(flow_.PhaseName(), "attacker_moves");
  flow_.TakeTurnEvents();  // not logged: an undo of this one has nothing to undo in the log
  ASSERT_TRUE(flow_.UndoLast());
  EXPECT_EQ(flow_.PhaseName(), "musketry");
  EXPECT_EQ(flow_.game()->FindUnit(target)->stands.size(), stands_after)
      << "the volley replays with its own dice";
  EXPECT_TRUE(OfType<Undo>(flow_.TakeEvents()).empty());
  // Undo the first volley as well: every event it logged is undone, newest first.
  ASSERT_TRUE(flow_.UndoLast());
  EXPECT_EQ(flow_.game()->FindUnit(target)->stands.size(), 4u);
  const auto undo_events = flow_.TakeEvents();
  const auto undos = OfType<Undo>(undo_events);
  ASSERT_EQ(undos.size(), musketry_seqs.size());
  for (size_t i = 0; i < undos.size(); ++i) {
    EXPECT_NE(undos[i]->note.find("undone"), std::string::npos);
    EXPECT_EQ(undos[i]->target_seq, musketry_seqs[musketry_seqs.size() - 1 - i]);
  }
  EXPECT_EQ(flow_.PhaseName(), "musketry");
  EXPECT_EQ(flow_.actions_played(), 1u);  // the first phase end stays
}

TEST_F(TurnFlowTest, StandIdsFollowVisionsRenumbering) {
  const auto stands = Concat(Block("r", "red", "line_infantry", {5, 6}, 0),
                             Block("b", "blue", "line_infantry", {5, 4}, 180));
  ASSERT_TRUE(flow_.Start(Setup(stands), 1));
  EXPECT_EQ(flow_.UnitOfStand("r1"), "red/line_infantry#1");
  // The next frame numbers the same stands differently.
  const auto renamed = Concat(Block("red-", "red", "line_infantry", {5, 6}, 0),
                              Block("blue-", "blue", "line_infantry", {5, 4}, 180));
  flow_.RefreshStandIds(renamed, catalog_);
  EXPECT_EQ(flow_.UnitOfStand("r1"), "");
  EXPECT_EQ(flow_.UnitOfStand("red-1"), "red/line_infantry#1");
  EXPECT_EQ(flow_.UnitOfStand("blue-4"), "blue/line_infantry#1");
  // A unit the table shows with a stand missing keeps its ids (the players are mid-change).
  auto short_one = Block("x", "red", "line_infantry", {5, 6}, 0, 3);
  flow_.RefreshStandIds(short_one, catalog_);
  EXPECT_EQ(flow_.UnitOfStand("red-4"), "red/line_infantry#1");
}

TEST_F(TurnFlowTest, KeyboardCyclesFirersAndTargetsAndResolves) {
  // Two red units can fire at the blue unit in front of them.
  const auto stands = Concat(Concat(Block("r", "red", "line_infantry", {5, 6}, 0),
                                    Block("q", "red", "light_infantry", {6, 6}, 0, 3)),
                             Block("b", "blue", "line_infantry", {5, 4}, 180));
  ASSERT_TRUE(flow_.Start(Setup(stands), 1));
  EXPECT_FALSE(flow_.Resolve()) << "nothing chosen";
  ASSERT_TRUE(flow_.EndPhase());
  flow_.NextFirer();
  ASSERT_FALSE(flow_.firer().empty());
  const std::string first = flow_.firer();
  EXPECT_EQ(flow_.target(), flow_.TargetsOf(first).front());
  flow_.NextFirer();
  EXPECT_NE(flow_.firer(), first);
  ASSERT_TRUE(flow_.Resolve()) << flow_.notice();
  // The one that fired is done; the other is offered next.
  EXPECT_EQ(flow_.firer(), first);
  EXPECT_FALSE(flow_.SelectTarget("red/light_infantry#1")) << "no firing at friends";
}

TEST_F(TurnFlowTest, ProgramDiceAreSeededAndEveryRollIsLogged) {
  const auto stands = Concat(Block("r", "red", "line_infantry", {5, 6}, 0),
                             Block("b", "blue", "line_infantry", {5, 4}, 180));
  std::vector<int> first;
  for (int run = 0; run < 2; ++run) {
    TurnFlow flow(*ruleset_, 42);
    ASSERT_TRUE(flow.Start(Setup(stands), 1));
    ASSERT_TRUE(flow.EndPhase());
    ASSERT_TRUE(flow.FireMusketry("red/line_infantry#1", "blue/line_infantry#1")) << flow.notice();
    const auto events = flow.TakeEvents();
    const auto rolls = OfType<DiceRoll>(events);
    ASSERT_EQ(rolls.size(), 1u);
    for (int v : rolls[0]->results) {
      EXPECT_GE(v, 1);
      EXPECT_LE(v, 6);
    }
    if (run == 0)
      first = rolls[0]->results;
    else
      EXPECT_EQ(rolls[0]->results, first);
    // The same unit cannot fire twice in one phase.
    EXPECT_FALSE(flow.FireMusketry("red/line_infantry#1", "blue/line_infantry#1"));
  }
}

TEST_F(TurnFlowTest, FormingASquareTakesTheWholeMoveIsLoggedAndCanBeUndone) {
  // Four red line infantry units in a 2 x 2 block (F5 F6 E5 E6), red light infantry beside them,
  // blue line infantry far off.
  std::vector<Stand> stands;
  int n = 0;
  for (const Square sq : {Square{4, 4}, Square{5, 4}, Square{4, 5}, Square{5, 5}}) {
    stands = Concat(stands, Block("r" + std::to_string(++n) + "-", "red", "line_infantry", sq, 0));
  }
  stands = Concat(stands, Block("l", "red", "light_infantry", {8, 5}, 0, 3));
  stands = Concat(stands, Block("b", "blue", "line_infantry", {5, 1}, 180));
  ASSERT_TRUE(flow_.Start(Setup(stands), 1));
  ASSERT_EQ(flow_.attacker(), "red");
  EXPECT_TRUE(flow_.SquareOptions().empty()) << "squares are formed in the move phase";
  EndPhasesUntil("attacker_moves");
  const rules::Game& g = *flow_.game();
  const std::string top_left = UnitAt(g, {4, 4}, "red");
  const std::string light = UnitAt(g, {8, 5}, "red");
  ASSERT_FALSE(top_left.empty());
  ASSERT_FALSE(light.empty());

  const auto options = flow_.SquareOptions();
  std::vector<std::string> block;
  size_t singles = 0;
  for (const auto& o : options) {
    EXPECT_EQ(std::ranges::count(o, light), 0) << "light infantry cannot form a square";
    if (o.size() == 1) ++singles;
    if (o.size() == 4) block = o;
  }
  EXPECT_EQ(singles, 4u);
  ASSERT_EQ(block.size(), 4u);
  EXPECT_EQ(block.front(), top_left);
  EXPECT_FALSE(flow_.FormSquare(light));
  EXPECT_FALSE(flow_.notice().empty());
  flow_.TakeEvents();

  ASSERT_TRUE(flow_.FormSquare(block.front(), {block.begin() + 1, block.end()})) << flow_.notice();
  for (const auto& id : block) EXPECT_TRUE(g.FindUnit(id)->formed_square) << id;
  EXPECT_EQ(flow_.UnitsInSquare().size(), 4u);
  const auto events = flow_.TakeEvents();
  const auto choices = testing::PlayersChoices(events);
  ASSERT_EQ(choices.size(), 1u);
  EXPECT_EQ(choices[0]->choice, "form_square");
  EXPECT_EQ(choices[0]->side, "red");
  EXPECT_EQ(choices[0]->details["units"].size(), 4u);
  // It took the whole move: no step afterwards.
  EXPECT_FALSE(flow_.MoveUnit(block[1], {5, 3}, Facing::kN));
  EXPECT_TRUE(flow_.SquareOptions().size() < options.size());

  ASSERT_TRUE(flow_.UndoLast());
  for (const auto& id : block) EXPECT_FALSE(flow_.game()->FindUnit(id)->formed_square) << id;
  EXPECT_TRUE(flow_.UnitsInSquare().empty());
}

TEST_F(TurnFlowTest, SupportsAreDeclaredAttackerFirstThenDefenderBeforeTheMelee) {
  // Red guards charge blue line at F5; red line beside the contact square faces it from the
  // west, blue line from the east (the engine's 5A example).
  const auto stands = Concat(Concat(Block("g", "red", "guards_infantry", {5, 5}, 0),
                                    Block("b", "blue", "line_infantry", {5, 4}, 180)),
                             Concat(Block("rs", "red", "line_infantry", {4, 4}, 90),
                                    Block("bs", "blue", "line_infantry", {6, 4}, 270)));
  ASSERT_TRUE(flow_.Start(Setup(stands), 1));
  ASSERT_EQ(flow_.attacker(), "red");
  EndPhasesUntil("attacker_moves");
  const std::string guards = UnitAt(*flow_.game(), {5, 5}, "red");
  const std::string red_support = UnitAt(*flow_.game(), {4, 4}, "red");
  const std::string blue_support = UnitAt(*flow_.game(), {6, 4}, "blue");
  ASSERT_TRUE(flow_.MoveUnit(guards, {5, 4}, Facing::kN)) << flow_.notice();
  EXPECT_FALSE(flow_.DeclareSupport(red_support)) << "no melee selected";
  ASSERT_TRUE(flow_.SelectMelee({5, 4}));
  EXPECT_EQ(flow_.SupportCandidates(), (std::vector<std::string>{red_support}))
      << "the defender indicates supports after the attacker has moved";
  EXPECT_FALSE(flow_.DeclareSupport(blue_support));
  flow_.TakeEvents();
  ASSERT_TRUE(flow_.DeclareSupport(red_support)) << flow_.notice();
  EXPECT_EQ(flow_.SupportsDeclared({5, 4}), (std::vector<std::string>{red_support}));
  EXPECT_TRUE(flow_.SupportCandidates().empty()) << "declared once";
  const auto support_events = flow_.TakeEvents();
  const auto choices = testing::PlayersChoices(support_events);
  ASSERT_EQ(choices.size(), 1u);
  EXPECT_EQ(choices[0]->choice, "support");
  EXPECT_EQ(choices[0]->side, "red");
  EXPECT_EQ(choices[0]->details["unit"], red_support);
  EXPECT_EQ(choices[0]->details["contact"], SquareName({5, 4}));

  EndPhasesUntil("melees");
  ASSERT_TRUE(flow_.SelectMelee({5, 4}));
  EXPECT_EQ(flow_.SupportCandidates(), (std::vector<std::string>{blue_support}));
  ASSERT_TRUE(flow_.DeclareSupport(blue_support)) << flow_.notice();
  EXPECT_EQ(flow_.SupportsDeclared({5, 4}), (std::vector<std::string>{red_support, blue_support}));
  ASSERT_TRUE(flow_.ChooseMdi(MeleeRole::kAttacker, rules::Mdi::kColumn));
  ASSERT_TRUE(flow_.ChooseMdi(MeleeRole::kDefender, rules::Mdi::kLine));
  ASSERT_TRUE(flow_.Fight()) << flow_.notice();
  // The engine counted the supports: the same melee without them comes out differently, and
  // the attacker's support falls back with the beaten attacker.
  std::string lines;
  for (const auto& l : flow_.last_results()) lines += l + "\n";
  EXPECT_NE(flow_.game()->FindUnit(red_support)->square, (Square{4, 4})) << lines;
  TurnFlow bare(*ruleset_, 7);
  ASSERT_TRUE(bare.Start(Setup(stands), 1));
  for (int i = 0; i < 8 && bare.PhaseName() != "attacker_moves"; ++i) bare.EndPhase();
  ASSERT_TRUE(bare.MoveUnit(guards, {5, 4}, Facing::kN));
  for (int i = 0; i < 8 && bare.PhaseName() != "melees"; ++i) bare.EndPhase();
  ASSERT_TRUE(bare.SelectMelee({5, 4}));
  ASSERT_TRUE(bare.ChooseMdi(MeleeRole::kAttacker, rules::Mdi::kColumn));
  ASSERT_TRUE(bare.ChooseMdi(MeleeRole::kDefender, rules::Mdi::kLine));
  ASSERT_TRUE(bare.Fight()) << bare.notice();
  std::string bare_lines;
  for (const auto& l : bare.last_results()) bare_lines += l + "\n";
  EXPECT_NE(lines, bare_lines);
}

// `referee live --resume` after a laptop crash: the game the log on disk holds is played again
// (set-up, then each turn action with its dice), so turn, phase, attacker, units' squares and
// losses, the table's stand ids and the points are as they were, the game plays on alike, and
// an undo after the resume undoes the logged events. Gap: the resume restored stands only.
TEST_F(TurnFlowTest, AResumedLogContinuesTheGameWhereItStopped) {
  namespace fs = std::filesystem;
  const fs::path log_path = fs::path(REFEREE_TEST_TMP) / "turn_flow_resume" / "game.jsonl";
  fs::remove_all(log_path.parent_path());
  const auto blue = Block("b", "blue", "line_infantry", {5, 4}, 180);
  const auto stands = Concat(Concat(Block("r", "red", "line_infantry", {5, 6}, 0),
                                    Block("q", "red", "line_infantry", {6, 6}, 0)),
                             blue);
  const std::string target = "blue/line_infantry#1";
  {
    GameLogWriter writer(log_path);
    auto log = [&] {
      for (const auto& e : flow_.TakeTurnEvents())
        flow_.NoteLogged(e.action, writer.Append(e.payload));
    };
    ASSERT_TRUE(flow_.Start(Setup(stands), 1));
    log();
    ASSERT_TRUE(flow_.EndPhase());
    ASSERT_TRUE(flow_.FireMusketry(UnitAt(*flow_.game(), {5, 6}, "red"), target));
    ASSERT_TRUE(flow_.EndPhase());
    log();
    // The two red units change places on the table (one set of moves).
    const auto swapped = Concat(Concat(Block("r", "red", "line_infantry", {6, 6}, 0),
                                       Block("q", "red", "line_infantry", {5, 6}, 0)),
                                blue);
    flow_.RefreshStandIds(swapped, catalog_);
    ASSERT_EQ(flow_.ApplyTableMoves(swapped, catalog_), 2) << flow_.notice();
    log();
  }  // the laptop goes down here
  ASSERT_LT(flow_.game()->FindUnit(target)->stands.size(), 4u) << "seed 7: the volley hits";

  auto expect_same_game = [&](const TurnFlow& a, const TurnFlow& b) {
    EXPECT_EQ(a.turn(), b.turn());
    EXPECT_EQ(a.PhaseName(), b.PhaseName());
    EXPECT_EQ(a.attacker(), b.attacker());
    EXPECT_EQ(a.actions_played(), b.actions_played());
    EXPECT_EQ(a.stand_ids(), b.stand_ids());
    ASSERT_EQ(a.game()->units().size(), b.game()->units().size());
    for (size_t i = 0; i < a.game()->units().size(); ++i) {
      const rules::GameUnit& u = a.game()->units()[i];
      const rules::GameUnit& v = b.game()->units()[i];
      EXPECT_EQ(u.id, v.id);
      EXPECT_EQ(u.square, v.square) << u.id;
      EXPECT_EQ(u.facing, v.facing) << u.id;
      EXPECT_EQ(u.stands, v.stands) << u.id;
      EXPECT_EQ(u.status, v.status) << u.id;
    }
    for (const auto& side : {a.attacker(), a.defender()})
      EXPECT_EQ(a.game()->PointsOf(side).Score(), b.game()->PointsOf(side).Score()) << side;
  };
  GameLog on_disk = ReadGameLog(log_path);
  TurnFlow resumed(*ruleset_, 99);  // another seed: the logged dice are what counts
  ASSERT_TRUE(resumed.Resume(Board(), on_disk.events)) << resumed.notice();
  expect_same_game(flow_, resumed);
  EXPECT_EQ(resumed.PhaseName(), "attacker_moves");
  EXPECT_EQ(resumed.UnitOfStand("r1"), flow_.UnitOfStand("r1"));
  EXPECT_TRUE(resumed.TakeEvents().empty()) << "nothing is logged twice";
  EXPECT_FALSE(resumed.Start(Setup(stands), 0)) << "a resumed game is started";
  // Both play on alike.
  ASSERT_TRUE(flow_.EndPhase());
  ASSERT_TRUE(resumed.EndPhase());
  expect_same_game(flow_, resumed);

  // After the resume the players undo the swap: its logged turn action is undone in the log,
  // and a second resume plays the game without it.
  ASSERT_TRUE(resumed.UndoLast());  // the phase end just played
  resumed.TakeTurnEvents();
  ASSERT_TRUE(resumed.UndoLast()) << resumed.notice();
  {
    auto resumed_log = ResumeGameLog(log_path);
    const auto undo_events = resumed.TakeEvents();
    const auto undos = OfType<Undo>(undo_events);
    ASSERT_EQ(undos.size(), 1u);
    EXPECT_EQ(undos[0]->target_seq, on_disk.events.back().seq) << "the swap's turn_action";
    for (const auto& e : undo_events) resumed_log.writer.Append(e);
  }
  TurnFlow again(*ruleset_, 5);
  ASSERT_TRUE(again.Resume(Board(), ReadGameLog(log_path).events)) << again.notice();
  EXPECT_EQ(again.actions_played(), 3u);
  const std::string fired = UnitAt(*flow_.game(), {6, 6}, "red");  // swapped from F7
  ASSERT_FALSE(fired.empty());
  EXPECT_EQ(again.game()->FindUnit(fired)->square, (Square{5, 6})) << "back where it fired from";
  expect_same_game(resumed, again);

  // A log without a started game, or of another ruleset, resumes no game.
  TurnFlow none(*ruleset_, 1);
  EXPECT_FALSE(
      none.Resume(Board(), std::vector<GameEvent>(on_disk.events.end() - 1, on_disk.events.end())));
  EXPECT_NE(none.notice().find("no started game"), std::string::npos) << none.notice();
  const auto ancient = rules::MakeRuleset("ancient");
  TurnFlow other(*ancient, 1);
  EXPECT_FALSE(other.Resume(Board(), on_disk.events));
  EXPECT_NE(other.notice().find("napoleonic"), std::string::npos) << other.notice();
  EXPECT_FALSE(other.started());
}

// The dice a turn action drew, from its logged turn_action.
std::vector<int> DiceOfLastAction(const std::vector<EventPayload>& events) {
  std::vector<int> dice;
  for (const auto* c : OfType<FirerChoice>(events)) {
    if (c->choice == "turn_action") dice = c->details.at("dice").get<std::vector<int>>();
  }
  return dice;
}

// After `referee live --resume` the program's dice go on where the game's stream stood: the
// next volley rolls what it would have rolled had the laptop not gone down, whatever seed the
// new session was given. Before the fix the stream restarted from the seed (the resumed game
// rolled its first volley's dice again) or followed the new session's seed.
TEST_F(TurnFlowTest, AResumedGameRollsTheDiceTheUninterruptedGameWould) {
  namespace fs = std::filesystem;
  const fs::path log_path = fs::path(REFEREE_TEST_TMP) / "turn_flow_resume_dice" / "game.jsonl";
  fs::remove_all(log_path.parent_path());
  const auto stands = Concat(Concat(Block("r", "red", "line_infantry", {5, 6}, 0),
                                    Block("q", "red", "line_infantry", {4, 6}, 0)),
                             Concat(Block("b", "blue", "line_infantry", {5, 4}, 180),
                                    Block("c", "blue", "line_infantry", {4, 4}, 180)));
  std::vector<int> first_volley;
  std::string second_firer, target;
  {
    GameLogWriter writer(log_path);
    ASSERT_NO_FATAL_FAILURE(StartAndFireTheFirstVolley(stands));
    second_firer = UnitAt(*flow_.game(), {4, 6}, "red");
    target = UnitAt(*flow_.game(), {4, 4}, "blue");
    std::vector<EventPayload> written;
    for (const auto& e : flow_.TakeTurnEvents()) {
      flow_.NoteLogged(e.action, writer.Append(e.payload));
      written.push_back(e.payload);
    }
    first_volley = DiceOfLastAction(written);
  }  // the laptop goes down here
  ASSERT_FALSE(first_volley.empty());
  // The uninterrupted game's next volley.
  ASSERT_TRUE(flow_.FireMusketry(second_firer, target)) << flow_.notice();
  const std::vector<int> uninterrupted = DiceOfLastAction(flow_.TakeEvents());
  ASSERT_FALSE(uninterrupted.empty());
  const GameLog on_disk = ReadGameLog(log_path);
  for (const std::uint64_t seed : {7u, 99u}) {  // the game's own seed, and another session's
    SCOPED_TRACE("resumed with seed " + std::to_string(seed));
    TurnFlow resumed(*ruleset_, seed);
    ASSERT_TRUE(resumed.Resume(Board(), on_disk.events)) << resumed.notice();
    ASSERT_TRUE(resumed.FireMusketry(second_firer, target)) << resumed.notice();
    EXPECT_EQ(DiceOfLastAction(resumed.TakeEvents()), uninterrupted);
  }
  // The check can fail: the stream from the seed's start rolls other dice for this volley.
  TurnFlow from_start(*ruleset_, 7);
  ASSERT_TRUE(from_start.Start(Setup(stands), 1));
  ASSERT_TRUE(from_start.EndPhase());
  ASSERT_TRUE(from_start.FireMusketry(second_firer, target)) << from_start.notice();
  EXPECT_NE(DiceOfLastAction(from_start.TakeEvents()), uninterrupted);
}

// A game log damaged on disk (a bad byte, a hand edit) resumes no game, with a notice, and
// never stops the referee: before the fix a turn action whose details were no object threw out
// of Resume, and a negative or vast program_draws replayed the dice stream for hours.
TEST_F(TurnFlowTest, ADamagedLogIsRefusedWithANoticeNotThrownOrReplayedForHours) {
  namespace fs = std::filesystem;
  const fs::path log_path = fs::path(REFEREE_TEST_TMP) / "turn_flow_resume_damaged" / "game.jsonl";
  fs::remove_all(log_path.parent_path());
  const auto stands = Concat(Block("r", "red", "line_infantry", {5, 6}, 0),
                             Block("b", "blue", "line_infantry", {5, 4}, 180));
  {
    GameLogWriter writer(log_path);
    ASSERT_NO_FATAL_FAILURE(StartAndFireTheFirstVolley(stands));
    for (const auto& e : flow_.TakeTurnEvents())
      flow_.NoteLogged(e.action, writer.Append(e.payload));
  }
  const GameLog on_disk = ReadGameLog(log_path);
  {
    TurnFlow intact(*ruleset_, 7);
    ASSERT_TRUE(intact.Resume(Board(), on_disk.events)) << intact.notice();
  }
  // The last turn action's details, damaged one way at a time.
  auto damaged = [&](const std::function<void(nlohmann::json&)>& damage) {
    std::vector<GameEvent> events = on_disk.events;
    for (auto it = events.rbegin(); it != events.rend(); ++it) {
      if (auto* c = std::get_if<FirerChoice>(&it->payload); c && c->choice == "turn_action") {
        damage(c->details);
        break;
      }
    }
    return events;
  };
  for (const nlohmann::json& draws :
       {nlohmann::json(-1), nlohmann::json(1'000'000'000'000'000ULL), nlohmann::json("12")}) {
    SCOPED_TRACE("program_draws " + draws.dump());
    TurnFlow resumed(*ruleset_, 7);
    EXPECT_FALSE(resumed.Resume(Board(), damaged([&](auto& d) { d["program_draws"] = draws; })));
    EXPECT_NE(resumed.notice().find("program_draws"), std::string::npos) << resumed.notice();
    EXPECT_FALSE(resumed.started());
  }
  // A damaged dice seed costs only the stream's continuation: the game resumes as logged.
  std::vector<GameEvent> bad_seed = on_disk.events;
  for (auto& e : bad_seed) {
    if (auto* c = std::get_if<FirerChoice>(&e.payload); c && c->choice == "game_setup")
      c->details["dice_seed"] = "seven";
  }
  TurnFlow seedless(*ruleset_, 7);
  EXPECT_TRUE(seedless.Resume(Board(), bad_seed)) << seedless.notice();
  EXPECT_EQ(seedless.actions_played(), flow_.actions_played());

  TurnFlow not_an_object(*ruleset_, 7);
  EXPECT_FALSE(not_an_object.Resume(Board(), damaged([](auto& d) { d = 5; })));
  EXPECT_NE(not_an_object.notice().find("no longer plays"), std::string::npos)
      << not_an_object.notice();
  EXPECT_FALSE(not_an_object.started());
}

}  // namespace
}  // namespace referee::live
