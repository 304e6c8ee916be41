// What changed on the table since it was seen empty: the top view of the table with its terrain
// and clutter in place but no stands (taken when the referee is set up, before the armies are
// deployed), against a top view now. Both are in table coordinates, so a camera bumped and
// calibrated again between them still lines them up (only what stands above the mat moves by
// parallax). Lighting drift between the two is divided out at a scale far larger than a base.
#pragma once

#include <vector>

#include <opencv2/core.hpp>

#include "vision/px_rect.hpp"

namespace referee {

struct TableChangeOptions {
  // A pixel has changed when its largest channel difference exceeds this many times the
  // frame's typical (median) difference, and at least min_change_levels. Default 4: sensor
  // noise after a 3 x 3 mean is a few levels; a border of a side's colour over the mat, tens.
  double noise_multiple = 4.0;
  // Default 12 (of 255).
  double min_change_levels = 12.0;
};

// Per-pixel change (CV_8U, 255 where changed, 0 elsewhere and where either view shows
// nothing). top and empty_top: BGR top views of one size.
cv::Mat TableChange(const cv::Mat& top, const cv::Mat& empty_top,
                    const TableChangeOptions& options = {});

// Share of r that changed, 0..1; 0 when r lies outside the map.
double ChangedShare(const cv::Mat& change, const PxRect& r);

// Drops the bases (rects indexed by side) of which less than min_share changed: a stand put on
// the table after it was seen empty changes most of its top (`hard`: 0.29-1.0, the lowest under
// a canopy), while paper, rulers, roofs and water of a side's colour lay there already (0-0.01).
void DropUnchangedBases(std::vector<std::vector<PxRect>>& rects, const cv::Mat& change,
                        double min_share);

}  // namespace referee
