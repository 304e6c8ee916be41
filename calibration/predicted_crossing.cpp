#include "calibration/predicted_crossing.hpp"

#include <algorithm>
#include <opencv2/calib3d.hpp>

namespace referee {

std::vector<std::optional<cv::Point2d>> MeasurePredictedCrossings(
    const cv::Mat& gray, const CameraModel& cam, const std::vector<std::pair<int, int>>& labels,
    double square_in, const RefineOptions& options) {
  std::vector<std::optional<cv::Point2d>> out(labels.size());
  if (labels.empty()) return out;
  std::vector<cv::Point3d> obj;
  obj.reserve(5 * labels.size());
  const double s = square_in;
  for (const auto& [c, r] : labels) {
    obj.emplace_back(c * s, r * s, 0.0);
    obj.emplace_back((c - 0.25) * s, r * s, 0.0);
    obj.emplace_back((c + 0.25) * s, r * s, 0.0);
    obj.emplace_back(c * s, (r - 0.25) * s, 0.0);
    obj.emplace_back(c * s, (r + 0.25) * s, 0.0);
  }
  std::vector<cv::Point2d> p;
  cv::projectPoints(obj, cam.rvec_cam_from_table, cam.tvec_cam_from_table, cam.camera_matrix,
                    cam.distortion, p);
  for (size_t k = 0; k < labels.size(); ++k) {
    const cv::Point2d guess = p[5 * k];
    const cv::Point2d d1 = p[5 * k + 2] - p[5 * k + 1], d2 = p[5 * k + 4] - p[5 * k + 3];
    const double spacing = 2.0 * std::min(cv::norm(d1), cv::norm(d2));
    const double margin = 0.3 * spacing;
    if (guess.x < margin || guess.y < margin || guess.x >= gray.cols - margin ||
        guess.y >= gray.rows - margin) {
      continue;
    }
    if (auto rc = RefineCrossing(gray, guess, d1, d2, spacing, options)) out[k] = rc->px;
  }
  return out;
}

}  // namespace referee
