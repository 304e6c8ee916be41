// What a shell rests on, and so how high its bottom is above the mat: the mat, a bare base top,
// or the figures on a base (plasticine landing on figures stays on them). One camera cannot
// measure the height; it comes from where the shell would be at each height and from what the
// `before` view showed under it:
//  - a shell that would overlap a base if it lay on the mat cannot lie on the mat;
//  - otherwise, when it could also lie on a stand, the surface seen under its silhouette before
//    the shot decides: the mat's own colour there (in light or shadow) means the mat;
//  - on no stand found, the mat's colour, or where the board lays flat terrain (a road, water)
//    that terrain's colour, must show under it: else it rests on something of unknown height;
//  - on a stand, figures seen under its silhouette before the shot put it on the figures, the
//    bare base top (flock, paint) on the base;
//  - a top of nothing but the border's colour (or nearly) is figures of the side colour over
//    the interior: a shell over the interior lies on them;
//  - its height is unknown where what is seen cannot decide: the mat's colour under it only in
//    shadow (a grey figure's top looks the same) where a stand's figures could hold it up, or a
//    shell on such a top but not over its interior.
#pragma once

#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "engine/geometry.hpp"
#include "vision/stand_detector.hpp"
#include "vision/top_view.hpp"

namespace referee {

struct ShellSupportOptions {
  // Base thickness, mm (TABLE_KIT: 2-3). Default 2.5.
  double base_height_mm = 2.5;
  // Height of the figures' tops above the base top, mm. Default 20 (TABLE_KIT: up to ~25 mm).
  // Set it to your miniatures' height.
  double figure_height_mm = 20.0;
  // Shell side and thickness, mm (TABLE_KIT: 12 x 5).
  double side_mm = 12.0;
  double thickness_mm = 5.0;
  // Width of a base's side-colour border, mm, and the share of its interior that must differ
  // from it for the base to carry figures (see FigureCover). Defaults 3 and 0.08.
  double border_mm = 3.0;
  double min_figure_cover = 0.08;
  // Share of the `before` pixels inside the shell's silhouette that must show figures (not the
  // base's bare top) for it to rest on them, 0..1. Default 0.05: where the shell is seen over
  // a figure's top it is not hidden by it, so it lies at least that high, and a slab rests on
  // the highest thing under any part of it; below 0.05 is the blur of an edge.
  double min_figure_share = 0.05;
  // Share of the silhouette that must show the mat's colour in `before` for a shell that could
  // lie either on the mat or on a stand to be taken as on the mat. Default 0.6.
  double min_mat_share = 0.6;
  // Share of the silhouette that must show the mat's colour in `before` for a shell on no
  // found stand to be taken as on the mat; below it the support is "unknown". Default 0.4
  // (a grid line under the shell takes up to a quarter); lower it for a busy, printed mat.
  double min_mat_share_alone = 0.4;
  // A base whose whole top reads as its border's colour carries figures of that colour over its
  // interior (TABLE_KIT: figures cover the interior), so a shell whose centre is over the
  // interior at the figures' height lies on them. Off: its height is "unknown" (refused).
  // Default on.
  bool own_colour_top_holds_figures = true;
};

struct ShellSupport {
  double bottom_in = 0;  // height of the shell's bottom above the mat
  std::string stand_id;  // the stand it rests on, empty on the mat
  std::string what;      // "mat", "base", "figures" or "unknown"
  // With "unknown": why its height is not known; empty when it lies on nothing found (a base the
  // stand search missed, terrain).
  std::string why;
};

// `silhouette_px`: the centroid of the shell's silhouette in the top view (seen at half its
// thickness); `outline_px`: its outline there. `top_before`: the rectified view before the shot.
// `flat_terrain`: where the board lays flat terrain on the mat (FlatTerrainMask less tall
// terrain; CV_8U, 255), empty when not known: a shell on no stand found lies on the mat when
// the floor's colours there (the mat's, a road's, water's) show under it.
ShellSupport ShellRestHeight(cv::Point2d silhouette_px, const std::vector<cv::Point>& outline_px,
                             const TopView& view, const cv::Mat& top_before,
                             const std::vector<DetectedStand>& stands,
                             const ShellSupportOptions& options = {},
                             const cv::Mat& flat_terrain = cv::Mat());

}  // namespace referee
