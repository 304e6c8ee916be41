// The result of calibrating: which board, and how its table inches map to this camera's pixels.
// Everything downstream (vision, overlay, synth scoring) maps through this one value.
#pragma once

#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "calibration/camera_model.hpp"
#include "engine/grid.hpp"

namespace referee {

struct IntersectionFix {
  int col = 0;             // grid line index from the origin corner (0..cols)
  int row = 0;             // grid line index from the origin corner (0..rows)
  cv::Point2d px;          // refined position in the original (distorted) image
  double residual_px = 0;  // reprojection residual of the fitted model
};

struct CalibrationQuality {
  double rms_px = 0;
  double rms_mm = 0;
  double max_mm = 0;
  double coverage = 0;  // fraction of the board's intersections found, 0..1
  int intersections_found = 0;
  int intersections_total = 0;
};

struct TableCalibration {
  Grid board;
  CameraModel camera;           // intrinsics, distortion and cam_from_table pose
  bool lens_from_file = false;  // intrinsics came from a lens file (else estimated from the grid)
  bool markers_used = false;
  // Homography from table inches to *undistorted* pixels (pixels after removing distortion
  // with camera.camera_matrix / camera.distortion), for fast planar mapping.
  cv::Matx33d undistorted_from_table = cv::Matx33d::eye();
  std::vector<IntersectionFix> intersections;
  CalibrationQuality quality;
  cv::Mat reference_gray;  // small grey thumbnail of the calibration image, for drift checks
  std::string created_utc;

  Vec2 TableFromImage(cv::Point2d px, double height_in = 0.0) const {
    return camera.TableFromImage(px, height_in);
  }
  cv::Point2d ImageFromTable(Vec2 p, double height_in = 0.0) const {
    return camera.ImageFromTable(p, height_in);
  }
};

}  // namespace referee
