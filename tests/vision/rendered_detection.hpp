// A rendered scene and the stands the detector finds in its `before` view, with the scenario's
// side colours and the scene's board (calibration from truth).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include <gtest/gtest.h>

#include "datasets/synth_scene.hpp"
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

}  // namespace referee
