// A grid crossing measured where a fitted camera predicts it: the camera gives the guess, the
// two lines' directions and the local square size (from points a quarter square along each
// line), and RefineCrossing measures the crossing there.
#pragma once

#include <optional>
#include <utility>
#include <vector>

#include <opencv2/core.hpp>

#include "calibration/camera_model.hpp"
#include "calibration/intersection_refine.hpp"

namespace referee {

// labels: (column, row) line indices; the crossing lies at (col, row) * square_in on the table.
// `gray` as RefineCrossing (CV_32F, see RefineImage). One entry per label: nullopt when the
// prediction lies within 0.3 squares of the image edge or no crossing is measured there.
std::vector<std::optional<cv::Point2d>> MeasurePredictedCrossings(
    const cv::Mat& gray, const CameraModel& cam, const std::vector<std::pair<int, int>>& labels,
    double square_in, const RefineOptions& options);

}  // namespace referee
