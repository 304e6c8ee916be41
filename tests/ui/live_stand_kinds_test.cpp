// Stand kinds the camera cannot tell apart (one 40 x 40 mm base for field gun, howitzer and
// supply wagon) in the live referee: the session reads a square's bases as the ruleset's unit
// organisation, keeps the kinds by tracker id across re-detections, takes the players'
// "<id> is a <kind>" (logged as a stand_kind correction, followed by the battery's shot type
// and the game set-up), and a started game is played on with the corrected kind.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "engine/board_file.hpp"
#include "engine/data_paths.hpp"
#include "engine/game_log.hpp"
#include "engine/rules/ruleset_loader.hpp"
#include "engine/shot_adjudication.hpp"
#include "log_sample_game.hpp"
#include "napoleonic_turn_flow.hpp"
#include "table_blocks.hpp"
#include "ui/live/live_session.hpp"
#include "ui/live/table_setup.hpp"

namespace referee::live {
namespace {

namespace fs = std::filesystem;

constexpr Square kBattery{2, 6};  // red foot battery (no terrain there on the sample board)
constexpr Square kBlue{2, 4};     // blue line infantry two squares in front of it
constexpr Square kTarget = kBlue;

// One detection of the table as GuessKind (Napoleonic preference) names the bases: a foot
// battery's four crews as line infantry, its mounted crew as line cavalry, its gun, howitzer
// and wagon as three field guns; a blue line regiment. `nudge_in` shifts every base (players
// touch the table between detections); ids are the detector's fresh numbering.
std::vector<DetectedStand> Detection(const Grid& grid, double nudge_in) {
  const StandKindCatalog catalog = LoadStandKinds();
  std::vector<DetectedStand> out;
  int n = 0;
  auto add = [&](const std::string& side, const std::string& kind, Vec2 c, double angle) {
    const StandKind* k = catalog.Find(kind);
    DetectedStand d;
    d.stand = {
        "det-" + std::to_string(++n),
        side,
        kind,
        {c + Vec2{nudge_in, -nudge_in}, MmToInches(k->width_mm), MmToInches(k->depth_mm), angle},
        true,
        {}};
    d.square = grid.SquareOf(d.stand.footprint.center);
    out.push_back(d);
  };
  const Vec2 o = grid.Center(kBattery) - Vec2{2.0, 2.0};  // the square's top-left corner
  for (int i = 0; i < 4; ++i) add("red", "line_infantry", o + Vec2{0.5 + 0.9 * i, 3.5}, 0);
  add("red", "line_cavalry", o + Vec2{3.2, 2.5}, 0);
  for (int i = 0; i < 3; ++i) add("red", "field_gun", o + Vec2{0.9 + 1.1 * i, 1.0}, 0);
  for (const auto& s : testing::Block("b", "blue", "line_infantry", kBlue, 180, 4, grid)) {
    add("blue", "line_infantry", s.footprint.center, 180);
  }
  return out;
}

class LiveStandKinds : public NapoleonicTurnFlow {
 protected:
  void SetUp() override {
    dir_ = testing::FreshTestDir("live_stand_kinds");
    Open(false);
  }
  // A session on the game log in dir_: a new one, or the one there resumed (--resume).
  void Open(bool resume) {
    SessionConfig c;
    c.board = LoadBoardFile(DatasetsDir() / "sample" / "board.json");
    c.catalog = catalog_;
    c.shot = LoadShotOptions("napoleonic");
    c.log_path = dir_ / "game.jsonl";
    c.resume = resume;
    c.move_allowance = MoveAllowanceFromRuleset(ruleset_->data(), c.catalog);
    session_.reset();
    session_ = std::make_unique<LiveSession>(c);
    session_->SetTurnFlow(&flow_);
    auto& st = session_->state();
    st.OnCalibrationFound({0.5, 0.3, 0.9, 60, 63});
    ASSERT_TRUE(st.AcceptCalibration());
  }
  const Grid& grid() const { return session_->board().board.grid; }
  // The red 40 x 40 bases, left to right.
  std::vector<const ShownStand*> BigBases() const {
    std::vector<const ShownStand*> out;
    for (const auto& s : session_->stands()) {
      const StandKind* k = catalog_.Find(s.stand.kind);
      if (s.stand.side == "red" && k && k->depth_mm > 35) out.push_back(&s);
    }
    std::ranges::sort(out, {}, [](const ShownStand* s) { return s->stand.footprint.center.x; });
    return out;
  }
  std::map<std::string, int> RedKinds() const {
    std::map<std::string, int> out;
    for (const auto& s : session_->stands()) {
      if (s.stand.side == "red") ++out[s.stand.kind];
    }
    return out;
  }
  void ChooseBattery(const std::string& id) {
    auto& st = session_->state();
    for (size_t i = 0; i < st.batteries().size() && st.battery() != id; ++i) st.NextBattery();
    ASSERT_EQ(st.battery(), id);
    session_->Step();
  }
  // The detection with the battery's crews named as crews; the gun, howitzer and wagon are
  // still three field guns (the size guess).
  std::vector<Stand> CrewedTable() const {
    std::vector<Stand> table;
    for (const auto& d : Detection(grid(), 0.0)) {
      Stand s = d.stand;
      if (s.kind == "line_infantry" && s.side == "red") s.kind = "foot_crew";
      if (s.kind == "line_cavalry") s.kind = "mounted_crew";
      table.push_back(s);
    }
    return table;
  }
  std::vector<Stand> OnTable() const {
    std::vector<Stand> out;
    for (const auto& s : session_->stands()) out.push_back(s.stand);
    return out;
  }

  fs::path dir_;
  std::unique_ptr<LiveSession> session_;
};

TEST_F(LiveStandKinds, BatteryReadByItsOrganisationKeptAndCorrectedAcrossReDetection) {
  session_->OnStandsSeen(Detection(grid(), 0.0));
  const std::map<std::string, int> battery = {{"foot_crew", 4},
                                              {"mounted_crew", 1},
                                              {"field_gun", 1},
                                              {"howitzer", 1},
                                              {"supply_wagon", 1}};
  EXPECT_EQ(RedKinds(), battery);
  auto big = BigBases();
  ASSERT_EQ(big.size(), 3u);
  const std::string a = big[0]->stand.id, b = big[1]->stand.id, c = big[2]->stand.id;
  EXPECT_EQ(big[0]->stand.kind, "field_gun");
  EXPECT_EQ(big[1]->stand.kind, "howitzer");
  EXPECT_EQ(big[2]->stand.kind, "supply_wagon");
  EXPECT_EQ(big[1]->kind_source, KindSource::kOrganisation);
  // The howitzer battery fires shells, the field gun Q-tips.
  ChooseBattery(b);
  EXPECT_EQ(session_->state().shot_type(), "howitzer");
  ChooseBattery(a);
  EXPECT_EQ(session_->state().shot_type(), "field");

  // A re-detection (bases nudged, detector ids afresh, all guessed field guns again) changes
  // no kind.
  session_->OnStandsSeen(Detection(grid(), 0.05));
  EXPECT_EQ(RedKinds(), battery);
  EXPECT_EQ(session_->FindStand(b)->stand.kind, "howitzer");

  // The players: "b is a field gun". The wagon stays; a, the other gun, is the howitzer now.
  EXPECT_FALSE(session_->SetStandKind(b, "line_infantry")) << "not the size of a 40 x 40 base";
  EXPECT_NE(session_->state().notice().find("cannot be"), std::string::npos);
  ASSERT_TRUE(session_->SetStandKind(b, "field_gun")) << session_->state().notice();
  EXPECT_EQ(session_->FindStand(b)->kind_source, KindSource::kUser);
  EXPECT_EQ(session_->FindStand(a)->stand.kind, "howitzer");
  EXPECT_EQ(session_->FindStand(c)->stand.kind, "supply_wagon");
  session_->Step();
  EXPECT_EQ(session_->state().shot_type(), "howitzer") << "battery a is the howitzer now";
  ChooseBattery(b);
  EXPECT_EQ(session_->state().shot_type(), "field");
  session_->OnStandsSeen(Detection(grid(), 0.0));
  EXPECT_EQ(session_->FindStand(b)->stand.kind, "field_gun");
  EXPECT_EQ(session_->FindStand(b)->kind_source, KindSource::kUser);
  EXPECT_EQ(session_->FindStand(a)->stand.kind, "howitzer");
  EXPECT_EQ(RedKinds(), battery);

  // The game the table starts is a foot battery with those kinds.
  const TableSetup setup =
      SetupFromTable(ruleset_->data(), session_->board().board, OnTable(), catalog_, 8);
  for (const auto& p : setup.problems) EXPECT_EQ(p.find("red"), std::string::npos) << p;
  const auto red = std::ranges::find(setup.setup.units, "red", &rules::GameUnit::side);
  ASSERT_NE(red, setup.setup.units.end());
  EXPECT_EQ(red->type, "foot_battery");

  // Logged as a correction, and folded into the stand.
  session_->Step();
  const GameLog log = ReadGameLog(dir_ / "game.jsonl");
  int corrections = 0;
  for (const auto& e : log.events) {
    const auto* k = e.As<Correction>();
    if (!k || k->subject != "stand_kind") continue;
    ++corrections;
    EXPECT_EQ(k->value["stand"], b);
    EXPECT_EQ(k->value["kind"], "field_gun");
    EXPECT_EQ(k->value["from"], "howitzer");
  }
  EXPECT_EQ(corrections, 1);
}

// Bug: `referee live --resume LOG` forgot the players' "is a": the tracker started empty, the
// base got its organisation's kind again and the id the detector's order gave it.
TEST_F(LiveStandKinds, AResumedLogKeepsThePlayersKindsAndIds) {
  session_->OnStandsSeen(Detection(grid(), 0.0));
  // The snapshot the session writes once the stands are seen through the accepted grid.
  Snapshot snap;
  for (const auto& s : session_->stands())
    snap.stands.push_back(SnapshotStandFrom(s.stand, s.unit));
  ASSERT_GT(session_->AppendEvent(snap), 0);
  auto big = BigBases();
  ASSERT_EQ(big.size(), 3u);
  const std::string a = big[0]->stand.id, b = big[1]->stand.id, c = big[2]->stand.id;
  ASSERT_EQ(big[1]->stand.kind, "howitzer");
  ASSERT_TRUE(session_->SetStandKind(b, "field_gun")) << session_->state().notice();
  session_->Step();  // the correction is written

  Open(true);
  // The detector numbers the bases in another order after the restart; the bases were nudged.
  auto seen = Detection(grid(), 0.05);
  std::ranges::reverse(seen);
  session_->OnStandsSeen(seen);
  big = BigBases();
  ASSERT_EQ(big.size(), 3u);
  EXPECT_EQ(big[0]->stand.id, a);
  EXPECT_EQ(big[1]->stand.id, b);
  EXPECT_EQ(big[2]->stand.id, c);
  EXPECT_EQ(big[1]->stand.kind, "field_gun") << "the players' kind was lost on resume";
  EXPECT_EQ(big[1]->kind_source, KindSource::kUser);
  EXPECT_EQ(big[0]->stand.kind, "howitzer");
  EXPECT_EQ(big[2]->stand.kind, "supply_wagon");
  // The Overrule panel shows the choice as the players' (kind_source), not inferred.
  EXPECT_EQ(session_->tracker().KindSourceOf(b), KindSource::kUser);

  // An undone correction does not come back.
  ASSERT_TRUE(session_->SetStandKind(b, "howitzer")) << session_->state().notice();
  session_->Step();
  const GameLog log = ReadGameLog(dir_ / "game.jsonl");
  const GameEvent& last = log.events.back();
  ASSERT_TRUE(last.As<Correction>() != nullptr);
  session_->AppendEvent(Undo{last.seq, "test: the players take it back"});
  Open(true);
  session_->OnStandsSeen(Detection(grid(), 0.0));
  EXPECT_EQ(session_->FindStand(b)->stand.kind, "field_gun");
  EXPECT_EQ(session_->FindStand(b)->kind_source, KindSource::kUser);
}

TEST_F(LiveStandKinds, AStartedGamePlaysOnWithTheCorrectedKindsAndItsShotCount) {
  // The battery as the size guess alone read it (three field guns): the game's foot battery
  // has no howitzer and no wagon, and its gun count fits no row of the shots table.
  const std::vector<Stand> table = CrewedTable();
  // Red attacks first (sides in name order: blue 0, red 1): its artillery phase.
  ASSERT_TRUE(
      flow_.Start(SetupFromTable(ruleset_->data(), session_->board().board, table, catalog_, 8), 1))
      << flow_.notice();
  ASSERT_EQ(flow_.PhaseName(), "artillery");
  const std::string battery = testing::UnitAt(*flow_.game(), kBattery, "red");
  ASSERT_EQ(flow_.game()->FindUnit(battery)->type, "foot_battery");
  const auto before = flow_.WhyCannotDeclareShot("det-6", kTarget);
  ASSERT_TRUE(before.has_value());
  EXPECT_NE(before->find("no shot left"), std::string::npos) << *before;

  EXPECT_FALSE(flow_.CorrectStandKind("det-7", "line_infantry")) << "not in a foot battery";
  EXPECT_NE(flow_.notice().find("organisation"), std::string::npos) << flow_.notice();
  ASSERT_TRUE(flow_.CorrectStandKind("det-7", "howitzer")) << flow_.notice();
  ASSERT_TRUE(flow_.CorrectStandKind("det-8", "supply_wagon")) << flow_.notice();
  const rules::GameUnit* u = flow_.game()->FindUnit(battery);
  ASSERT_NE(u, nullptr);
  EXPECT_EQ(std::ranges::count(u->stands, "howitzer"), 1);
  EXPECT_EQ(std::ranges::count(u->stands, "supply_wagon"), 1);
  // Gun, howitzer and wagon: the full battery's 3 shots (artillery.foot_battery_shots).
  EXPECT_FALSE(flow_.WhyCannotDeclareShot("det-6", kTarget).has_value());
  ASSERT_TRUE(flow_.DeclareShot("det-6", kTarget)) << flow_.notice();
  bool two_left = false;
  for (const auto& line : flow_.last_results()) {
    two_left = two_left || line.find("2 shot(s) left") != std::string::npos;
  }
  EXPECT_TRUE(two_left);

  // 6D from the turn flow: a shot resting on the woods at B2 rolls for fire; open ground does not.
  flow_.TakeEvents();
  EXPECT_FALSE(flow_.FireRoll("det-6", kTarget));
  EXPECT_NE(flow_.notice().find("does not burn"), std::string::npos) << flow_.notice();
  ASSERT_TRUE(flow_.FireRoll("det-6", Square{1, 1})) << flow_.notice();
  const auto events = flow_.TakeEvents();
  const auto dice = testing::OfType<DiceRoll>(events);
  ASSERT_EQ(dice.size(), 1u);
  EXPECT_NE(dice[0]->purpose.find("fire"), std::string::npos) << dice[0]->purpose;
}

// `referee live --resume` after a crash in the middle of a shot: the game (with the players'
// corrected kinds) is played again from the log, and the shot armed but never judged has its
// declaration taken back, so the battery fires it again with its shots intact. Gap: the resume
// restored stands only; the turn panel started a new game.
TEST_F(LiveStandKinds, AResumedGameGoesOnAndFiresItsUnjudgedShotAgain) {
  const std::vector<Stand> table = CrewedTable();
  auto log_turn = [&] {
    for (const auto& e : flow_.TakeTurnEvents())
      flow_.NoteLogged(e.action, session_->AppendEvent(e.payload));
  };
  ASSERT_TRUE(
      flow_.Start(SetupFromTable(ruleset_->data(), session_->board().board, table, catalog_, 8), 1))
      << flow_.notice();
  ASSERT_TRUE(flow_.CorrectStandKind("det-7", "howitzer")) << flow_.notice();
  ASSERT_TRUE(flow_.CorrectStandKind("det-8", "supply_wagon")) << flow_.notice();
  log_turn();
  // Armed (the shot flow logs it) and declared; then the laptop goes down.
  ASSERT_GT(session_->AppendEvent(ShotArmed{"shot-1", "red", "", "", "det-6", "field", ""}), 0);
  ASSERT_TRUE(flow_.DeclareShot("det-6", kTarget, "shot-1")) << flow_.notice();
  log_turn();

  Open(true);
  TurnFlow resumed(*ruleset_, 11);
  session_->SetTurnFlow(&resumed);
  ASSERT_TRUE(session_->ResumeGame()) << resumed.notice();
  ASSERT_TRUE(resumed.started());
  EXPECT_EQ(resumed.PhaseName(), "artillery");
  EXPECT_EQ(resumed.attacker(), "red");
  const std::string battery = testing::UnitAt(*resumed.game(), kBattery, "red");
  const rules::GameUnit* u = resumed.game()->FindUnit(battery);
  ASSERT_NE(u, nullptr);
  EXPECT_EQ(std::ranges::count(u->stands, "howitzer"), 1) << "the players' kinds hold";
  EXPECT_EQ(std::ranges::count(u->stands, "supply_wagon"), 1);
  EXPECT_EQ(resumed.actions_played(), 0u) << "the unjudged shot's declaration is taken back";
  const auto& lines = resumed.last_results();
  EXPECT_TRUE(std::ranges::any_of(lines, [](const std::string& l) {
    return l.find("shot-1 was armed but never judged") != std::string::npos;
  }));
  // The undo reaches the log, and the battery fires its full 3 shots again.
  int64_t declared = 0;
  for (const auto& e : ReadGameLog(dir_ / "game.jsonl").events) {
    if (const auto* f = e.As<FirerChoice>(); f && f->choice == "fire_artillery") declared = e.seq;
  }
  ASSERT_GT(declared, 0);
  const auto undo_events = resumed.TakeEvents();
  EXPECT_TRUE(std::ranges::any_of(testing::OfType<Undo>(undo_events),
                                  [&](const Undo* undo) { return undo->target_seq == declared; }));
  ASSERT_TRUE(resumed.DeclareShot("det-6", kTarget, "shot-2")) << resumed.notice();
  EXPECT_TRUE(std::ranges::any_of(resumed.last_results(), [](const std::string& l) {
    return l.find("2 shot(s) left") != std::string::npos;
  }));
}

}  // namespace
}  // namespace referee::live
