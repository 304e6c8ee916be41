#include "vision/hidden_border.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>

#include <opencv2/imgproc.hpp>

namespace referee {

double LeanPx(const TopView& view, cv::Point2d at_px, cv::Point2d outward, double height_mm) {
  const Vec2 foot = view.TableAtHeight(view.TableFromRectified(at_px), height_mm / kMmPerInch);
  // at_px is where the top is seen; its foot stands at `foot`: the lean is the difference.
  return (at_px - view.RectifiedFromTable(foot)).dot(outward);
}

bool HiddenSideAllowed(const HiddenSideEvidence& e) {
  // r's own far border band: a border seen along half of it or more ends the base there.
  constexpr double kMaxEndColour = 0.5;
  // The strip's inside must be mostly something other than the mat: the base's top and the
  // figures' tops leaning over it. Where the mat shows, nothing hides a border: the base ends.
  constexpr double kMinStripFigures = 0.5;
  // One flank's border continues into the strip along part of it (the figures may hide the
  // rest); a base that really ends has the mat, or figure tops, beside its flanks' line.
  constexpr double kMinFlankColour = 0.3;
  // Where no figure can reach, a flank's border shows as any border does (min_border_coverage).
  constexpr double kMinUnhiddenFlank = 0.6;
  // As GrowShortBases: the mat beyond shows no side colour (else a neighbour's border is there).
  constexpr double kMaxBeyond = 0.15;
  return e.reach_px >= e.border_px && e.end_colour <= kMaxEndColour &&
         e.strip_figures >= kMinStripFigures && e.flank_colour >= kMinFlankColour &&
         e.unhidden_flank_colour >= kMinUnhiddenFlank && e.beyond <= kMaxBeyond;
}

namespace {

// The frame of a completion: the grown outline's far edge midpoint, its outward normal n and
// tangent t, the half length along t, and the strip's depth.
struct FarFrame {
  cv::Point2d far_mid, n, t;
  double half_w = 0, depth = 0;  // half of the kept side, full grown depth (px)
  // (depth from the far edge inward, offset along the far edge) of pixel p.
  std::pair<double, double> At(cv::Point2d p) const {
    const cv::Point2d d = p - far_mid;
    return {-d.dot(n), d.dot(t)};
  }
};

// Share of the pixels in the frame's region `in(depth, across)` (within the box around the grown
// outline plus `margin_px`) for which `hit(x, y)` holds; 0 when the region has no pixel.
double Share(const FarFrame& f, cv::Size size, double margin_px,
             const std::function<bool(double, double)>& in,
             const std::function<bool(int, int)>& hit) {
  const cv::Point2d c = f.far_mid - 0.5 * f.depth * f.n;
  const double reach = 0.5 * std::hypot(2 * f.half_w, f.depth) + margin_px + 2;
  const int x0 = std::max(0, static_cast<int>(c.x - reach));
  const int x1 = std::min(size.width - 1, static_cast<int>(c.x + reach));
  const int y0 = std::max(0, static_cast<int>(c.y - reach));
  const int y1 = std::min(size.height - 1, static_cast<int>(c.y + reach));
  int total = 0, set = 0;
  for (int y = y0; y <= y1; ++y) {
    for (int x = x0; x <= x1; ++x) {
      const auto [depth, across] = f.At(cv::Point2d(x, y));
      if (!in(depth, std::abs(across))) continue;
      ++total;
      set += hit(x, y);
    }
  }
  return total > 0 ? static_cast<double>(set) / total : 0.0;
}

// The mat's colour around a base under the local light: the per-channel median of the band
// gap0..gap1 px outside the grown outline, on its near side and flanks (the far side may show
// figure tops), leaving out the side's colour.
cv::Vec3d LocalMatBgr(const cv::Mat& top_bgr, const cv::Mat& mask, const FarFrame& f, double gap0,
                      double gap1) {
  std::array<std::array<int, 256>, 3> hist{};
  int n = 0;
  const auto in = [&](double depth, double across) {
    if (depth < 0 || depth > f.depth + gap1 || across > f.half_w + gap1) return false;
    return depth > f.depth + gap0 || across > f.half_w + gap0;
  };
  Share(f, top_bgr.size(), gap1, in, [&](int x, int y) {
    if (mask.at<uchar>(y, x)) return false;
    const cv::Vec3b& p = top_bgr.at<cv::Vec3b>(y, x);
    for (int c = 0; c < 3; ++c) ++hist[static_cast<size_t>(c)][p[c]];
    ++n;
    return false;
  });
  cv::Vec3d out(-1e3, -1e3, -1e3);  // no mat seen: nothing matches it
  if (n == 0) return out;
  for (int c = 0; c < 3; ++c) {
    int acc = 0;
    for (int v = 0; v < 256; ++v) {
      acc += hist[static_cast<size_t>(c)][static_cast<size_t>(v)];
      if (2 * acc >= n) {
        out[c] = v;
        break;
      }
    }
  }
  return out;
}

struct Completion {
  PxRect grown;
  cv::Point2d outward;  // the completed side's outward normal
  HiddenSideEvidence evidence;
};

// Every completion of r across its far side (the one of each axis whose outward normal points
// away from the camera) to a catalogue size sharing r's other side, with its evidence.
std::vector<Completion> Completions(const cv::Mat& top_bgr, const cv::Mat& mask,
                                    const TopView& view, const PxRect& r,
                                    const std::vector<BaseSize>& sizes,
                                    const HiddenBorderOptions& o) {
  const double mm = view.MmPerPx();
  const double border_px = 0.8 * o.min_border_mm / mm;
  const double gap0 = (1.0 + 0.6 * o.blur_mm) / mm, gap1 = gap0 + 2.5 / mm;
  constexpr double kMinStepBgr = 40.0;  // as OutlineProbe: a base's top against the mat
  const double top_mm = o.base_height_mm + o.max_figure_height_mm;
  std::vector<Completion> out;
  for (int grow_b = 0; grow_b < 2; ++grow_b) {
    const cv::Point2d g = grow_b ? r.AxisB() : r.axis_a;
    const double kept_mm = (grow_b ? r.len_a : r.len_b) * mm;
    const double other_px = grow_b ? r.len_b : r.len_a;
    // The far side of this axis: its outward normal points away from the camera's foot.
    const cv::Point2d n = LeanPx(view, r.center, g, top_mm) >= 0 ? g : -g;
    for (const BaseSize& sz : sizes) {
      for (const auto& [target_kept, target_other] :
           {std::pair{sz.width_mm, sz.depth_mm}, std::pair{sz.depth_mm, sz.width_mm}}) {
        const double ext_mm = target_other - other_px * mm;
        // Less than a border: edge placement, RefineEdges' job.
        if (std::abs(kept_mm - target_kept) > o.size_tolerance_mm || ext_mm < o.min_border_mm ||
            ext_mm > o.size_tolerance_mm) {
          continue;
        }
        Completion c;
        c.grown = r;
        c.grown.center += 0.5 * (ext_mm / mm) * n;
        (grow_b ? c.grown.len_b : c.grown.len_a) = target_other / mm;
        FarFrame f;
        f.n = n;
        f.t = {-n.y, n.x};
        f.half_w = 0.5 * kept_mm / mm;
        f.depth = target_other / mm;
        f.far_mid = c.grown.center + 0.5 * f.depth * n;
        HiddenSideEvidence& e = c.evidence;
        e.ext_px = ext_mm / mm;
        e.reach_px = LeanPx(view, f.far_mid, n, top_mm);
        const auto coloured = [&](int x, int y) { return mask.at<uchar>(y, x) != 0; };
        const double ext = e.ext_px, hw = f.half_w;
        e.end_colour = Share(
            f, mask.size(), 0,
            [&](double d, double a) {
              return d >= ext + 0.5 && d < ext + border_px && a < 0.8 * hw;
            },
            coloured);
        const cv::Vec3d mat = LocalMatBgr(top_bgr, mask, f, gap0, gap1);
        e.strip_figures = Share(
            f, mask.size(), 0,
            [&](double d, double a) { return d >= 0 && d < ext && a < hw - border_px; },
            [&](int x, int y) {
              return cv::norm(cv::Vec3d(top_bgr.at<cv::Vec3b>(y, x)) - mat) > kMinStepBgr;
            });
        // The flanks one at a time (Share counts both flanks' pixels: one flank's share is
        // twice its part), over the whole strip and where the figures cannot reach.
        e.border_px = o.min_border_mm / mm;
        const double reach = e.reach_px;
        const auto flank_share = [&](double side, double d0) {
          return 2 * Share(
                         f, mask.size(), 0,
                         [&](double d, double a) {
                           return d >= d0 && d < ext && a >= hw - border_px && a < hw - 0.5;
                         },
                         [&](int x, int y) {
                           return (cv::Point2d(x, y) - f.far_mid).dot(f.t) * side > 0 &&
                                  coloured(x, y);
                         });
        };
        for (const double side : {-1.0, 1.0}) {
          e.flank_colour = std::max(e.flank_colour, flank_share(side, 0));
          // Under 1 mm of the strip beyond reach is edge placement, not flank to read.
          if (reach + 1.0 / mm < ext) {
            e.unhidden_flank_colour = std::min(e.unhidden_flank_colour, flank_share(side, reach));
          }
        }
        const double beyond_far = Share(
            f, mask.size(), gap1,
            [&](double d, double a) { return d <= -gap0 && d > -gap1 && a < 0.8 * hw; }, coloured);
        const double beyond_flanks = Share(
            f, mask.size(), gap1,
            [&](double d, double a) {
              return d >= 0 && d < ext && a > hw + gap0 && a <= hw + gap1;
            },
            coloured);
        e.beyond = std::max(beyond_far, beyond_flanks);
        c.outward = n;
        out.push_back(c);
      }
    }
  }
  std::sort(out.begin(), out.end(), [](const Completion& a, const Completion& b) {
    return a.evidence.ext_px < b.evidence.ext_px;
  });
  return out;
}

}  // namespace

bool IsHiddenSide(const std::vector<HiddenSide>& hidden, const PxRect& r, cv::Point2d outward) {
  constexpr double kMinCosine = 0.9;  // the same side: within 25 degrees
  return std::any_of(hidden.begin(), hidden.end(), [&](const HiddenSide& h) {
    const double smaller = std::min(h.grown.len_a * h.grown.len_b, r.len_a * r.len_b);
    return OverlapAreaPx(h.grown, r) > 0.5 * smaller && h.outward.dot(outward) > kMinCosine;
  });
}

int CompleteHiddenFarSides(const cv::Mat& top_bgr, const std::vector<cv::Mat>& side_masks,
                           const TopView& view, const std::vector<BaseSize>& sizes,
                           const HiddenBorderOptions& options,
                           std::vector<std::vector<PxRect>>& rects,
                           std::vector<HiddenSide>* completed) {
  int grown_n = 0;
  for (size_t s = 0; s < rects.size() && s < side_masks.size(); ++s) {
    for (size_t i = 0; i < rects[s].size(); ++i) {
      const PxRect r = rects[s][i];
      for (const Completion& c : Completions(top_bgr, side_masks[s], view, r, sizes, options)) {
        const HiddenSideEvidence& e = c.evidence;
        bool overlaps = false;
        for (size_t os = 0; os < rects.size() && !overlaps; ++os) {
          for (size_t j = 0; j < rects[os].size() && !overlaps; ++j) {
            if (os == s && (j == i || IsPieceOf(rects[os][j], c.grown))) continue;
            overlaps = OverlapTooMuch(c.grown, rects[os][j]);
          }
        }
        const bool ok = HiddenSideAllowed(e) && !overlaps;
        if (!ok) continue;
        rects[s][i] = c.grown;
        ++grown_n;
        if (completed) completed->push_back({c.grown, c.outward});
        // Pieces of this base other passes found are this base.
        for (size_t j = rects[s].size(); j-- > 0;) {
          if (j != i && IsPieceOf(rects[s][j], c.grown)) {
            rects[s].erase(rects[s].begin() + static_cast<long>(j));
            if (j < i) --i;
          }
        }
        break;
      }
    }
  }
  return grown_n;
}

}  // namespace referee
