// The whole shot analysis of a rendered scene as the referee would run it: the generator's
// camera as the calibration, the scenario's side colours, the shipped stand kinds, `after`
// compressed as a webcam sends it.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>

#include "calibration/calibrate_table.hpp"
#include "datasets/synth_scene.hpp"
#include "engine/data_paths.hpp"
#include "engine/stand_kind_catalog_loader.hpp"
#include "rendered_scene.hpp"
#include "scenario_side_colors.hpp"
#include "vision/shot_analysis.hpp"

namespace referee {

inline ShotAnalysis AnalyseRenderedScene(const Scenario& sc, const SynthScene& s) {
  return AnalyseShot(TopView(TruthCalibration(s)), s.before, AsWebcamSends(s.after, s.jpeg_quality),
                     ScenarioSideColors(sc), LoadStandKinds(), &s.board);
}

inline Scenario HardScenario() { return LoadScenario(DatasetsDir() / "scenarios" / "hard.json"); }

// A `hard` scene at 1080p, as `referee synth --seed SEED` writes scene_INDEX.
inline SynthScene HardScene(const Scenario& sc, uint64_t seed, int index) {
  return GenerateScene(sc, SynthOptions{.seed = seed, .size = {1920, 1080}}, index);
}

// Scene `index` of `hard` seed `seed` into `s`, and the analysis of it; the scene's projectile
// must be a `kind` ("qtip" | "shell"): the scene is the one a test describes.
inline ShotAnalysis AnalyseHardShot(uint64_t seed, int index, const std::string& kind,
                                    SynthScene& s) {
  const Scenario sc = HardScenario();
  s = HardScene(sc, seed, index);
  EXPECT_TRUE(s.projectile.has_value() && s.projectile->kind == kind);
  return AnalyseRenderedScene(sc, s);
}

// How far the analysis put the shot from where the scene's projectile rests, mm.
inline double ShotErrorMm(const ShotAnalysis& a, const SynthScene& s) {
  return InchesToMm(Distance(a.projectile->point, s.projectile->point));
}

// How far the centre of the found stand the analysis put the projectile on lies from the centre
// of the stand the scene's projectile rests on, mm; -1 when either is not there.
inline double RestingStandOffsetMm(const ShotAnalysis& a, const SynthScene& s) {
  const auto truth = std::ranges::find_if(
      s.stands, [&](const Stand& t) { return t.id == s.projectile->resting_on; });
  const auto found = std::ranges::find_if(a.stands.stands, [&](const DetectedStand& d) {
    return d.stand.id == a.projectile->resting_on;
  });
  if (truth == s.stands.end() || found == a.stands.stands.end()) return -1;
  return InchesToMm(Distance(found->stand.footprint.center, truth->footprint.center));
}

// Scene `index` of `hard` seed `seed` holds a Q-tip that the analysis places within 2.5 mm,
// saying in its note how it was seen (`note_part`).
inline void ExpectHardQtipPlaced(uint64_t seed, int index, const std::string& note_part) {
  const Scenario sc = HardScenario();
  const SynthScene s = HardScene(sc, seed, index);
  ASSERT_TRUE(s.projectile.has_value());
  ASSERT_EQ(s.projectile->kind, "qtip");
  const ShotAnalysis a = AnalyseRenderedScene(sc, s);
  ASSERT_TRUE(a.projectile.has_value()) << a.refusal;
  EXPECT_EQ(a.projectile->kind, "qtip");
  EXPECT_LT(ShotErrorMm(a, s), 2.5);
  EXPECT_NE(a.projectile->note.find(note_part), std::string::npos) << a.projectile->note;
}

// `s` calibrated from its empty frame as a club would, where that labels the (markerless) board
// from its far corner, as the scenes that use this are; a test failure and none otherwise.
inline std::optional<TableCalibration> CalibratedFromFarCorner(const SynthScene& s) {
  const CalibrationResult r = CalibrateTable(s.empty, s.board.grid, {});
  if (!std::holds_alternative<TableCalibration>(r)) {
    ADD_FAILURE() << "the empty frame does not calibrate";
    return std::nullopt;
  }
  const TableCalibration& cal = std::get<TableCalibration>(r);
  const double w = s.board.grid.Width(), h = s.board.grid.Height();
  const double off_px =
      cv::norm(cal.camera.ImageFromTable({0, 0}) - s.camera.ImageFromTable({w, h}));
  if (off_px >= 3.0) {
    ADD_FAILURE() << "not labelled from the far corner: its (0, 0) is " << off_px << " px off";
    return std::nullopt;
  }
  return cal;
}

// The board as a club's calibration from the empty frame labels it when it starts from the far
// corner (a markerless board): its terrain and features turned half way round.
inline Board BoardTurnedHalfWay(const Board& board) {
  const double w = board.grid.Width(), h = board.grid.Height();
  Board turned = board;
  turned.terrain.clear();
  for (const auto& [square, terrain] : board.terrain) {
    turned.terrain[{board.grid.cols - 1 - square.col, board.grid.rows - 1 - square.row}] = terrain;
  }
  for (auto& feature : turned.features) {
    for (Vec2& p : feature.outline.vertices) p = Vec2{w - p.x, h - p.y};
  }
  return turned;
}

}  // namespace referee
