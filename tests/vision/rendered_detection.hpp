// A rendered scene and the stands the detector finds in its `before` view, with the scenario's
// side colours and the scene's board (calibration from truth).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "datasets/camera_response.hpp"
#include "datasets/synth_scene.hpp"
#include "engine/board_file.hpp"
#include "engine/data_paths.hpp"
#include "engine/stand_kind_catalog_loader.hpp"
#include "rendered_scene.hpp"
#include "scenario_side_colors.hpp"
#include "vision/stand_detector.hpp"

namespace referee {

struct RenderedDetection {
  SynthScene scene;
  StandDetection found;
};

// Scene `index` of a scenario's `seed` set (the scenario file name under datasets/scenarios).
inline RenderedDetection DetectInScene(const std::string& scenario, int index,
                                       std::uint64_t seed = 7) {
  const Scenario sc = LoadScenario(DatasetsDir() / "scenarios" / scenario);
  RenderedDetection r;
  r.scene = GenerateScene(sc, SynthOptions{.seed = seed}, index);
  const TopView view(TruthCalibration(r.scene));
  r.found = DetectStands(view.Rectify(r.scene.before), view, ScenarioSideColors(sc),
                         LoadStandKinds(), {}, &r.scene.board);
  return r;
}

// The side colours a board file without its own gives (TABLE_KIT's nominal paints), as
// `referee bench stands` sets them.
inline SideColorModel KitSideColors() {
  SideColorModel colors;
  colors.AddSidesFromSrgb(DefaultSideColors());
  return colors;
}

// A cheap MJPEG webcam in a warm-lit room, all of s22's camera responses at once (`referee bench
// ... --camera-white-balance 0.9,1,1.1 --camera-vignette 0.15 --camera-desaturate 0.25
// --camera-blur-px 0.8 --camera-noise 3 --camera-jpeg-quality 80`): it washes colour out.
inline CameraResponse WashingWebcam() {
  CameraResponse webcam;
  webcam.white_balance = {0.9, 1, 1.1};
  webcam.vignette = 0.15;
  webcam.desaturate = 0.25;
  webcam.blur_px = 0.8;
  webcam.noise = 3;
  webcam.jpeg_quality = 80;
  webcam.active = true;
  return webcam;
}

// The stand search on `frame`, the scene's `before` as some camera sent it, as `referee bench
// stands` runs it: the kit's side colours and a board file giving each square's terrain,
// without the scene's drawn terrain outlines.
inline StandDetection DetectInSentFrame(const SynthScene& scene, const cv::Mat& frame,
                                        const StandDetectorOptions& options = {}) {
  Board squares_only = scene.board;
  squares_only.features.clear();
  const TopView view(TruthCalibration(scene));
  return DetectStands(view.Rectify(frame), view, KitSideColors(), LoadStandKinds(), options,
                      &squares_only);
}

// The stand search on a scene already rendered, as DetectInWebcamScene runs it: a test that
// compares options on one scene renders it once.
inline StandDetection DetectAsWebcamSends(const SynthScene& scene, int quality,
                                          const StandDetectorOptions& options = {}) {
  return DetectInSentFrame(scene, AsWebcamSends(scene.before, quality), options);
}

// Scene `index` of a scenario's `seed` set as an MJPEG webcam sends it (JPEG at `quality`, chroma
// subsampled), detected as `referee bench stands` detects it: the kit's side colours and a board
// file giving each square's terrain, without the scene's drawn terrain outlines.
inline RenderedDetection DetectInWebcamScene(const std::string& scenario, int index,
                                             std::uint64_t seed, int quality,
                                             const StandDetectorOptions& options = {}) {
  const Scenario sc = LoadScenario(DatasetsDir() / "scenarios" / scenario);
  RenderedDetection r;
  r.scene = GenerateScene(sc, SynthOptions{.seed = seed}, index);
  r.found = DetectAsWebcamSends(r.scene, quality, options);
  return r;
}

// The scene's true base `id` (a scene without it is a broken test: thrown, and reported).
inline const Stand& Truth(const RenderedDetection& r, const std::string& id) {
  const auto it = std::find_if(r.scene.stands.begin(), r.scene.stands.end(),
                               [&](const Stand& t) { return t.id == id; });
  if (it == r.scene.stands.end()) throw std::runtime_error("no true base " + id);
  return *it;
}

// Is a base of truth's side found within mm of its centre?
inline bool FoundOfItsSide(const StandDetection& d, const Stand& truth, double mm) {
  return std::any_of(d.stands.begin(), d.stands.end(), [&](const auto& ds) {
    return ds.stand.side == truth.side &&
           Distance(ds.stand.footprint.center, truth.footprint.center) < MmToInches(mm);
  });
}

// The detected base of the truth's side nearest its centre, within `mm`, or nullptr.
inline const DetectedStand* FoundNear(const RenderedDetection& r, const Stand& truth,
                                      double mm = std::numeric_limits<double>::infinity()) {
  const DetectedStand* best = nullptr;
  for (const auto& ds : r.found.stands) {
    const double d = Distance(ds.stand.footprint.center, truth.footprint.center);
    if (ds.stand.side == truth.side && d < MmToInches(mm) &&
        (!best || d < Distance(best->stand.footprint.center, truth.footprint.center))) {
      best = &ds;
    }
  }
  return best;
}

// The found base sits on the truth: its centre within `centre_mm`, its width and depth each
// within `size_mm` of the truth's.
inline void ExpectPlacedOn(const DetectedStand& found, const Stand& truth, double centre_mm,
                           double size_mm) {
  EXPECT_LT(InchesToMm(Distance(found.stand.footprint.center, truth.footprint.center)), centre_mm);
  EXPECT_NEAR(InchesToMm(found.stand.footprint.width_in), InchesToMm(truth.footprint.width_in),
              size_mm);
  EXPECT_NEAR(InchesToMm(found.stand.footprint.depth_in), InchesToMm(truth.footprint.depth_in),
              size_mm);
}

// Bases found within `mm` of the truth's centre, either side.
inline int CountNear(const RenderedDetection& r, const Stand& truth, double mm) {
  return static_cast<int>(
      std::count_if(r.found.stands.begin(), r.found.stands.end(), [&](const DetectedStand& ds) {
        return Distance(ds.stand.footprint.center, truth.footprint.center) < MmToInches(mm);
      }));
}

// Every detected base lies within `mm` of a true one: nothing claimed where there is none.
inline void ExpectNoFalseBases(const RenderedDetection& r, double mm) {
  for (const auto& ds : r.found.stands) {
    EXPECT_TRUE(std::any_of(r.scene.stands.begin(), r.scene.stands.end(),
                            [&](const Stand& t) {
                              return Distance(ds.stand.footprint.center, t.footprint.center) <
                                     MmToInches(mm);
                            }))
        << "no base at " << ds.stand.footprint.center.x << ", " << ds.stand.footprint.center.y;
  }
}

// How far a found base's angle (its facing, when known) lies from the true base's, degrees
// (0-180).
inline double FacingOffDeg(const DetectedStand& found, const Stand& truth) {
  return std::abs(
      std::remainder(found.stand.footprint.angle_deg - truth.footprint.angle_deg, 360.0));
}

// The true base `id` has a stripe; the base found within 6 mm of it is given a facing within
// 10 degrees of its front.
inline void ExpectFacingGiven(const RenderedDetection& r, const std::string& id) {
  const Stand& truth = Truth(r, id);
  ASSERT_TRUE(truth.facing_known) << id;
  const DetectedStand* found = FoundNear(r, truth, 6.0);
  ASSERT_NE(found, nullptr) << id;
  ASSERT_TRUE(found->stand.facing_known) << id;
  EXPECT_LT(FacingOffDeg(*found, truth), 10.0) << id;
}

}  // namespace referee
