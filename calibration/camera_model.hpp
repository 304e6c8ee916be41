// The pinhole + radial/tangential distortion camera looking at the table, shared by the
// calibration (which estimates it), the synthetic renderer (which draws through it) and vision
// (which maps pixels back to table inches).
//
// Table frame: x along the columns, y along the rows (both in inches, per TABLE_KIT), z =
// x cross y, which points *into* the table. A point at height h above the mat is (x, y, -h).
#pragma once

#include <opencv2/core.hpp>

#include "engine/geometry.hpp"

namespace referee {

struct CameraModel {
  cv::Size image_size;
  cv::Matx33d camera_matrix = cv::Matx33d::eye();  // K, pixels
  cv::Vec<double, 5> distortion{0, 0, 0, 0, 0};    // k1 k2 p1 p2 k3 (OpenCV order)
  // cam_from_table: x_cam = R * x_table + t, t in inches.
  cv::Vec3d rvec_cam_from_table{0, 0, 0};
  cv::Vec3d tvec_cam_from_table{0, 0, 0};

  // Pixel (distorted, as the camera delivers it) of a table point at height_in above the mat.
  cv::Point2d ImageFromTable(Vec2 table_in, double height_in = 0.0) const;
  // Table point (on the plane z = -height_in) seen at a distorted pixel.
  Vec2 TableFromImage(cv::Point2d px, double height_in = 0.0) const;
  // Camera centre in table coordinates (inches; z negative above the table).
  cv::Vec3d CameraCenterTable() const;
};

}  // namespace referee
