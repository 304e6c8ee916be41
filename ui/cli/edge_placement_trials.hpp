// Where RefineEdges (vision/base_top_edges) puts the sides of rendered bases whose edges are
// known exactly: the measurement behind `referee bench edges` (s62).
#pragma once

#include <vector>

#include <opencv2/core.hpp>

#include "datasets/camera_response.hpp"

namespace referee::cli {

struct EdgeTrialSpec {
  double camera_mm = 1.6;           // the camera's pixel on the table (1.5-1.7 in the 1080p scenes)
  double border_mm = 4.0;           // TABLE_KIT: at least 3 mm
  cv::Scalar mat_bgr{58, 110, 74};  // a green mat
  cv::Scalar border_bgr{42, 48, 192};  // TABLE_KIT's default red side
  cv::Scalar inside_bgr{58, 110, 74};
  CameraResponse camera;  // blur, noise, JPEG as the camera sends the frame
  int trials = 48;        // bases at stepped sub-pixel positions and angles
};

struct EdgeTrialResult {
  int sides = 0;                   // sides tried (4 per trial)
  std::vector<double> outward_mm;  // per side RefineEdges placed: how far outward of the truth
};

// Renders a 40 x 20 mm base per trial (datasets/bordered_base_target) at the camera's pixel,
// re-shoots it with spec.camera, rectifies it as the top view does (a bilinear view of twice the
// camera's resolution), starts RefineEdges from an outline 0.3-0.6 px off and reads its sides.
EdgeTrialResult RunEdgeTrials(const EdgeTrialSpec& spec);

}  // namespace referee::cli
