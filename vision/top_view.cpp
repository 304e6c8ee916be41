#include "vision/top_view.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include <opencv2/calib3d.hpp>
#include <opencv2/imgproc.hpp>

namespace referee {

namespace {
// Pixels per inch the camera itself delivers near the board centre.
double NativePxPerInch(const TableCalibration& cal) {
  const Vec2 c{cal.board.Width() / 2, cal.board.Height() / 2};
  const cv::Point2d a = cal.camera.ImageFromTable(c);
  const cv::Point2d b = cal.camera.ImageFromTable(c + Vec2{1.0, 0.0});
  const cv::Point2d d = cal.camera.ImageFromTable(c + Vec2{0.0, 1.0});
  return 0.5 * (cv::norm(b - a) + cv::norm(d - a));
}
}  // namespace

TopView::TopView(const TableCalibration& cal, const TopViewOptions& options)
    : cal_(cal), margin_in_(options.margin_in) {
  px_per_inch_ = options.px_per_inch > 0 ? options.px_per_inch
                                         : std::clamp(std::ceil(NativePxPerInch(cal)), 32.0, 64.0);
  size_ =
      cv::Size(static_cast<int>(std::lround((cal.board.Width() + 2 * margin_in_) * px_per_inch_)),
               static_cast<int>(std::lround((cal.board.Height() + 2 * margin_in_) * px_per_inch_)));
  std::vector<cv::Point3d> obj;
  obj.reserve(static_cast<size_t>(size_.area()));
  for (int y = 0; y < size_.height; ++y) {
    for (int x = 0; x < size_.width; ++x) {
      const Vec2 t = TableFromRectified({static_cast<double>(x), static_cast<double>(y)});
      obj.emplace_back(t.x, t.y, 0.0);
    }
  }
  std::vector<cv::Point2d> img;
  cv::projectPoints(obj, cal.camera.rvec_cam_from_table, cal.camera.tvec_cam_from_table,
                    cal.camera.camera_matrix, cal.camera.distortion, img);
  cv::Mat mapd(size_, CV_64FC2, img.data()), mapf;
  mapd.convertTo(mapf, CV_32FC2);
  cv::convertMaps(mapf, cv::Mat(), map1_, map2_, CV_16SC2);
}

cv::Mat TopView::Rectify(const cv::Mat& image) const {
  cv::Mat out;
  cv::remap(image, out, map1_, map2_, cv::INTER_LINEAR, cv::BORDER_CONSTANT, cv::Scalar::all(0));
  return out;
}

Vec2 TopView::TableAtHeight(Vec2 on_mat, double height_in) const {
  // The ray from the camera centre C through the mat point P meets z = -h at
  // C + s (P - C) with s = (C.z + h) / C.z (C.z < 0 above the table).
  const cv::Vec3d c = cal_.camera.CameraCenterTable();
  if (c[2] >= -1e-9) return on_mat;
  const double s = (c[2] + height_in) / c[2];
  return {c[0] + s * (on_mat.x - c[0]), c[1] + s * (on_mat.y - c[1])};
}

}  // namespace referee
