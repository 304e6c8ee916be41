// Growing a lattice of measured grid crossings outward through the camera fitted so far. A first
// camera fitted to a few clusters of crossings (strong lens distortion, a tilted view, much of
// the grid hidden) extrapolates badly far from them, so predicting the whole board at once finds
// only the crossings near the clusters. Here each wave predicts only the crossings next to ones
// already measured (one square of extrapolation, a few when a band of terrain hides the nearer
// ones), refines them with RefineCrossing, keeps those the refitted camera explains within
// accept_residual_px, and refits before the next wave.
#pragma once

#include <optional>
#include <vector>

#include <opencv2/core.hpp>

#include "calibration/camera_fit.hpp"
#include "calibration/intersection_refine.hpp"

namespace referee {

struct LatticeCrossing {
  int i = 0, j = 0;  // lattice labels; the crossing sits at (i, j) * square_in on the mat
  cv::Point2d px;    // measured, distorted image pixels
};

struct LatticeGrowthOptions {
  // A new crossing is kept when the camera refitted with it explains it within this, px.
  double accept_residual_px = 1.0;
  // Upper bound on the number of waves (each adds one ring of crossings at most).
  int max_waves = 60;
  // How far (squares) from the measured crossings a wave may predict when nearer ones cannot be
  // measured (hidden by terrain): far enough to cross a wood or a road, near enough that the
  // camera fitted so far still predicts within RefineCrossing's reach.
  int max_reach_squares = 3;
};

struct GrownLattice {
  std::vector<LatticeCrossing> crossings;
  CameraModel camera;  // fitted to all of them
};

// Grows `seeds` (labels within [i_min, i_max] x [j_min, j_max]) inside those bounds. `gray` as
// RefineImage. nullopt when the seeds do not fit a camera.
std::optional<GrownLattice> GrowLattice(const cv::Mat& gray,
                                        const std::vector<LatticeCrossing>& seeds, double square_in,
                                        cv::Rect bounds, cv::Size image_size,
                                        const std::optional<LensModel>& lens,
                                        const CameraFitOptions& fit_options,
                                        const RefineOptions& refine_options,
                                        const LatticeGrowthOptions& options = {});

// Labels counted one grid line per g lines: the lines' progression was indexed at a fraction of
// the true spacing (its steps of 2 fit a tilted, distorted grid as well), so every crossing of
// one direction sits on every g-th label, and the growth, which tried the labels between, found
// nothing there. Divides each direction's labels by the common step of all of them (about the
// smallest) and returns true when it changed any. A grid seen so sparsely that its crossings
// miss every other line all across cannot be told from this one, but the growth tries those
// crossings first, one square from the measured ones.
bool CloseSkippedLines(std::vector<LatticeCrossing>& crossings);

}  // namespace referee
