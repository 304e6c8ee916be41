// Calibrating the table from one camera image: find the grid (from the corner markers when
// present, else from its lines alone), label every crossing (col,row) from the origin corner
// per TABLE_KIT, refine each visible crossing to sub-pixel, and fit the camera (intrinsics and
// distortion unless a lens file is given, and the pose). Refuses, with a reason and a debug
// picture, when the grid is not found, has the wrong size, or fits poorly.
#pragma once

#include <optional>
#include <string>
#include <variant>

#include <opencv2/core.hpp>

#include "calibration/camera_fit.hpp"
#include "calibration/grid_lines.hpp"
#include "calibration/intersection_refine.hpp"
#include "calibration/lattice_growth.hpp"
#include "calibration/line_sample_fit.hpp"
#include "calibration/table_calibration.hpp"

namespace referee {

struct CalibrateOptions {
  GridLineOptions lines;
  RefineOptions refine;
  CameraFitOptions fit;
  // Final joint fit on crossings and samples along every visible grid line (see
  // line_sample_fit.hpp). Default on; off keeps the crossings-only fit.
  bool use_line_samples = true;
  LineFitOptions line_fit;
  // Rounds of the line-sample fit, each sampling the lines where the previous round's camera
  // puts them. 1 samples them once, through the crossings' camera.
  int line_sample_rounds = 1;
  // A table refused at first is tried again: without markers the crossings found where the
  // grid lines were detected are grown over the rest of the visible grid before the board's
  // lines are picked (see lattice_growth.hpp), the measured crossings count as line evidence,
  // and the coverage may be min_coverage_spanning_board when they reach all four border lines.
  bool grow_lattice = true;
  LatticeGrowthOptions growth;
  // A table still refused because its lines were not found is tried once more with lines
  // darker than the mat by this many grey levels (lines.min_darkness_grey is the first
  // attempts'): a dim, blurred picture of a dark mat. 0 turns the attempt off.
  double faint_line_darkness_grey = 3.0;
  // ... its relative darkness bound (lines.min_relative_darkness) lowered in the same proportion,
  // and its line-sample fit run this many rounds (line_sample_rounds): with so faint a grid few
  // crossings are measured, and toward a corner with none the crossings' camera misses the
  // lines by more than the samples may lie off, until a round through the lines' camera.
  int faint_line_sample_rounds = 3;
  // A table the faint attempt still refuses for too few crossings is tried once more measuring
  // each profile across a line as the mean of the profiles this many px either way along it (at
  // 1080p, scaled with the image; see RefineOptions::along_line_px), and lines down to
  // faint_line_darkness_grey deep there too: lines about 5 grey levels under a mat with +-4 of
  // noise, whose single profiles the crossings and line samples rarely measure. 0 turns it off.
  double faint_profile_along_line_px = 4.0;
  // A table the faint attempts still refuse, for any reason, is tried once more as the faintest
  // attempt is, but with each pixel's darkness summed along the line through it over a stretch
  // this long (px at 1080p; see GridLineOptions::along_line_mean_px): lines 4-5 grey levels deep
  // under noise of 2-3, which pixel by pixel break into fragments too short for the Hough
  // transform, or so few among wood grain and paper edges that the lines found are numbered at a
  // multiple of their spacing. Every refusal check applies as before. 0 turns it off.
  double summed_line_length_px = 24.0;
  // Use the ArUco corner markers when at least this many of the four are found; else the grid
  // lines alone. Set above 4 to ignore markers.
  int min_markers = 2;
  // A crossing whose reprojection residual exceeds this is dropped as a bad measurement, px.
  double outlier_px = 1.0;
  // Refusal thresholds: fewer crossings found than this fraction of the board's; RMS residual
  // above max_rms_px; more than max_rejected_fraction of the measured crossings dropped.
  double min_coverage = 0.4;
  // ... or, in the growing attempt, down to this fraction when crossings are measured on all
  // four border lines of the board (the labels are then fixed: see CalibrateTable).
  double min_coverage_spanning_board = 0.3;
  double max_rms_px = 0.8;
  double max_rejected_fraction = 0.3;
  // In the growing attempt, a table with too few crossings is still taken when the board's lines
  // show where the fitted camera puts them (see line_coverage.hpp): at least this fraction of all
  // their samples, every border line at least half as much as the median line and every line
  // one square beyond the border less than half. A blurred, noisy picture of a small board loses
  // whole crossings where the lines between them still show. Any markerless table is refused
  // when such a beyond line shows (a grid larger than the board, or labels a square off: there a
  // blurred picture rarely measures a crossing even where a grid line runs). 0 turns both off.
  double min_line_coverage = 0.4;
  // ... with at least this many crossings measured, and only when the line-sample fit ran.
  int min_crossings_on_lines = 20;
  // ... and refused too when the board's lines run on over the square past any border in at
  // least this fraction of the median line's coverage: a board one square short of the drawn
  // grid whose line past the border lies under terrain along most of its length. On `hard`
  // tables given their right board the lines run on in at most 0.054 of it, on the 11 x 8 board
  // taken inside a 12 x 8 grid in 0.40. 0 turns it off.
  double max_line_extension = 0.25;
};

struct CalibrationRefusal {
  std::string code;                            // "grid_not_found", "wrong_size" or "poor_fit"
  std::string message;                         // one line for the user
  CalibrationQuality quality;                  // what was measured before refusing (may be partial)
  std::vector<IntersectionFix> intersections;  // crossings found, if any
  // Every attempt's own refusal ("attempt: code: message"), in the order tried: the refusal
  // returned is the first attempt's, the later attempts' reasons are kept for diagnosis.
  std::vector<std::string> attempts;
};

using CalibrationResult = std::variant<TableCalibration, CalibrationRefusal>;

CalibrationResult CalibrateTable(const cv::Mat& image, const Grid& board,
                                 const std::optional<LensModel>& lens,
                                 const CalibrateOptions& options = {});

// Debug picture: the crossings found (green), predicted but not found (red), the board outline
// and origin, and the result line.
cv::Mat DrawCalibrationDebug(const cv::Mat& image, const CalibrationResult& result);

// Small grey thumbnail kept as the reference for drift checks (width 320 px).
cv::Mat ReferenceThumbnail(const cv::Mat& image);

}  // namespace referee
