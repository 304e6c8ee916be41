// A found base's outline moved to the edges of its top in the image.
#pragma once

#include <array>

#include <opencv2/core.hpp>

#include "vision/px_rect.hpp"
#include "vision/top_view.hpp"

namespace referee {

// Moves each side of the rectangle to the sub-pixel edge of the base's top in the colour
// image: along profiles across the side, where the colour has moved half-way from the border
// just inside toward the surface just outside. Working in RGB (not chroma) keeps a base's
// darker, same-hued side faces and blur out of the top. Sides with no contrast (a touching
// base) stay put. The outline found is the top face, at the base's height. Returns, per side
// (-a, +a, -b, +b), whether the image placed it.
std::array<bool, 4> RefineEdges(const cv::Mat& img, PxRect& r, double mm, double min_border_mm);

// A side of a base facing the camera shows the base's side face beside its top: on the mat
// plane it spans from where the top's edge is seen to the base's foot, side_face_px further out
// (the top lies base_h_in above the mat, so it is seen shifted away from the camera). The frame's
// blur merges its two steps (top to side face, side face to mat) into one edge that lies
// somewhere in that span, nearer the foot the more the side face looks like the top; its
// colour (paint, light) is unknown, so each such side that RefineEdges placed is taken half way
// back toward the top: its error is then at most half the span whatever the side face shows.
// An axis neither of whose sides the image placed has a size the search chose (a blurred ring
// fitted whole at a catalogue size, a base completed across a side): a side face that shows
// moves such an outline toward the camera by up to half its span, so it is moved a quarter of
// the span back along that axis, its size kept. Applies under any blur (s61).
void CentreInSideFaceSpan(const TopView& view, double base_h_in, const std::array<bool, 4>& placed,
                          PxRect& r);

}  // namespace referee
