// Two pieces of one side found a few millimetres apart (vision/short_bases, MergePieces): the
// colour of a 40 x 40 mm base whose figures break its ring stops short of its middle, and the
// ring fit of its other half begins 3-4 mm further on. Neither piece shows a border on its side
// facing the other, so they are one base; two 40 x 20 mm bases as far apart each show their
// border there, and stay two. Drawn on a top view (no camera, no render), and on a rendered
// napoleonic scene as an MJPEG webcam sends it.
#include <vector>

#include <gtest/gtest.h>
#include <opencv2/imgproc.hpp>

#include "drawn_borders.hpp"
#include "rendered_detection.hpp"
#include "vision/short_bases.hpp"

namespace referee::pieces_apart_test {
namespace {

constexpr double kMmPerPx = 0.8;
constexpr double kBorderMm = 3.0;
const std::vector<BaseSize> kSizes{{40, 20}, {40, 30}, {40, 40}, {60, 40}};
const cv::Scalar kMat(60, 140, 60), kTop(170, 195, 205), kBlue(200, 60, 30);

PxRect Rect(cv::Point2d centre_px, double w_mm, double d_mm) {
  return DrawnRect(centre_px, w_mm, d_mm, 0.0, kMmPerPx);
}

// A base's top on the mat: its border in blue around a pale top.
void DrawBase(cv::Mat& img, const PxRect& r) {
  cv::fillConvexPoly(img, GrownCorners(r, 0), kBlue);
  cv::fillConvexPoly(img, GrownCorners(r, -kBorderMm / kMmPerPx), kTop);
}

cv::Mat BlueMask(const cv::Mat& img) {
  cv::Mat mask;
  cv::inRange(img, kBlue, kBlue, mask);
  return mask;
}

// The two pieces, merged or not.
std::vector<PxRect> Merged(const cv::Mat& img, const PxRect& a, const PxRect& b) {
  std::vector<std::vector<PxRect>> rects{{a, b}};
  MergePieces(img, {BlueMask(img)}, kMmPerPx, kSizes, StandDetectorOptions(), 0.0, rects);
  return rects[0];
}

// The pieces were merged into one base on `base`: its centre within 1 mm, its sides within 1.5 mm.
void ExpectOneBaseOn(const std::vector<PxRect>& found, const PxRect& base) {
  ASSERT_EQ(found.size(), 1u);
  EXPECT_LT(cv::norm(found[0].center - base.center) * kMmPerPx, 1.0);
  EXPECT_NEAR(found[0].len_a * kMmPerPx, base.len_a * kMmPerPx, 1.5);
  EXPECT_NEAR(found[0].len_b * kMmPerPx, base.len_b * kMmPerPx, 1.5);
}

// A 40 x 40 mm base found as a blob 16.4 mm deep from its top edge (41 mm wide: a colour blob
// takes in the border's blurred edge) and a 40 x 20 mm ring fit of its lower half lying 0.5 mm
// past its edge (napoleonic 107 scene 9's, below, hold 40.4 x 40.5 mm together): 4.1 mm apart,
// neither showing a border where it faces the other.
TEST(PiecesApartTest, PiecesOfOneBaseAFewMillimetresApartAreOneBase) {
  cv::Mat img(400, 400, CV_8UC3, kMat);
  const PxRect base = Rect({200, 200}, 40, 40);
  DrawBase(img, base);
  const double top_y = 200 - 20 / kMmPerPx;
  const PxRect blob = Rect({200, top_y + 8.2 / kMmPerPx}, 41, 16.4);
  const PxRect ring = Rect({200, 200 + 10.5 / kMmPerPx}, 40, 20);
  ExpectOneBaseOn(Merged(img, blob, ring), base);
}

// A 40 x 40 mm base found as its two halves exactly, touching, with no seam between them: one
// base of 40 x 40 mm. (Each piece may reach past the base by the size tolerance, 5 mm, so the
// size is first matched 5 mm smaller, where 35 mm lies as near 30 as 40: the 40 x 30 mm size came
// first in the catalogue and was taken.)
TEST(PiecesApartTest, TwoHalvesExactlyAtTheBaseAreOneBaseOfItsSize) {
  cv::Mat img(400, 400, CV_8UC3, kMat);
  const PxRect base = Rect({200, 200}, 40, 40);
  DrawBase(img, base);
  ExpectOneBaseOn(Merged(img, Rect({200, 200 - 10 / kMmPerPx}, 40, 20),
                         Rect({200, 200 + 10 / kMmPerPx}, 40, 20)),
                  base);
}

// Two 40 x 20 mm bases 4 mm apart, each with its whole border: the rectangle holding both is a
// 40 x 44 mm one a 40 x 40 base could be, but each shows its border facing the other.
TEST(PiecesApartTest, TwoBasesAFewMillimetresApartStayTwo) {
  cv::Mat img(400, 400, CV_8UC3, kMat);
  const PxRect upper = Rect({200, 200 - 12 / kMmPerPx}, 40, 20);
  const PxRect lower = Rect({200, 200 + 12 / kMmPerPx}, 40, 20);
  DrawBase(img, upper);
  DrawBase(img, lower);
  const std::vector<PxRect> found = Merged(img, upper, lower);
  ASSERT_EQ(found.size(), 2u);
  EXPECT_LT(cv::norm(found[0].center - upper.center), 0.5);
  EXPECT_LT(cv::norm(found[1].center - lower.center), 0.5);
}

// Napoleonic seed 107, scene 9 at JPEG quality 80: red-6, a 40 x 40 mm field gun, was found as
// a 16 x 39 mm blob and a 40 x 20 mm ring fit of its other half, 12 mm off, one a false base.
TEST(PiecesApartTest, AFieldGunThroughAWebcamsJpegIsOneBase) {
  const RenderedDetection r = DetectInWebcamScene("napoleonic.json", 9, 107, 80);
  const Stand& gun = Truth(r, "red-6");
  const DetectedStand* found = FoundNear(r, gun, 12.0);
  ASSERT_NE(found, nullptr);
  ExpectPlacedOn(*found, gun, 2.0, 2.0);
  EXPECT_EQ(CountNear(r, gun, 25.0), 1);
}

}  // namespace
}  // namespace referee::pieces_apart_test
