// The calibration file (YAML via cv::FileStorage) and the lens file written by calibrate-lens.
//
// CAL.yml keys: format ("referee-calibration"), version (1), created_utc, board {cols, rows,
// square_size_in}, image_width, image_height, camera_matrix (3x3), distortion (k1 k2 p1 p2
// k3), rvec_cam_from_table, tvec_cam_from_table (inches), undistorted_from_table (3x3),
// lens_from_file, markers_used, quality {rms_px, rms_mm, max_mm, coverage,
// intersections_found, intersections_total}, intersections (n x 4: col, row, u, v),
// residuals_px (n), reference_gray (small grey thumbnail).
//
// LENS.yml keys: format ("referee-lens"), image_width, image_height, camera_matrix,
// distortion, rms_px.
#pragma once

#include <filesystem>

#include "calibration/camera_fit.hpp"
#include "calibration/table_calibration.hpp"

namespace referee {

// Throw InputError naming the file (and the field) on any problem.
void SaveCalibration(const TableCalibration& cal, const std::filesystem::path& path);
TableCalibration LoadCalibration(const std::filesystem::path& path);

void SaveLens(const LensModel& lens, const std::filesystem::path& path);
LensModel LoadLens(const std::filesystem::path& path);

}  // namespace referee
