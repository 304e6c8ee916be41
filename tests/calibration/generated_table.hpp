// Generated tables for calibration tests (the empty table only, no hand frame), and how far a
// calibration places the table against the scene's true camera.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <variant>

#include "calibration/calibrate_table.hpp"
#include "calibration/table_calibration.hpp"
#include "datasets/synth_scene.hpp"
#include "engine/data_paths.hpp"

namespace referee::test {

// Scene `index` of datasets/scenarios/<scenario> with generator seed `seed`.
inline SynthScene GeneratedTable(const std::string& scenario, uint64_t seed, int index) {
  const Scenario sc = LoadScenario(DatasetsDir() / "scenarios" / scenario);
  SynthOptions o;
  o.seed = seed;
  o.with_hand_frame = false;
  return GenerateScene(sc, o, index);
}

// Largest table error (mm) over a 1" lattice: true pixel -> our table point, against the truth,
// allowing the half turn the markerless origin rule may choose.
inline double TableMaxErrorMm(const SynthScene& s, const TableCalibration& cal) {
  const Grid& g = s.board.grid;
  double worst[2] = {0, 0};
  for (double y = 0; y <= g.Height() + 1e-9; y += 1.0) {
    for (double x = 0; x <= g.Width() + 1e-9; x += 1.0) {
      const Vec2 ours = cal.TableFromImage(s.camera.ImageFromTable({x, y}));
      worst[0] = std::max(worst[0], InchesToMm(Distance(ours, {x, y})));
      worst[1] = std::max(worst[1], InchesToMm(Distance(ours, {g.Width() - x, g.Height() - y})));
    }
  }
  return std::min(worst[0], worst[1]);
}

// The scene's empty table, offered with its own board, calibrates and is placed within
// `max_error_mm` everywhere on the table.
inline void ExpectCalibratesWithinMm(const SynthScene& s, double max_error_mm) {
  const CalibrationResult res = CalibrateTable(s.empty, s.board.grid, std::nullopt);
  const auto* cal = std::get_if<TableCalibration>(&res);
  ASSERT_NE(cal, nullptr) << std::get<CalibrationRefusal>(res).message;
  EXPECT_LT(TableMaxErrorMm(s, *cal), max_error_mm);
}

// The scene's table offered as a board one square narrower or one shorter: refused, since
// whatever window of its lines were taken, the labels would be a square off.
inline void ExpectOneSquareSmallerRefused(const SynthScene& s) {
  const Grid& g = s.board.grid;
  for (const Grid& wrong :
       {Grid{g.cols - 1, g.rows, g.square_size_in}, Grid{g.cols, g.rows - 1, g.square_size_in}}) {
    const CalibrationResult res = CalibrateTable(s.empty, wrong, std::nullopt);
    EXPECT_TRUE(std::holds_alternative<CalibrationRefusal>(res))
        << wrong.cols << " x " << wrong.rows << " board accepted";
  }
}

}  // namespace referee::test
