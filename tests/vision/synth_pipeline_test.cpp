// The whole vision pipeline on generated scenes (1280x720, the generator's camera): stands
// found where the truth has them, the impact point near the truth's painted tip when a
// projectile is accepted, hand frames and unchanged frames refused. Seed printed on failure.
#include <gtest/gtest.h>

#include "datasets/synth_scene.hpp"
#include "engine/board_file.hpp"
#include "engine/data_paths.hpp"
#include "engine/stand_kind_catalog_loader.hpp"
#include "scenario_side_colors.hpp"
#include "vision/shot_analysis.hpp"

namespace referee {
namespace {

TEST(SynthPipelineTest, StandsProjectileAndRefusals) {
  const Scenario sc = LoadScenario(DatasetsDir() / "scenarios" / "napoleonic.json");
  const StandKindCatalog catalog = LoadStandKinds();
  const SideColorModel colors = ScenarioSideColors(sc);
  const uint64_t seed = 7;
  int truth_stands = 0, found = 0, accepted = 0;
  for (int index = 0; index < 2; ++index) {
    SCOPED_TRACE("seed " + std::to_string(seed) + " index " + std::to_string(index));
    const SynthScene s = GenerateScene(sc, SynthOptions{.seed = seed, .size = {1280, 720}}, index);
    TableCalibration cal;
    cal.board = s.board.grid;
    cal.camera = s.camera;
    const TopView view(cal);
    const ShotAnalysis a = AnalyseShot(view, s.before, s.after, colors, catalog, &s.board);
    for (const Stand& t : s.stands) {
      ++truth_stands;
      for (const auto& d : a.stands.stands) {
        if (d.stand.side == t.side &&
            Distance(d.stand.footprint.center, t.footprint.center) < MmToInches(1.5)) {
          ++found;
          // 1 px is ~1.4 mm at 720p; sizes come out 1-3.5 mm large for now (see the report).
          EXPECT_NEAR(InchesToMm(d.stand.footprint.width_in), InchesToMm(t.footprint.width_in), 4.5)
              << t.id;
          break;
        }
      }
    }
    // Nothing found that is not a stand (no house roofs, no figures).
    EXPECT_LE(a.stands.stands.size(), s.stands.size());
    ASSERT_TRUE(s.projectile.has_value());
    if (a.projectile) {
      ++accepted;
      EXPECT_EQ(a.projectile->kind, s.projectile->kind);
      EXPECT_LT(InchesToMm(Distance(a.projectile->point, s.projectile->point)), 2.5);
    }
    if (!s.after_hand.empty()) {
      EXPECT_TRUE(std::holds_alternative<Refusal>(
          DetectProjectile(a.top_before, view.Rectify(s.after_hand), view, a.stands.stands)));
    }
    EXPECT_TRUE(std::holds_alternative<Refusal>(
        DetectProjectile(a.top_before, a.top_before, view, a.stands.stands)));
  }
  EXPECT_GE(found, truth_stands * 9 / 10) << found << " of " << truth_stands;
  EXPECT_GE(accepted, 1);
}

}  // namespace
}  // namespace referee
