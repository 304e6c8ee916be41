// Is something lying across the board's edge in a single picture? The grid's outer border is a
// dark line (TABLE_KIT) all round the board, always in view: a hand or an arm reaching over
// the board hides it over its whole width (several inches), whatever its colour, while a stand
// at the edge, a projectile across it or a shadow hide at most a short stretch or only dim it.
// The hand test uses it when it has no picture of the table known to be clear yet (the first
// frames after calibration): a picture is taken as the clear table only once the border line
// is seen all round.
#pragma once

#include <vector>

#include <opencv2/core.hpp>

#include "calibration/table_calibration.hpp"

namespace referee {

struct BorderCover {
  double longest_in = 0;  // the longest stretch of the border line hidden, inches
  cv::Rect box_px;        // that stretch, camera pixels
};

class BorderLineWatch {
 public:
  BorderLineWatch() = default;
  // Samples the border line every step_in inches (precomputed camera pixels). A sample hides
  // the line when its contrast (line against the mat just inside) is below hidden_share of the
  // typical contrast round the board: a shadow dims mat and line alike, a hand leaves none.
  explicit BorderLineWatch(const TableCalibration& cal, double step_in = 0.25,
                           double hidden_share = 0.4);

  // The longest hidden stretch of the border line in `frame_bgr` (the calibration's size).
  BorderCover Covered(const cv::Mat& frame_bgr) const;

  bool empty() const { return line_px_.empty(); }

 private:
  double step_in_ = 0.25;
  double hidden_share_ = 0.4;
  // Per sample along the outline, in order round the board: the line's centre, the points
  // searched across it (its width and the calibration's error), and the mat just inside it.
  std::vector<cv::Point2f> line_px_, inside_px_;
  std::vector<cv::Point2f> across_px_;  // kAcross points per sample
  std::vector<bool> in_picture_;
};

}  // namespace referee
