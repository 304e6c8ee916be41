// The live session keeps stand identities from one snapshot to the next with the ruleset's
// move allowances (vision/stand_tracker): a unit that advances keeps its ids, a stand that
// appears farther away than any stand may move does not take an identity, and the players'
// correction of an identity sticks across later snapshots and is logged as a correction.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "engine/board_file.hpp"
#include "engine/data_paths.hpp"
#include "engine/game_log.hpp"
#include "engine/rules/ruleset_loader.hpp"
#include "engine/shot_adjudication.hpp"
#include "engine/stand_kind_catalog_loader.hpp"
#include "log_sample_game.hpp"
#include "ui/live/live_session.hpp"

namespace referee::live {
namespace {

namespace fs = std::filesystem;

// n infantry stands (40 x 20 mm) side by side, centred at c (table inches), front at angle.
std::vector<DetectedStand> Line(const std::string& side, Vec2 c, int n, double angle_deg) {
  std::vector<DetectedStand> out;
  const double w = MmToInches(40), d = MmToInches(20);
  for (int i = 0; i < n; ++i) {
    const Vec2 off = Rotate({(i - 0.5 * (n - 1)) * w, 0.0}, DegToRad(angle_deg));
    DetectedStand s;
    // The detector numbers stands afresh in every detection; these ids must not survive.
    s.stand = {"det-" + std::to_string(i), side, "line_infantry",
               {c + off, w, d, angle_deg}, true, {}};
    out.push_back(s);
  }
  return out;
}

std::vector<std::string> Ids(const std::vector<ShownStand>& shown, const std::string& side) {
  std::vector<std::string> ids;
  for (const auto& s : shown) {
    if (s.stand.side == side) ids.push_back(s.stand.id);
  }
  return ids;
}

class LiveTracking : public ::testing::Test {
 protected:
  SessionConfig Config(bool with_allowance, std::optional<fs::path> log = std::nullopt) {
    SessionConfig c;
    c.board = LoadBoardFile(DatasetsDir() / "sample" / "board.json");
    c.catalog = LoadStandKinds();
    c.shot = LoadShotOptions("napoleonic");
    c.log_path = std::move(log);
    if (with_allowance) {
      c.move_allowance = MoveAllowanceFromRuleset(rules::LoadRuleset("napoleonic"), c.catalog);
    }
    return c;
  }
  double square_in() const {
    return LoadBoardFile(DatasetsDir() / "sample" / "board.json").board.grid.square_size_in;
  }
};

TEST_F(LiveTracking, AnAdvancingUnitKeepsItsIdsOverThreeSnapshots) {
  LiveSession session(Config(true));
  const double sq = square_in();
  std::vector<DetectedStand> snap = Line("red", {2.5 * sq, 5.5 * sq}, 4, 0.0);
  const auto blue = Line("blue", {7.5 * sq, 1.5 * sq}, 3, 180.0);
  snap.insert(snap.end(), blue.begin(), blue.end());
  session.OnStandsSeen(snap);
  ASSERT_EQ(session.stands().size(), 7u);
  // Stand i of the red line, by its position along the line.
  auto red_ids_by_x = [&] {
    std::vector<const ShownStand*> red;
    for (const auto& s : session.stands()) {
      if (s.stand.side == "red") red.push_back(&s);
    }
    std::ranges::sort(red, [](const ShownStand* a, const ShownStand* b) {
      return a->stand.footprint.center.x < b->stand.footprint.center.x;
    });
    std::vector<std::string> ids;
    ids.reserve(red.size());
    for (const auto* s : red) ids.push_back(s->stand.id);
    return ids;
  };
  const std::vector<std::string> red0 = red_ids_by_x();
  ASSERT_EQ(red0.size(), 4u);
  for (const auto& id : red0) EXPECT_EQ(id.rfind("red-", 0), 0u) << id;
  const std::vector<std::string> blue0 = Ids(session.stands(), "blue");

  // The red line advances one square, then another and wheels 15 degrees; the detector lists
  // the stands in another order each time.
  for (int step = 1; step <= 2; ++step) {
    std::vector<DetectedStand> red =
        Line("red", {2.5 * sq + 0.3 * step, (5.5 - step) * sq}, 4, step == 2 ? 15.0 : 0.0);
    std::vector<DetectedStand> obs = {blue[2], red[3], red[1], blue[0], red[0], blue[1], red[2]};
    session.OnStandsSeen(obs);
    EXPECT_TRUE(session.last_tracking().added.empty()) << "step " << step;
    EXPECT_EQ(red_ids_by_x(), red0) << "step " << step;
    EXPECT_EQ(Ids(session.stands(), "blue").size(), 3u);
    auto b = Ids(session.stands(), "blue");
    auto b0 = blue0;
    std::ranges::sort(b);
    std::ranges::sort(b0);
    EXPECT_EQ(b, b0);
  }
}

TEST_F(LiveTracking, AStandFartherThanTheMoveAllowanceDoesNotTakeAnIdentity) {
  // Red A stands far left, red B far right. Next snapshot A is covered by a hand and a stand
  // appears beside B: only B may have moved there; A can never cross the table in one turn.
  const double sq = square_in();
  auto run = [&](bool with_allowance) {
    LiveSession session(Config(with_allowance));
    std::vector<DetectedStand> first = Line("red", {1.5 * sq, 3.5 * sq}, 1, 0.0);
    const auto b = Line("red", {10.5 * sq, 3.5 * sq}, 1, 0.0);
    first.insert(first.end(), b.begin(), b.end());
    session.OnStandsSeen(first);
    const std::string a_id = session.stands()[0].stand.id;
    std::vector<DetectedStand> next = Line("red", {9.5 * sq, 3.5 * sq}, 1, 0.0);
    const auto b2 = Line("red", {11.5 * sq, 3.5 * sq}, 1, 0.0);
    next.insert(next.end(), b2.begin(), b2.end());
    session.OnStandsSeen(next);
    const auto ids = Ids(session.stands(), "red");
    return std::ranges::find(ids, a_id) != ids.end();
  };
  EXPECT_FALSE(run(true)) << "stand A's id jumped 8 squares, beyond any move the rules allow";
  // Without the ruleset's allowance the cheapest matching does give A's id away: the check
  // above is the allowance's doing.
  EXPECT_TRUE(run(false));
}

TEST_F(LiveTracking, AnIdentityCorrectionSticksAndIsLogged) {
  const fs::path dir = testing::FreshTestDir("live_stand_tracking");
  LiveSession session(Config(true, dir / "game.jsonl"));
  session.state().OnCalibrationFound({0.5, 0.3, 0.9, 60, 63});
  ASSERT_TRUE(session.state().AcceptCalibration());
  const double sq = square_in();
  session.OnStandsSeen(Line("red", {4.5 * sq, 4.5 * sq}, 2, 0.0));
  const Vec2 left0 = session.stands()[0].stand.footprint.center;
  const auto by_place = [&](Vec2 near) {
    for (const auto& s : session.stands()) {
      if (Norm(s.stand.footprint.center - near) < 1.0) return s.stand.id;
    }
    return std::string();
  };
  const std::string left = by_place(left0);
  std::string right;
  for (const auto& s : session.stands()) {
    if (s.stand.id != left) right = s.stand.id;
  }
  ASSERT_FALSE(right.empty());
  // The players say the tracker has the two the wrong way round.
  ASSERT_TRUE(session.ReassignStandId(left, right));
  EXPECT_EQ(by_place(left0), right);
  session.Step();

  // The pair steps forward half a square: the corrected ids travel with the stands.
  session.OnStandsSeen(Line("red", {4.5 * sq, 4.0 * sq}, 2, 0.0));
  EXPECT_EQ(by_place(left0 + Vec2{0.0, -0.5 * sq}), right);

  const GameLog log = ReadGameLog(dir / "game.jsonl");
  int identity_corrections = 0;
  for (const auto& e : log.events) {
    if (const auto* c = e.As<Correction>(); c && c->subject == "stand_identity") {
      ++identity_corrections;
      EXPECT_EQ(c->value["stand"], left);
      EXPECT_EQ(c->value["is"], right);
    }
  }
  EXPECT_EQ(identity_corrections, 1);
}

}  // namespace
}  // namespace referee::live
