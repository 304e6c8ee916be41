// Finding the board's grid lines without markers: a line-evidence image (dark thin lines on a
// lighter mat, normalised for uneven light), Hough lines split into the two grid directions,
// and in each direction the subset of lines that are consecutive grid lines (a 1-D projective
// progression along a transversal, grown with a cubic term for lens distortion).
#pragma once

#include <optional>
#include <vector>

#include <opencv2/core.hpp>

namespace referee {

struct GridLineOptions {
  // Morphological black-hat kernel, px at 1080p height (scaled with the image). Must exceed the
  // drawn line width in pixels; raise for very thick lines or 4K close-ups.
  int blackhat_kernel_px = 15;
  // Relative darkness (black-hat / local brightness) that counts as line evidence. Default
  // 0.08; lower for faint lines on a dark mat, raise for a heavily textured mat.
  double min_relative_darkness = 0.08;
  // ... and by this many grey levels at least (8-bit), so that sensor noise on a dark, evenly
  // lit mat does not pass as lines.
  double min_darkness_grey = 6.0;
  // A Hough line needs this many evidence pixels, as a fraction of the image's shorter side.
  double min_line_votes_fraction = 0.12;
  // Spread of line angles within one grid direction (perspective convergence), degrees.
  double family_half_width_deg = 25.0;
  // A line belongs to the progression when its fractional index is within this of an integer.
  double index_tolerance = 0.15;
  // Darkness summed along the lines: each pixel's black-hat is replaced by its mean over a
  // stretch this long through it (px at 1080p, scaled with the image), taken in the direction
  // where that mean is darkest, before the bounds above apply. A line a few grey levels deep
  // under noise of half that keeps its depth while the noise falls with the stretch's length
  // (the matched filter of a straight line). 0: off (each pixel's own darkness).
  double along_line_mean_px = 0;
};

struct IndexedLine {
  double rho = 0;    // x cos(theta) + y sin(theta) = rho, image pixels
  double theta = 0;  // radians
  int index = 0;     // consecutive grid line number, relative (may be negative)
};

struct GridLineFamilies {
  std::vector<IndexedLine> a, b;  // the two directions, each indexed consecutively
  cv::Mat evidence;               // CV_8U line evidence (255 = dark thin line)
};

// Binary evidence of dark thin lines, same size as `gray`.
cv::Mat LineEvidence(const cv::Mat& gray, const GridLineOptions& options);

// nullopt when fewer than three consistent lines are found in either direction.
std::optional<GridLineFamilies> FindGridLines(const cv::Mat& gray,
                                              const GridLineOptions& options = {});

// Intersection of two lines given as (rho, theta); nullopt when (nearly) parallel.
std::optional<cv::Point2d> IntersectLines(double rho1, double theta1, double rho2, double theta2);

}  // namespace referee
