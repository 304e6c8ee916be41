// Regions of change in a top view: changed pixels grouped into the objects they may be (a thin
// stick may break up), and each one's extent along and across its principal axis.
#pragma once

#include <vector>

#include <opencv2/core.hpp>

#include "vision/top_view.hpp"

namespace referee {

// A region of change in the top view.
struct ChangeBlob {
  std::vector<cv::Point> pts;
  double area_mm2;
  cv::Rect box;
  bool from_outside = false;  // touches the border of the camera's field
  bool cut_off = false;       // runs out of the top view
};

// Extent along and across the principal axis of `pts`, mm, and that axis.
struct LineFit {
  double length_mm = 0, width_mm = 0;
  cv::Point2d a, b;  // ends along the axis, top-view px
};

LineFit FitLine(const std::vector<cv::Point>& pts, double mm_per_px);

// What the camera sees of the top view (CV_8U, 255 where it does): a change touching the border
// of the camera's field came in from outside it (an arm), while the top view's own border only
// cuts the picture.
cv::Mat SeenByCamera(const TopView& view);

// The regions of `changed` (CV_8U, a top view of `mm_per_px`) of at least `ignore_area_mm2`,
// each marked where it touches the border of `seen` (SeenByCamera) or of the top view.
std::vector<ChangeBlob> RegionsOfChange(const cv::Mat& changed, const cv::Mat& seen,
                                        double mm_per_px, double ignore_area_mm2);

}  // namespace referee
