// `hard` seed 359 scene 6 (never tuned on), calibrated from its empty frame as a club would (the
// markerless board is then labelled from the far corner, so the board's terrain is turned to
// match). A Q-tip lies level across blue-10's figures 19.7 mm up, and blue-10 (a 40 x 30 base)
// is hit 2 mm inside the circle. The base is found 40 x 23, its rear under its figures, and the
// stick is ruled on the mat: blue-10 is clear at the size reported at any height, and at 40 x 30
// at the ruled height, so neither the size check nor the height check alone said a word (s56).
// The height check now tries the other size too and says both.
#include <gtest/gtest.h>

#include <algorithm>

#include "analysed_scene.hpp"
#include "vision/rest_height_check.hpp"

namespace referee {
namespace {

TEST(RestHeightOtherSizeSceneTest, AStickOnABaseFoundTooShallowAsksHeightAndSizeTogether) {
  const Scenario sc = HardScenario();
  const SynthScene s = HardScene(sc, 359, 6);
  ASSERT_TRUE(s.projectile.has_value());
  ASSERT_EQ(s.projectile->kind, "qtip");
  ASSERT_EQ(s.projectile->resting_on, "blue-10");
  ASSERT_EQ(s.verdict.hit_ids, std::vector<std::string>{"blue-10"});
  const std::optional<TableCalibration> cal = CalibratedFromFarCorner(s);
  ASSERT_TRUE(cal.has_value());
  const Board turned = BoardTurnedHalfWay(s.board);
  const double w = s.board.grid.Width(), h = s.board.grid.Height();
  const TopView view(*cal);
  const StandKindCatalog catalog = LoadStandKinds();
  const ShotAnalysis a = AnalyseShot(view, s.before, AsWebcamSends(s.after, s.jpeg_quality),
                                     ScenarioSideColors(sc), catalog, &turned);
  ASSERT_TRUE(a.projectile.has_value()) << a.refusal;

  // blue-10 as found: the base nearest its turned centre.
  const auto truth =
      std::ranges::find_if(s.stands, [](const Stand& t) { return t.id == "blue-10"; });
  ASSERT_NE(truth, s.stands.end());
  const Vec2 centre{w - truth->footprint.center.x, h - truth->footprint.center.y};
  const std::vector<Stand> stands = StandsOf(a.stands);
  const auto found = std::ranges::min_element(
      stands, {}, [&](const Stand& t) { return Distance(t.footprint.center, centre); });
  ASSERT_LT(InchesToMm(Distance(found->footprint.center, centre)), 10.0);

  Shot shot;
  shot.kind = ParseShotKind(s.verdict.shot_kind).value_or(ShotKind::kField);
  shot.point = a.projectile->point;
  shot.firer_side = s.verdict.firer_side;
  const ShotOptions rules = LoadShotOptions(s.verdict.ruleset);
  const Verdict ruled = AdjudicateShot(turned, stands, shot, catalog, rules);
  // As ruled blue-10 is clear, and no size it could have changes that here.
  ASSERT_EQ(std::ranges::count(ruled.candidates, found->id), 0);
  EXPECT_TRUE(ruled.size_to_confirm.empty());

  const auto check = CheckRulingHeight(*a.projectile, view, turned, stands, shot, catalog, rules,
                                       RestHeightCheckOptionsFor(ProjectileOptions{}));
  ASSERT_TRUE(check.has_value());
  EXPECT_EQ(check->outline_stand_id, found->id);
  EXPECT_NE(check->outline.find("40 x 30 mm"), std::string::npos) << check->outline;
  EXPECT_EQ(std::ranges::count(check->hit_there, found->id), 1) << check->reason;
  // Higher than it was ruled, where its figures hold it.
  EXPECT_GT(check->decides_height_mm, check->ruled_height_mm);
  EXPECT_LE(check->decides_height_mm, 32.5);
}

}  // namespace
}  // namespace referee
