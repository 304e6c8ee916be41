#include "vision/short_bases.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/geometry.hpp"
#include "vision/band_fraction.hpp"
#include "vision/base_size_match.hpp"
#include "vision/base_top_edges.hpp"
#include "vision/catalogue_extension.hpp"
#include "vision/outline_probe.hpp"

namespace referee {

namespace {

// Do r and o, each grown by reach_px on every side, overlap?
bool Touching(const PxRect& r, const PxRect& o, double reach_px) {
  PxRect near_r = r;
  near_r.len_a += 2 * reach_px;
  near_r.len_b += 2 * reach_px;
  return OverlapAreaPx(near_r, o) > 0;
}

// The side of r (0..3: -a, +a, -b, +b) whose outward normal points most toward q.
int SideFacing(const PxRect& r, cv::Point2d q) {
  const cv::Point2d d = q - r.center;
  const double u = d.dot(r.axis_a) / r.len_a, v = d.dot(r.AxisB()) / r.len_b;
  return std::abs(u) >= std::abs(v) ? (u < 0 ? 0 : 1) : (v < 0 ? 2 : 3);
}

// Does neither r nor o show its side's colour along the middle of its side facing the other
// (under a fifth of a band border_px deep)? Two bases standing apart each show their border
// there; two pieces of one base whose figures broke its ring show none.
bool NeitherFacesTheOtherWithABorder(const cv::Mat& mask, const PxRect& r, const PxRect& o,
                                     double border_px) {
  constexpr double kMaxFacingBorder = 0.2;
  return BandFraction(mask, r, 0.5, border_px, SideFacing(r, o.center), 0.8) < kMaxFacingBorder &&
         BandFraction(mask, o, 0.5, border_px, SideFacing(o, r.center), 0.8) < kMaxFacingBorder;
}

// The rectangle, in r's axes, that holds both r and o.
PxRect UnionInAxesOf(const PxRect& r, const PxRect& o) {
  const cv::Point2d b = r.AxisB();
  double lo_a = 1e18, hi_a = -1e18, lo_b = 1e18, hi_b = -1e18;
  for (const PxRect* q : {&r, &o}) {
    for (const double sa : {-0.5, 0.5}) {
      for (const double sb : {-0.5, 0.5}) {
        const cv::Point2d corner =
            q->center + sa * q->len_a * q->axis_a + sb * q->len_b * q->AxisB() - r.center;
        lo_a = std::min(lo_a, corner.dot(r.axis_a)), hi_a = std::max(hi_a, corner.dot(r.axis_a));
        lo_b = std::min(lo_b, corner.dot(b)), hi_b = std::max(hi_b, corner.dot(b));
      }
    }
  }
  PxRect u = r;
  u.center = r.center + 0.5 * (lo_a + hi_a) * r.axis_a + 0.5 * (lo_b + hi_b) * b;
  u.len_a = hi_a - lo_a;
  u.len_b = hi_b - lo_b;
  return u;
}

}  // namespace

void GrowShortBases(const cv::Mat& top_bgr, const std::vector<cv::Mat>& masks, double mm,
                    const std::vector<BaseSize>& sizes, const StandDetectorOptions& options,
                    double blur_mm, std::vector<std::vector<PxRect>>& rects) {
  const double tol = options.size_tolerance_mm;
  const OutlineProbe probe(options, mm, blur_mm);
  const double border_px = probe.border_px, gap0 = probe.gap0, gap1 = probe.gap1;
  // A shadowed or glare-washed border keeps 0.3-1.0 of its side's colour on some side of the
  // added part; the mat or another side's base beside a base shows 0.0-0.2.
  constexpr double kMinColour = 0.25;
  for (size_t s = 0; s < rects.size() && s < masks.size(); ++s) {
    const cv::Mat& mask = masks[s];
    for (size_t i = 0; i < rects[s].size(); ++i) {
      PxRect& r = rects[s][i];
      PxRect best = r;
      double best_score = -1;
      for (const CatalogueExtension& e :
           CatalogueExtensions(r, mm, sizes, tol, 2 * tol, std::numeric_limits<double>::max())) {
        const PxRect& added = e.added;
        const int far = e.far, near = far ^ 1, flank0 = e.flank0;
        // Each outer side shows the border's colour or, where shadow or glare has taken that, a
        // step to the mat. At least one of them must show some of the side's colour
        // (kMinColour): a step alone is also the edge of a neighbouring base of the other side,
        // or of terrain.
        double colour = 0;
        const auto outline = [&](int side) {
          colour = std::max(colour, probe.Colour(mask, added, side));
          return probe.Outline(mask, top_bgr, added, side);
        };
        const double far_in = outline(far);
        const double flank_in = std::min(outline(flank0), outline(flank0 + 1));
        double beyond = BandFraction(mask, added, -gap1, -gap0, far, 0.8);
        for (const int f : {flank0, flank0 + 1}) {
          beyond = std::max(beyond, BandFraction(mask, added, -gap1, -gap0, f, 0.8));
        }
        const bool seam = BandFraction(mask, added, 0.5, border_px, near, 0.8) > 0.8 &&
                          BandFraction(mask, r, 0.5, border_px, near ^ 1, 0.8) > 0.8;
        if (far_in < options.min_border_coverage || flank_in < options.min_border_coverage ||
            colour < kMinColour || beyond > 0.15 || seam ||
            OverlapsAnother(e.grown, s, rects, &r)) {
          continue;
        }
        const double score = far_in + flank_in - beyond;
        if (score > best_score) best_score = score, best = e.grown;
      }
      if (best_score < 0) continue;
      r = best;
      DropPiecesOf(rects[s], i);
    }
  }
}

void MergePieces(const cv::Mat& top_bgr, const std::vector<cv::Mat>& masks, double mm,
                 const std::vector<BaseSize>& sizes, const StandDetectorOptions& options,
                 double blur_mm, std::vector<std::vector<PxRect>>& rects) {
  const double tol = options.size_tolerance_mm;
  const OutlineProbe probe(options, mm, blur_mm);
  const double border_px = probe.border_px;
  const double touch_px = 2.0 / mm;  // pieces this close count as touching
  // ... and pieces this far apart, when neither shows a border on its side facing the other:
  // the colour of a base whose figures break its ring (a gun down the middle of a 40 x 40 base,
  // through a webcam's JPEG) stops short of the middle, so the blob ends 3-4 mm before the ring
  // fit of the other half begins. Two bases that far apart show their borders facing each other.
  const double apart_px = options.size_tolerance_mm / mm;
  constexpr double kMaxAxisDeg = 6.0;    // pieces of one base lie square to each other
  constexpr double kSeamFraction = 0.5;  // side colour over half a band two borders wide
  for (size_t s = 0; s < rects.size() && s < masks.size(); ++s) {
    const cv::Mat& mask = masks[s];
    for (size_t i = 0; i < rects[s].size(); ++i) {
      for (size_t j = i + 1; j < rects[s].size(); ++j) {
        const PxRect& r = rects[s][i];
        const PxRect& o = rects[s][j];
        const double turn_deg = std::fmod(
            std::abs(RadToDeg(std::atan2(r.axis_a.cross(o.axis_a), r.axis_a.dot(o.axis_a)))), 90.0);
        if (std::min(turn_deg, 90.0 - turn_deg) > kMaxAxisDeg) continue;
        if (!Touching(r, o, touch_px) &&
            !(Touching(r, o, apart_px) && NeitherFacesTheOtherWithABorder(mask, r, o, border_px))) {
          continue;
        }
        const PxRect u = UnionInAxesOf(r, o);
        // The catalogue size the union is, turned as it lies.
        PxRect merged = u;
        double best_e = -1, best_raw = 0;
        // Each piece may reach past the base by the size tolerance on its own end. Sizes that
        // match equally well so (a side exactly 40 mm, as ring fits of catalogue size give,
        // reads 35 mm: as near 30 as 40) are told apart by the union as it is.
        for (const BaseSize& sz : sizes) {
          const double e = MatchError(u.len_a * mm - tol, u.len_b * mm - tol, sz, 2 * tol);
          if (e < 0) continue;
          const double raw = MatchError(u.len_a * mm, u.len_b * mm, sz, 1e9);
          if (best_e >= 0 && (e > best_e + 1e-9 || (e >= best_e - 1e-9 && raw >= best_raw))) {
            continue;
          }
          best_e = e;
          best_raw = raw;
          const bool width_on_a =
              std::abs(u.len_a * mm - sz.width_mm) + std::abs(u.len_b * mm - sz.depth_mm) <=
              std::abs(u.len_a * mm - sz.depth_mm) + std::abs(u.len_b * mm - sz.width_mm);
          merged.len_a = (width_on_a ? sz.width_mm : sz.depth_mm) / mm;
          merged.len_b = (width_on_a ? sz.depth_mm : sz.width_mm) / mm;
        }
        if (best_e < 0) continue;
        // Its sides where the image shows them (the pieces' ends may lie a few mm off); still a
        // catalogue base.
        for (int iter = 0; iter < 2; ++iter)
          RefineEdges(top_bgr, merged, mm, options.min_border_mm);
        if (!IsCatalogueSize(merged, mm, sizes, tol)) continue;
        // Neither piece may be the whole base already, with the other beside it.
        if (merged.len_a * merged.len_b < 1.2 * std::max(r.len_a * r.len_b, o.len_a * o.len_b))
          continue;
        // Its whole outline: the side colour, or a step to the mat where shadow or glare took
        // it, along every side, and the colour itself along three (as BorderCoverage). Side
        // colour just beyond it says nothing on these frames: blur and the base's own side
        // faces spread it there.
        double outline = 1;
        for (int side = 0; side < 4; ++side) {
          outline = std::min(outline, probe.Outline(mask, top_bgr, merged, side));
        }
        if (outline < options.min_border_coverage ||
            BorderCoverage(mask, merged, border_px) < options.min_border_coverage) {
          continue;
        }
        // No seam where two catalogue bases could meet inside it.
        bool seam = false;
        for (int axis = 0; axis < 2 && !seam; ++axis) {
          const double len = axis == 0 ? merged.len_a : merged.len_b;
          const double across_mm = (axis == 0 ? merged.len_b : merged.len_a) * mm;
          const cv::Point2d ax = axis == 0 ? merged.axis_a : merged.AxisB();
          for (const BaseSize& sz : sizes) {
            for (const double piece_mm : {sz.width_mm, sz.depth_mm}) {
              const double rest_mm = len * mm - piece_mm;
              const bool pair_fits =
                  MatchError(piece_mm, across_mm, sz, tol) >= 0 &&
                  std::any_of(sizes.begin(), sizes.end(), [&](const BaseSize& z) {
                    return MatchError(rest_mm, across_mm, z, tol) >= 0;
                  });
              if (!pair_fits) continue;
              for (const double end : {-1.0, 1.0}) {  // the piece at either end
                PxRect band = merged;
                band.center = merged.center + end * (0.5 * len - piece_mm / mm) * ax;
                (axis == 0 ? band.len_a : band.len_b) = 2.0 * border_px;
                (axis == 0 ? band.len_b : band.len_a) *= 0.8;
                seam = seam || BandFraction(mask, band, 0.0, 1e9, -1) > kSeamFraction;
              }
            }
          }
        }
        if (seam) continue;
        rects[s][i] = merged;
        rects[s].erase(rects[s].begin() + static_cast<long>(j));
        j = i;  // the merged base may hold another piece
      }
    }
  }
}

}  // namespace referee
