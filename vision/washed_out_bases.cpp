#include "vision/washed_out_bases.hpp"

#include <algorithm>
#include <cmath>

#include <opencv2/imgproc.hpp>

#include "engine/order_statistics.hpp"
#include "vision/side_detector.hpp"
#include "vision/side_washout.hpp"
#include "vision/terrain_lookalike.hpp"

namespace referee {

namespace {

bool Overlaps(const PxRect& r, const std::vector<PxRect>& others) {
  return std::any_of(others.begin(), others.end(),
                     [&](const PxRect& o) { return SamePlace(r, o); });
}

// Fraction of r deeper than depth_px from its edge that is set in mask (1 when nothing is
// that deep).
double InteriorFraction(const cv::Mat& mask, const PxRect& r, double depth_px) {
  const double ha = 0.5 * r.len_a - depth_px, hb = 0.5 * r.len_b - depth_px;
  if (ha <= 0 || hb <= 0) return 1.0;
  cv::Mat inside(mask.size(), CV_8U, cv::Scalar(0));
  cv::fillConvexPoly(inside, GrownCorners(r, -depth_px), cv::Scalar(255));
  const int n = cv::countNonZero(inside);
  return n > 0 ? static_cast<double>(cv::countNonZero(inside & mask)) / n : 1.0;
}

// How far the brightness (largest channel of `bgr`) of r's inside (deeper than depth_px)
// spreads: its 10th to 90th percentile over its median (0 when nothing lies that deep or it is
// black).
double InsideBrightnessSpread(const cv::Mat& bgr, const PxRect& r, double depth_px) {
  if (0.5 * r.len_a <= depth_px || 0.5 * r.len_b <= depth_px) return 0.0;
  std::vector<cv::Point> poly = GrownCorners(r, -depth_px);
  const cv::Rect box = cv::boundingRect(poly) & cv::Rect(0, 0, bgr.cols, bgr.rows);
  if (box.empty()) return 0.0;
  for (auto& p : poly) p -= box.tl();
  cv::Mat inside(box.size(), CV_8U, cv::Scalar(0));
  cv::fillConvexPoly(inside, poly, cv::Scalar(255));
  std::vector<double> v;
  for (int y = 0; y < box.height; ++y) {
    const auto* p = bgr.ptr<cv::Vec3b>(box.y + y) + box.x;
    const auto* in = inside.ptr<uchar>(y);
    for (int x = 0; x < box.width; ++x) {
      if (in[x]) v.push_back(std::max({p[x][0], p[x][1], p[x][2]}));
    }
  }
  const double mid = Median(v);
  return mid > 0 ? (Percentile(v, 0.9) - Percentile(v, 0.1)) / mid : 0.0;
}

// The catalogue sizes a thick ring cannot tell from r's: over the same centre and axes, each
// side no more than the hue's spread (spread_px) from r's. Ring samples that near the true edge
// lie on the spread hue too, and the outside, sampled past the spread, is clear for both.
std::vector<PxRect> SizesTheRingCannotTell(const PxRect& r, const std::vector<BaseSize>& sizes,
                                           double mm, double spread_px) {
  std::vector<PxRect> others;
  for (const BaseSize& size : sizes) {
    for (const bool turned : {false, true}) {
      const double la = (turned ? size.depth_mm : size.width_mm) / mm;
      const double lb = (turned ? size.width_mm : size.depth_mm) / mm;
      const double da = std::abs(la - r.len_a), db = std::abs(lb - r.len_b);
      if ((da < 1 && db < 1) || 0.5 * da > spread_px || 0.5 * db > spread_px) continue;
      PxRect o;
      o.center = r.center;
      o.axis_a = r.axis_a;
      o.len_a = la;
      o.len_b = lb;
      const bool known = std::any_of(others.begin(), others.end(), [&](const PxRect& k) {
        return std::abs(k.len_a - la) < 1 && std::abs(k.len_b - lb) < 1;
      });
      if (!known) others.push_back(o);
    }
  }
  return others;
}

// mask with the bases already found (grown by 2 mm) cleared: their rings need no fit.
cv::Mat WithBasesCleared(const cv::Mat& mask, const std::vector<PxRect>& bases, double mm) {
  cv::Mat evidence = mask.clone();
  for (const PxRect& r : bases) {
    cv::fillConvexPoly(evidence, GrownCorners(r, 2.0 / mm), cv::Scalar(0));
  }
  return evidence;
}

}  // namespace

WashedOutRings AddWashedOutBases(const cv::Mat& chroma, const cv::Mat& valid,
                                 const cv::Vec2f& mat_chroma, double mm,
                                 const std::vector<BaseSize>& sizes,
                                 const StandDetectorOptions& options, double blur_mm,
                                 const StandDetection& det,
                                 const std::vector<std::vector<PxRect>>& rects) {
  const WashoutOptions washout;
  const bool thick = options.thick_washed_rings;
  // A washed border's hue spreads as far past its edge as the frame blurs it, and a webcam's
  // halved chroma spreads it further: a base's outside sampled nearer shows its own border,
  // and a smaller size fitted inside the ring wins.
  RingFitOptions ring = options.ring_fit;
  if (thick) ring.outer_gap_mm = std::max(ring.outer_gap_mm, blur_mm);
  cv::Mat smooth;
  cv::blur(chroma, smooth, {3, 3});  // pixel noise would break a washed-out border into dots
  const std::vector<cv::Mat> loose = TowardSidesMasks(smooth, valid, mat_chroma, det.colors.sides(),
                                                      washout.min_fraction, washout.cone);
  const double band_px = RefitBandPx(options.min_border_mm, mm);
  // Every side's rings first, for the test below.
  WashedOutRings out;
  std::vector<std::vector<PxRect>>& left = out.lone;
  left.resize(rects.size());
  out.refitted.resize(rects.size());
  for (size_t s = 0; s < rects.size() && s < loose.size(); ++s) {
    // Bases already found are left out (and most frames have no washed-out side, so this keeps
    // the search cheap).
    for (const RingFit& f :
         WashoutCandidates(WithBasesCleared(loose[s], rects[s], mm), mm, sizes, ring, washout)) {
      // Each place once: a thick ring fits more than one pose, and several rings that agree
      // are several bases.
      if (!Overlaps(f.rect, rects[s]) && !(thick && Overlaps(f.rect, left[s]))) {
        left[s].push_back(f.rect);
        if (thick) {
          left[s].back().other_sizes = SizesTheRingCannotTell(f.rect, sizes, mm, blur_mm / mm);
        }
      }
    }
  }
  for (size_t s = 0; s < rects.size() && s < loose.size(); ++s) {
    // The rings that agree on this side's colour. Not where another side's washed ring lies:
    // a tan top inside a blue border reads part of the way from a green mat toward red, and
    // the colour alone cannot tell whose base that is.
    std::vector<PxRect> missed;
    for (const PxRect& r : left[s]) {
      const bool other_side = thick && std::any_of(left.begin(), left.end(), [&](const auto& o) {
                                return &o != &left[s] && Overlaps(r, o);
                              });
      if (!other_side) missed.push_back(r);
    }
    if (static_cast<int>(missed.size()) < washout.min_candidates) continue;
    SideColorModel washed = det.colors;
    if (!RefitFromBorderBands(washed, s, chroma, missed, band_px, loose[s], 50)) continue;
    const cv::Mat mask = CleanMask(washed.ClassifyChroma(chroma, valid, &mat_chroma)[s]);
    std::vector<PxRect> again = DetectSideBases(mask, mm, sizes, options);
    if (thick) {
      // A border whose hue the frame spreads wider than the border is a thick ring in the
      // refitted mask, no base-sized blob: fitted as a ring, its outside past that spread.
      for (const RingFit& f :
           WashoutCandidates(WithBasesCleared(mask, rects[s], mm), mm, sizes, ring, washout)) {
        if (Overlaps(f.rect, again)) continue;
        again.push_back(f.rect);
        again.back().other_sizes = SizesTheRingCannotTell(f.rect, sizes, mm, blur_mm / mm);
      }
    }
    // Anything of the side's hue at all, for the interior test: the blurred edge of water or a
    // roof in a stronger shade of the side's colour passes the refitted gate as a ring.
    const cv::Mat any_hue = mask | loose[s] | det.side_masks[s];
    // Only where a washed-out ring was seen: the refitted gate also takes in figures and
    // terrain of a paler shade of the side's colour. Placed later (PlaceRefittedBases): where
    // the ring and blob searches find one of these bases they place it more closely, fitted to
    // the frame's blur rather than to a mask of a hue the frame spreads.
    for (const PxRect& r : again) {
      if (!Overlaps(r, rects[s]) && Overlaps(r, missed) &&
          InteriorFraction(any_hue, r, options.ring_fit.interior_depth_mm / mm) <=
              options.ring_fit.max_interior_fraction) {
        out.refitted[s].push_back(r);
      }
    }
  }
  return out;
}

void PlaceRefittedBases(const std::vector<std::vector<PxRect>>& bases,
                        std::vector<std::vector<PxRect>>& rects) {
  for (size_t s = 0; s < bases.size() && s < rects.size(); ++s) {
    for (const PxRect& r : bases[s]) {
      if (!AnyBaseAt(r, rects)) rects[s].push_back(r);
    }
  }
}

void AddLoneRings(const cv::Mat& chroma, const cv::Mat& valid, const cv::Vec2f& mat_chroma,
                  const std::vector<SideColor>& sides,
                  const std::vector<std::vector<PxRect>>& rings, double mm,
                  const StandDetectorOptions& options, std::vector<std::vector<PxRect>>& rects) {
  const WashoutOptions washout;
  const double border_px = washout.border_band_mm / mm;
  const double depth_px = options.ring_fit.interior_depth_mm / mm;
  for (size_t s = 0; s < rings.size() && s < rects.size() && s < sides.size(); ++s) {
    if (rings[s].empty()) continue;
    const double side_washout =
        SideWashout(chroma, valid, mat_chroma, sides, rects, s, washout.min_candidates, border_px);
    if (side_washout <= 0) continue;
    std::vector<PxRect> added;
    for (const PxRect& r : rings[s]) {
      if (AnyBaseAt(r, rects)) continue;
      const RingDeparture d = MeasureRingDeparture(
          chroma, valid, mat_chroma, cv::Vec2f(sides[s].mean), r, border_px, depth_px);
      if (d.border >= washout.lone_ring_min_share * side_washout &&
          d.inside <= washout.max_inside_to_border * d.border) {
        added.push_back(r);
      }
    }
    rects[s].insert(rects[s].end(), added.begin(), added.end());
  }
}

std::vector<PxRect> AddWashedBasesWithFigures(const cv::Mat& top_bgr, const cv::Mat& chroma,
                                              const cv::Mat& valid, const cv::Vec2f& mat_chroma,
                                              const std::vector<SideColor>& sides,
                                              const std::vector<std::vector<PxRect>>& filled,
                                              const cv::Mat& solid_terrain, double mm,
                                              const StandDetectorOptions& options,
                                              std::vector<std::vector<PxRect>>& rects) {
  const WashoutOptions washout;
  const double border_px = washout.border_band_mm / mm;
  const double depth_px = options.ring_fit.interior_depth_mm / mm;
  std::vector<PxRect> placed;
  for (size_t s = 0; s < filled.size() && s < rects.size() && s < sides.size(); ++s) {
    if (filled[s].empty()) continue;
    const double side_washout =
        SideWashout(chroma, valid, mat_chroma, sides, rects, s, washout.min_candidates, border_px);
    if (side_washout <= 0) continue;
    for (const PxRect& r : filled[s]) {
      // Each patch once: the ladder's factors find one patch more than once.
      if (AnyBaseAt(r, rects)) continue;
      if (!solid_terrain.empty() && InTerrain(solid_terrain, r)) continue;
      const RingDeparture d = MeasureRingDeparture(chroma, valid, mat_chroma,
                                                   cv::Vec2f(sides[s].mean), r, border_px, 1e9);
      if (d.border < washout.lone_ring_min_share * side_washout) continue;
      if (InsideBrightnessSpread(top_bgr, r, depth_px) < washout.min_figure_brightness_spread) {
        continue;
      }
      rects[s].push_back(r);
      placed.push_back(r);
    }
  }
  return placed;
}

}  // namespace referee
