// The optional ArUco corner markers (TABLE_KIT: dictionary 4x4_50, ids 0-3, 2" wide, axis-
// aligned with the board, centred 1.5" outside the grid corners (0,0), (W,0), (W,H), (0,H)).
#pragma once

#include <vector>

#include <opencv2/core.hpp>

#include "engine/grid.hpp"

namespace referee {

struct MarkerCorners {
  std::vector<int> ids;               // marker ids found (0..3), each once
  std::vector<cv::Point2d> table_in;  // every found corner on the mat, inches
  std::vector<cv::Point2d> px;        // the same corners in the image
};

// Table position of corner `k` (0..3: the marker's own top-left, top-right, bottom-right,
// bottom-left, its top toward table -y) of marker `id`.
cv::Point2d MarkerCornerTable(const Grid& board, int id, int k, double marker_size_in = 2.0,
                              double offset_in = 1.5);

// Detects the corner markers in a BGR or grey image; ids other than 0..3 are ignored.
MarkerCorners DetectCornerMarkers(const cv::Mat& image, const Grid& board);

}  // namespace referee
