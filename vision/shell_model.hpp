// The shell shape model fitted to a change region in the rectified (mat-plane) top view: a
// ~12 mm square slab of plasticine, ~5 mm thick, its centre marked by a dark dot.
//  - The silhouette is told from what was there by colour, not by how much changed: a pixel
//    belongs to the shell when its chromaticity in `after` is nearer the shell's than the one
//    `before` had there. That keeps the shell's darker sides (same plasticine, other light) and
//    drops its shadow (the old surface's chromaticity, darker) and JPEG's smeared edges.
//  - The silhouette of a slab seen from above is its top swept toward the camera's foot by its
//    sides, so its centroid is the centre of the slab at half its thickness (exact for a prism:
//    it is symmetric about that point).
//  - The dot is a small spot darker than the top around it, near where the top's centre is
//    seen; located by the weighted centroid of what is darker than half way to the top. Where
//    blur has left no spot that dark, the blurred dot is fitted on the top (`shell_dot`).
// A shell whose dot cannot be seen (blur, glare, a dot rubbed off) is still measured from its
// silhouette when that is a clean square of the right size: the dot marks the centre, and the
// centre is what the silhouette gives.
#pragma once

#include <string>
#include <variant>
#include <vector>

#include <opencv2/core.hpp>

#include "vision/shell_dot.hpp"

namespace referee {

struct ShellModelOptions {
  // Side and thickness of the shell, mm (TABLE_KIT: 12 and 5).
  double side_mm = 12.0;
  double thickness_mm = 5.0;
  // Diameter of the centre dot, mm. Default 3.
  double dot_diameter_mm = 3.0;
  // Smallest darkening of the dot below the top, as a share of the top's brightness. Default
  // 0.2: a dark dot on yellow plasticine is ~0.5 even blurred over a few pixels; shading and
  // JPEG across a plain top stay under ~0.1. Lower only for a pale dot.
  double min_dot_contrast = 0.2;
  // Where no spot is that much darker: the blurred dot fitted on the top (`vision/shell_dot`,
  // at dot_diameter_mm above).
  ShellDotOptions dot;
  // Allowed deviation of the silhouette's sides from the model, fraction. Default 0.3.
  double size_tolerance = 0.3;
  // Smallest chromaticity distance between the shell and the surface under it for a pixel to
  // be judged by colour, in rg-chromaticity units (0..1). Default 0.04; where the surface is of
  // the shell's own colour the change mask decides.
  double min_chroma_separation = 0.04;
};

struct ShellFit {
  cv::Point2d centre_px;      // the dot (or the silhouette centre), top-view px (mat plane)
  bool dot_seen = true;       // false: centre_px is the silhouette's centroid
  double centre_height_mm;    // height of centre_px above the shell's bottom (top or middle)
  cv::Point2d silhouette_px;  // centroid of the silhouette, top-view px
  double area_mm2 = 0;        // silhouette area
  double short_side_mm = 0, long_side_mm = 0;  // its minimum-area rectangle
  std::vector<cv::Point> outline;              // its convex hull, top-view px
};

struct ShellRefusal {
  std::string reason;
};

// `change_mask`: the changed pixels (CV_8U). `pixels`: the changed pixels of the candidate
// region. `sweep_px`: in this part of the view, from where a point of the shell's bottom is
// seen to where the point above it on its top is seen (away from the camera's foot, by the
// shell's thickness times distance from the foot over camera height): how far the sides show.
std::variant<ShellFit, ShellRefusal> FitShell(const cv::Mat& top_before, const cv::Mat& top_after,
                                              const cv::Mat& change_mask,
                                              const std::vector<cv::Point>& pixels,
                                              double mm_per_px, cv::Point2d sweep_px,
                                              const ShellModelOptions& options = {});

}  // namespace referee
