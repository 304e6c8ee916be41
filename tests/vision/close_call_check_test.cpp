// Whether a stand lies too close to the hit circle's edge for the camera to call, on real
// geometry: bases as the rules measure them, the shipped rules, and a camera 40" above the table
// (tests/overhead_calibration.hpp: 20 px to the inch, so a camera pixel is 1.27 mm on the mat).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "../overhead_calibration.hpp"
#include "engine/stand_kind_catalog_loader.hpp"
#include "vision/close_call_check.hpp"

namespace referee {
namespace {

// A 40 x 20 mm base whose west edge lies `edge_in` east of the impact at (20, 16).
OrientedRect BaseEastOf(double edge_in) {
  return {{20.0 + edge_in + MmToInches(10.0), 16.0}, MmToInches(40.0), MmToInches(20.0), 90.0};
}

// Each named base is hit when the impact lies within 1" of it.
std::function<std::vector<std::string>(Vec2)> HitWithinAnInch(
    std::vector<std::pair<std::string, OrientedRect>> bases) {
  return [bases = std::move(bases)](Vec2 p) {
    std::vector<std::string> hit;
    for (const auto& [id, rect] : bases) {
      if (DistanceToRect(p, rect) <= 1.0) hit.push_back(id);
    }
    return hit;
  };
}

// The engine's side of a ruling: the shipped stand kinds and Napoleonic rules on a 12 x 8 board
// of 4" squares, and a shot of `kind` fired by blue at `point`.
struct Rules {
  StandKindCatalog catalog = LoadStandKinds();
  ShotOptions rules = LoadShotOptions("napoleonic");
  Board board = [] {
    Board b;
    b.grid = Grid{12, 8, 4.0};
    return b;
  }();
  static Shot ShotAt(ShotKind kind, Vec2 point) {
    Shot shot;
    shot.kind = kind;
    shot.point = point;
    shot.firer_side = "blue";
    return shot;
  }
};

// A red line infantry stand `inside_mm` inside the circle of a shot at (20", 16").
std::vector<Stand> InfantryInside(double inside_mm) {
  return {{"red-1", "red", "line_infantry", BaseEastOf(1.0 - MmToInches(inside_mm)), true, {}}};
}

// A projectile of `kind` ("qtip", "shell") found at (20", 16"), its mark seen.
ProjectileObservation FoundAt(const std::string& kind) {
  ProjectileObservation p;
  p.kind = kind;
  p.point = {20.0, 16.0};
  return p;
}

TEST(CloseCallCheckTest, AStandHalfAMillimetreInsideTheCircleIsTooCloseToCall) {
  const auto hits = HitWithinAnInch({{"blue-2", BaseEastOf(1.0 - MmToInches(0.6))}});
  const auto check = CheckCloseCall({20.0, 16.0}, 1.27, hits);
  ASSERT_TRUE(check.has_value());
  ASSERT_EQ(check->stands.size(), 1u);
  EXPECT_EQ(check->stands[0].id, "blue-2");
  EXPECT_TRUE(check->stands[0].hit_ruled);
  // Moved 0.6 mm straight away from it, the impact leaves the circle.
  EXPECT_NEAR(check->stands[0].changes_mm, 0.6, 0.06);
  EXPECT_NEAR(InchesToMm(20.0 - check->point_there.x), 0.6, 0.06);
  EXPECT_NEAR(check->point_there.y, 16.0, 0.01);
  EXPECT_TRUE(check->hit_there.empty());
  EXPECT_EQ(check->hit_ruled, std::vector<std::string>{"blue-2"});
  EXPECT_NE(check->reason.find("blue-2 is ruled hit but is clear if the shot lies 0.6 mm"),
            std::string::npos)
      << check->reason;
  EXPECT_NE(check->reason.find("(1.3 mm): measure"), std::string::npos) << check->reason;
}

TEST(CloseCallCheckTest, AStandFartherFromTheEdgeThanTheCameraErrsIsCalled) {
  const auto inside = HitWithinAnInch({{"blue-2", BaseEastOf(1.0 - MmToInches(1.5))}});
  EXPECT_FALSE(CheckCloseCall({20.0, 16.0}, 1.27, inside).has_value());
  const auto outside = HitWithinAnInch({{"blue-2", BaseEastOf(1.0 + MmToInches(1.5))}});
  EXPECT_FALSE(CheckCloseCall({20.0, 16.0}, 1.27, outside).has_value());
  // A coarser camera (2 mm to the pixel) cannot call the same stand.
  const auto coarse = CheckCloseCall({20.0, 16.0}, 2.0, inside);
  ASSERT_TRUE(coarse.has_value());
  EXPECT_NEAR(coarse->stands[0].changes_mm, 1.5, 0.06);
}

TEST(CloseCallCheckTest, EveryStandNearTheEdgeIsNamedNearestFirst) {
  // red-4 0.3 mm outside the circle to the west, blue-2 0.8 mm inside to the east.
  OrientedRect west = BaseEastOf(1.0 + MmToInches(0.3));
  west.center.x = 40.0 - west.center.x;
  const auto hits =
      HitWithinAnInch({{"blue-2", BaseEastOf(1.0 - MmToInches(0.8))}, {"red-4", west}});
  const auto check = CheckCloseCall({20.0, 16.0}, 1.27, hits);
  ASSERT_TRUE(check.has_value());
  ASSERT_EQ(check->stands.size(), 2u);
  EXPECT_EQ(check->stands[0].id, "red-4");
  EXPECT_FALSE(check->stands[0].hit_ruled);
  EXPECT_NEAR(check->stands[0].changes_mm, 0.3, 0.06);
  EXPECT_EQ(check->stands[1].id, "blue-2");
  EXPECT_NEAR(check->stands[1].changes_mm, 0.8, 0.06);
  // The nearest change: red-4 joins blue-2.
  EXPECT_EQ(check->hit_there, (std::vector<std::string>{"blue-2", "red-4"}));
  EXPECT_NE(check->reason.find("red-4 is ruled clear but is hit"), std::string::npos)
      << check->reason;
}

TEST(CloseCallCheckTest, ACameraPixelIsMeasuredWhereTheShotLies) {
  const TopView view(OverheadCalibration());
  EXPECT_NEAR(MmPerCameraPxAt(view, {24.0, 16.0}, 0.0), 1.27, 1e-6);
  EXPECT_NEAR(MmPerCameraPxAt(view, {34.0, 20.0}, 0.0), 1.27, 1e-6);
  // An inch up, 39" from the camera.
  EXPECT_NEAR(MmPerCameraPxAt(view, {34.0, 20.0}, 1.0), 1.27 * 39.0 / 40.0, 1e-6);
}

TEST(CloseCallCheckTest, TheRulingSaysWhatThePlayersMeasure) {
  const TopView view(OverheadCalibration());
  const auto [catalog, rules, board] = Rules{};
  // A red line infantry stand 0.5 mm inside the circle, a red gun 0.4 mm farther than touching
  // on the other side (its 40 x 40 base's east edge 1 mm + 0.4 mm west of the impact).
  const Stand infantry{"red-1", "red", "line_infantry", BaseEastOf(1.0 - MmToInches(0.5)),
                       true,    {}};
  const double gun_half_in = MmToInches(20.0);
  const Stand gun{
      "red-9",
      "red",
      "field_gun",
      {{20.0 - MmToInches(1.4) - gun_half_in, 16.0}, 2 * gun_half_in, 2 * gun_half_in, 0},
      true,
      {}};
  const std::vector<Stand> stands{infantry, gun};
  ProjectileObservation qtip;
  qtip.kind = "qtip";
  qtip.point = {20.0, 16.0};
  const Shot shot = Rules::ShotAt(ShotKind::kField, qtip.point);
  const Verdict v = AdjudicateShot(board, stands, shot, catalog, rules);
  ASSERT_EQ(v.candidates, std::vector<std::string>{"red-1"});
  ASSERT_TRUE(v.destroyed_equipment.empty());
  const auto check = CheckRulingCloseCall(qtip, view, board, stands, shot, catalog, rules, 0.0);
  ASSERT_TRUE(check.has_value());
  EXPECT_NEAR(check->error_mm, 1.27, 1e-6);
  ASSERT_EQ(check->stands.size(), 2u);
  EXPECT_EQ(check->stands[0].id, "red-9");  // touched 0.4 mm west
  EXPECT_NEAR(check->stands[0].changes_mm, 0.4, 0.06);
  EXPECT_EQ(check->stands[1].id, "red-1");
  EXPECT_NE(check->reason.find("measure whether the tip touches red-9 and from the shot to "
                               "red-1 (hit within 1\")"),
            std::string::npos)
      << check->reason;
  // Two millimetres inside, the camera calls it.
  std::vector<Stand> clear_call{stands[0]};
  clear_call[0].footprint = BaseEastOf(1.0 - MmToInches(2.0));
  EXPECT_FALSE(
      CheckRulingCloseCall(qtip, view, board, clear_call, shot, catalog, rules, 0.0).has_value());
}

TEST(CloseCallCheckTest, APointPlacedWithoutItsMarkSeenIsTrustedLess) {
  const TopView view(OverheadCalibration());
  const auto [catalog, rules, board] = Rules{};
  // 2.5 mm inside the circle: beyond the camera's 1.27 mm, within it plus a 2 mm dot.
  const std::vector<Stand> stands = InfantryInside(2.5);
  ProjectileObservation shell = FoundAt("shell");
  Shot shot = Rules::ShotAt(ShotKind::kHowitzer, shell.point);
  ASSERT_EQ(AdjudicateShot(board, stands, shot, catalog, rules).candidates,
            std::vector<std::string>{"red-1"});
  EXPECT_FALSE(CheckRulingCloseCall(shell, view, board, stands, shot, catalog, rules, 0.0));
  shell.dot_seen = false;
  const auto check = CheckRulingCloseCall(shell, view, board, stands, shot, catalog, rules, 0.0);
  ASSERT_TRUE(check.has_value());
  EXPECT_NEAR(check->error_mm, 1.27 + 2.0, 1e-6);
  EXPECT_NEAR(check->unseen_mm, 2.0, 1e-9);
  EXPECT_NEAR(check->stands[0].changes_mm, 2.5, 0.06);
  EXPECT_NE(check->reason.find("within the camera's error here (1.3 mm) and how far its unseen "
                               "dot may lie from the shell's centre (2.0 mm): measure"),
            std::string::npos)
      << check->reason;
  // 3.5 mm inside, even an unseen dot cannot move it out.
  EXPECT_FALSE(
      CheckRulingCloseCall(shell, view, board, InfantryInside(3.5), shot, catalog, rules, 0.0));

  // A Q-tip whose painted head was not told from the mat, its tip put one head past the stick.
  ProjectileObservation qtip = FoundAt("qtip");
  shot.kind = ShotKind::kField;
  EXPECT_FALSE(CheckRulingCloseCall(qtip, view, board, stands, shot, catalog, rules, 0.0));
  qtip.tip_from_edge = false;
  const auto untold = CheckRulingCloseCall(qtip, view, board, stands, shot, catalog, rules, 0.0);
  ASSERT_TRUE(untold.has_value());
  EXPECT_NEAR(untold->unseen_mm, CloseCallOptions{}.unseen_tip_mm, 1e-9);
  EXPECT_NE(untold->reason.find("untold painted head"), std::string::npos) << untold->reason;
}

TEST(CloseCallCheckTest, AFramesBlurWidensTheErrorAtABasesEdge) {
  const TopView view(OverheadCalibration());
  const auto [catalog, rules, board] = Rules{};
  // 2 mm inside the circle: beyond the camera's 1.27 mm on a sharp frame.
  const std::vector<Stand> stands = InfantryInside(2.0);
  const ProjectileObservation qtip = FoundAt("qtip");
  const Shot shot = Rules::ShotAt(ShotKind::kField, qtip.point);
  ASSERT_EQ(AdjudicateShot(board, stands, shot, catalog, rules).candidates,
            std::vector<std::string>{"red-1"});
  EXPECT_FALSE(CheckRulingCloseCall(qtip, view, board, stands, shot, catalog, rules, 0.0));
  // A frame whose blur spreads a base's colour 3 mm past its edge: the edge may lie 1.8 mm off,
  // and with the pixel (independent errors) the shot is measured 2.2 mm around.
  const auto check = CheckRulingCloseCall(qtip, view, board, stands, shot, catalog, rules, 3.0);
  ASSERT_TRUE(check.has_value());
  EXPECT_NEAR(check->edge_mm, 1.8, 1e-9);
  EXPECT_NEAR(check->error_mm, std::hypot(1.27, 1.8), 1e-6);
  EXPECT_NEAR(check->unseen_mm, 0.0, 1e-9);
  EXPECT_NEAR(check->stands[0].changes_mm, 2.0, 0.06);
  EXPECT_NE(check->reason.find("within the camera's error here (2.2 mm: a pixel, 1.3 mm, and "
                               "where a base's edge may lie under this frame's blur, 1.8 mm): "
                               "measure"),
            std::string::npos)
      << check->reason;
  // The two are added as independent errors: 2.5 mm inside, beyond both, is called.
  const std::vector<Stand> deeper = InfantryInside(2.5);
  EXPECT_FALSE(CheckRulingCloseCall(qtip, view, board, deeper, shot, catalog, rules, 3.0));
  // An unseen dot's allowance comes on top, said after the camera's.
  ProjectileObservation shell = FoundAt("shell");
  shell.dot_seen = false;
  const Shot howitzer = Rules::ShotAt(ShotKind::kHowitzer, shell.point);
  const auto unseen =
      CheckRulingCloseCall(shell, view, board, deeper, howitzer, catalog, rules, 3.0);
  ASSERT_TRUE(unseen.has_value());
  EXPECT_NEAR(unseen->error_mm, std::hypot(1.27, 1.8) + 2.0, 1e-6);
  EXPECT_NE(unseen->reason.find("blur, 1.8 mm) and how far its unseen dot may lie from the "
                                "shell's centre (2.0 mm): measure"),
            std::string::npos)
      << unseen->reason;
}

}  // namespace
}  // namespace referee
