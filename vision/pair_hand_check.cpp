#include "vision/pair_hand_check.hpp"

#include <cmath>

namespace referee {

std::optional<std::string> HandInPair(const TableCalibration& cal, const cv::Mat& before,
                                      const cv::Mat& after, const HandOptions& options) {
  HandDetector detector(cal, options);
  // `before` is the table as it stood for the shot (what the user says is clear), held still
  // for longer than the detector's settle time: its reference.
  detector.Reset();
  constexpr double kFps = 30.0;
  const int still_frames = static_cast<int>(std::ceil(options.settle_s * kFps)) + 2;
  int i = 0;
  for (; i < still_frames; ++i) detector.Update(before, i / kFps);
  const HandReport r = detector.Update(after, i / kFps);
  if (!r.hand) return std::nullopt;
  return "a hand or arm reaches over the table (" + std::to_string(std::lround(r.area_mm2)) +
         " mm^2 of change come in from outside the board in the camera frame): not adjudicated";
}

}  // namespace referee
