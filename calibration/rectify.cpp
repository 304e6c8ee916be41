#include "calibration/rectify.hpp"

#include <cmath>
#include <opencv2/calib3d.hpp>
#include <opencv2/imgproc.hpp>
#include <vector>

namespace referee {

cv::Matx33d RectifiedFromTable(double px_per_inch, double margin_in) {
  const double shift = margin_in * px_per_inch - 0.5;
  return {px_per_inch, 0, shift, 0, px_per_inch, shift, 0, 0, 1};
}

cv::Size RectifiedSize(const Grid& board, double px_per_inch, double margin_in) {
  return {static_cast<int>(std::lround((board.Width() + 2 * margin_in) * px_per_inch)),
          static_cast<int>(std::lround((board.Height() + 2 * margin_in) * px_per_inch))};
}

cv::Mat RectifyToTable(const cv::Mat& image, const TableCalibration& calibration,
                       double px_per_inch, double margin_in) {
  const cv::Size size = RectifiedSize(calibration.board, px_per_inch, margin_in);
  std::vector<cv::Point3d> table;
  table.reserve(static_cast<size_t>(size.area()));
  for (int v = 0; v < size.height; ++v) {
    for (int u = 0; u < size.width; ++u) {
      table.emplace_back((u + 0.5) / px_per_inch - margin_in, (v + 0.5) / px_per_inch - margin_in,
                         0.0);
    }
  }
  std::vector<cv::Point2d> px;
  const CameraModel& cam = calibration.camera;
  cv::projectPoints(table, cam.rvec_cam_from_table, cam.tvec_cam_from_table, cam.camera_matrix,
                    cam.distortion, px);
  cv::Mat map(size, CV_32FC2);
  for (int v = 0; v < size.height; ++v) {
    auto* row = map.ptr<cv::Vec2f>(v);
    for (int u = 0; u < size.width; ++u) {
      const cv::Point2d& p = px[static_cast<size_t>(v) * size.width + u];
      row[u] = cv::Vec2f(static_cast<float>(p.x), static_cast<float>(p.y));
    }
  }
  cv::Mat out;
  cv::remap(image, out, map, cv::noArray(), cv::INTER_LINEAR, cv::BORDER_CONSTANT);
  return out;
}

}  // namespace referee
