// A rendered scene as the referee would see it: the calibration from the generator's truth, and
// a frame compressed as a webcam sends it (`referee synth` writes `after` as JPEG).
#pragma once

#include <vector>

#include <opencv2/imgcodecs.hpp>

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

}  // namespace referee
