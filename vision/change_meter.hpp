// Cheap change tests for every live frame. The top view is shrunk to cells of about 1.6 mm and
// two such coarse views are compared per colour channel, after dividing out the lighting change
// (a smooth field: the exposure, and a light falling off across the table); shadows (every
// channel darker by about the same ratio) do not count. The live pipeline uses it to tell
// motion from stillness, to find the region a shot changed (so the projectile detector only
// looks there), and to see a hand or arm reaching in over the edge of the table. It decides
// nothing about what changed: that is the detectors' job.
#pragma once

#include <vector>

#include <opencv2/core.hpp>

#include "vision/top_view.hpp"

namespace referee {

struct ChangeOptions {
  // Cell size of the coarse view, mm. Default 1.6: a Q-tip's 2.5 mm stick still shows and a
  // 1080p top view shrinks 4x in area. Lower for thinner projectiles; raise to save time on 4K.
  double cell_mm = 1.6;
  // Change counted, 8-bit levels in the channel that changed most (after the lighting
  // correction). Default 20: camera noise averaged over a cell stays well below it, a white
  // stick or a stand on the mat is far above. Raise for noisy cameras or flickering light.
  double level = 20.0;
};

// Cells that changed from `before` to `after` (same-size CV_8UC3 images, e.g. shrunk views or
// frames): CV_8U, 0 or 255. The lighting change is divided out first (per channel, a plane in
// log gain across the picture, fitted to the blocks that agree with it: a hand or a projectile
// does not set it); a shadow (every channel darker by about the same ratio) does not count.
// level_8bit as ChangeOptions::level.
cv::Mat ChangedCells(const cv::Mat& before, const cv::Mat& after, double level_8bit);

struct ChangeRegion {
  cv::Rect box_px;            // bounding box in full top-view pixels
  double area_mm2 = 0;        // changed area on the mat
  bool touches_edge = false;  // reaches the border of the view or of what the camera sees
};

class ChangeMeter {
 public:
  ChangeMeter() = default;
  explicit ChangeMeter(const TopView& view, ChangeOptions options = {});

  // Coarse copy of a top view (BGR): one pixel per cell.
  cv::Mat Shrink(const cv::Mat& top_bgr) const;
  // The coarse view straight from a camera frame (BGR, the calibration's size), without the
  // full top view (TopView::Coarse): the same cells as Shrink(view.Rectify(frame)), each a
  // bilinear sample of the frame block-averaged to about one camera pixel per cell rather than
  // the mean of its top-view pixels; about 1/factor^2 of the cost. What the live referee
  // compares on every frame.
  cv::Mat ShrinkFrame(const cv::Mat& camera_bgr) const;
  // Cells that changed from `before` to `after` (both from Shrink): CV_8U, 0 or 255.
  cv::Mat Changed(const cv::Mat& before, const cv::Mat& after) const;
  // Changed area on the mat, mm^2.
  double AreaMm2(const cv::Mat& changed) const;
  // Connected changed regions (8-connected cells), largest first.
  std::vector<ChangeRegion> Regions(const cv::Mat& changed) const;
  // Bounding box of every changed cell, full top-view pixels (empty when nothing changed).
  cv::Rect Bounds(const cv::Mat& changed) const;
  // Where a detector needs to look: the union of the regions of at least min_region_mm2,
  // grown by margin_mm (and one cell), clipped to the view; empty when no region is that big.
  cv::Rect Around(const cv::Mat& changed, double min_region_mm2, double margin_mm) const;

  int factor() const { return factor_; }  // top-view pixels per cell, each way
  double cell_area_mm2() const { return cell_area_mm2_; }

 private:
  ChangeOptions options_;
  int factor_ = 1;
  double mm_per_px_ = 1;
  double cell_area_mm2_ = 1;
  cv::Size full_;   // top-view size, px
  cv::Size cells_;  // coarse size
  cv::Mat edge_;    // CV_8U: cells at the border of the view or of what the camera sees
  TopView coarse_;  // one pixel per cell, sampled from the camera frame
};

}  // namespace referee
