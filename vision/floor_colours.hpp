// The colours of the flat floor around a point of the top view, as `before` shows them: the mat,
// and flat terrain lying on it (a road, water felt) where the board says such terrain lies. A
// projectile's support is told by whether the floor's colours show under it; the camera's blur
// mixes two neighbouring colours of the floor (at a road's edge), which is still the floor, not
// something standing on it.
#pragma once

#include <vector>

#include <opencv2/core.hpp>

namespace referee {

// The colours covering at least `min_share` of the `where` pixels (CV_8U) of `before` (BGR)
// that are not like `mat` (the mat lit the same or in shadow): each the median of the pixels
// around the most common colour left, at most `max_colours` of them.
std::vector<cv::Vec3d> FlatArtColours(const cv::Mat& before, const cv::Mat& where,
                                      const cv::Vec3d& mat, double min_share, int max_colours);

// Whether `bgr` is one of `colours` lit the same or in shadow, or a blend of two of them (the
// blur across the edge between them).
bool LikeFloor(const cv::Vec3b& bgr, const std::vector<cv::Vec3d>& colours);

}  // namespace referee
