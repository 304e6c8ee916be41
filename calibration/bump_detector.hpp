// Has the camera moved since calibration? Each live frame is compared with the calibration's
// reference: a coarse shift from phase correlation of edge maps of the reference thumbnail,
// then every calibrated grid crossing is re-measured to sub-pixel near where it should be.
// Crossings hidden by hands or stands simply fail to measure, so the median displacement of
// the rest is robust to them; lighting changes do not move lines.
#pragma once

#include <optional>

#include <opencv2/core.hpp>

#include "calibration/calibrate_table.hpp"
#include "calibration/table_calibration.hpp"

namespace referee {

struct BumpOptions {
  // Median crossing displacement that counts as a bump, px. 1.0 reliably reports 2 px shifts
  // (crossings measure to ~0.1 px); raise for a shaky mount.
  double shift_threshold_px = 1.0;
  // Fewer re-measured crossings than this: the view is too covered to judge (not reliable).
  int min_crossings = 8;
  // Re-calibrate automatically only when at least this fraction of the calibrated crossings
  // is visible in the frame.
  double recalibrate_min_visible = 0.7;
};

struct BumpReport {
  bool reliable = false;       // enough crossings measured to judge
  bool bumped = false;         // camera moved by >= shift_threshold_px (median over crossings)
  double median_shift_px = 0;  // median |displacement| of the re-measured crossings
  cv::Point2d median_vector;   // component-wise median displacement, px
  int measured = 0;            // crossings re-measured in this frame
  int reference = 0;           // crossings in the calibration
  double visible_fraction = 0;
};

class BumpDetector {
 public:
  explicit BumpDetector(TableCalibration calibration, BumpOptions options = {});

  BumpReport Check(const cv::Mat& frame) const;
  // After a bump: a fresh calibration from this frame when the grid is visible enough (the
  // lens of the old calibration is kept when it came from a lens file); nullopt otherwise.
  std::optional<TableCalibration> Recalibrate(const cv::Mat& frame, const BumpReport& report,
                                              const CalibrateOptions& options = {}) const;
  const TableCalibration& calibration() const { return cal_; }

 private:
  TableCalibration cal_;
  BumpOptions options_;
  cv::Mat reference_edges_;  // gradient magnitude of the reference thumbnail, CV_32F
};

}  // namespace referee
