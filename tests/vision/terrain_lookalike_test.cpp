// Terrain that may look like a base (vision/terrain_lookalike): one paint throughout (water, a
// roof) told from figures of several colours, also through a webcam's noise and JPEG.
#include <algorithm>
#include <cmath>
#include <vector>

#include <gtest/gtest.h>
#include <opencv2/imgproc.hpp>

#include "engine/board_file.hpp"
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

// Napoleonic seed 7, scene 1 as an MJPEG webcam sends it (JPEG quality 80), with the kit's side
// colours and a board file giving each square's terrain: the river either side of the bridge in
// square B8 shows two base-sized patches of blue water, which JPEG scatters (0.59-0.63 of the
// inside within 12 % of single pixels). They are terrain, not blue bases; every base of the scene
// is found.
TEST(TerrainLookalikeTest, JpegWaterBesideABridgeIsNoBase) {
  const Scenario sc = LoadScenario(DatasetsDir() / "scenarios" / "napoleonic.json");
  const SynthScene scene = GenerateScene(sc, SynthOptions{.seed = 7}, 1);
  Board squares_only = scene.board;
  squares_only.features.clear();
  SideColorModel colors;
  for (const auto& [name, rgb] : DefaultSideColors()) {
    colors.AddSideFromSrgb(name, cv::Vec3b(static_cast<uchar>(rgb[0]), static_cast<uchar>(rgb[1]),
                                           static_cast<uchar>(rgb[2])));
  }
  const TopView view(TruthCalibration(scene));
  const StandDetection jpeg = DetectStands(view.Rectify(AsWebcamSends(scene.before, 80)), view,
                                           colors, LoadStandKinds(), {}, &squares_only);
  for (const Vec2 water : {Vec2{4.88, 30.21}, Vec2{7.15, 30.21}}) {
    for (const auto& ds : jpeg.stands) {
      EXPECT_GT(InchesToMm(Distance(ds.stand.footprint.center, water)), 12.0)
          << ds.stand.id << " at " << water.x << ", " << water.y;
    }
  }
  for (const Stand& truth : scene.stands) {
    EXPECT_TRUE(FoundOfItsSide(jpeg, truth, 6.0)) << truth.id;
  }
}

}  // namespace
}  // namespace referee
