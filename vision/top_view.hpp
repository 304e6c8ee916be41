// The rectified top view vision works in: the mat plane (z = 0) resampled so that one pixel is
// 1/px_per_inch inch, with a margin around the grid. Points found in it are on the mat plane;
// anything raised (base tops, a projectile's head) is moved to its true place with
// TableAtHeight, which re-casts the camera ray through the calibrated pose.
#pragma once

#include <vector>

#include <opencv2/core.hpp>

#include "calibration/table_calibration.hpp"
#include "engine/geometry.hpp"

namespace referee {

struct TopViewOptions {
  // Resolution of the top view, px per inch. Default 0 = choose from the camera: about the
  // image's own resolution on the table, clamped to [32, 64]. Raise for sub-mm work on 4K.
  double px_per_inch = 0.0;
  // Margin around the grid, inches. Default 1; raise to see stands overhanging the border.
  double margin_in = 1.0;
};

class TopView {
 public:
  TopView() = default;
  TopView(const TableCalibration& cal, const TopViewOptions& options = {});

  // Resample a camera frame (same size as the calibration) into the top view. The remap tables
  // are built once per calibration (fixed point), so this is one cv::remap per frame.
  cv::Mat Rectify(const cv::Mat& image) const;
  // Same, into `out` (reused when it already has the right size and type).
  void Rectify(const cv::Mat& image, cv::Mat& out) const;

  // The part of this view inside `region_px` (clipped to the view) as a view of its own: a
  // crop of a rectified image, e.g. top(view.Crop(r).region()), maps through the returned view
  // to the same table inches as through this one; Rectify on a crop rectifies just that part.
  TopView Crop(cv::Rect region_px) const;
  // The same view at 1/factor of the resolution, one pixel per factor x factor block of this
  // one's pixels (size: this size / factor, rounded down), sampled straight from the camera
  // frame: the cost of Rectify scales with the output pixels, so a coarse view costs about
  // 1/factor^2 of the full one. Where the camera has several pixels per coarse pixel, the frame
  // is block-averaged first by the whole factor that keeps about one camera pixel per coarse
  // pixel at the board's centre (so a coarse pixel averages the camera's noise as a block of
  // the full view does). Maps through table inches like Shrink(Rectify(frame)) by `factor`.
  TopView Coarse(int factor) const;
  // Camera pixels block-averaged into one before sampling (1 but for Coarse views).
  int frame_shrink() const { return frame_shrink_; }
  // How many of this view's pixels one camera pixel (as sampled) spans at the board's centre:
  // above 1 where the view magnifies the camera (a 720p webcam far above a large table), so
  // what the camera blurs over a pixel or two covers more of the view. 1 without a camera.
  double PxPerCameraPx() const;
  // Where this view lies in the full top view, px (the whole view unless it is a crop).
  cv::Rect region() const { return {origin_px_, size_}; }
  // Top-view pixels that see the camera image (255) rather than the black fill outside it.
  const cv::Mat& seen_mask() const { return seen_; }

  double px_per_inch() const { return px_per_inch_; }
  double margin_in() const { return margin_in_; }
  cv::Size size() const { return size_; }
  double MmPerPx() const { return kMmPerInch / px_per_inch_; }
  // rectified_from_table: a scale and a shift (table inches -> top-view pixels).
  cv::Point2d RectifiedFromTable(Vec2 p) const {
    return {(p.x + margin_in_) * px_per_inch_ - 0.5 - origin_px_.x,
            (p.y + margin_in_) * px_per_inch_ - 0.5 - origin_px_.y};
  }
  Vec2 TableFromRectified(cv::Point2d px) const {
    return {(px.x + origin_px_.x + 0.5) / px_per_inch_ - margin_in_,
            (px.y + origin_px_.y + 0.5) / px_per_inch_ - margin_in_};
  }
  // A point seen at `on_mat` in the top view really lies at height_in above the mat: where is
  // it? Exact through the pose (the ray through the camera centre), not a planar shortcut.
  Vec2 TableAtHeight(Vec2 on_mat, double height_in) const;
  // The inverse: where the top view sees a point that lies at `at_height`, height_in above the
  // mat (a figure's top is seen farther from the camera's foot than it stands).
  Vec2 SeenOnMat(Vec2 at_height, double height_in) const;
  const TableCalibration& calibration() const { return cal_; }

 private:
  TableCalibration cal_;
  double px_per_inch_ = 32.0;
  double margin_in_ = 1.0;
  cv::Size size_;
  void BuildMaps();

  cv::Point origin_px_{0, 0};  // top-left of a crop in the full view; (0,0) for the full view
  int frame_shrink_ = 1;       // the frame is block-averaged by this before the remap
  cv::Mat map1_, map2_;        // fixed-point remap tables, built once per calibration
  cv::Mat seen_;               // CV_8U, 255 where the view samples inside the camera image
};

// Fills `outline` (table inches on the mat plane) with 255 into `mask`, a top-view image of
// `view`: where the board file's squares and features lie in the top view.
void FillTableOutline(const TopView& view, const std::vector<Vec2>& outline, cv::Mat& mask);

}  // namespace referee
