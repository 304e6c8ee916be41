// Patches of a side's washed hue placed as its bases when figures stand on them
// (AddWashedBasesWithFigures in vision/washed_out_bases): drawn top views in the colours a
// washing webcam left ancient seed 5 scene 1 (a tan mat, a blue border washed most of the way
// to it, a white figure on the same line from the mat).
#include <vector>

#include <gtest/gtest.h>
#include <opencv2/imgproc.hpp>

#include "vision/px_rect.hpp"
#include "vision/side_color_model.hpp"
#include "vision/side_washout.hpp"
#include "vision/washed_out_bases.hpp"

namespace referee::washed_out_bases_test {
namespace {

constexpr double kMmPerPx = 0.8;
const cv::Scalar kMat(138, 164, 190);     // BGR, as measured on the frame
const cv::Scalar kBorder(127, 114, 118);  // the washed blue border
const cv::Scalar kWhite(169, 164, 161);   // a white figure: the same way from the mat
const cv::Scalar kDark(65, 75, 70);       // a dark green figure

PxRect Base(cv::Point2d centre_px, double w_mm, double d_mm) {
  PxRect r;
  r.center = centre_px;
  r.axis_a = {1, 0};
  r.len_a = w_mm / kMmPerPx;
  r.len_b = d_mm / kMmPerPx;
  return r;
}

void Fill(cv::Mat& bgr, const PxRect& r, double inset_px, const cv::Scalar& colour) {
  cv::fillConvexPoly(bgr, GrownCorners(r, -inset_px), colour);
}

// A base: the washed border 3 mm wide, a white figure in the left half of its inside and a dark
// one in the right.
void DrawBaseWithFigures(cv::Mat& bgr, const PxRect& r) {
  Fill(bgr, r, 0, kBorder);
  const double inset = 3.0 / kMmPerPx;
  Fill(bgr, r, inset, kWhite);
  PxRect right = r;
  right.len_a = 0.5 * r.len_a;
  right.center.x += 0.25 * r.len_a;
  Fill(bgr, right, inset, kDark);
}

struct Frame {
  cv::Mat bgr, chroma, valid;
  cv::Vec2f mat;
};

Frame Shoot(const cv::Mat& bgr) {
  Frame f;
  cv::GaussianBlur(bgr, f.bgr, {0, 0}, 1.0);
  LogChroma(f.bgr, 28, f.chroma, f.valid);
  const cv::Vec2d mat = LogChromaOf(cv::Vec3b(138, 164, 190));
  f.mat = cv::Vec2f(static_cast<float>(mat[0]), static_cast<float>(mat[1]));
  return f;
}

std::vector<SideColor> BlueAndRed() {
  SideColorModel m;
  m.AddSideFromSrgb("blue", {30, 60, 200});
  m.AddSideFromSrgb("red", {200, 30, 30});
  return m.sides();
}

// Three of blue's bases found: they show how far this camera leaves blue's colour.
std::vector<PxRect> FoundBlue() {
  return {Base({70, 60}, 40, 20), Base({170, 60}, 40, 20), Base({270, 60}, 40, 20)};
}

TEST(WashedBasesWithFiguresTest, PlacesAPatchWithFiguresButNotOnePaint) {
  cv::Mat bgr(260, 360, CV_8UC3, kMat);
  for (const PxRect& r : FoundBlue()) DrawBaseWithFigures(bgr, r);
  const PxRect with_figures = Base({90, 170}, 40, 20);
  const PxRect one_paint = Base({250, 170}, 40, 20);  // paper of the washed border's colour
  DrawBaseWithFigures(bgr, with_figures);
  Fill(bgr, one_paint, 0, kBorder);
  const Frame f = Shoot(bgr);
  const std::vector<SideColor> sides = BlueAndRed();
  // Both are filled with the washed hue: the white figure lies toward blue as the border does.
  const WashoutOptions washout;
  const RingDeparture border =
      MeasureRingDeparture(f.chroma, f.valid, f.mat, cv::Vec2f(sides[0].mean), with_figures,
                           3.0 / kMmPerPx, 6.0 / kMmPerPx);
  ASSERT_GT(border.border, washout.min_fraction);
  ASSERT_GT(border.inside, washout.max_inside_to_border * border.border);

  std::vector<std::vector<PxRect>> rects{FoundBlue(), {}};
  const std::vector<std::vector<PxRect>> filled{{with_figures, one_paint}, {}};
  StandDetectorOptions options;
  const std::vector<PxRect> placed = AddWashedBasesWithFigures(
      f.bgr, f.chroma, f.valid, f.mat, sides, filled, cv::Mat(), kMmPerPx, options, rects);
  ASSERT_EQ(placed.size(), 1u);
  EXPECT_LT(cv::norm(placed[0].center - with_figures.center), 1.0);
  EXPECT_EQ(rects[0].size(), 4u);
  EXPECT_TRUE(rects[1].empty());
}

// Nothing is placed for a side with fewer than three bases found (nothing shows how far this
// camera washes it), where a base already lies, or where the board's terrain may show the
// side's shade.
TEST(WashedBasesWithFiguresTest, NeedsTheSidesFoundBasesAndAFreePlaceOffTerrain) {
  cv::Mat bgr(260, 360, CV_8UC3, kMat);
  for (const PxRect& r : FoundBlue()) DrawBaseWithFigures(bgr, r);
  const PxRect patch = Base({90, 170}, 40, 20);
  DrawBaseWithFigures(bgr, patch);
  const Frame f = Shoot(bgr);
  const std::vector<SideColor> sides = BlueAndRed();
  const std::vector<std::vector<PxRect>> filled{{patch}, {}};
  StandDetectorOptions options;

  std::vector<PxRect> two = FoundBlue();
  two.pop_back();
  std::vector<std::vector<PxRect>> few{two, {}};
  EXPECT_TRUE(AddWashedBasesWithFigures(f.bgr, f.chroma, f.valid, f.mat, sides, filled, cv::Mat(),
                                        kMmPerPx, options, few)
                  .empty());

  std::vector<std::vector<PxRect>> taken{FoundBlue(), {Base({92, 171}, 40, 40)}};
  EXPECT_TRUE(AddWashedBasesWithFigures(f.bgr, f.chroma, f.valid, f.mat, sides, filled, cv::Mat(),
                                        kMmPerPx, options, taken)
                  .empty());

  cv::Mat water(bgr.size(), CV_8U, cv::Scalar(0));
  cv::circle(water, {90, 170}, 40, cv::Scalar(255), cv::FILLED);
  std::vector<std::vector<PxRect>> rects{FoundBlue(), {}};
  EXPECT_TRUE(AddWashedBasesWithFigures(f.bgr, f.chroma, f.valid, f.mat, sides, filled, water,
                                        kMmPerPx, options, rects)
                  .empty());
  EXPECT_EQ(AddWashedBasesWithFigures(f.bgr, f.chroma, f.valid, f.mat, sides, filled, cv::Mat(),
                                      kMmPerPx, options, rects)
                .size(),
            1u);
}

}  // namespace
}  // namespace referee::washed_out_bases_test
