// Facing from the white front stripe (TABLE_KIT: an optional white stripe 2-3 mm wide along the
// front edge of a base, on the border or just inside it). The stripe is judged against the
// base's own other edges: at the same depth from the edge, lit by the same lamp and blurred by
// the same lens, a stripe edge is brighter in its darkest colour channel (white raises all
// three; a side colour, a pale flock or a tan figure leaves one low) than the other edges are,
// along the whole edge, and falls back further in; and no channel of it is darker than the other
// edges at that depth. The frame's blur (vision/edge_blur.hpp) says how much of the stripe's
// contrast survives and how far it spreads.
#pragma once

#include <array>

#include <opencv2/core.hpp>

#include "vision/px_rect.hpp"

namespace referee {

struct FrontStripeOptions {
  // Stripe width the test expects at the least, mm (TABLE_KIT: 2-3). Default 2.
  double min_stripe_mm = 2.0;
  // How far in from the edge the stripe may start, mm: a 3 mm border plus margin. Default 7;
  // raise if your borders are wider than 6 mm and the stripe is painted inside them.
  double max_stripe_depth_mm = 7.0;
  // Contrast of an unblurred white stripe over the other edges at the same depth, as a
  // fraction of the stripe's brightest channel: (white's darkest channel - a side colour's
  // darkest channel) / white. Default 0.5 (about 0.8 for the TABLE_KIT colours, 0.5 for a pale
  // border in strong light). The blur scales it down (a Gaussian over the stripe's width).
  double unblurred_contrast = 0.5;
  // A stripe is claimed when its contrast reaches this fraction of the expected (blurred)
  // contrast... Default 0.6: precision first (a wrong facing changes a flank verdict; an
  // unknown facing asks the player).
  double min_contrast_fraction = 0.6;
  // ... in every tenth of the edge's middle 70 % at this fraction of its mean. Default 0.4
  // (a rank of pale figures leaves gaps between figures).
  double min_segment_fraction = 0.4;
  // ... and as bright in its brightest channel as this fraction of the border's brightest
  // channel (white reflects every channel at least as well as a side colour does its own).
  // Default 0.95; lower if your stripes are cream or grey rather than white. The border is read
  // on the stripe's own edge too, outside it (under a low lamp that edge may lie in a figure's
  // shadow while the others are lit), and the lower of the two is the reference.
  double min_brightness_of_border = 0.95;
  // How deep from the edge the stripe's own edge is read as its border, mm (TABLE_KIT: a border
  // at least 3 mm wide). Default 3.
  double own_border_mm = 3.0;
  // ... and, in every channel, at least this fraction of the other edges at the same depth
  // (per channel, the middle of the three): white reflects each channel at least as well as
  // any paint, the side colour's own channel included, while a tan or pale flock and a lit
  // figure tinted by its paint fall under the border's or the flock's strongest channel.
  // Default 1.0.
  double min_channel_of_other_edges = 1.0;
  // ... while every other edge stays under this fraction of it. Default 0.35.
  double max_other_edge_fraction = 0.35;
  // ... and read segment by segment along the whole edge (not folded about its middle), the
  // median segment's band rises above its own flanks, deeper and outside, by at least this
  // fraction of its contrast over the other edges. Default 0.5: a painted stripe stands out of
  // its own edge all along as much as it does from the other edges; a rank of pale figures at
  // varying depths lifts the folded profile while no stretch of the edge shows one band.
  double min_run_band_fraction = 0.5;
  // A facing is claimed only on a base whose measured outline lies within this of a catalogue
  // size (either dimension), mm. The stripe sits right inside the border, so the depths the
  // profile is read at are only as good as the outline: off by more than the narrowest border
  // (3 mm, TABLE_KIT) plus a millimetre, an edge is not the base's edge. Default 4.
  double max_outline_error_mm = 4.0;
  // An edge shows the base's own top where its border shows the side's colour along at least
  // this share of its middle (StripeEdgesSeen). A stripe is judged against the median of the
  // other three edges, which stands for the base's top only while two of them show it: under a
  // tree's crown a pale flock on the one edge left in the open stands out of the crowns as a
  // stripe would. Default 0.5.
  double min_seen_border_share = 0.5;
};

// Per side of r (-a, +a, -b, +b, as PxRect's axes): the stripe contrast found along that edge,
// as a fraction of the expected blurred contrast (>= 1 is a stripe as clear as expected), or 0
// when the edge shows none. img: the top view, BGR; mm_per_px: its scale; blur_mm: the frame's
// 10-90 % edge rise width (0 when unknown).
// edges_seen: the edges that show the base's own top (StripeEdgesSeen); an edge scores 0 unless
// two of the other three do.
std::array<double, 4> FrontStripeScores(const cv::Mat& img, const PxRect& r, double mm_per_px,
                                        double blur_mm, const FrontStripeOptions& options = {},
                                        const std::array<bool, 4>& edges_seen = {true, true, true,
                                                                                 true});

// The edges of r whose border band (border_px deep) shows the side's colour (side_evidence,
// CV_8U) along at least options.min_seen_border_share of its middle 70 %.
std::array<bool, 4> StripeEdgesSeen(const cv::Mat& side_evidence, const PxRect& r, double border_px,
                                    const FrontStripeOptions& options = {});

// The side (0..3) carrying a front stripe, or -1: the best-scoring side among `allowed` (the
// width edges; all four on a square base), clear of the others per the options.
int FrontStripeSide(const std::array<double, 4>& scores, const std::array<bool, 4>& allowed,
                    const FrontStripeOptions& options = {});

}  // namespace referee
