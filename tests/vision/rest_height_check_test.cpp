// Whether the height a projectile lying on a stand is ruled at decides the ruling, under a camera
// 40" above (24, 16) (tests/overhead_calibration.hpp): 10" from its foot a point 27.5 mm up is
// seen 7 mm farther out than it lies, so a stand whose edge is a few millimetres inside the
// circle may be in or out depending on how high the shot truly rests.
#include <gtest/gtest.h>

#include <algorithm>

#include "../overhead_calibration.hpp"
#include "engine/stand_kind_catalog_loader.hpp"
#include "vision/rest_height_check.hpp"

namespace referee {
namespace {

constexpr double kCameraFootX = 24.0;
constexpr double kCameraHeightMm = 40.0 * 25.4;

// The ruled point at `height_mm` on a stand, 10" east of the camera's foot.
ProjectileObservation OnAStand(const std::string& kind, double height_mm) {
  ProjectileObservation p;
  p.kind = kind;
  p.point = {34.0, 16.0};
  p.height_in = MmToInches(height_mm);
  p.resting_on = "red-1";
  return p;
}

// blue-2 is hit while the impact lies west of x_in (toward the camera's foot).
std::function<std::vector<std::string>(Vec2)> HitWestOf(double x_in) {
  return [x_in](Vec2 p) {
    return p.x <= x_in ? std::vector<std::string>{"blue-2"} : std::vector<std::string>{};
  };
}

// Where the point seen on the mat lies at height h: back along the ray toward the camera.
double XAtHeight(const ProjectileObservation& p, double h_mm) {
  const double seen = kCameraFootX + (p.point.x - kCameraFootX) * kCameraHeightMm /
                                         (kCameraHeightMm - InchesToMm(p.height_in));
  return kCameraFootX + (seen - kCameraFootX) * (1.0 - h_mm / kCameraHeightMm);
}

// A shell ruled on figures (2.5 + 20 + 5 mm up) hits blue-2 0.1" inside its reach; lying lower
// it would be seen where it is, farther out: below about 17.6 mm blue-2 is clear.
TEST(RestHeightCheckTest, AShellOnFiguresNearAnEdgeSaysBelowWhichHeightTheTargetIsClear) {
  const TopView view(OverheadCalibration());
  const ProjectileObservation shell = OnAStand("shell", 27.5);
  const auto check = CheckRestHeight(shell, view, HitWestOf(34.1));
  ASSERT_TRUE(check.has_value());
  EXPECT_EQ(check->stand_id, "red-1");
  EXPECT_NEAR(check->ruled_height_mm, 27.5, 1e-9);
  // The exact crossing: 10.278" * (1 - h / 1016 mm) = 10.1".
  const double crossing_mm = kCameraHeightMm * (1.0 - 10.1 / (XAtHeight(shell, 0) - 24.0));
  EXPECT_LE(check->decides_height_mm, crossing_mm);
  EXPECT_GT(check->decides_height_mm, crossing_mm - 0.5);
  EXPECT_TRUE(check->hit_there.empty());
  EXPECT_NEAR(check->point_there.x, XAtHeight(shell, check->decides_height_mm), 1e-4);
  EXPECT_NEAR(check->point_there.y, 16.0, 1e-6);
  EXPECT_NE(check->reason.find("or lower, blue-2 is clear"), std::string::npos) << check->reason;
  // 10.28" out (where it is seen) under a 40" camera a millimetre of height moves the point
  // 0.257 mm: the point's own millimetre is 3.9 mm of height.
  EXPECT_NEAR(check->decides_within_mm,
              kCameraHeightMm / InchesToMm(XAtHeight(shell, 0.0) - kCameraFootX), 1e-3);
  EXPECT_NE(check->reason.find("shell on red-1"), std::string::npos) << check->reason;
}

// A Q-tip ruled on a bare top (2.5 + 2.5 mm up) just outside blue-2's reach: on figures 8 mm
// tall or more it would lie nearer the camera's foot, inside it.
TEST(RestHeightCheckTest, AQtipOnABareTopSaysAboveWhichHeightTheTargetIsHit) {
  const TopView view(OverheadCalibration());
  const ProjectileObservation qtip = OnAStand("qtip", 5.0);
  const double edge_in = XAtHeight(qtip, 13.0);  // hit from 13 mm up
  const auto check = CheckRestHeight(qtip, view, HitWestOf(edge_in));
  ASSERT_TRUE(check.has_value());
  EXPECT_NEAR(check->decides_height_mm, 13.0, 0.5 + 1e-9);
  EXPECT_GE(check->decides_height_mm, 13.0 - 1e-9);
  EXPECT_EQ(check->hit_there, std::vector<std::string>{"blue-2"});
  EXPECT_NE(check->reason.find("(+-4) or higher, blue-2 is hit"), std::string::npos)
      << check->reason;
}

// Nothing is asked where no height from the bare top to the tallest figures changes the
// ruling, nor of a shot on the mat (its height is the mat's).
TEST(RestHeightCheckTest, NothingIsAskedWhereTheHeightCannotChangeTheRuling) {
  const TopView view(OverheadCalibration());
  EXPECT_FALSE(CheckRestHeight(OnAStand("shell", 27.5), view, HitWestOf(34.5)).has_value());
  // The tallest figures allowed for (25 mm) reach 32.5 mm: 0.05" nearer the foot than ruled.
  EXPECT_FALSE(CheckRestHeight(OnAStand("shell", 27.5), view, HitWestOf(33.9)).has_value());
  ProjectileObservation on_mat = OnAStand("shell", 5.0);
  on_mat.resting_on.clear();
  EXPECT_FALSE(CheckRestHeight(on_mat, view, HitWestOf(34.0 + 1e-3)).has_value());
}

// Taller figures than the default allow for (a 28 mm scale army): the range reaches them.
TEST(RestHeightCheckTest, TheTallestFiguresAreTheClubsWhenTaller) {
  const TopView view(OverheadCalibration());
  const ProjectileObservation shell = OnAStand("shell", 27.5);
  const double edge_in = XAtHeight(shell, 36.0);  // hit only from 36 mm up
  RestHeightCheckOptions o;
  EXPECT_FALSE(CheckRestHeight(shell, view, HitWestOf(edge_in), o).has_value());
  o.max_figure_height_mm = 30.0;
  const auto check = CheckRestHeight(shell, view, HitWestOf(edge_in), o);
  ASSERT_TRUE(check.has_value());
  EXPECT_EQ(check->hit_there, std::vector<std::string>{"blue-2"});
}

// A base whose size the camera could not tell, beside a Q-tip ruled on a bare top (5 mm up, at
// (34, 16)): blue-2, found 40 x 20 with its depth along x and its east edge 1.5" west of the
// point, is clear at any height the stick could lie at (raised 32.5 mm the point moves 0.27"
// west); at 40 x 30, its east edge 10 mm nearer, it is clear as ruled and hit once the stick
// lies 15.7 mm up or more (`hard` seed 359 scene 6: both checks silent, a hit missed).
class RulingHeightAtOtherSizes : public ::testing::Test {
 protected:
  void SetUp() override {
    board_.grid = Grid{12, 8, 4.0};
    red_.id = "red-1";
    red_.side = "red";
    red_.kind = "line_infantry";
    red_.footprint = {{34.0, 16.0}, MmToInches(40), MmToInches(20), 0.0};
    blue_.id = "blue-2";
    blue_.side = "blue";
    blue_.kind = "line_infantry";
    // Turned 90 degrees: its 20 mm depth lies along x.
    blue_.footprint = {{32.5 - MmToInches(10), 16.0}, MmToInches(40), MmToInches(20), 90.0};
  }

  // blue-2 at 40 x 30, grown `grown_mm` toward the point (its west edge kept).
  void OfferDeeperBase(double grown_mm) {
    OtherOutline deeper{"line_cavalry", blue_.footprint};
    deeper.footprint.depth_in += MmToInches(grown_mm);
    deeper.footprint.center.x += MmToInches(grown_mm) / 2;
    blue_.other_outlines = {deeper};
  }

  std::optional<RestHeightCheck> Check() const {
    Shot shot;
    shot.kind = ShotKind::kField;
    shot.point = {34.0, 16.0};
    return CheckRulingHeight(OnAStand("qtip", 5.0), view_, board_, {red_, blue_}, shot, catalog_,
                             rules_);
  }

  static double EastEdge(const OrientedRect& r) {
    double x = r.Corners()[0].x;
    for (const Vec2& c : r.Corners()) x = std::max(x, c.x);
    return x;
  }

  TopView view_{OverheadCalibration()};
  StandKindCatalog catalog_ = LoadStandKinds();
  ShotOptions rules_ = LoadShotOptions("napoleonic");
  Board board_;
  Stand red_, blue_;
};

TEST_F(RulingHeightAtOtherSizes, TheHeightThatDecidesAtAnotherSizeIsSaidWithThatSize) {
  ASSERT_NEAR(EastEdge(blue_.footprint), 32.5, 1e-9);
  ASSERT_NEAR(rules_.hit_radius_in, 1.0, 1e-12);
  // At the size reported no height changes the ruling: nothing to ask.
  EXPECT_FALSE(Check().has_value());

  OfferDeeperBase(10.0);
  ASSERT_NEAR(EastEdge(blue_.other_outlines[0].footprint), 32.5 + MmToInches(10), 1e-9);
  const auto check = Check();
  ASSERT_TRUE(check.has_value());
  EXPECT_EQ(check->stand_id, "red-1");
  EXPECT_EQ(check->outline_stand_id, "blue-2");
  EXPECT_EQ(check->outline, "line_cavalry 40 x 30 mm");
  // Hit from where the point lies within 1" of the deeper base's east edge.
  const ProjectileObservation qtip = OnAStand("qtip", 5.0);
  const double reach_x = 32.5 + MmToInches(10) + 1.0;
  const double crossing_mm =
      kCameraHeightMm * (1.0 - (reach_x - 24.0) / (XAtHeight(qtip, 0) - 24.0));
  EXPECT_GE(check->decides_height_mm, crossing_mm);
  EXPECT_LT(check->decides_height_mm, crossing_mm + 0.5);
  EXPECT_EQ(check->hit_ruled, std::vector<std::string>{"red-1"});
  EXPECT_EQ(check->hit_there, (std::vector<std::string>{"blue-2", "red-1"}));
  EXPECT_NE(check->reason.find("or higher and blue-2's base is line_cavalry 40 x 30 mm"),
            std::string::npos)
      << check->reason;
  EXPECT_NE(check->reason.find("blue-2 is hit: measure how high it lies and blue-2's base"),
            std::string::npos)
      << check->reason;
}

// Where the other size alone decides at the ruled height the verdict asks for the size
// (CONFIRM SIZE); the height is not asked on top of it.
TEST_F(RulingHeightAtOtherSizes, NoHeightIsAskedOfASizeThatDecidesAsRuled) {
  OfferDeeperBase(20.0);  // its east edge 0.71" from the point as ruled
  EXPECT_FALSE(Check().has_value());
}

}  // namespace
}  // namespace referee
