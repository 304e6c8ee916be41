#include "vision/qtip_support.hpp"

#include <algorithm>
#include <cmath>

#include <opencv2/imgproc.hpp>

#include "vision/stand_surface.hpp"

namespace referee {

double FigureCover(const DetectedStand& stand, const TopView& view, const cv::Mat& top,
                   double border_mm) {
  return MeasureStandSurface(stand, view, top, border_mm).figure_cover;
}

QtipSupport QtipRestHeights(Vec2 tip_on_mat, Vec2 plain_on_mat, const TopView& view,
                            const cv::Mat& top_before, const std::vector<DetectedStand>& stands,
                            const QtipSupportOptions& opt) {
  const double base_in = MmToInches(opt.base_height_mm);
  const double figure_top_in = base_in + MmToInches(opt.figure_height_mm);
  const double head_r = MmToInches(opt.head_radius_mm);
  const double stick_r = MmToInches(opt.stick_radius_mm);
  const double on_figures_in = figure_top_in + stick_r;
  constexpr int kSamples = 40;
  const auto along = [&](int i) {
    const double t = static_cast<double>(i) / kSamples;
    return tip_on_mat + t * (plain_on_mat - tip_on_mat);
  };

  QtipSupport out;
  out.what = "mat";
  // Each end on what is under it: the mat or a bare base top.
  const auto base_under = [&](Vec2 end_on_mat) -> const DetectedStand* {
    const Vec2 p = view.TableAtHeight(end_on_mat, base_in + head_r);
    for (const auto& s : stands) {
      if (DistanceToRect(p, s.stand.footprint) < MmToInches(0.5)) return &s;
    }
    return nullptr;
  };
  const DetectedStand* under_tip = base_under(tip_on_mat);
  const DetectedStand* under_plain = base_under(plain_on_mat);
  const double ground_tip = head_r + (under_tip ? base_in : 0.0);
  const double ground_plain = head_r + (under_plain ? base_in : 0.0);
  out.tip_height_in = ground_tip;
  out.plain_height_in = ground_plain;
  if (under_tip || under_plain) {
    out.what = "base";
    out.stand_id = (under_tip ? under_tip : under_plain)->stand.id;
  }

  // Figures under the stick: where the `before` view showed figures (not the base's bare top)
  // under the stick as it is seen now. A figure's top is seen where a stick lying on it is.
  const double half_w_px = (opt.stick_radius_mm + 0.5) / view.MmPerPx();
  const DetectedStand* on = nullptr;
  double best_run = 0;
  int best_lo = 0, best_hi = 0;
  const double sample_mm = InchesToMm(Distance(tip_on_mat, plain_on_mat)) / kSamples;
  for (const auto& s : stands) {
    // On the mat the stick must cross the base (a stick just beyond a base, which raising would
    // shift onto it, is not on it).
    const OrientedRect inside = Grown(s.stand.footprint, -MmToInches(1.0));
    bool crosses = false;
    for (int i = 0; i <= kSamples && !crosses; ++i)
      crosses = inside.Contains(view.TableAtHeight(along(i), head_r));
    if (!crosses) continue;
    const StandSurface surface = MeasureStandSurface(s, view, top_before, opt.border_mm);
    if (!surface.valid || surface.figure_cover < opt.min_figure_cover) continue;
    const OrientedRect top_area = Grown(s.stand.footprint, MmToInches(1.0));
    // The length of stick over figures: each piece counts the share of it that shows figures,
    // as thin figure tops (a head, a musket) cover only part of a piece as wide as the stick.
    double run_mm = 0;
    int lo = kSamples + 1, hi = -1;
    for (int i = 0; i <= kSamples; ++i) {
      if (!top_area.Contains(view.TableAtHeight(along(i), on_figures_in))) continue;
      const cv::Point2d c = view.RectifiedFromTable(along(i));
      const cv::Point2d d = view.RectifiedFromTable(along(std::min(i + 1, kSamples))) -
                            view.RectifiedFromTable(along(std::max(i - 1, 0)));
      const cv::Point2d u = d * (0.5 / std::max(1e-9, cv::norm(d)));
      const cv::Point2d v(-u.y * half_w_px, u.x * half_w_px);
      const double step_px = 0.5 * cv::norm(d) * 0.5;
      std::vector<cv::Point> piece;
      for (const cv::Point2d& q :
           {c - step_px * u - v, c + step_px * u - v, c + step_px * u + v, c - step_px * u + v}) {
        piece.emplace_back(static_cast<int>(std::lround(q.x)), static_cast<int>(std::lround(q.y)));
      }
      const double share = FigureShare(surface, top_before, piece, opt.min_figure_cover);
      if (share < opt.min_piece_share) continue;
      run_mm += share * sample_mm;
      lo = std::min(lo, i);
      hi = std::max(hi, i);
    }
    if (run_mm > best_run) {
      best_run = run_mm;
      best_lo = lo;
      best_hi = hi;
      on = &s;
    }
  }
  if (!on || best_run < opt.min_figure_run_mm) return out;
  out.what = "figures";
  out.stand_id = on->stand.id;
  // The stick rests on the figures; where the figures are not under its middle it tips over
  // their edge nearest the middle until its other end rests on the mat or a base: a straight
  // stick through two supports, so the end over the figures rises past their top.
  const double t_lo = static_cast<double>(best_lo) / kSamples;
  const double t_hi = static_cast<double>(best_hi) / kSamples;
  const double margin = opt.balance_margin;
  if (t_lo - margin <= 0.5 && 0.5 <= t_hi + margin) {
    out.tip_height_in = out.plain_height_in = on_figures_in;
  } else if (t_hi < 0.5) {  // figures toward the tip: the plain end is down
    out.plain_height_in = ground_plain;
    out.tip_height_in = ground_plain + (on_figures_in - ground_plain) / (1.0 - t_hi);
  } else {  // figures toward the plain end: the tip is down
    out.tip_height_in = ground_tip;
    out.plain_height_in = ground_tip + (on_figures_in - ground_tip) / t_lo;
  }
  return out;
}

}  // namespace referee
