#include "vision/stand_finish.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <utility>

#include <opencv2/imgproc.hpp>

#include "engine/geometry.hpp"
#include "vision/band_fraction.hpp"
#include "vision/base_size_match.hpp"
#include "vision/base_top_edges.hpp"
#include "vision/shadow_extension.hpp"
#include "vision/terrain_lookalike.hpp"
#include "vision/untold_side.hpp"

namespace referee {

namespace {

std::string GuessKind(double w_mm, double d_mm, const StandKindCatalog& catalog,
                      const StandDetectorOptions& opt) {
  auto fits = [&](const StandKind& k) {
    return std::abs(k.width_mm - w_mm) <= opt.size_tolerance_mm &&
           std::abs(k.depth_mm - d_mm) <= opt.size_tolerance_mm;
  };
  for (const auto& name : opt.kind_preference) {
    const StandKind* k = catalog.Find(name);
    if (k && fits(*k)) return name;
  }
  std::string best;
  double best_e = 1e9;
  for (const auto& [name, k] : catalog.kinds) {
    const double e = std::abs(k.width_mm - w_mm) + std::abs(k.depth_mm - d_mm);
    if (e < best_e) {
      best_e = e;
      best = name;
    }
  }
  return best;
}

// A base top's outline in the top view as a footprint in table inches, at the base's height:
// the top is slightly nearer the camera, so it looks a little larger on the mat plane.
OrientedRect TopFootprint(const TopView& view, double base_h_in, const PxRect& top,
                          cv::Point2d width_axis, bool w_along_a) {
  const double width_px = w_along_a ? top.len_a : top.len_b;
  const double depth_px = w_along_a ? top.len_b : top.len_a;
  OrientedRect f;
  const Vec2 on_mat = view.TableFromRectified(top.center);
  f.center = view.TableAtHeight(on_mat, base_h_in);
  const Vec2 edge_on_mat = view.TableFromRectified(top.center + 0.5 * width_px * width_axis);
  const double scale = Distance(view.TableAtHeight(edge_on_mat, base_h_in), f.center) /
                       std::max(1e-9, Distance(edge_on_mat, on_mat));
  f.width_in = width_px / view.px_per_inch() * scale;
  f.depth_in = depth_px / view.px_per_inch() * scale;
  f.angle_deg = RadToDeg(std::atan2(width_axis.y, width_axis.x));
  return f;
}

// A found base's outline on the image: its edges placed, completed across a shadowed border,
// a white front stripe or tall terrain, and per side (-a, +a, -b, +b) whether the image placed
// that edge.
struct BaseOutline {
  PxRect r;
  std::array<bool, 4> placed{};
  TallTerrainExtent under_tall;
};

BaseOutline ReadOutline(const FinishFrame& frame, const PxRect& found, size_t s) {
  const cv::Mat& top_bgr = frame.top_bgr;
  const double mm = frame.mm;
  const StandDetectorOptions& options = frame.options;
  const std::vector<cv::Mat>& side_masks = frame.side_masks;
  const std::vector<std::vector<PxRect>>& rects = frame.rects;
  PxRect r = found;
  // A blurred-ring base no later step changed: RefineEdges' half-way crossing and the white
  // band outside would read the blur's spread, not the border's edge or a stripe.
  const bool ring_fitted = IsOneOf(found, frame.blurred_ring_bases);
  std::array<bool, 4> placed{};
  for (int iter = 0; iter < 2 && !ring_fitted; ++iter) {
    const std::array<bool, 4> now = RefineEdges(top_bgr, r, mm, options.min_border_mm);
    for (size_t k = 0; k < 4; ++k) placed[k] = placed[k] || now[k];
  }
  const PxRect refined = r;
  if (frame.shadow_pass) {
    ExtendIntoShadow(
        r, s, side_masks[s], [&]() -> const cv::Mat& { return frame.shadow_mask(s); }, mm,
        frame.sizes, options, frame.probe, rects, &found);
  }
  // A base completed to its catalogue size across one side keeps that size along that axis.
  if (r.len_a != refined.len_a) placed[0] = placed[1] = false;
  if (r.len_b != refined.len_b) placed[2] = placed[3] = false;
  // A white stripe painted over the front of the border leaves the colour frame short:
  // grow the rectangle over a white band lying right outside one of its sides.
  for (int side = 0; side < 4 && !ring_fitted; ++side) {
    const double step = 0.5;
    double ext = 0;
    while (ext < 4.0 / mm && BandFraction(frame.white, r, -(ext + step), -ext, side, 0.7) > 0.5) {
      ext += step;
    }
    if (ext < 1.0 / mm) continue;  // under 1 mm: edge blur, not a stripe
    const cv::Point2d axes[4] = {-r.axis_a, r.axis_a, -r.AxisB(), r.AxisB()};
    r.center += 0.5 * ext * axes[side];
    (side < 2 ? r.len_a : r.len_b) += ext;
    placed[static_cast<size_t>(side)] = false;  // now the stripe's edge, white on the top
  }
  // A side running on under tall terrain: completed to the one catalogue size the image
  // allows, else only marked. No facing is read on a completed side (the terrain hides it).
  TallTerrainExtent under_tall;
  if (frame.any_tall && s < frame.evidence.size() && s < side_masks.size()) {
    std::vector<PxRect> others;
    for (const auto& side_rects : rects) {
      for (const PxRect& o : side_rects) {
        if (&o != &found) others.push_back(o);
      }
    }
    const TallTerrainMasks masks{side_masks[s],  frame.evidence[s], frame.white,
                                 frame.bare_mat, frame.tall_seen,   frame.tall_hidden};
    under_tall = ExtendUnderTallTerrain(r, masks, others, mm, frame.sizes, frame.tall_extent);
    if (under_tall.completed) {
      r = under_tall.rect;
      placed[static_cast<size_t>(under_tall.open_side)] = false;
    }
  }
  return {r, placed, under_tall};
}

// Which way the base faces, from a white stripe along its front edge, and its width axis.
struct StripeFacing {
  cv::Point2d width_axis;
  bool w_along_a = true;  // the width lies along r's axis a
  bool facing_known = false;
  double best_white = 0;  // the stripe's score
  cv::Point2d front;      // out of the front edge, top-view px (zero when not read)
};

StripeFacing ReadFacing(const FinishFrame& frame, const PxRect& r, size_t s,
                        const TallTerrainExtent& under_tall) {
  const cv::Mat& top_bgr = frame.top_bgr;
  const double mm = frame.mm, blur_mm = frame.blur_mm;
  const StandDetectorOptions& options = frame.options;
  const std::vector<BaseSize>& sizes = frame.sizes;
  const std::vector<HiddenSide>& hidden_sides = frame.hidden_sides;
  const double a_mm = r.len_a * mm, b_mm = r.len_b * mm;
  const bool a_is_width = AIsWidth(a_mm, b_mm, sizes);
  const double w_px = a_is_width ? r.len_a : r.len_b;
  const double d_px = a_is_width ? r.len_b : r.len_a;
  cv::Point2d width_axis = a_is_width ? r.axis_a : r.AxisB();
  // Facing: a white stripe along one of the width edges (any edge of a square base).
  const bool square_base = std::abs(w_px - d_px) * mm < 3.0;
  const std::array<bool, 4> seen =
      StripeEdgesSeen(frame.evidence[s], r, options.min_border_mm / mm, options.front_stripe);
  const std::array<double, 4> stripe =
      FrontStripeScores(top_bgr, r, mm, blur_mm, options.front_stripe, seen);
  std::array<bool, 4> width_edges{};
  const cv::Point2d outward[4] = {-r.axis_a, r.axis_a, -r.AxisB(), r.AxisB()};
  for (int side = 0; side < 4; ++side) {
    // A side completed across hidden figures shows their tops, pale ones where a stripe
    // would be: no facing is read there.
    width_edges[static_cast<size_t>(side)] =
        (square_base || (a_is_width ? side >= 2 : side < 2)) &&
        !IsHiddenSide(hidden_sides, r, outward[side]) &&
        !(under_tall.completed && side == under_tall.open_side);
  }
  // The stripe is looked for at depths from this outline: one too far off every catalogue
  // size has an edge that is not the base's, and a pale figure lies where a stripe would.
  double outline_error_mm = 1e9;
  for (const auto& sz : sizes) {
    outline_error_mm = std::min(outline_error_mm, MatchError(a_mm, b_mm, sz, 1e9));
  }
  const bool outline_readable = outline_error_mm <= options.front_stripe.max_outline_error_mm;
  int best_side =
      outline_readable ? FrontStripeSide(stripe, width_edges, options.front_stripe) : -1;
  // Under a blur wider than the stripe the windows' flanks are the blur's own spread: their
  // side stands only if the blurred-stripe fit reads no other edge as carrying as high a
  // whole-edge white band (a lit mat, terrain or a rank of pale figures beside the base).
  // The fit is made once, only when a test below needs it.
  std::optional<BlurredStripeFit> blurred_fit;
  const auto fitted = [&]() -> const BlurredStripeFit& {
    if (!blurred_fit) {
      blurred_fit = FitBlurredStripes(top_bgr, r, mm, blur_mm, options.blurred_stripe);
    }
    return *blurred_fit;
  };
  if (best_side >= 0 && blur_mm >= options.blurred_stripe.min_blur_mm &&
      AnotherEdgeBandAsHigh(fitted(), best_side, options.blurred_stripe)) {
    best_side = -1;
  }
  double best_white = best_side >= 0 ? stripe[static_cast<size_t>(best_side)] : 0.0;
  // Under a blur wider than the stripe its peak has no flanks of its own for the windows
  // above to find: the blurred stripe's whole profile is fitted instead.
  if (best_side < 0 && outline_readable && blur_mm >= options.blurred_stripe.min_blur_mm) {
    const BlurredStripeFit& fit = fitted();
    best_side = BlurredStripeSide(fit, width_edges, options.blurred_stripe);
    if (best_side >= 0) {
      best_white =
          fit.gain[static_cast<size_t>(best_side)] / options.front_stripe.unblurred_contrast;
    }
  }
  const bool facing_known = best_side >= 0;
  // The direction from the centre out of the front edge, in top-view pixels (y down).
  cv::Point2d front;
  if (facing_known) {
    const cv::Point2d axes[4] = {-r.axis_a, r.axis_a, -r.AxisB(), r.AxisB()};
    front = axes[best_side];
    width_axis = {-front.y, front.x};  // front = -AxisY, AxisX = (-front.y, front.x)
  } else {
    // Canonical: width axis pointing toward +x (angle in (-90, 90]).
    if (width_axis.x < 0 || (width_axis.x == 0 && width_axis.y < 0)) width_axis = -width_axis;
  }
  // Depth/width lengths follow the chosen axes.
  const bool w_along_a = std::abs(width_axis.dot(r.axis_a)) > 0.5;
  return {width_axis, w_along_a, facing_known, best_white, front};
}

// The sizes a side of `top` (the outline of `found`) showing no border leaves open.
std::vector<PxRect> SizesLeftOpen(const FinishFrame& frame, const PxRect& found, const PxRect& top,
                                  size_t s, const StripeFacing& facing) {
  const StandDetectorOptions& options = frame.options;
  if (!options.report_untold_sizes || s >= frame.evidence.size()) return {};
  std::vector<const PxRect*> others;
  for (const std::vector<PxRect>& side : frame.rects) {
    for (const PxRect& r : side) {
      if (&r != &found) others.push_back(&r);
    }
  }
  return SizesAnUntoldSideLeavesOpen(
      top, frame.evidence[s], facing.front, options.min_border_mm / frame.mm, frame.sizes, frame.mm,
      options.size_tolerance_mm / frame.mm, others, options.untold_side);
}

}  // namespace

cv::Mat WhiteMask(const cv::Mat& top_bgr) {
  cv::Mat v;
  cv::Mat ch[3];
  cv::split(top_bgr, ch);
  cv::max(ch[0], ch[1], v);
  cv::max(v, ch[2], v);
  cv::Mat small, local;
  // The mat's local brightness: a median over ~2.5" so grid lines and bases do not count.
  const double f = 1.0 / 16.0;
  cv::resize(v, small, {}, f, f, cv::INTER_AREA);
  cv::medianBlur(small, small, 5);
  cv::resize(small, local, v.size(), 0, 0, cv::INTER_LINEAR);
  cv::Mat white(v.size(), CV_8U, cv::Scalar(0));
  for (int y = 0; y < v.rows; ++y) {
    for (int x = 0; x < v.cols; ++x) {
      // Weakly saturated (a thin stripe blurs with the border beside it) and bright.
      const cv::Vec3b& p = top_bgr.at<cv::Vec3b>(y, x);
      const int val = v.at<uchar>(y, x);
      const int lo = std::min({p[0], p[1], p[2]});
      if (val > 60 && val > 1.25 * local.at<uchar>(y, x) && lo > 0.55 * val) {
        white.at<uchar>(y, x) = 255;
      }
    }
  }
  return white;
}

std::optional<DetectedStand> FinishBase(const FinishFrame& frame, const PxRect& found, size_t s,
                                        int& n) {
  const TopView& view = frame.view;
  const double mm = frame.mm;
  const StandDetectorOptions& options = frame.options;
  const std::vector<BaseSize>& sizes = frame.sizes;
  const StandKindCatalog& catalog = frame.catalog;
  const SideColorModel& colors = frame.colors;
  const std::vector<cv::Mat>& side_masks = frame.side_masks;
  const Grid& grid = view.calibration().board;
  const double base_h_in = MmToInches(options.base_height_mm);
  const BaseOutline outline = ReadOutline(frame, found, s);
  const PxRect& r = outline.r;
  const TallTerrainExtent& under_tall = outline.under_tall;
  const StripeFacing facing = ReadFacing(frame, r, s, under_tall);
  const cv::Point2d width_axis = facing.width_axis;
  // Where the base stands: its top's outline, the side faces beside it taken out (the
  // stripe and terrain tests above read the outline the image edges gave).
  // Under a blur wider than the border too (s61): the merged edge still lies within the
  // side face's span (left as found, the sides facing the camera lay 0.5-1.0 mm further out
  // than the others on `hard` and through a webcam).
  PxRect top = r;
  CentreInSideFaceSpan(view, base_h_in, outline.placed, top);

  if (InTerrain(frame.terrain, r) &&
      LooksLikeTerrain(frame.toward(s), frame.chroma, frame.valid, frame.mat_chroma,
                       cv::Vec2f(colors.sides()[s].mean), r, options.min_border_mm / mm, options)) {
    return std::nullopt;
  }
  DetectedStand ds;
  ds.stand.side = colors.sides()[s].name;
  ds.stand.id = ds.stand.side + "-" + std::to_string(++n);
  ds.stand.footprint = TopFootprint(view, base_h_in, top, width_axis, facing.w_along_a);
  ds.stand.facing_known = facing.facing_known;
  ds.stand.kind = GuessKind(InchesToMm(ds.stand.footprint.width_in),
                            InchesToMm(ds.stand.footprint.depth_in), catalog, options);
  // Sizes the blurred band could not tell from this one, or that a side showing no border
  // leaves open, each as a base of its kind; its width axis turned the reported one's way where
  // they are parallel (the same front).
  // A size the blurred ring could not tell was fitted whole, its sides not placed by the
  // image: moved a quarter of its side faces' span back like any such outline (s62); the sizes
  // an untold side leaves open are built on `top`, already moved.
  std::vector<PxRect> other_sizes = found.other_sizes;
  for (PxRect& other : other_sizes) CentreInSideFaceSpan(view, base_h_in, {}, other);
  if (other_sizes.empty()) other_sizes = SizesLeftOpen(frame, found, top, s, facing);
  for (const PxRect& other : other_sizes) {
    const bool other_a_width = AIsWidth(other.len_a * mm, other.len_b * mm, sizes);
    cv::Point2d other_axis = other_a_width ? other.axis_a : other.AxisB();
    if (other_axis.dot(width_axis) < 0) other_axis = -other_axis;
    OtherOutline o;
    o.footprint = TopFootprint(view, base_h_in, other, other_axis,
                               std::abs(other_axis.dot(other.axis_a)) > 0.5);
    o.kind = GuessKind(InchesToMm(o.footprint.width_in), InchesToMm(o.footprint.depth_in), catalog,
                       options);
    ds.stand.other_outlines.push_back(std::move(o));
  }
  ds.square = grid.SquareOf(ds.stand.footprint.center);
  ds.border_coverage = BorderCoverage(side_masks[s], r, 0.8 * options.min_border_mm / mm);
  ds.white_stripe = facing.best_white;
  ds.partly_hidden = under_tall.partly_hidden;
  // The changed-ring fit runs after every step that grows or moves a base: it is found as that
  // fit placed it. A lone ring or washed patch may be completed across its far side since: it
  // lies inside.
  ds.faint_border = IsOneOf(found, frame.changed_fit_bases) ||
                    std::any_of(frame.washed_out_bases.begin(), frame.washed_out_bases.end(),
                                [&](const PxRect& ring) { return IsPieceOf(ring, found); });
  ds.completed_under_terrain = under_tall.completed;
  return ds;
}

}  // namespace referee
