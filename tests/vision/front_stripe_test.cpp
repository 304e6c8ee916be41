// The front stripe read on drawn bases: a white stripe inside a side-colour border, lit as the
// border is, on a top view whose pixels are coarser than the stripe test's 0.5 mm depth bins.
#include <array>

#include <gtest/gtest.h>
#include <opencv2/imgproc.hpp>

#include "drawn_borders.hpp"
#include "vision/front_stripe.hpp"
#include "vision/px_rect.hpp"

namespace referee::front_stripe_test {
namespace {

constexpr double kMmPerPx = 0.79;  // a 1080p camera's top view of a 48 x 32" board

// rect filled with bgr, its edges antialiased.
void FillRect(cv::Mat& img, const PxRect& rect, const cv::Scalar& bgr) {
  cv::fillConvexPoly(img, GrownCorners(rect, 0), bgr, cv::LINE_AA);
}

// A 40 x 40 mm base at centre_px turned angle_deg: a red border border_mm wide, a white stripe
// stripe_mm wide inside it along the +b edge, a tan flock and two dark figures inside, on a
// green mat; blurred by a Gaussian whose 10-90 % rise is blur_mm.
cv::Mat DrawnStripedBase(const PxRect& r, double border_mm, double stripe_mm, double blur_mm) {
  cv::Mat img(220, 220, CV_8UC3, cv::Scalar(52, 96, 58));
  FillRect(img, r, cv::Scalar(38, 44, 168));  // the border, the whole top first
  const double b_px = border_mm / kMmPerPx, s_px = stripe_mm / kMmPerPx;
  PxRect inner = r;
  inner.len_a -= 2 * b_px;
  inner.len_b -= 2 * b_px;
  FillRect(img, inner, cv::Scalar(206, 209, 211));  // the stripe, under the interior
  PxRect interior = inner;
  interior.len_b -= s_px;
  interior.center -= 0.5 * s_px * r.AxisB();
  FillRect(img, interior, cv::Scalar(70, 120, 150));
  for (const double along : {-0.25, 0.25}) {
    const cv::Point2d c = r.center + along * r.len_a * r.axis_a - 0.1 * r.len_b * r.AxisB();
    cv::ellipse(img, cv::Point(static_cast<int>(c.x), static_cast<int>(c.y)), cv::Size(5, 9), 0, 0,
                360, cv::Scalar(90, 50, 40), cv::FILLED);
  }
  cv::GaussianBlur(img, img, {0, 0}, BlurSigmaPx(blur_mm, kMmPerPx));
  return img;
}

PxRect Base(double angle_deg) { return DrawnRect({110.3, 109.7}, 40.0, 40.0, angle_deg, kMmPerPx); }

// Napoleonic seed 5, scene 0: red-4, red-8 and blue-4 stood square to the grid with their white
// stripes plain to see, yet no facing was read. The depth bins (0.5 mm) are finer than the top
// view's pixels (0.79 mm): on an edge square to the pixel grid every third bin holds no pixel,
// and those empty bins were averaged in as black, so the stripe read dimmer than its own border.
TEST(FrontStripeTest, AStripeSquareToThePixelGridIsRead) {
  for (const double angle_deg : {0.0, 90.0, 180.0, 270.0}) {
    const PxRect r = Base(angle_deg);
    const cv::Mat img = DrawnStripedBase(r, 3.0, 2.5, 1.2);
    const std::array<double, 4> scores = FrontStripeScores(img, r, kMmPerPx, 1.2);
    EXPECT_EQ(FrontStripeSide(scores, {true, true, true, true}), 3)
        << "at " << angle_deg << " deg: scores " << scores[0] << " " << scores[1] << " "
        << scores[2] << " " << scores[3];
  }
}

// The same base turned off the pixel grid was read before the fix as well: the reading does not
// depend on how the base lies to the pixels.
TEST(FrontStripeTest, AStripeOffThePixelGridIsRead) {
  for (const double angle_deg : {17.0, 128.0}) {
    const PxRect r = Base(angle_deg);
    const cv::Mat img = DrawnStripedBase(r, 3.0, 2.5, 1.2);
    const std::array<double, 4> scores = FrontStripeScores(img, r, kMmPerPx, 1.2);
    EXPECT_EQ(FrontStripeSide(scores, {true, true, true, true}), 3) << "at " << angle_deg;
  }
}

// Without a stripe no edge is read as one, square to the grid or not.
TEST(FrontStripeTest, NoStripeNoFacing) {
  for (const double angle_deg : {0.0, 17.0}) {
    const PxRect r = Base(angle_deg);
    const cv::Mat img = DrawnStripedBase(r, 3.0, 0.0, 1.2);
    const std::array<double, 4> scores = FrontStripeScores(img, r, kMmPerPx, 1.2);
    EXPECT_EQ(FrontStripeSide(scores, {true, true, true, true}), -1) << "at " << angle_deg;
  }
}

// A base without a stripe under a tree's crowns: a pale tan flock shows only along its +b edge,
// the crowns cover the other three edges and the border beside them.
struct BaseUnderCrowns {
  cv::Mat img;
  cv::Mat border_seen;  // the border pixels the crowns leave in the open (the side's evidence)
};

BaseUnderCrowns DrawnBaseUnderCrowns(const PxRect& r) {
  BaseUnderCrowns out;
  out.img = cv::Mat(220, 220, CV_8UC3, cv::Scalar(120, 130, 140));  // a grey mat
  const double b_px = 3.0 / kMmPerPx;
  FillRect(out.img, r, cv::Scalar(150, 60, 40));
  PxRect inner = r;
  inner.len_a -= 2 * b_px;
  inner.len_b -= 2 * b_px;
  FillRect(out.img, inner, cv::Scalar(120, 175, 195));
  out.border_seen = cv::Mat(out.img.size(), CV_8U, cv::Scalar(0));
  cv::fillConvexPoly(out.border_seen, GrownCorners(r, 0), cv::Scalar(255));
  cv::fillConvexPoly(out.border_seen, GrownCorners(r, -b_px), cv::Scalar(0));
  // Crowns over all but a strip along the +b edge, 9 mm deep.
  cv::Mat crowns(out.img.size(), CV_8U, cv::Scalar(0));
  PxRect covered = r;  // 6 mm past the -a, +a and -b edges, to 9 mm inside the +b edge
  covered.len_a += 12.0 / kMmPerPx;
  covered.len_b -= 3.0 / kMmPerPx;
  covered.center -= (7.5 / kMmPerPx) * r.AxisB();
  cv::fillConvexPoly(crowns, GrownCorners(covered, 0), cv::Scalar(255));
  out.img.setTo(cv::Scalar(40, 85, 45), crowns);
  out.border_seen.setTo(0, crowns);
  cv::GaussianBlur(out.img, out.img, {0, 0}, BlurSigmaPx(1.2, kMmPerPx));
  return out;
}

// Ancient seed 5, scene 11 (tests/vision/stand_facing_test): a flock brighter than the crowns in
// every channel stands out of them as a stripe would. Judged against edges that do not show the
// base's own top, it would be read as the front; with two of the other three edges hidden, no
// edge is scored.
TEST(FrontStripeTest, NoStripeReadAgainstEdgesUnderCrowns) {
  const PxRect r = Base(0.0);
  const BaseUnderCrowns drawn = DrawnBaseUnderCrowns(r);
  const std::array<bool, 4> seen = StripeEdgesSeen(drawn.border_seen, r, 3.0 / kMmPerPx);
  EXPECT_EQ(seen, (std::array<bool, 4>{false, false, false, true}));
  const std::array<double, 4> scores = FrontStripeScores(drawn.img, r, kMmPerPx, 1.2, {}, seen);
  EXPECT_EQ(FrontStripeSide(scores, {true, true, true, true}), -1);
  // The premise: against all four edges the flock passes for a stripe.
  const std::array<double, 4> unguarded = FrontStripeScores(drawn.img, r, kMmPerPx, 1.2);
  EXPECT_EQ(FrontStripeSide(unguarded, {true, true, true, true}), 3)
      << unguarded[0] << " " << unguarded[1] << " " << unguarded[2] << " " << unguarded[3];
}

}  // namespace
}  // namespace referee::front_stripe_test
