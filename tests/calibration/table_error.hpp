// How far a calibration places the table, against a generated scene's true camera.
#pragma once

#include <algorithm>

#include "calibration/table_calibration.hpp"
#include "datasets/synth_scene.hpp"

namespace referee::test {

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

}  // namespace referee::test
