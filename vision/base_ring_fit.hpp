// Bases found from partial border evidence. A base's top shows a ring of its side colour, at
// least 3 mm wide, around a rectangle of a catalogue size; figures sit inside the ring. Where
// the colour blob's outline does not give the base (a tree canopy or a leaning figure hides
// part of the border, figures painted near the side colour fill the inside, blur washes a thin
// border out), the rectangle is fitted to the ring itself: every catalogue size, at the angle
// the evidence's edges give, placed where most of its ring and least of the band just outside
// it show the side colour. Pieces of one border separated by an occluder are fitted together.
#pragma once

#include <vector>

#include <opencv2/core.hpp>

#include "vision/px_rect.hpp"

namespace referee {

struct RingFitOptions {
  // Where the border is sampled, mm in from the base's edge. Default 1.5: the middle of the
  // thinnest border TABLE_KIT allows (3 mm). Raise with it if your borders are wider.
  double inner_depth_mm = 1.5;
  // Where "outside the base" is sampled, mm beyond its edge. Default 2.5 (past the blur and
  // the base's side face).
  double outer_gap_mm = 2.5;
  // Fraction of the ring (corners excepted) that must show border evidence. Default 0.45:
  // a canopy may hide half a base. Raise if terrain in a side colour gives false bases.
  double min_ring_fraction = 0.45;
  // Two sides meeting at a corner must each show at least this fraction (they fix both
  // dimensions; a pair of parallel stripes does not). Default 0.5.
  double min_corner_sides = 0.5;
  // Largest fraction of the outside band allowed to show the side colour. Default 0.15;
  // larger patches of a side's colour (a roof, a road) are not a base's ring.
  double max_outside_fraction = 0.15;
  // Largest fraction of the inside (deeper than interior_depth_mm) that may show the side's
  // colour. Default 0.6: figures leave more of a base's inside other colours, while water, a
  // roof or a road in the side's colour is that colour throughout. Raise if your figures are
  // painted all in their side's colour (the colour-blob pass still finds those bases).
  double max_interior_fraction = 0.6;
  double interior_depth_mm = 6.0;
  // The ring must show the colour this much more than the inside does. Default 0.25: a
  // speckled road or a blotchy patch shows it everywhere alike.
  double min_ring_contrast = 0.25;  // deeper than the widest border (TABLE_KIT: >= 3 mm)
  // Evidence narrower than this is dropped before fitting (a blur halo around a patch of
  // another colour, noise). Default 2 mm, under the thinnest border (3 mm).
  double min_evidence_width_mm = 2.0;
  // Pieces of evidence this close are fitted as one base (a border cut by a canopy or a
  // figure). Default 10 mm.
  double join_gap_mm = 10.0;
  // Where a tall object may hide part of a ring (the `hidden` mask: a wood's canopy, a house,
  // a bridge deck, as the board file places them), ring samples there that show no evidence
  // are left out: a base half under a canopy is scored on the border it shows. In exchange
  // that border must be strong: this fraction of the samples left, and of each of at least
  // three sides (a side counts when a third of it is seen), must show evidence ... Default
  // 0.75 (a side seen beside a canopy shows 0.9-1.0; a washed-out border 0.5-0.8). Raise if
  // bases are claimed at the edges of woods where there are none.
  double min_seen_ring_fraction = 0.75;
  // ... and this fraction of the whole ring must show evidence. Default 0.3: a base may be
  // more than half under a canopy, as long as three of its sides show.
  double min_hidden_ring_fraction = 0.3;
};

struct RingFit {
  PxRect rect;
  double ring = 0;             // fraction of the ring showing evidence
  double outside = 0;          // fraction of the outside band showing evidence
  bool partly_hidden = false;  // accepted on the part of its ring outside the hidden mask
};

// evidence: CV_8U, 255 where a pixel may be this side's border (pixels of bases already found
// removed). mm_per_px: top-view scale. hidden (optional, CV_8U): 255 where a tall object may
// hide the mat (see RingFitOptions::min_seen_ring_fraction). Returns the bases the evidence
// supports.
std::vector<RingFit> FitBasesToBorderEvidence(const cv::Mat& evidence, double mm_per_px,
                                              const std::vector<BaseSize>& sizes,
                                              const RingFitOptions& options = {},
                                              const cv::Mat& hidden = cv::Mat());

}  // namespace referee
