#include "ui/live/view_mapping.hpp"

#include <algorithm>

namespace referee::live {

ScreenRect FitImage(cv::Size image_px, ScreenRect panel) {
  if (image_px.width <= 0 || image_px.height <= 0) return panel;
  const double scale = std::min(panel.w / image_px.width, panel.h / image_px.height);
  const double w = image_px.width * scale;
  const double h = image_px.height * scale;
  return {panel.x + (panel.w - w) / 2, panel.y + (panel.h - h) / 2, w, h};
}

ViewMapping::ViewMapping(const TableCalibration& cal, const TopView* top, bool top_view,
                         cv::Size image_px, ScreenRect panel)
    : cal_(cal), top_(top), top_view_(top_view && top != nullptr) {
  rect_ = FitImage(image_px, panel);
  scale_ = image_px.width > 0 ? rect_.w / image_px.width : 1.0;
}

cv::Point2d ViewMapping::ImageFromTable(Vec2 p, double height_in) const {
  if (top_view_) return top_->RectifiedFromTable(p);
  return cal_.ImageFromTable(p, height_in);
}

// Pixel centres: image pixel (0,0) covers screen [x, x+scale), its centre is at +0.5.
cv::Point2d ViewMapping::ScreenFromImage(cv::Point2d px) const {
  return {rect_.x + (px.x + 0.5) * scale_, rect_.y + (px.y + 0.5) * scale_};
}

cv::Point2d ViewMapping::ImageFromScreen(cv::Point2d s) const {
  return {(s.x - rect_.x) / scale_ - 0.5, (s.y - rect_.y) / scale_ - 0.5};
}

Vec2 ViewMapping::TableFromScreen(cv::Point2d s) const {
  const cv::Point2d px = ImageFromScreen(s);
  if (top_view_) return top_->TableFromRectified(px);
  return cal_.TableFromImage(px);
}

}  // namespace referee::live
