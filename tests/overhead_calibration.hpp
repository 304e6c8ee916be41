// A calibration for drawn test images: a 1280x720 camera straight above the centre of a 12 x 8
// board of 4" squares, 40" up, so table axes are camera axes and 20 px make one inch.
#pragma once

#include "calibration/table_calibration.hpp"

namespace referee {

inline TableCalibration OverheadCalibration() {
  TableCalibration cal;
  cal.board = Grid{12, 8, 4.0};
  cal.camera.image_size = {1280, 720};
  cal.camera.camera_matrix = cv::Matx33d(800, 0, 640, 0, 800, 360, 0, 0, 1);
  cal.camera.tvec_cam_from_table = {-24.0, -16.0, 40.0};
  return cal;
}

}  // namespace referee
