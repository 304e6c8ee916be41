// The camera from the straightness of the grid lines: besides the crossings, every visible piece
// of every grid line is sampled (a sub-pixel line centre every few pixels), and the camera
// (pose, focal lengths, principal point, k1 k2 p1 p2) is refined so the projected lines pass
// through the samples and the projected crossings through the crossings. Thousands of 1-D
// measurements average the noise of blurred, noisy images down and constrain the distortion
// out to the board's edges, also where crossings are hidden but the lines between them are not.
#pragma once

#include <optional>
#include <vector>

#include <opencv2/core.hpp>

#include "calibration/camera_fit.hpp"
#include "calibration/intersection_refine.hpp"
#include "engine/grid.hpp"

namespace referee {

struct LineSample {
  bool on_col_line = true;  // on the line x = line_in (a column line) or y = line_in (a row line)
  double line_in = 0;       // that line's table coordinate, inches
  cv::Point2d px;           // measured line centre, distorted image pixels
};

struct LineFitOptions {
  // Samples per grid square along each line (spread over its middle 70 %, away from the
  // crossings). Default 12; more costs time for little gain.
  int samples_per_square = 12;
  // A sample farther than this from where the starting camera puts the line is not this line
  // (a stand's edge, a road's border), px.
  double max_offset_px = 2.0;
  // Each sample's profile across the line is the mean of the profiles over this fraction of the
  // gap to the next sample either way along the line (0.5: every pixel of the sampled stretch is
  // read once; 0: one profile, as before s24). A blurred, noisy line is located from all of its
  // pixels rather than one row in six; the stretch (about 6 px at 1080p) is straight under any
  // lens. refine.along_line_px, when larger, wins (the faintest attempt's fixed stretch).
  double along_fraction_of_gap = 0.5;
  // Fewer accepted samples than this: keep the crossing-only fit.
  int min_samples = 200;
  // Prior widths pulling the badly observable terms toward a typical webcam when the data
  // cannot tell (one view of a plane): principal point toward the image centre (fraction of
  // the width), tangential p1 p2 toward 0, fy/fx toward 1. Widen for an unusual lens.
  // One view of a plane does not fix the focal length and the principal point together: along
  // that valley the fit's cost is flat to 0.5 % over +-20 % of focal length, and the camera's
  // height follows the focal length, moving every raised point (a projectile on a base). So the
  // principal point is held within 1 % of the width (webcams' lie within ~2 %) and the focal
  // length by a log-normal prior around focal_prior_fraction_of_width * width (0.75: a 67 deg
  // field of view) with focal_log_sigma (0.2: 53-83 deg at 1.5 sigma; 0 turns it off). Both
  // count as one line sample each, so a view that does determine them overrides them.
  // A lens file (`calibrate-lens`) fixes the intrinsics and is better than any prior.
  double principal_point_sigma_fraction = 0.01;
  double tangential_sigma = 0.002;
  double aspect_sigma = 0.003;
  double focal_prior_fraction_of_width = 0.75;
  double focal_log_sigma = 0.2;
  RefineOptions refine;
};

// Line samples of every board line near where `camera` projects it. `gray` as RefineImage.
std::vector<LineSample> SampleGridLines(const cv::Mat& gray, const Grid& board,
                                        const CameraModel& camera,
                                        const LineFitOptions& options = {});

// Joint refinement from `start`: crossings (table_in, px) and line samples. With a lens file
// (`fix_intrinsics`) only the pose moves. nullopt when it does not converge to something sane.
// The returned residual_px are the crossings'.
std::optional<CameraFit> RefineCameraOnLines(const CameraModel& start,
                                             const std::vector<cv::Point2d>& table_in,
                                             const std::vector<cv::Point2d>& px,
                                             const std::vector<LineSample>& samples,
                                             bool fix_intrinsics,
                                             const LineFitOptions& options = {});

}  // namespace referee
