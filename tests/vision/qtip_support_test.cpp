// What a Q-tip lying across a stand rests on, from a drawn `before` top view under a camera
// straight above (no parallax): figures whose thin tops (a rank of heads) cover only part of
// the stick's width still hold it up.
#include <gtest/gtest.h>

#include <opencv2/imgproc.hpp>

#include "../overhead_calibration.hpp"
#include "vision/qtip_support.hpp"

namespace referee {
namespace {

constexpr double kPxPerIn = 64.0;

cv::Point Px(const TopView& view, Vec2 p) {
  const cv::Point2d q = view.RectifiedFromTable(p);
  return {static_cast<int>(std::lround(q.x)), static_cast<int>(std::lround(q.y))};
}

// A 40 x 20 mm base at the board's centre (under the camera): a 3 mm blue border, green flock,
// and a rank of figures' heads (2 mm across, 3 mm apart) along its width, `rank_offset_mm`
// from the centre line, on a green mat a little darker than the flock (a common pairing).
cv::Mat DrawBefore(const TopView& view, const OrientedRect& fp, double rank_offset_mm) {
  cv::Mat top(view.size(), CV_8UC3, cv::Scalar(50, 95, 70));
  const auto fill = [&](const OrientedRect& r, const cv::Scalar& bgr) {
    std::vector<cv::Point> poly;
    for (const Vec2 c : r.Corners()) poly.push_back(Px(view, c));
    cv::fillConvexPoly(top, poly, bgr, cv::LINE_AA);
  };
  fill(fp, cv::Scalar(200, 70, 40));
  fill(Grown(fp, -MmToInches(3.0)), cv::Scalar(60, 110, 80));
  const double r_px = MmToInches(1.0) * kPxPerIn;
  for (double x_mm = -15.0; x_mm <= 15.0; x_mm += 3.0) {
    const Vec2 c =
        fp.center + MmToInches(x_mm) * fp.AxisX() + MmToInches(rank_offset_mm) * fp.AxisY();
    cv::circle(top, Px(view, c), static_cast<int>(std::lround(r_px)), cv::Scalar(40, 60, 170),
               cv::FILLED, cv::LINE_AA);
  }
  return top;
}

// The 40 x 20 mm base at the board's centre, and what a stick lying along its width through its
// centre (both ends 17.5 mm past the base) rests on when the rank of heads is `rank_offset_mm`
// off the stick's axis.
DetectedStand CentreStand() {
  DetectedStand stand;
  stand.stand.id = "blue-1";
  stand.stand.side = "blue";
  stand.stand.footprint = OrientedRect{{24.0, 16.0}, MmToInches(40.0), MmToInches(20.0), 0.0};
  return stand;
}

QtipSupport StickAlongTheBase(double rank_offset_mm) {
  const TopView view(OverheadCalibration(), TopViewOptions{.px_per_inch = kPxPerIn});
  const DetectedStand stand = CentreStand();
  const OrientedRect& fp = stand.stand.footprint;
  const cv::Mat before = DrawBefore(view, fp, rank_offset_mm);
  const Vec2 tip = fp.center + MmToInches(37.5) * fp.AxisX();
  const Vec2 plain = fp.center - MmToInches(37.5) * fp.AxisX();
  return QtipRestHeights(tip, plain, view, before, {stand});
}

// Bug (session 12, napoleonic seed 7 scene 22): a stick lying across a rank of figures whose
// heads covered 38-43% of each stick-wide piece of `before` was taken to lie on the mat, as a
// piece counted only when half of it showed figures: 7.66 mm off. The length of stick over
// figures is now the sum of the pieces' figure shares.
TEST(QtipSupportTest, StickOverARankOfHeadsOffItsAxisRestsOnTheFigures) {
  // The heads' centres 1.6 mm off the stick's axis: they cover a third of its width.
  const QtipSupport s = StickAlongTheBase(1.6);
  EXPECT_EQ(s.what, "figures");
  EXPECT_EQ(s.stand_id, "blue-1");
  EXPECT_NEAR(InchesToMm(s.tip_height_in), 2.5 + 20.0 + 1.25, 0.01);
  EXPECT_NEAR(InchesToMm(s.plain_height_in), 2.5 + 20.0 + 1.25, 0.01);
}

// The same stick with the rank of heads 4 mm off its axis, clear of it: the heads' blurred edges
// under the stick's outline do not hold it up.
TEST(QtipSupportTest, StickBesideARankOfHeadsIsNotOnThem) {
  EXPECT_NE(StickAlongTheBase(4.0).what, "figures");
}

}  // namespace
}  // namespace referee
