// The players answer CONFIRM FACING in the live referee. Ancient catapult fire is measured from
// the front edge of chariots, elephants and catapults; one overhead camera cannot tell which
// edge is the front of a base without a seen front stripe, so when that decides the hit the
// ruling asks. The players' "<id> faces <N|E|S|W>" turns the base, rules the shot again on the
// same point (nothing more asked), is kept across re-detections while the base stays put, is
// logged as a stand_facing correction and comes back with `--resume`.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <string>

#include "engine/board_file.hpp"
#include "engine/data_paths.hpp"
#include "engine/game_log.hpp"
#include "engine/shot_adjudication.hpp"
#include "engine/stand_kind_catalog_loader.hpp"
#include "log_sample_game.hpp"
#include "ui/live/live_session.hpp"

namespace referee::live {
namespace {

namespace fs = std::filesystem;

constexpr Vec2 kElephantAt{22.0, 14.0};

class LiveStandFacing : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::FreshTestDir("live_stand_facing");
    Open(false);
  }
  // A session on the game log in dir_ (an Ancient game without the turn's rules): new, or the
  // one there resumed.
  void Open(bool resume) {
    SessionConfig c;
    c.board = LoadBoardFile(DatasetsDir() / "sample" / "board.json");
    c.catalog = LoadStandKinds();
    c.shot = LoadShotOptions("ancient");
    c.log_path = dir_ / "game.jsonl";
    c.resume = resume;
    session_.reset();
    session_ = std::make_unique<LiveSession>(c);
    auto& st = session_->state();
    st.OnCalibrationFound({0.5, 0.3, 0.9, 60, 63});
    ASSERT_TRUE(st.AcceptCalibration());
  }
  // What the camera sees: a red elephant on a 40 mm square base outlined facing east, no front
  // stripe; a blue infantry base lying east-west away from the shot.
  void See(double nudge_in = 0.0) {
    const StandKindCatalog catalog = LoadStandKinds();
    std::vector<DetectedStand> seen(2);
    const double side_in = MmToInches(40);
    seen[0].stand = {"det-1",    "red",
                     "elephant", {kElephantAt + Vec2{nudge_in, 0.0}, side_in, side_in, 90.0},
                     false,      {}};
    seen[1].stand = {"det-2", "blue", "line_infantry", {{10.0, 5.0}, side_in, MmToInches(20), 0.0},
                     false,   {}};
    for (auto& d : seen) d.square = session_->board().board.grid.SquareOf(d.stand.footprint.center);
    session_->OnStandsSeen(seen);
  }
  std::string IdOf(const std::string& side) const {
    for (const auto& s : session_->stands()) {
      if (s.stand.side == side) return s.stand.id;
    }
    return "";
  }
  // A catapult shell at rest 0.85" north of the elephant's north edge: within 1" of that edge
  // alone (1.16" from the east and west edges' nearest ends, 2.42" from the south one).
  void Shoot() {
    auto& st = session_->state();
    ASSERT_TRUE(st.Arm()) << st.notice();
    session_->Step();
    session_->OnProjectileAtRest(kElephantAt - Vec2{0.0, MmToInches(20) + 0.85});
    session_->Step();
    ASSERT_TRUE(session_->engine_verdict().has_value());
  }
  bool Hit(const std::string& id) const {
    const auto& c = session_->engine_verdict()->candidates;
    return std::ranges::find(c, id) != c.end();
  }
  std::vector<Correction> FacingCorrections() const {
    std::vector<Correction> out;
    for (const auto& e : ReadGameLog(dir_ / "game.jsonl").events) {
      if (const auto* c = e.As<Correction>(); c && c->subject == "stand_facing") out.push_back(*c);
    }
    return out;
  }

  fs::path dir_;
  std::unique_ptr<LiveSession> session_;
};

TEST_F(LiveStandFacing, ThePlayersSayWhichWayABaseFacesAndTheShotIsRuledAgain) {
  See();
  const std::string el = IdOf("red"), inf = IdOf("blue");
  ASSERT_FALSE(el.empty());
  EXPECT_EQ(session_->FacingLabel(el), "E?");
  EXPECT_EQ(session_->FacingsFor(el), (std::vector<std::string>{"E", "S", "W", "N"}));
  EXPECT_EQ(session_->FacingsFor(inf), (std::vector<std::string>{"N", "S"}));
  Shoot();
  EXPECT_EQ(session_->engine_verdict()->facing_to_confirm, std::vector<std::string>{el});
  ASSERT_TRUE(session_->state().verdict().has_value());
  EXPECT_NE(session_->state().verdict()->ruling.find("CONFIRM FACING: " + el), std::string::npos);
  EXPECT_FALSE(Hit(el)) << "ruled from the outline's east edge until the players answer";

  // "It faces north": the same shot ruled again, a hit, nothing more asked.
  ASSERT_TRUE(session_->SetStandFacing(el, "N")) << session_->state().notice();
  session_->Step();
  ASSERT_TRUE(session_->engine_verdict().has_value());
  EXPECT_TRUE(session_->engine_verdict()->facing_to_confirm.empty());
  EXPECT_TRUE(Hit(el));
  EXPECT_EQ(session_->state().verdict()->ruling.find("CONFIRM FACING"), std::string::npos);
  EXPECT_EQ(session_->FacingLabel(el), "N (the players)");

  // A front the infantry base does not have is refused with the ones it has.
  EXPECT_FALSE(session_->SetStandFacing(inf, "E"));
  EXPECT_NE(session_->state().notice().find("may face N, S"), std::string::npos)
      << session_->state().notice();

  // The camera looks again (the base nudged, outlined east, no stripe): still north.
  See(0.05);
  EXPECT_EQ(session_->FacingLabel(el), "N (the players)");
  // "No, west": ruled again, a miss.
  ASSERT_TRUE(session_->SetStandFacing(el, "W"));
  session_->Step();
  EXPECT_FALSE(Hit(el));
  EXPECT_TRUE(session_->engine_verdict()->facing_to_confirm.empty());

  // Both answers are in the log with the base as turned.
  const auto logged = FacingCorrections();
  ASSERT_EQ(logged.size(), 2u);
  EXPECT_EQ(logged[0].value["stand"], el);
  EXPECT_EQ(logged[0].value["faces"], "N");
  EXPECT_EQ(logged[0].value["from"], "?");
  EXPECT_EQ(logged[1].value["faces"], "W");
  EXPECT_EQ(logged[1].value["from"], "N");
  ASSERT_TRUE(logged[1].value.contains("footprint"));
  EXPECT_TRUE(StandFromJson(logged[1].value["footprint"]).facing_known);
}

// `referee live --resume`: the players' answer survives a restart while the base stands where
// it stood, and is dropped once it has moved.
TEST_F(LiveStandFacing, AResumedGameKeepsThePlayersFacing) {
  See();
  const std::string el = IdOf("red");
  Snapshot snap;  // the table as the session logs it once the stands are seen
  for (const auto& s : session_->stands())
    snap.stands.push_back(SnapshotStandFrom(s.stand, s.unit));
  ASSERT_GT(session_->AppendEvent(snap), 0);
  ASSERT_TRUE(session_->SetStandFacing(el, "S"));
  session_->Step();  // the correction is written

  Open(true);
  See(0.05);
  EXPECT_EQ(session_->FindStand(el)->stand.id, el);
  EXPECT_EQ(session_->FacingLabel(el), "S (the players)");
  Shoot();
  EXPECT_TRUE(session_->engine_verdict()->facing_to_confirm.empty());
  EXPECT_FALSE(Hit(el));

  Open(true);
  See(1.0);  // moved an inch since: the camera's outline, and the question, again
  EXPECT_EQ(session_->FacingLabel(IdOf("red")), "E?");
}

}  // namespace
}  // namespace referee::live
