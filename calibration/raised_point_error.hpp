// How far a calibration misplaces points raised above the mat, against a known camera: the
// flat table may be right while a focal or pose error moves every raised point (a projectile
// on a base or figures is mapped back through the pose at its height). Used by the benchmark
// and the tests that hold a fitted camera to a true one.
#pragma once

#include <functional>

#include "calibration/camera_model.hpp"
#include "calibration/table_calibration.hpp"
#include "engine/geometry.hpp"

namespace referee {

struct RaisedPointError {
  double mean_mm = 0, max_mm = 0;
};

// Table error of points raised_mm above a 1" lattice over cal's board: each point's true pixel
// (the `truth` camera) mapped back through `cal` at the same height, then into the truth's
// labels by `to_truth` (the board symmetry between the two labellings).
RaisedPointError MeasureRaisedPointError(const CameraModel& truth, const TableCalibration& cal,
                                         double raised_mm,
                                         const std::function<Vec2(Vec2)>& to_truth);

}  // namespace referee
