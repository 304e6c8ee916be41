// Sub-pixel position of one grid-line crossing: the two dark lines are measured across their
// profile on the four arms around the crossing (away from the crossing itself, where the lines
// merge), a straight line is fitted through each pair of opposite arms, and the crossing is
// their intersection. Unbiased for thin lines (unlike saddle-point refiners made for
// chessboards), and arms hidden by a stand simply drop out.
#pragma once

#include <optional>

#include <opencv2/core.hpp>

namespace referee {

struct RefineOptions {
  // Minimum darkness of a line against the mat, grey levels (0-255). Lower for faint lines.
  double min_contrast = 6.0;
  // Minimum arm samples per line (both arms together); fewer means the crossing is hidden.
  int min_samples_per_line = 6;
  // Largest RMS distance of the arm samples from their fitted line, px.
  double max_line_rms_px = 0.8;
  // Each profile across a line is the mean of the profiles this far either way along the line,
  // px (0: one profile). A faint line a few grey levels under the mat's noise is measured over
  // a stretch of its length rather than one pixel row; its centre stays where it was (the
  // stretch is short enough to be straight under lens distortion).
  double along_line_px = 0;
  // A profile whose mat is lighter on one side than the other by more than the line is deep is
  // taken for a step (a mat's blurred edge against a lighter table), not a line.
  bool reject_steps = false;
};

struct RefinedCrossing {
  cv::Point2d px;
  double line_rms_px = 0;  // worst of the two line fits
  int samples = 0;         // arm samples used, both lines
};

// `gray` is CV_32F (lightly smoothed). `dir1`/`dir2`: image directions of the two grid lines
// near the guess; `spacing_px`: local square size in pixels.
std::optional<RefinedCrossing> RefineCrossing(const cv::Mat& gray, cv::Point2d guess,
                                              cv::Point2d dir1, cv::Point2d dir2, double spacing_px,
                                              const RefineOptions& options = {});

// Offset (px, along the unit `normal`) from `p` to the centre of the thin dark line crossing the
// profile through `p`; nullopt when no clean line is there (hidden, a blob, too faint).
// `spacing_px` (local square size) sets the profile length and the widest line accepted, as in
// RefineCrossing.
std::optional<double> MeasureLineOffset(const cv::Mat& gray, cv::Point2d p, cv::Point2d normal,
                                        double spacing_px, const RefineOptions& options = {});

// The float, lightly smoothed grey image RefineCrossing expects, from BGR or grey 8-bit.
cv::Mat RefineImage(const cv::Mat& image);

}  // namespace referee
