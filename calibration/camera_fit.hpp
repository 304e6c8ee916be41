// Fitting the camera to grid crossings seen in one image: a planar target with known table
// coordinates. With a lens file the intrinsics and distortion are kept and only the pose is
// solved; without one the focal length comes from the homography (or a prior when the view is
// too square-on to tell) and radial distortion k1 (k2 with enough crossings) is estimated from
// how the straight grid lines bend in the image.
#pragma once

#include <optional>
#include <vector>

#include <opencv2/core.hpp>

#include "calibration/camera_model.hpp"

namespace referee {

struct LensModel {
  cv::Size image_size;
  cv::Matx33d camera_matrix = cv::Matx33d::eye();
  cv::Vec<double, 5> distortion{0, 0, 0, 0, 0};
  double rms_px = 0;  // of the lens calibration that produced it
};

struct CameraFitOptions {
  // Focal length prior as a fraction of the image width, used when the view is too close to
  // square-on for the homography to determine it. 0.75 ~ a 67 degree horizontal field of view
  // (typical webcam); change for a zoom lens.
  double focal_prior_fraction_of_width = 0.75;
  // Below this camera tilt from vertical (degrees) the focal length is not estimated.
  double min_tilt_for_focal_deg = 10.0;
  // Estimate k2 too when at least this many crossings are available.
  int min_points_for_k2 = 60;
  // With that many crossings and a tilted view, also fit the principal point and the
  // tangential terms p1 p2. Turn off if the fitted principal point wanders for your camera.
  bool free_principal_point = true;
  // With that many crossings, fit the pixel aspect ratio fy/fx within 1 +- this (0 keeps
  // square pixels). Default 0.01; webcams' pixels are square to a fraction of a percent, but
  // 0.2 % is already 1 px at the edge of a 1080p image.
  double max_aspect_deviation = 0.01;
  // false: keep distortion zero (a first guess from few points, e.g. the corner markers).
  bool estimate_distortion = true;
};

struct CameraFit {
  CameraModel camera;
  std::vector<double> residual_px;  // per input point
  double rms_px = 0;
};

// table_in: crossing positions on the mat (inches, z = 0); px: their distorted pixels.
std::optional<CameraFit> FitCamera(const std::vector<cv::Point2d>& table_in,
                                   const std::vector<cv::Point2d>& px, cv::Size image_size,
                                   const std::optional<LensModel>& lens,
                                   const CameraFitOptions& options = {});

}  // namespace referee
