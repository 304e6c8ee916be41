// Terrain that may look like a base (vision/terrain_lookalike): one paint throughout (water, a
// roof) told from figures of several colours, also through a webcam's noise and JPEG.
#include <algorithm>
#include <cmath>
#include <vector>

#include <gtest/gtest.h>
#include <opencv2/imgproc.hpp>

#include "rendered_detection.hpp"
#include "vision/terrain_lookalike.hpp"

namespace referee {
namespace {

constexpr double kMmPerPx = 0.8;

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
  EXPECT_TRUE(LooksLikeTerrain(p.toward, water, p.valid, p.r, border_px, {}));

  cv::Mat figures(p.toward.size(), CV_32FC2);
  const cv::Vec2f paints[4] = {{-0.2f, 0.6f}, {0.3f, 0.6f}, {-0.2f, 0.1f}, {0.3f, 0.1f}};
  for (int y = 0; y < figures.rows; ++y) {
    for (int x = 0; x < figures.cols; ++x) {
      figures.at<cv::Vec2f>(y, x) = paints[((x / 4) + 3 * (y / 4)) % 4];
    }
  }
  EXPECT_FALSE(LooksLikeTerrain(p.toward, figures, p.valid, p.r, border_px, {}));
}

// Every base of the scene found, and none within 12 mm of `where`.
void ExpectAllFoundAndNoneAt(const RenderedDetection& r, const std::vector<Vec2>& where) {
  for (const Vec2 w : where) {
    for (const auto& ds : r.found.stands) {
      EXPECT_GT(InchesToMm(Distance(ds.stand.footprint.center, w)), 12.0)
          << ds.stand.id << " at " << w.x << ", " << w.y;
    }
  }
  for (const Stand& truth : r.scene.stands) {
    EXPECT_TRUE(FoundOfItsSide(r.found, truth, 6.0)) << truth.id;
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

// Napoleonic seed 5, scene 0, sent the same way: the road in square D3 is tan, part of the way
// from the green mat toward red, and under JPEG its edges read as two partial red borders. Only
// the strict colour counts as a border there, so no red base is fitted on the road.
TEST(TerrainLookalikeTest, JpegRoadEdgesAreNoBase) {
  ExpectAllFoundAndNoneAt(DetectInWebcamScene("napoleonic.json", 0, 5, 80),
                          {{14.31, 8.56}, {13.98, 11.03}});
}

}  // namespace
}  // namespace referee
