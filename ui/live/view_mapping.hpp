// Where a table point lands on the screen: through the calibrated camera (camera view) or the
// top view's scale and shift (rectified view), then the fit of the picture into its panel.
// Pure geometry, no window, so the overlay and its tests agree on every pixel.
#pragma once

#include <optional>

#include <opencv2/core.hpp>

#include "calibration/table_calibration.hpp"
#include "engine/geometry.hpp"
#include "vision/top_view.hpp"

namespace referee::live {

struct ScreenRect {
  double x = 0, y = 0, w = 0, h = 0;
};

// The largest rectangle of the image's aspect ratio centred in `panel`.
ScreenRect FitImage(cv::Size image_px, ScreenRect panel);

class ViewMapping {
 public:
  // top == nullptr or !top_view: the camera picture; else the rectified top view.
  ViewMapping(const TableCalibration& cal, const TopView* top, bool top_view, cv::Size image_px,
              ScreenRect panel);

  cv::Point2d ImageFromTable(Vec2 p, double height_in = 0.0) const;
  cv::Point2d ScreenFromImage(cv::Point2d px) const;
  cv::Point2d ImageFromScreen(cv::Point2d s) const;
  cv::Point2d ScreenFromTable(Vec2 p, double height_in = 0.0) const {
    return ScreenFromImage(ImageFromTable(p, height_in));
  }
  Vec2 TableFromScreen(cv::Point2d s) const;  // on the mat plane
  const ScreenRect& image_rect() const { return rect_; }
  double screen_per_image_px() const { return scale_; }
  bool top_view() const { return top_view_; }

 private:
  const TableCalibration& cal_;
  const TopView* top_;
  bool top_view_;
  ScreenRect rect_;
  double scale_ = 1;
};

}  // namespace referee::live
