// The live referee asks the players to measure a stand that lies within the camera's error of
// the hit circle's edge, as `referee adjudicate` does: on the verdict panel and in the game
// log's verdict record, once per ruling, and only for an impact the camera saw (one the players
// placed by hand is where they say it is). Napoleonic seed 7 scene 0, every base found.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "armed_session_on_search.hpp"
#include "engine/board_file.hpp"
#include "engine/game_log.hpp"
#include "engine/shot_adjudication.hpp"
#include "log_sample_game.hpp"
#include "ui/live/live_session.hpp"
#include "vision/close_call_check.hpp"

namespace referee::live::live_close_call_test {
namespace {

namespace fs = std::filesystem;

struct Ruled {
  std::vector<CheckView> shown;
  std::vector<VerdictCheck> logged;
  std::string impact_note;  // the verdict panel's word on how the impact was placed
};

ProjectileObservation QtipOnTheMat() {
  ProjectileObservation qtip;
  qtip.kind = "qtip";
  qtip.height_in = MmToInches(2.5);
  return qtip;
}

// A live session on `r`'s stand search, one projectile (`seen_as`, a Q-tip by default) coming to
// rest at `impact` as the camera saw it (`seen`) or placed there by the players.
Ruled RuleOneShot(const RenderedDetection& r, Vec2 impact, bool seen, const fs::path& log,
                  ProjectileObservation seen_as = QtipOnTheMat(),
                  const BoardFile& kit = BoardFile()) {
  const auto session = ArmedSessionOnSearch(r, r.found, log, kit);
  auto& st = session->state();
  if (seen) {
    FrameResult frame;
    frame.shot.armed = true;
    seen_as.point = impact;
    frame.shot.rest = seen_as;
    session->OnFrame(frame);
  } else {
    session->OnProjectileAtRest(impact);
  }
  session->Step();
  Ruled out;
  if (st.verdict()) {
    out.shown = st.verdict()->checks;
    out.impact_note = st.verdict()->impact_note;
  }
  for (const auto& e : ReadGameLog(log).events) {
    if (const auto* v = e.As<ShotVerdict>()) out.logged = v->check;
  }
  return out;
}

int CloseCalls(const std::vector<CheckView>& checks) {
  return static_cast<int>(std::ranges::count_if(
      checks, [](const CheckView& c) { return c.reason.rfind("too close to call", 0) == 0; }));
}

// Straight ahead of the front edge of the first found stand with a front stripe, `inside_mm`
// inside the 1" circle; none when no stripe was read.
std::optional<Vec2> AheadOfAFrontEdge(const RenderedDetection& r, double inside_mm) {
  const auto found = std::ranges::find_if(
      r.found.stands, [](const DetectedStand& d) { return d.stand.facing_known; });
  if (found == r.found.stands.end()) return std::nullopt;
  const OrientedRect& fp = found->stand.footprint;
  return fp.center + fp.FacingDir() * (fp.depth_in / 2 + 1.0 - MmToInches(inside_mm));
}

TEST(LiveCloseCall, AStandHalfAMillimetreInsideTheCircleIsMeasuredWhenTheCameraSawTheShot) {
  const RenderedDetection r = DetectInScene("napoleonic.json", 0);
  const fs::path dir = testing::FreshTestDir("live_close_call");
  ASSERT_TRUE(AheadOfAFrontEdge(r, 0.5).has_value());
  const auto ahead = [&](double inside_mm) { return *AheadOfAFrontEdge(r, inside_mm); };

  const Ruled close = RuleOneShot(r, ahead(0.5), true, dir / "close.jsonl");
  ASSERT_EQ(CloseCalls(close.shown), 1);
  const auto shown = std::ranges::find_if(
      close.shown, [](const CheckView& c) { return c.reason.rfind("too close to call", 0) == 0; });
  EXPECT_NE(shown->reason.find("is ruled hit but is clear if the shot lies 0.5 mm"),
            std::string::npos)
      << shown->reason;
  // The stand search's own reading of the frame's blur widens it (s60).
  ASSERT_GT(r.found.blur_mm, 0.0);
  char edge[96];
  std::snprintf(edge, sizeof edge, "where a base's edge may lie under this frame's blur, %.1f mm",
                CloseCallOptions{}.edge_blur_share * r.found.blur_mm);
  EXPECT_NE(shown->reason.find(edge), std::string::npos) << shown->reason;
  // Where it would be clear: half a millimetre back from the impact, away from the base.
  EXPECT_NEAR(InchesToMm(Distance(shown->point_in, ahead(0.5))), 0.5, 0.1);
  const auto logged = std::ranges::find(close.logged, shown->reason, &VerdictCheck::reason);
  ASSERT_NE(logged, close.logged.end());
  EXPECT_EQ(logged->side, "");

  // Five millimetres inside, the camera calls it.
  EXPECT_EQ(CloseCalls(RuleOneShot(r, ahead(5.0), true, dir / "clear.jsonl").shown), 0);
  // Placed by the players half a millimetre inside: their point, nothing asked.
  EXPECT_EQ(CloseCalls(RuleOneShot(r, ahead(0.5), false, dir / "placed.jsonl").shown), 0);
}

// A shell whose dot the camera did not see is placed at its square's centre: as far as a
// hand-pressed dot may lie off it is added to the camera's error, and the panel says how the
// impact was placed.
TEST(LiveCloseCall, AShellPlacedWithoutItsDotSeenIsMeasuredFartherFromTheEdge) {
  const RenderedDetection r = DetectInScene("napoleonic.json", 0);
  const fs::path dir = testing::FreshTestDir("live_close_call");
  ProjectileObservation shell;
  shell.kind = "shell";
  shell.height_in = MmToInches(5.0);
  // A millimetre farther inside than the camera's error there (the pixel and the frame's blur):
  // within it and a 2 mm dot's allowance.
  const std::optional<Vec2> edge = AheadOfAFrontEdge(r, 0.0);
  ASSERT_TRUE(edge.has_value());
  shell.point = *edge;
  const double camera_mm =
      CloseCallErrorAt(shell, TopView(TruthCalibration(r.scene)), r.found.blur_mm).total_mm;
  const Vec2 inside = *AheadOfAFrontEdge(r, camera_mm + 1.0);
  const Ruled on_dot = RuleOneShot(r, inside, true, dir / "dot.jsonl", shell);
  EXPECT_EQ(CloseCalls(on_dot.shown), 0);
  EXPECT_EQ(on_dot.impact_note, "");
  shell.dot_seen = false;
  const Ruled unseen = RuleOneShot(r, inside, true, dir / "unseen.jsonl", shell);
  ASSERT_EQ(CloseCalls(unseen.shown), 1);
  EXPECT_EQ(unseen.impact_note, "dot unseen: centre used");
  const auto shown = std::ranges::find_if(
      unseen.shown, [](const CheckView& c) { return c.reason.rfind("too close to call", 0) == 0; });
  EXPECT_NE(shown->reason.find("how far its unseen dot may lie from the shell's centre (2.0 mm)"),
            std::string::npos)
      << shown->reason;
  // Placed by the players there: their point, no word on a dot.
  const Ruled placed = RuleOneShot(r, inside, false, dir / "placed.jsonl", shell);
  EXPECT_EQ(CloseCalls(placed.shown), 0);
  EXPECT_EQ(placed.impact_note, "");
  // A club whose dots are pressed within half a millimetre says so in its board file (s60): the
  // same shell is called, with the panel's word on how it was placed.
  BoardFile careful;
  careful.shell_dot_offset_mm = 0.5;
  const Ruled near_centre = RuleOneShot(r, inside, true, dir / "careful.jsonl", shell, careful);
  EXPECT_EQ(CloseCalls(near_centre.shown), 0)
      << (near_centre.shown.empty() ? "" : near_centre.shown.back().reason);
  EXPECT_EQ(near_centre.impact_note, "dot unseen: centre used");
}

}  // namespace
}  // namespace referee::live::live_close_call_test
