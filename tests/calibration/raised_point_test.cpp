// The referee's own calibration must place the camera, not just the mat: a projectile resting
// on a base is mapped back through the pose at its height, so a wrong focal length (and with it
// a wrong camera height) moves it although every crossing on the mat fits. Checked on the
// generator's empty tables seen nearly square-on with a weak lens, where one planar view does
// not determine the focal length and the principal point together.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>

#include "calibration/calibrate_table.hpp"
#include "datasets/synth_scene.hpp"
#include "engine/data_paths.hpp"
#include "engine/geometry.hpp"

namespace referee {
namespace {

struct RaisedError {
  double mean_mm = 0, max_mm = 0;
};

// Table error of points raised_mm above a 1" lattice over the board: the true pixel of each
// point, mapped back through the calibration at the same height. Without markers the labels
// may be the truth's up to a half turn of the board; the smaller error is the right labelling.
RaisedError RaisedPointError(const CameraModel& truth, const TableCalibration& cal,
                             double raised_mm) {
  const double h_in = MmToInches(raised_mm);
  const Grid& b = cal.board;
  RaisedError best{1e9, 1e9};
  for (const bool turned : {false, true}) {
    RaisedError e;
    int n = 0;
    for (double y = 0; y <= b.Height() + 1e-9; y += 1.0) {
      for (double x = 0; x <= b.Width() + 1e-9; x += 1.0) {
        Vec2 ours = cal.TableFromImage(truth.ImageFromTable({x, y}, h_in), h_in);
        if (turned) ours = {b.Width() - ours.x, b.Height() - ours.y};
        const double d_mm = InchesToMm(Distance(ours, {x, y}));
        e.mean_mm += d_mm;
        e.max_mm = std::max(e.max_mm, d_mm);
        ++n;
      }
    }
    e.mean_mm /= n;
    if (e.mean_mm < best.mean_mm) best = e;
  }
  return best;
}

// Napoleonic seed 5, scenes 2 and 11 (4 and 5 deg from vertical, k1 -0.07 and -0.11) and 35
// (15 deg, almost no distortion): session 12's calibration put the camera 1.0-1.1 m too low
// (focal length 41-43 % short) and moved a point 25 mm up by 2.9-3.3 mm on average, up to
// 5.6-6.9 mm.
TEST(RaisedPoint, OwnCalibrationPlacesRaisedPointsWithinOneAndAHalfMm) {
  const Scenario sc = LoadScenario(DatasetsDir() / "scenarios" / "napoleonic.json");
  SynthOptions o;
  o.seed = 5;
  o.with_hand_frame = false;
  for (const int index : {2, 11, 35}) {
    const SynthScene s = GenerateScene(sc, o, index);
    const CalibrationResult res = CalibrateTable(s.empty, s.board.grid, std::nullopt);
    const auto* cal = std::get_if<TableCalibration>(&res);
    ASSERT_NE(cal, nullptr) << "scene " << index << " refused";
    const double f_true = s.camera.camera_matrix(0, 0);
    const double f_ours = cal->camera.camera_matrix(0, 0);
    const RaisedError e = RaisedPointError(s.camera, *cal, 25.0);
    std::cout << "scene " << index << ": focal " << 100.0 * (f_ours / f_true - 1)
              << " %, 25 mm up: mean " << e.mean_mm << " mm, max " << e.max_mm << " mm\n";
    EXPECT_LT(e.mean_mm, 1.5) << "scene " << index;
    EXPECT_LT(e.max_mm, 3.5) << "scene " << index;
  }
}

}  // namespace
}  // namespace referee
