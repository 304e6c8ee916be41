// Terrain that may look like a base (vision/terrain_lookalike): one paint throughout (water, a
// roof) told from figures of several colours, also through a webcam's noise and JPEG.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <opencv2/imgproc.hpp>

#include "rendered_detection.hpp"
#include "vision/terrain_lookalike.hpp"

namespace referee::terrain_lookalike_test {
namespace {

constexpr double kMmPerPx = 0.8;
// The mat's log-chroma and a blue side's, as the side was refitted to a frame's blue bases.
const cv::Vec2f kMat(0.0f, 0.0f);
const cv::Vec2f kSide(-0.16f, 0.66f);

// A 40 x 20 mm shape at (60, 40) whose inside reads toward the side's colour throughout.
struct Patch {
  PxRect r{{60, 40}, {1, 0}, 40 / kMmPerPx, 20 / kMmPerPx, {}};
  cv::Mat toward = cv::Mat(80, 120, CV_8U, cv::Scalar(255));
  cv::Mat valid = cv::Mat(80, 120, CV_8U, cv::Scalar(255));
};

// One paint whose log-chroma a noisy camera scatters by 0.1 per pixel (a JPEG on dark water:
// most pixels over 12 % from the median) is still one paint; figures in four colours 0.5 apart,
// in 4-pixel patches, are not.
TEST(TerrainLookalikeTest, OnePaintThroughPixelNoiseIsTerrainFiguresAreNot) {
  const Patch p;
  const double border_px = 3.0 / kMmPerPx;
  cv::Mat water(p.toward.size(), CV_32FC2, cv::Scalar(-0.2, 0.6));
  cv::Mat noise(water.size(), CV_32FC2);
  cv::RNG rng(7);
  rng.fill(noise, cv::RNG::NORMAL, 0.0, 0.1);
  water += noise;
  EXPECT_TRUE(LooksLikeTerrain(p.toward, water, p.valid, kMat, kSide, p.r, border_px, {}));

  cv::Mat figures(p.toward.size(), CV_32FC2);
  const cv::Vec2f paints[4] = {{-0.2f, 0.6f}, {0.3f, 0.6f}, {-0.2f, 0.1f}, {0.3f, 0.1f}};
  for (int y = 0; y < figures.rows; ++y) {
    for (int x = 0; x < figures.cols; ++x) {
      figures.at<cv::Vec2f>(y, x) = paints[((x / 4) + 3 * (y / 4)) % 4];
    }
  }
  EXPECT_FALSE(LooksLikeTerrain(p.toward, figures, p.valid, kMat, kSide, p.r, border_px, {}));
}

// `paint` over r less `inset_px` on the mat (the blurred fit finds a patch a little wide).
cv::Mat PaintedOnMat(const PxRect& r, cv::Size size, const cv::Vec2f& paint, double inset_px) {
  cv::Mat chroma(size, CV_32FC2, cv::Scalar(kMat[0], kMat[1]));
  cv::fillConvexPoly(chroma, GrownCorners(r, -inset_px), cv::Scalar(paint[0], paint[1]));
  return chroma;
}

// Dark water whose paint lies off the side's hue (47 degrees from the blue bases' colour, out
// of the wide cone: nothing inside reads toward blue) but as far from the mat along blue's line
// as the washed blue borders, its edge blurred into the mat: terrain. A base of the same blue
// border around a top of bare flock, one paint too, is not: its inside departs toward blue
// less than its border (here away from it).
TEST(TerrainLookalikeTest, OffHuePaintBlurredAtItsEdgeIsTerrainARingIsNot) {
  Patch p;
  p.toward.setTo(0);
  const double border_px = 3.0 / kMmPerPx;
  cv::Mat water = PaintedOnMat(p.r, p.toward.size(), {-0.75f, 0.42f}, 1.0 / kMmPerPx);
  cv::GaussianBlur(water, water, {0, 0}, 1.5);
  EXPECT_TRUE(LooksLikeTerrain(p.toward, water, p.valid, kMat, kSide, p.r, border_px, {}));

  cv::Mat base = PaintedOnMat(p.r, p.toward.size(), kSide, 0.0);
  cv::fillConvexPoly(base, GrownCorners(p.r, -border_px), cv::Scalar(-0.3, -0.2));
  cv::GaussianBlur(base, base, {0, 0}, 1.5);
  EXPECT_FALSE(LooksLikeTerrain(p.toward, base, p.valid, kMat, kSide, p.r, border_px, {}));
}

// Every base of the scene found (of `side` only, when given), and none within 12 mm of `where`.
void ExpectAllFoundAndNoneAt(const RenderedDetection& r, const std::vector<Vec2>& where,
                             const std::string& side = "") {
  for (const Vec2 w : where) {
    for (const auto& ds : r.found.stands) {
      EXPECT_GT(InchesToMm(Distance(ds.stand.footprint.center, w)), 12.0)
          << ds.stand.id << " at " << w.x << ", " << w.y;
    }
  }
  for (const Stand& truth : r.scene.stands) {
    if (side.empty() || truth.side == side) {
      EXPECT_TRUE(FoundOfItsSide(r.found, truth, 6.0)) << truth.id;
    }
  }
}

// Napoleonic seed 7, scene 1 as an MJPEG webcam sends it (JPEG quality 80), with the kit's side
// colours and a board file giving each square's terrain: the river either side of the bridge in
// square B8 shows two base-sized patches of blue water, which JPEG scatters (0.59-0.63 of the
// inside within 12 % of single pixels). They are terrain, not blue bases; every base of the scene
// is found.
TEST(TerrainLookalikeTest, JpegWaterBesideABridgeIsNoBase) {
  ExpectAllFoundAndNoneAt(DetectInWebcamScene("napoleonic.json", 1, 7, 80),
                          {{4.88, 30.21}, {7.15, 30.21}});
}

// Napoleonic seed 7, scene 8 as an MJPEG webcam sends it (JPEG quality 80): the river beside
// the bridge in square L3 is dark water whose JPEG chroma lies off blue's hue, so only 0.44 of
// each patch's inside reads toward blue. The frame-washout pass fitted a washed blue base to
// each patch; they are water, not bases, and every blue base of the scene is found.
TEST(TerrainLookalikeTest, JpegDarkWaterOffTheSideHueIsNoBase) {
  ExpectAllFoundAndNoneAt(DetectInWebcamScene("napoleonic.json", 8, 7, 80),
                          {{45.99, 8.63}, {45.99, 11.38}}, "blue");
}

// Napoleonic seed 5, scene 0, sent the same way: the road in square D3 is tan, part of the way
// from the green mat toward red, and under JPEG its edges read as two partial red borders. Only
// the strict colour counts as a border there, so no red base is fitted on the road.
TEST(TerrainLookalikeTest, JpegRoadEdgesAreNoBase) {
  ExpectAllFoundAndNoneAt(DetectInWebcamScene("napoleonic.json", 0, 5, 80),
                          {{14.31, 8.56}, {13.98, 11.03}});
}

}  // namespace
}  // namespace referee::terrain_lookalike_test
