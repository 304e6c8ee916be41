// The whole shot analysis of a rendered scene as the referee would run it: the generator's
// camera as the calibration, the scenario's side colours, the shipped stand kinds, `after`
// compressed as a webcam sends it.
#pragma once

#include "datasets/synth_scene.hpp"
#include "engine/stand_kind_catalog_loader.hpp"
#include "rendered_scene.hpp"
#include "scenario_side_colors.hpp"
#include "vision/shot_analysis.hpp"

namespace referee {

inline ShotAnalysis AnalyseRenderedScene(const Scenario& sc, const SynthScene& s) {
  return AnalyseShot(TopView(TruthCalibration(s)), s.before, AsWebcamSends(s.after, s.jpeg_quality),
                     ScenarioSideColors(sc), LoadStandKinds(), &s.board);
}

}  // namespace referee
