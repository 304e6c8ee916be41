// The live referee asks the players to look where a side's colour lies in or beside the hit
// circle that no found stand explains (a base the camera missed), as `referee adjudicate` does:
// once per ruling, on the stand search the ruled stands came from. The verdict on screen and
// the game log's verdict record carry the check; with every base found nothing is asked.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <string>

#include "armed_session_on_search.hpp"
#include "engine/board_file.hpp"
#include "engine/game_log.hpp"
#include "engine/shot_adjudication.hpp"
#include "log_sample_game.hpp"
#include "ui/live/live_session.hpp"

namespace referee::live {
namespace {

namespace fs = std::filesystem;

// A hit circle that covers part of `truth`: centred a little beyond its front edge.
Vec2 CircleOver(const Stand& truth) {
  return truth.footprint.center +
         truth.footprint.FacingDir() * (truth.footprint.depth_in / 2 + MmToInches(10));
}

struct Ruled {
  std::optional<VerdictView> shown;
  std::vector<VerdictCheck> logged;
};

// A live session given `search` as its last stand detection, one shot at rest at `impact`.
Ruled RuleOneShot(const RenderedDetection& r, const StandDetection& search, Vec2 impact,
                  const fs::path& log) {
  const auto session = ArmedSessionOnSearch(r, search, log);
  auto& st = session->state();
  session->OnProjectileAtRest(impact);
  session->Step();
  Ruled out;
  out.shown = st.verdict();
  const GameLog read = ReadGameLog(log);
  for (const auto& e : read.events) {
    if (const auto* v = e.As<ShotVerdict>()) out.logged = v->check;
  }
  return out;
}

// Napoleonic seed 7 scene 0 (every base found): a circle over a base raises nothing while the
// detection holds it, and a check of its side on it, on screen and in the log, once it is taken
// out of the detection as if the camera had missed it.
TEST(LiveUnfoundCheck, AVerdictOverABaseMissingFromTheSnapshotCarriesACheck) {
  const RenderedDetection r = DetectInScene("napoleonic.json", 0);
  const fs::path dir = testing::FreshTestDir("live_unfound_check");
  int tried = 0;
  for (const Stand& truth : r.scene.stands) {
    const DetectedStand* found = FoundNear(r, truth, 3.0);
    if (!found) continue;
    SCOPED_TRACE(truth.id);
    const Vec2 impact = CircleOver(truth);
    const std::string name = "game_" + std::to_string(tried);

    const Ruled all = RuleOneShot(r, r.found, impact, dir / (name + "_all.jsonl"));
    ASSERT_TRUE(all.shown.has_value());
    EXPECT_TRUE(all.shown->checks.empty()) << all.shown->checks.front().reason;
    EXPECT_TRUE(all.logged.empty());

    StandDetection missed = r.found;
    std::erase_if(missed.stands,
                  [&](const DetectedStand& d) { return d.stand.id == found->stand.id; });
    const Ruled one_short = RuleOneShot(r, missed, impact, dir / (name + "_missed.jsonl"));
    ASSERT_TRUE(one_short.shown.has_value());
    const auto& shown = one_short.shown->checks;
    const auto own = std::find_if(shown.begin(), shown.end(),
                                  [&](const CheckView& c) { return c.side == truth.side; });
    ASSERT_NE(own, shown.end());
    EXPECT_LT(InchesToMm(DistanceToRect(own->point_in, truth.footprint)), 3.0);
    EXPECT_FALSE(own->reason.empty());
    ASSERT_EQ(one_short.logged.size(), shown.size());
    const auto logged = std::find_if(one_short.logged.begin(), one_short.logged.end(),
                                     [&](const VerdictCheck& c) { return c.side == truth.side; });
    ASSERT_NE(logged, one_short.logged.end());
    EXPECT_NEAR(logged->point_in.x, own->point_in.x, 1e-9);
    EXPECT_NEAR(logged->point_in.y, own->point_in.y, 1e-9);
    EXPECT_GT(logged->area_mm2, 0.0);
    if (++tried == 3) break;
  }
  EXPECT_EQ(tried, 3);
}

}  // namespace
}  // namespace referee::live
