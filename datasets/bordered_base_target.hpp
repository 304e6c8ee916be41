// A base's top seen square-on at a camera's own resolution, rendered by exact area: a
// rectangle of its border's colour around an inside of another colour, on a plain mat. The
// edge-placement bench (`referee bench edges`) and its tests measure where RefineEdges puts the
// sides of such a base against its border's width, what lies inside it, blur and JPEG (s62).
#pragma once

#include <array>

#include <opencv2/core.hpp>

namespace referee {

struct BorderedBaseTarget {
  cv::Size image_px{128, 128};
  cv::Point2d centre_px;  // pixel centres at integers (as datasets/polygon_coverage)
  double angle_deg = 0;   // of the width axis, from the image's x axis
  double width_px = 25, depth_px = 12.5, border_px = 2;
  cv::Scalar mat_bgr{58, 110, 74};     // a green mat
  cv::Scalar border_bgr{42, 48, 192};  // TABLE_KIT's default red side
  cv::Scalar inside_bgr{58, 110, 74};  // what stands inside the border
};

// The target as an 8-bit BGR image of image_px.
cv::Mat RenderBorderedBase(const BorderedBaseTarget& t);

// The target's outward unit normals: -width axis, +width axis, -depth axis, +depth axis (the
// order of vision's PxRect sides).
std::array<cv::Point2d, 4> BorderedBaseNormals(const BorderedBaseTarget& t);

}  // namespace referee
