// A generated shot (seed 5) read after the webcam sent its `after` frame as JPEG and its
// exposure drifted: shared by the exposure-drift and 720p suites.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "datasets/exposure_drift.hpp"
#include "datasets/synth_scene.hpp"
#include "engine/data_paths.hpp"
#include "engine/stand_kind_catalog_loader.hpp"
#include "rendered_scene.hpp"
#include "scenario_side_colors.hpp"
#include "vision/shot_analysis.hpp"

namespace referee {

// The projectile of scene `index` of `scenario` (seed 5, rendered at `size`) found within
// `max_error_mm` of the truth through every drift.
inline void ExpectShotReadThrough(const std::string& scenario, int index, cv::Size size,
                                  const std::vector<ExposureDrift>& drifts, double max_error_mm) {
  const Scenario sc = LoadScenario(DatasetsDir() / "scenarios" / (scenario + ".json"));
  const SynthScene s =
      GenerateScene(sc, SynthOptions{.seed = 5, .size = size, .with_hand_frame = false}, index);
  ASSERT_TRUE(s.projectile.has_value());
  const TopView view(TruthCalibration(s));
  const cv::Mat sent = AsWebcamSends(s.after, s.jpeg_quality);
  for (const ExposureDrift& d : drifts) {
    SCOPED_TRACE(scenario + " index " + std::to_string(index) + " gain " + std::to_string(d.gain) +
                 " ramp " + std::to_string(d.ramp));
    const ShotAnalysis a = AnalyseShot(view, s.before, Drifted(sent, d), ScenarioSideColors(sc),
                                       LoadStandKinds(), &s.board);
    ASSERT_TRUE(a.projectile.has_value()) << a.refusal;
    EXPECT_EQ(a.projectile->kind, s.projectile->kind);
    EXPECT_LT(InchesToMm(Distance(a.projectile->point, s.projectile->point)), max_error_mm);
  }
}

}  // namespace referee
