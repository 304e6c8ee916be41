#include "calibration/camera_model.hpp"

#include <opencv2/calib3d.hpp>
#include <vector>

namespace referee {

cv::Point2d CameraModel::ImageFromTable(Vec2 table_in, double height_in) const {
  const std::vector<cv::Point3d> obj{{table_in.x, table_in.y, -height_in}};
  std::vector<cv::Point2d> img;
  cv::projectPoints(obj, rvec_cam_from_table, tvec_cam_from_table, camera_matrix, distortion, img);
  return img[0];
}

Vec2 CameraModel::TableFromImage(cv::Point2d px, double height_in) const {
  std::vector<cv::Point2d> in{px}, norm;
  cv::undistortPoints(in, norm, camera_matrix, distortion);
  cv::Matx33d r;
  cv::Rodrigues(rvec_cam_from_table, r);
  const cv::Matx33d rt = r.t();
  // Ray in table frame: X = C + s * R^T * d, intersect with z = -height_in.
  const cv::Vec3d c = CameraCenterTable();
  const cv::Vec3d d = rt * cv::Vec3d(norm[0].x, norm[0].y, 1.0);
  const double s = (-height_in - c[2]) / d[2];
  return {c[0] + s * d[0], c[1] + s * d[1]};
}

cv::Vec3d CameraModel::CameraCenterTable() const {
  cv::Matx33d r;
  cv::Rodrigues(rvec_cam_from_table, r);
  return -(r.t() * tvec_cam_from_table);
}

}  // namespace referee
