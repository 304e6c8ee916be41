// Whether the height a projectile lying on a stand is ruled at decides the ruling, under a camera
// 40" above (24, 16) (tests/overhead_calibration.hpp): 10" from its foot a point 27.5 mm up is
// seen 7 mm farther out than it lies, so a stand whose edge is a few millimetres inside the
// circle may be in or out depending on how high the shot truly rests.
#include <gtest/gtest.h>

#include "../overhead_calibration.hpp"
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

}  // namespace
}  // namespace referee
