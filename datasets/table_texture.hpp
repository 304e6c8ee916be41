// The table plane (z = 0) painted as a top view in table inches: floor, table top, mat with its
// grain, flat terrain and clutter, the dark grid lines and the ArUco corner markers.
#pragma once

#include <opencv2/core.hpp>

#include "datasets/scene_layout.hpp"

namespace referee {

struct TableTexture {
  cv::Mat bgr;         // CV_8UC3
  double x0_in = 0.0;  // table x of the left edge of pixel column 0
  double y0_in = 0.0;
  double px_per_in = 40.0;
  // Texture pixel coordinate (pixel centres at integers) of a table point.
  cv::Point2d PixelOf(double x_in, double y_in) const {
    return {(x_in - x0_in) * px_per_in - 0.5, (y_in - y0_in) * px_per_in - 0.5};
  }
};

// Paints the region [x0, x1] x [y0, y1] (inches) at px_per_in. Without `surroundings` only the
// mat and what lies on it are painted (for a high-resolution texture of the mat alone).
TableTexture PaintTable(const SceneLayout& layout, double x0_in, double y0_in, double x1_in,
                        double y1_in, double px_per_in, bool surroundings = true);

}  // namespace referee
