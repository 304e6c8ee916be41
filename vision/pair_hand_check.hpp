// A hand in a before/after pair (`referee adjudicate`, the benchmarks), judged as the live
// referee judges its stream: the camera-frame test (vision/hand_detector) with `before` as the
// settled table. The top view's change test refuses a hand it sees whole, but a hand over a mat
// of its own colour changes the top view too little to be refused there, while the arm that
// carries it still crosses the board's edge in the camera frame.
#pragma once

#include <optional>
#include <string>

#include <opencv2/core.hpp>

#include "calibration/table_calibration.hpp"
#include "vision/hand_detector.hpp"

namespace referee {

// The refusal reason when a hand or an arm reaches over the table in `after` and not in
// `before` (both camera frames of `cal`'s size), else nothing.
std::optional<std::string> HandInPair(const TableCalibration& cal, const cv::Mat& before,
                                      const cv::Mat& after, const HandOptions& options = {});

}  // namespace referee
