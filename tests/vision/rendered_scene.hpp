// A rendered scene as the referee would see it: the calibration from the generator's truth, and
// a frame compressed as a webcam sends it (`referee synth` writes `after` as JPEG).
#pragma once

#include <vector>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "calibration/table_calibration.hpp"
#include "datasets/synth_scene.hpp"

namespace referee {

inline TableCalibration TruthCalibration(const SynthScene& s) {
  TableCalibration cal;
  cal.board = s.board.grid;
  cal.camera = s.camera;
  return cal;
}

inline cv::Mat AsWebcamSends(const cv::Mat& image, int quality) {
  std::vector<uchar> jpg;
  cv::imencode(".jpg", image, jpg, {cv::IMWRITE_JPEG_QUALITY, quality});
  return cv::imdecode(jpg, cv::IMREAD_COLOR);
}

// `before` with a fleck of paint dropped on the mat at `at` (table inches): an ellipse of
// `half_axes_mm`, turned `angle_deg` in the image, of colour `bgr`; the scale is read at `at`.
inline cv::Mat WithFleck(const SynthScene& s, Vec2 at, cv::Size2d half_axes_mm, double angle_deg,
                         const cv::Scalar& bgr) {
  cv::Mat fleck = s.before.clone();
  const cv::Point2d c = s.camera.ImageFromTable(at);
  const double px_per_mm = cv::norm(s.camera.ImageFromTable(at + Vec2{MmToInches(10), 0}) - c) / 10;
  cv::ellipse(fleck, c, half_axes_mm * px_per_mm, angle_deg, 0, 360, bgr, cv::FILLED, cv::LINE_AA);
  return fleck;
}

}  // namespace referee
