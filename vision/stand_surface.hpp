// What the `before` top view shows on and around a stand's top, so that a projectile lying
// there can be told to rest on the figures (raised, up to ~25 mm) or on the bare base top:
//  - the border's colour (the side colour, at the base's edge);
//  - the bare interior's colour: the most common colour inside the border (flock, paint or
//    the side colour again), so a flocked base without figures is not taken for figures;
//  - figures: inside the border, whatever is not like the bare top (a figure may wear the side
//    colour); outside it, whatever is like neither. A colour is "like" a reference when it is
//    that colour lit more or less brightly (figures' shadows fall on the flock). When the bare
//    top is of the border's own colour, colour cannot tell a figure of that colour from it: a
//    stand whose interior is not all border colour is then taken to carry figures throughout.
// Figure tops are seen where parallax puts them, which is where a projectile resting on them is
// seen too, so the pixels under a projectile's silhouette tell what it rests on.
#pragma once

#include <array>
#include <vector>

#include <opencv2/core.hpp>

#include "vision/stand_detector.hpp"
#include "vision/top_view.hpp"

namespace referee {

struct StandSurface {
  bool valid = false;  // false: too little of the stand seen to measure its colours
  cv::Vec3d border;    // median colour of the border band (BGR)
  cv::Vec3d interior;  // the bare top's colour: most common in a band just inside the border
  bool interior_distinct = false;  // the bare top is not of the border's colour (flock, paint)
  double figure_cover = 0;         // share of the interior not of the border's colour, 0..1
  double border_width_mm = 0;      // the border's measured width (at least the nominal border_mm)
  std::vector<cv::Point> interior_px;  // the interior (inside the border), top-view polygon
};

// `border_mm`: width of the base's side-colour border (TABLE_KIT: at least 3).
StandSurface MeasureStandSurface(const DetectedStand& stand, const TopView& view,
                                 const cv::Mat& top_before, double border_mm);

// Whether `bgr` is `reference` lit between 0.5x (a shadow) and `max_gain` x as brightly: within
// `tolerance` x the scaled colour's norm (at least `floor_levels`) of that scaled colour.
// Defaults fit a base's top seen across its own shading; a tighter test (no brightening) tells
// the mat in shadow from a pale thing lying on it.
bool LikeColour(const cv::Vec3b& bgr, const cv::Vec3d& reference, double max_gain = 1.25,
                double tolerance = 0.25, double floor_levels = 15.0);

// Share of the `top_before` pixels inside `polygon_px` (top-view px) that show figures of
// `surface`; -1 when the polygon holds no pixel. `min_cover`: the figure_cover from which a
// stand whose bare top is of the border's colour carries figures.
double FigureShare(const StandSurface& surface, const cv::Mat& top_before,
                   const std::vector<cv::Point>& polygon_px, double min_cover);

// Whether the stand's whole top reads as its border's colour (figures cover less than
// `min_cover` of its interior in any other colour): figures painted in the side colour over the
// interior, as TABLE_KIT's figures cover it, cannot be told from a bare top there.
bool TopOfBordersColour(const StandSurface& surface, double min_cover);

// Per channel, the median of the samples (each channel's samples reordered). Non-empty input.
cv::Vec3d ChannelMedian(std::array<std::vector<int>, 3>& samples);

// The colour histogram a base's bare top and the floor's colours are read from as its commonest
// colour: 8 bins of 32 levels a channel (B major, 512 in all). A pixel's bin, a bin's centre
// colour, and how near that centre a pixel is of the bin's colour, levels.
constexpr int kColourBins = 512;
constexpr double kBinReach = 28.0;
int ColourBin(const cv::Vec3b& bgr);
cv::Vec3d BinCentre(int bin);

}  // namespace referee
