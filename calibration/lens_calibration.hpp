// Lens calibration from several photos of a printed chessboard (or ChArUco board): intrinsics
// and distortion (k1 k2 p1 p2 k3), written by `referee calibrate-lens`.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "calibration/camera_fit.hpp"

namespace referee {

struct LensCalibrationReport {
  LensModel lens;
  std::vector<std::string> used;     // images whose pattern was found
  std::vector<std::string> skipped;  // images without a full pattern
  std::vector<double> per_view_rms_px;
};

// `inner_corners`: the chessboard's inner corners (e.g. 9x6). `square_size` only scales the
// pose, not the intrinsics (any unit). Throws InputError for unreadable images or fewer than
// three usable views.
LensCalibrationReport CalibrateLensChessboard(const std::vector<std::filesystem::path>& images,
                                              cv::Size inner_corners, double square_size = 1.0);

// ChArUco board (dictionary 4x4_50 unless given): squares_x x squares_y squares.
LensCalibrationReport CalibrateLensCharuco(const std::vector<std::filesystem::path>& images,
                                           cv::Size squares, double square_size,
                                           double marker_size);

}  // namespace referee
