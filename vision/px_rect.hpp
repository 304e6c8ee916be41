// A base's rectangle in top-view pixels, as the stand detector works on it before converting to
// table inches.
#pragma once

#include <cstddef>
#include <vector>

#include <opencv2/core.hpp>

namespace referee {

// Centre, unit axis "a" and full side lengths along a and b (b = a rotated +90 degrees), px.
struct PxRect {
  cv::Point2d center;
  cv::Point2d axis_a;
  double len_a = 0;
  double len_b = 0;
  // Other catalogue sizes the image explains as well as this one (a blurred ring whose size
  // the band cannot decide, see BlurredRingOptions::report_size_ties): the players say which.
  // Empty for every base whose size was told.
  std::vector<PxRect> other_sizes;
  cv::Point2d AxisB() const { return {-axis_a.y, axis_a.x}; }
};

// r's four corners with every side moved out by grow_px (negative: in), rounded to pixels, in
// order around the rectangle: the polygon to fill, clear or outline.
std::vector<cv::Point> GrownCorners(const PxRect& r, double grow_px);

// Area the two rectangles share, px^2 (0 when they do not meet).
double OverlapAreaPx(const PxRect& a, const PxRect& b);

// Do a and b overlap by more than a tenth of the smaller one? Bases cannot overlap, and touching
// neighbours found with edge errors of a millimetre or two share far less.
bool OverlapTooMuch(const PxRect& a, const PxRect& b);

// Is `piece` (a rectangle of r's own side) another view of the base r: more than half of it
// inside r? Two passes may each fit part of one base (a ring fit of its far half beside a
// colour blob cut short at its figures); a neighbour r grew over shows a seam instead, which
// GrowShortBases tests.
bool IsPieceOf(const PxRect& piece, const PxRect& r);

// side_rects[i] has just grown: the other entries that are pieces of it (IsPieceOf), which other
// passes found of this base, are dropped; i follows its entry as the list closes up.
void DropPiecesOf(std::vector<PxRect>& side_rects, size_t& i);

// Does r (a base of side s, rects indexed by side) overlap another base by too much? self: r's
// own entry in rects, if it has one, skipped. Other bases of
// r's side lying mostly inside r do not count: they are pieces of the same base (IsPieceOf).
bool OverlapsAnother(const PxRect& r, size_t s, const std::vector<std::vector<PxRect>>& rects,
                     const PxRect* self);

// Are a and b's centres closer than half the shortest of their sides: one place, whatever their
// sizes?
bool SamePlace(const PxRect& a, const PxRect& b);

// Does a base of any side (rects indexed by side) lie where r is: at the SamePlace, or
// overlapping r by more than a tenth of the smaller (OverlapTooMuch)? A blob of a washed class is
// often half a base found whole elsewhere, or the reverse.
bool AnyBaseAt(const PxRect& r, const std::vector<std::vector<PxRect>>& rects);

// Is r one of `placed`, exactly as it was placed there (no later step moved or resized it)?
bool IsOneOf(const PxRect& r, const std::vector<PxRect>& placed);

// Every side's bases in one list.
std::vector<PxRect> AllRects(const std::vector<std::vector<PxRect>>& rects);

// A catalogue base size, mm (which side is the frontage does not matter to the detector).
struct BaseSize {
  double width_mm;
  double depth_mm;
};

}  // namespace referee
