// Bases that show as a filled patch of their side's colour rather than a ring. When a small
// base's figures are painted near the side's colour, or defocus and motion blur (1.5-4 camera
// pixels, as wide as a 3 mm border) melt border and figures together, the side's evidence is
// one solid rectangle: the ring fit (vision/base_ring_fit.hpp) rejects it, since its inside is
// as full as its ring, and the colour blob's own outline, rounded and eaten by the blur, is no
// catalogue size. Here a solid rectangle of each catalogue size is placed over the patch where
// its inside, and each of its four edges, show the evidence and the band just outside does
// not: a catalogue size exactly, with straight edges all round. The caller refines the edges
// on the image gradient afterwards.
#pragma once

#include <vector>

#include <opencv2/core.hpp>

#include "vision/px_rect.hpp"

namespace referee {

struct FilledFitOptions {
  // Fraction of the inside (deeper than edge_depth_mm) that must show the evidence. Default
  // 0.85: blur and the figures' darker shades leave a few holes. Lower only if bases are missed
  // whose masks show them nearly solid.
  double min_inside_fraction = 0.85;
  // Each of the four edges, sampled edge_depth_mm in along its middle 80 %, must show the
  // evidence over this fraction. Default 0.8: a patch of figures on another base stops short
  // of a catalogue base's edges, and a blob cut by the blur is rounded at its corners only.
  double min_edge_fraction = 0.8;
  double edge_depth_mm = 1.5;
  // Largest fraction of the band outside_gap_mm beyond the edges that may show the evidence.
  // Default 0.1: a road, a roof or water of the side's colour runs on past a base's size.
  double max_outside_fraction = 0.1;
  double outside_gap_mm = 3.0;
  // ... widened by this fraction of the frame's blur (vision/edge_blur.hpp: the 10-90 % rise
  // width across base edges), which spreads the colour past a base's edges and rounds its
  // corners (the edge samples keep as far from them). Default 0.6 (a box blur spreads 0.62 of
  // its rise width past the edge, a Gaussian 0.5).
  double blur_spread = 0.6;
  // The pass runs only on a frame at least this soft (EdgeBlurMm, mm). Default 2.5, just under
  // the 3 mm border: a sharper camera sees a base's ring, so a solid patch of a side's colour
  // there is something else (a red die, a rule book, a painted building). Measured: our
  // napoleonic/ancient renders and the demo 1.2-3.4 mm, the hard renders 2.8-6.2 mm.
  double min_blur_mm = 2.5;
  // The search: the patch's centre +- this much, 1 px steps, and the patch's axis +- 6 degrees.
  // Default 2.5 mm.
  double centre_search_mm = 2.5;
};

// evidence: CV_8U, 255 where a pixel may be this side's (pixels of bases already found
// removed). mm_per_px: top-view
// scale. blur_mm: the frame's edge rise width (EdgeBlurMm), 0 if unknown. Returns one rectangle per
// patch that a catalogue base explains.
std::vector<PxRect> FitFilledBases(const cv::Mat& evidence, double mm_per_px,
                                   const std::vector<BaseSize>& sizes, double blur_mm,
                                   const FilledFitOptions& options = {});

}  // namespace referee
