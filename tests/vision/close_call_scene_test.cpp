// `hard` seed 353 scene 5 (never tuned on): a Q-tip's tip lands 1" and 3.9 mm from red-9, a
// 40 x 20 light infantry base: red-9 is clear. The camera is far (a camera pixel is 2.3 mm on the
// mat there, red-9 is 18 x 9 px): it finds the tip 0.6 mm off but red-9 40 x 30, its edge 4.8 mm
// nearer the tip than it is, and rules red-9 hit 0.9 mm inside the circle (s57): a wrong verdict
// no check flagged. That is within a camera pixel of the edge, so the players are now told to
// measure. (The base found too deep is not mended here.)
#include <gtest/gtest.h>

#include <algorithm>

#include "analysed_scene.hpp"
#include "vision/close_call_check.hpp"

namespace referee {
namespace {

TEST(CloseCallSceneTest, AStandRuledHitWithinTheCameraErrorOfTheEdgeIsMeasured) {
  SynthScene s;
  const ShotAnalysis a = AnalyseHardShot(353, 5, "qtip", s);
  ASSERT_TRUE(a.projectile.has_value()) << a.refusal;
  ASSERT_EQ(std::ranges::count(s.verdict.hit_ids, "red-9"), 0);
  const auto truth = std::ranges::find_if(s.stands, [](const Stand& t) { return t.id == "red-9"; });
  ASSERT_NE(truth, s.stands.end());
  // Truly clear, by a few millimetres.
  const double truth_gap_mm =
      InchesToMm(DistanceToRect(s.projectile->point, truth->footprint) - 1.0);
  ASSERT_GT(truth_gap_mm, 0.0);
  ASSERT_LT(truth_gap_mm, 5.0);

  const std::vector<Stand> stands = StandsOf(a.stands);
  const auto found = std::ranges::min_element(stands, {}, [&](const Stand& t) {
    return Distance(t.footprint.center, truth->footprint.center);
  });
  ASSERT_LT(InchesToMm(Distance(found->footprint.center, truth->footprint.center)), 10.0);
  Shot shot;
  shot.kind = ParseShotKind(s.verdict.shot_kind).value_or(ShotKind::kField);
  shot.point = a.projectile->point;
  shot.firer_side = s.verdict.firer_side;
  const StandKindCatalog catalog = LoadStandKinds();
  const ShotOptions rules = LoadShotOptions(s.verdict.ruleset);
  const TopView view(TruthCalibration(s));
  const Verdict ruled = AdjudicateShot(s.board, stands, shot, catalog, rules);
  // The camera's ruling: red-9 hit.
  ASSERT_EQ(std::ranges::count(ruled.candidates, found->id), 1);

  // A heavily blurred frame (s60): the base's edge is trusted less than a pixel's worth.
  EXPECT_GT(a.stands.blur_mm, 3.0);
  const auto check = CheckRulingCloseCall(*a.projectile, view, s.board, stands, shot, catalog,
                                          rules, a.stands.blur_mm);
  ASSERT_TRUE(check.has_value());
  EXPECT_NEAR(check->edge_mm, CloseCallOptions{}.edge_blur_share * a.stands.blur_mm, 1e-9);
  EXPECT_GT(check->error_mm, MmPerCameraPxAt(view, a.projectile->point, a.projectile->height_in));
  const auto named = std::ranges::find(check->stands, found->id, &CloseStand::id);
  ASSERT_NE(named, check->stands.end()) << check->reason;
  EXPECT_TRUE(named->hit_ruled);
  EXPECT_LE(named->changes_mm, check->error_mm);
  EXPECT_EQ(std::ranges::count(check->hit_there, found->id), 0);
  EXPECT_NE(check->reason.find("from the shot to " + found->id), std::string::npos)
      << check->reason;
}

}  // namespace
}  // namespace referee
