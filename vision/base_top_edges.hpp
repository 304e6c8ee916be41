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
void CentreInSideFaceSpan(const TopView& view, double base_h_in, const std::array<bool, 4>& placed,
                          PxRect& r);

// The same for an outline fitted whole at a catalogue size (the blurred-ring fit): a side
// face that shows moves such a fit toward the camera by up to half its span, so the centre is
// taken a quarter of the span back, the size kept.
void CentreFixedSizeInSideFaceSpan(const TopView& view, double base_h_in, PxRect& r);

}  // namespace referee
