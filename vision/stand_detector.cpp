#include "vision/stand_detector.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>
#include <utility>

#include <opencv2/imgproc.hpp>

#include "vision/band_side.hpp"
#include "vision/base_ring_fit.hpp"
#include "vision/blurred_ring_fit.hpp"
#include "vision/changed_base_fits.hpp"
#include "vision/duplicate_bases.hpp"
#include "vision/edge_blur.hpp"
#include "vision/hidden_border.hpp"
#include "vision/leftover_fits.hpp"
#include "vision/outline_probe.hpp"
#include "vision/px_rect.hpp"
#include "vision/short_bases.hpp"
#include "vision/side_detector.hpp"
#include "vision/side_washout.hpp"
#include "vision/stand_finish.hpp"
#include "vision/tall_terrain_mask.hpp"
#include "vision/terrain_lookalike.hpp"
#include "vision/washed_out_bases.hpp"
#include "vision/washed_side_refit.hpp"

namespace referee {

namespace {

std::vector<BaseSize> DistinctSizes(const StandKindCatalog& catalog) {
  std::vector<BaseSize> sizes;
  for (const auto& entry : catalog.kinds) {
    const StandKind& kind = entry.second;  // not a structured binding: the lambda captures it
    const bool known = std::any_of(sizes.begin(), sizes.end(), [&](const BaseSize& s) {
      return std::abs(s.width_mm - kind.width_mm) < 0.5 &&
             std::abs(s.depth_mm - kind.depth_mm) < 0.5;
    });
    if (!known) sizes.push_back({kind.width_mm, kind.depth_mm});
  }
  return sizes;
}

// Where the mat point `on_mat` is seen when the camera looks at `p` raised height_in: the
// inverse of TopView::TableAtHeight, by fixed-point steps (it is nearly a scaling about the
// camera's foot, so a few steps converge).
Vec2 SeenOnMat(const TopView& view, Vec2 p, double height_in) {
  Vec2 on_mat = p;
  for (int i = 0; i < 6; ++i) on_mat = on_mat + (p - view.TableAtHeight(on_mat, height_in));
  return on_mat;
}

// The bases a pass added: each side's entries of rects past its count in `before`.
std::vector<PxRect> AddedSince(const std::vector<std::vector<PxRect>>& before,
                               const std::vector<std::vector<PxRect>>& rects) {
  std::vector<PxRect> added;
  for (size_t s = 0; s < rects.size(); ++s) {
    const size_t n_before = s < before.size() ? before[s].size() : 0;
    added.insert(added.end(), rects[s].begin() + static_cast<std::ptrdiff_t>(n_before),
                 rects[s].end());
  }
  return added;
}

// Borders the blur has spread below every colour gate, fitted as blurred rings.
// Returns the bases it added.
std::vector<PxRect> AddBlurredRings(const cv::Mat& top_bgr, const TopView& view,
                                    const StandDetection& out, const cv::Mat& terrain,
                                    const cv::Mat& solid_terrain, double mm,
                                    const std::vector<BaseSize>& sizes,
                                    const StandDetectorOptions& options,
                                    std::vector<std::vector<PxRect>>& rects) {
  const cv::Mat& chroma = out.chroma;
  const cv::Mat& valid = out.valid;
  const cv::Vec2f& mat_chroma = out.mat_chroma;
  const std::vector<std::vector<PxRect>> before = rects;
  BlurredRingOptions ring = options.blurred_ring;
  ring.even_shade_terrain = solid_terrain;
  ring.figure_top_shift_px = [&view, h_in = MmToInches(ring.max_figure_height_mm)](cv::Point2d c) {
    return view.RectifiedFromTable(SeenOnMat(view, view.TableFromRectified(c), h_in)) - c;
  };
  AddBlurredRingBases(chroma, valid, mat_chroma, terrain, out.colors.sides(), mm, sizes,
                      EdgeBlurMm(top_bgr, AllRects(rects), mm), options.min_border_mm, rects, ring);
  return AddedSince(before, rects);
}

// The loose evidence (a blurred or washed-out border keeps part of its colour), as the
// ring and filled fits use: the strict gate may show nothing of a base's far half.
// On it short bases are grown (hidden_sides: the sides completed across hidden figures) and
// pieces of one base merged. Returns it.
std::vector<cv::Mat> CompleteShortBases(const cv::Mat& top_bgr, const TopView& view,
                                        const StandDetection& out, double mm,
                                        const std::vector<BaseSize>& sizes,
                                        const StandDetectorOptions& options,
                                        std::vector<std::vector<PxRect>>& rects,
                                        std::vector<HiddenSide>& hidden_sides) {
  const cv::Mat& chroma = out.chroma;
  const cv::Mat& valid = out.valid;
  const cv::Vec2f& mat_chroma = out.mat_chroma;
  std::vector<cv::Mat> evidence;
  cv::Mat smooth;
  cv::blur(chroma, smooth, {3, 3});
  const WashoutOptions washout;
  evidence = TowardSidesMasks(smooth, valid, mat_chroma, out.colors.sides(), washout.min_fraction,
                              washout.cone);
  for (size_t s = 0; s < evidence.size() && s < out.side_masks.size(); ++s) {
    evidence[s] |= out.side_masks[s];
  }
  GrowShortBases(top_bgr, evidence, mm, sizes, options, EdgeBlurMm(top_bgr, AllRects(rects), mm),
                 rects);
  if (const double b = EdgeBlurMm(top_bgr, AllRects(rects), mm);
      options.blurred_growth.enabled && b >= options.min_border_mm) {
    GrowShortBasesOnBlurredBand(chroma, valid, mat_chroma, out.colors.sides(), mm, sizes,
                                options.size_tolerance_mm, options.min_border_mm, b,
                                options.blurred_growth, rects);
  }
  // A base found 3-5 mm short across its far side, where the tallest figures can hide the
  // border (vision/hidden_border.hpp).
  HiddenBorderOptions hidden;
  hidden.base_height_mm = options.base_height_mm;
  hidden.min_border_mm = options.min_border_mm;
  hidden.size_tolerance_mm = options.size_tolerance_mm;
  hidden.blur_mm = EdgeBlurMm(top_bgr, AllRects(rects), mm);
  CompleteHiddenFarSides(top_bgr, evidence, view, sizes, hidden, rects, &hidden_sides);
  MergePieces(top_bgr, evidence, mm, sizes, options, EdgeBlurMm(top_bgr, AllRects(rects), mm),
              rects);
  return evidence;
}

}  // namespace

StandDetection DetectStands(const cv::Mat& top_bgr, const TopView& view,
                            const SideColorModel& colors, const StandKindCatalog& catalog,
                            const StandDetectorOptions& options, const Board* board,
                            const cv::Mat& empty_top) {
  StandDetection out;
  out.colors = colors;
  const double mm = view.MmPerPx();
  const std::vector<BaseSize> sizes = DistinctSizes(catalog);
  if (sizes.empty() || colors.sides().empty()) return out;
  cv::Mat chroma, valid;
  cv::Vec2f mat_chroma;
  BalancedChroma(top_bgr, view.px_per_inch(), colors.options(), chroma, valid, &mat_chroma);
  out.chroma = chroma;  // shared, never written below
  out.valid = valid;
  out.mat_chroma = mat_chroma;

  std::vector<std::vector<PxRect>> rects;
  std::vector<bool> fitted(colors.sides().size(), false);  // refitted to this frame's borders
  // The inner part of a border, px: where a side's colour is sampled to refit it.
  const double band_px = RefitBandPx(options.min_border_mm, mm);
  const int passes = options.refit_colors ? 2 : 1;
  for (int pass = 0; pass < passes; ++pass) {
    out.side_masks = out.colors.ClassifyChroma(chroma, valid, &mat_chroma);
    rects.clear();
    for (auto& m : out.side_masks) {
      m = CleanMask(m);
      rects.push_back(DetectSideBases(m, mm, sizes, options));
    }
    if (pass + 1 < passes) {
      // Re-fit each side from the inner part of the borders just found.
      // More than 50 pixels, as this pass has always asked.
      for (size_t s = 0; s < rects.size(); ++s) {
        fitted[s] =
            RefitFromBorderBands(out.colors, s, chroma, rects[s], band_px, out.side_masks[s], 51);
      }
    }
  }
  std::vector<std::vector<PxRect>> washed_patches;  // filled with a washed hue: figures or paper
  if (options.refit_colors) {
    // The camera may wash every side toward the mat (see vision/side_washout.hpp).
    AddFrameWashoutBases(
        chroma, valid, mat_chroma, colors, WashoutOptions(),
        [&](cv::Mat& m) { return DetectSideBases(m = CleanMask(m), mm, sizes, options); }, mm,
        options.ring_fit, rects, &washed_patches);
  }
  WashedOutRings washed_rings;
  if (options.refit_colors)
    washed_rings = AddWashedOutBases(chroma, valid, mat_chroma, mm, sizes, options,
                                     EdgeBlurMm(top_bgr, AllRects(rects), mm), out, rects);

  const cv::Mat terrain =
      board ? TerrainMask(*board, view, top_bgr.size(), static_cast<int>(std::ceil(2.0 / mm)))
            : cv::Mat();
  // A piece of road is a solid patch a shade toward a side's colour (brown toward red) too; the
  // partial-border fit takes only the strict colour as border there (under a webcam's JPEG a
  // road's edges read part of the way toward red: six red bases on roads, napoleonic seeds 5
  // and 7 at quality 80).
  const cv::Mat solid_terrain =
      board ? TerrainMask(*board, view, top_bgr.size(), static_cast<int>(std::ceil(2.0 / mm)),
                          MayShowSolidSideShade)
            : cv::Mat();
  if (options.fit_partial_borders) {
    const cv::Mat hidden =
        board ? TallTerrainMask(*board, view, top_bgr.size(),
                                MmToInches(options.tall_terrain_height_mm),
                                static_cast<int>(std::lround(options.tall_terrain_margin_mm / mm)))
              : cv::Mat();
    AddRingFits(chroma, valid, mat_chroma, solid_terrain, hidden, out, mm, sizes, options, rects);
  }
  if (options.fit_filled_bases) {
    AddFilledFits(top_bgr, chroma, valid, mat_chroma, solid_terrain, out, mm, sizes, options,
                  rects);
  }
  // Their sizes are catalogue sizes and each side already sits where the blurred band fits it
  // best: kept so the edge and stripe steps below, whose evidence that blur defeats, leave them.
  std::vector<PxRect> blurred_ring_bases =
      AddBlurredRings(top_bgr, view, out, terrain, solid_terrain, mm, sizes, options, rects);
  // A side the first pass could not refit to this frame's borders: fitted again toward the washed
  // colour its bases found so far show (vision/washed_side_refit.hpp).
  if (options.refit_colors && options.washed_sides.enabled) {
    if (std::optional<WashedSides> washed_sides =
            RefitWashedSides(out.colors, chroma, valid, mat_chroma, rects, fitted, solid_terrain,
                             band_px, options.washed_sides)) {
      StandDetection washed = out;
      washed.colors = std::move(washed_sides->colors);
      StandDetectorOptions refitted_only = options;
      refitted_only.blurred_ring.fit_sides = washed_sides->refitted;
      const std::vector<std::vector<PxRect>> before = rects;
      AddBlurredRings(top_bgr, view, washed, terrain, solid_terrain, mm, sizes, refitted_only,
                      rects);
      DropRingsOffSideLine(chroma, valid, mat_chroma, washed.colors.sides(), before, mm,
                           EdgeBlurMm(top_bgr, AllRects(before), mm), options.min_border_mm,
                           options.washed_sides.max_off_line_ratio, rects);
      const std::vector<PxRect> more = AddedSince(before, rects);
      blurred_ring_bases.insert(blurred_ring_bases.end(), more.begin(), more.end());
    }
  }
  // Washed-out rings no search has placed (vision/washed_out_bases.hpp), after every ring and
  // blob search (a ring one of them found is placed by it, more closely) and before a base
  // short across its far side is completed: first the refitted sides' bases, then lone rings.
  PlaceRefittedBases(washed_rings.refitted, rects);
  std::vector<PxRect> washed_out_bases;
  if (options.place_lone_rings) {
    const std::vector<std::vector<PxRect>> before = rects;
    AddLoneRings(chroma, valid, mat_chroma, out.colors.sides(), washed_rings.lone, mm, options,
                 rects);
    washed_out_bases = AddedSince(before, rects);
  }
  if (options.place_washed_figure_bases) {
    const std::vector<PxRect> placed =
        AddWashedBasesWithFigures(top_bgr, chroma, valid, mat_chroma, out.colors.sides(),
                                  washed_patches, solid_terrain, mm, options, rects);
    washed_out_bases.insert(washed_out_bases.end(), placed.begin(), placed.end());
  }
  std::vector<HiddenSide> hidden_sides;  // sides completed across hidden figures
  const std::vector<cv::Mat> evidence =
      CompleteShortBases(top_bgr, view, out, mm, sizes, options, rects, hidden_sides);
  const cv::Mat change =
      empty_top.empty() ? cv::Mat() : TableChange(top_bgr, empty_top, options.table_change);
  std::vector<PxRect> changed_fit_bases;
  if (!change.empty() && options.fit_changed_rings) {
    const std::vector<std::vector<PxRect>> before = rects;
    AddChangedRingFits(LeftoverEvidence(chroma, valid, mat_chroma, cv::Mat(), out, mm, rects),
                       chroma, valid, mat_chroma, out.colors.sides(), change, mm, sizes,
                       EdgeBlurMm(top_bgr, AllRects(rects), mm), options.min_border_mm,
                       options.changed_fit, rects);
    changed_fit_bases = AddedSince(before, rects);
  }
  if (options.move_to_band_side) {
    MoveBasesToTheirBandsSide(chroma, valid, mat_chroma, out.colors.sides(), band_px, rects);
  }
  DropDuplicates(rects);
  DropFiguresOfAnotherSide(rects, options.min_border_mm / mm);
  if (!change.empty()) DropUnchangedBases(rects, change, options.min_changed_share);
  // Toward each side's colour in a wide cone (45 degrees), for the terrain test; only needed
  // when a shape lies in terrain.
  std::vector<cv::Mat> toward_wide;
  const auto toward = [&](size_t s) -> const cv::Mat& {
    if (toward_wide.empty()) {
      toward_wide = out.colors.ClassifyTowardSides(chroma, valid, mat_chroma, 1.0);
    }
    return toward_wide[s];
  };

  const cv::Mat white = WhiteMask(top_bgr);
  // The frame's blur, for the stripe test (how much of a 2 mm stripe survives it).
  const double blur_mm = EdgeBlurMm(top_bgr, AllRects(rects), mm);
  out.blur_mm = blur_mm;
  // Borders in a figure's shadow (ExtendIntoShadow), classified once a short base asks. A blur
  // wider than the border spreads every border's end: those bases are the blurred ring fit's.
  const bool shadow_pass = blur_mm < options.min_border_mm;
  std::vector<cv::Mat> shadow_masks;
  const auto shadow_mask = [&](size_t s) -> const cv::Mat& {
    if (shadow_masks.empty()) {
      cv::Mat ch[3], brightness;
      cv::split(top_bgr, ch);
      cv::max(ch[0], ch[1], brightness);
      cv::max(brightness, ch[2], brightness);
      shadow_masks = out.colors.ClassifyChroma(chroma, valid, brightness, &mat_chroma);
      for (auto& m : shadow_masks) m = CleanMask(m);
    }
    return shadow_masks[s];
  };
  const OutlineProbe probe(options, mm, blur_mm);
  // Where the board's tall terrain is seen (no margin, and grown by it) and the bare mat, for
  // bases that run on under it (vision/tall_terrain_extent.hpp); only when the board has some.
  const double tall_in = MmToInches(options.tall_terrain_height_mm);
  const cv::Mat tall_seen =
      board ? TallTerrainMask(*board, view, top_bgr.size(), tall_in, 0) : cv::Mat();
  const bool any_tall = !tall_seen.empty() && cv::countNonZero(tall_seen) > 0;
  const cv::Mat tall_hidden =
      any_tall ? TallTerrainMask(*board, view, top_bgr.size(), tall_in,
                                 static_cast<int>(std::lround(options.tall_terrain_margin_mm / mm)))
               : cv::Mat();
  const cv::Mat bare_mat = any_tall ? BareMatMask(chroma, valid, mat_chroma) : cv::Mat();
  TallTerrainExtentOptions tall_extent = options.tall_terrain_extent;
  tall_extent.size_tolerance_mm = options.size_tolerance_mm;
  tall_extent.min_border_mm = options.min_border_mm;
  const FinishFrame frame{.top_bgr = top_bgr,
                          .view = view,
                          .catalog = catalog,
                          .options = options,
                          .sizes = sizes,
                          .mm = mm,
                          .colors = out.colors,
                          .side_masks = out.side_masks,
                          .chroma = chroma,
                          .valid = valid,
                          .mat_chroma = mat_chroma,
                          .rects = rects,
                          .blurred_ring_bases = blurred_ring_bases,
                          .changed_fit_bases = changed_fit_bases,
                          .washed_out_bases = washed_out_bases,
                          .hidden_sides = hidden_sides,
                          .evidence = evidence,
                          .white = white,
                          .terrain = terrain,
                          .toward = toward,
                          .blur_mm = blur_mm,
                          .shadow_pass = shadow_pass,
                          .shadow_mask = shadow_mask,
                          .probe = probe,
                          .any_tall = any_tall,
                          .tall_seen = tall_seen,
                          .tall_hidden = tall_hidden,
                          .bare_mat = bare_mat,
                          .tall_extent = tall_extent};
  for (size_t s = 0; s < rects.size(); ++s) {
    int n = 0;
    // Stable order: by row then column of the centre.
    auto& rs = rects[s];
    std::sort(rs.begin(), rs.end(), [](const PxRect& a, const PxRect& b) {
      return std::make_pair(std::round(a.center.y / 40), a.center.x) <
             std::make_pair(std::round(b.center.y / 40), b.center.x);
    });
    for (const PxRect& found : rs) {
      if (std::optional<DetectedStand> ds = FinishBase(frame, found, s, n)) {
        out.stands.push_back(std::move(*ds));
      }
    }
  }
  return out;
}

}  // namespace referee
