// The rectified top view: the mat plane (z = 0) resampled so that one pixel is 1/px_per_inch
// inch, with margin_in inches around the grid. Pixel centres follow OpenCV's convention: the
// top-left pixel's centre is at table (-margin + 0.5/ppi, -margin + 0.5/ppi).
#pragma once

#include <opencv2/core.hpp>

#include "calibration/table_calibration.hpp"
#include "engine/geometry.hpp"

namespace referee {

// rectified_from_table: table inches -> top-view pixels (a scale and a shift).
cv::Matx33d RectifiedFromTable(double px_per_inch, double margin_in);
// Size of the top view of `board` at this resolution and margin.
cv::Size RectifiedSize(const Grid& board, double px_per_inch, double margin_in);

// Resample `image` (the calibrated camera's frame, same size as at calibration) into the top
// view through the full camera model (lens distortion included). Bilinear; outside the image
// is black.
cv::Mat RectifyToTable(const cv::Mat& image, const TableCalibration& calibration,
                       double px_per_inch, double margin_in);

}  // namespace referee
