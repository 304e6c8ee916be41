#include "vision/qtip_support.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

#include <opencv2/imgproc.hpp>

#include "vision/stand_surface.hpp"

namespace referee {

namespace {

// The stick's colour as `after` shows it: the median along its axis between the heads, where it
// changed the view (over the mat, a base or figures), so its own light and white balance.
// Empty optional when too little of it changed.
std::optional<cv::Vec3d> StickColour(const cv::Mat& before, const cv::Mat& after,
                                     const std::vector<cv::Point2d>& axis_px, double min_change) {
  std::array<std::vector<int>, 3> ch;
  const cv::Rect all({0, 0}, before.size());
  for (const cv::Point2d& q : axis_px) {
    const cv::Point p(static_cast<int>(std::lround(q.x)), static_cast<int>(std::lround(q.y)));
    if (!all.contains(p)) continue;
    const cv::Vec3b& b = before.at<cv::Vec3b>(p);
    const cv::Vec3b& a = after.at<cv::Vec3b>(p);
    int change = 0;
    for (int c = 0; c < 3; ++c)
      change = std::max(change, std::abs(static_cast<int>(a[c]) - static_cast<int>(b[c])));
    if (change <= min_change) continue;
    for (int c = 0; c < 3; ++c) ch[c].push_back(a[c]);
  }
  if (ch[0].size() < 5) return std::nullopt;
  return ChannelMedian(ch);
}

// How many times the largest change of an unseen stick the change it would make must be for a
// pixel left unchanged to hide it, and how many times the change left that one is. Default 3:
// the stick plainly differs from what is there.
constexpr double kSeenChangeRatio = 3.0;

// Share of the axis pixels `axis_px` where `after` shows what `before` showed, unchanged, though
// the stick (of colour `stick`) would change it plainly: the stick is hidden there. -1 when no
// pixel is in the view.
double HiddenShare(const cv::Mat& before, const cv::Mat& after,
                   const std::vector<cv::Point2d>& axis_px, const cv::Vec3d& stick,
                   double max_unseen_change) {
  const cv::Rect all({0, 0}, before.size());
  int n = 0, hidden = 0;
  for (const cv::Point2d& q : axis_px) {
    const cv::Point p(static_cast<int>(std::lround(q.x)), static_cast<int>(std::lround(q.y)));
    if (!all.contains(p)) continue;
    ++n;
    const cv::Vec3b& b = before.at<cv::Vec3b>(p);
    const cv::Vec3b& a = after.at<cv::Vec3b>(p);
    int change = 0;
    for (int c = 0; c < 3; ++c)
      change = std::max(change, std::abs(static_cast<int>(a[c]) - static_cast<int>(b[c])));
    // The change the stick would make there if it were seen: the figures' paint against it.
    double expected = 0;
    for (int c = 0; c < 3; ++c) expected = std::max(expected, std::abs(stick[c] - b[c]));
    // Unchanged: by under a third of that (an exposure change the gain correction leaves
    // scales with the colour's brightness), and by no more than noise where that is small.
    hidden += change <= std::max(max_unseen_change, expected / kSeenChangeRatio) &&
              expected >= kSeenChangeRatio * max_unseen_change;
  }
  return n ? static_cast<double>(hidden) / n : -1;
}

}  // namespace

double FigureCover(const DetectedStand& stand, const TopView& view, const cv::Mat& top,
                   double border_mm) {
  return MeasureStandSurface(stand, view, top, border_mm).figure_cover;
}

QtipSupport QtipRestHeights(Vec2 tip_on_mat, Vec2 plain_on_mat, const TopView& view,
                            const cv::Mat& top_before, const std::vector<DetectedStand>& stands,
                            const QtipSupportOptions& opt, const cv::Mat& top_after_lit) {
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
  // Points on the stick's axis as seen (at the height of whatever it lies on: the axis is seen
  // where it is, whatever the height), one per pixel, for the stick's colour (between the heads:
  // one fifth of its length in from each end) and the hidden test.
  const auto axis_points = [&](double t0, double t1) {
    std::vector<cv::Point2d> pts;
    const cv::Point2d a = view.RectifiedFromTable(tip_on_mat + t0 * (plain_on_mat - tip_on_mat));
    const cv::Point2d b = view.RectifiedFromTable(tip_on_mat + t1 * (plain_on_mat - tip_on_mat));
    const int n = std::max(1, static_cast<int>(std::ceil(cv::norm(b - a))));
    for (int k = 0; k <= n; ++k) pts.push_back(a + (static_cast<double>(k) / n) * (b - a));
    return pts;
  };
  std::optional<cv::Vec3d> stick_bgr;
  if (!top_after_lit.empty() && top_after_lit.size() == top_before.size() &&
      top_after_lit.type() == CV_8UC3) {
    stick_bgr =
        StickColour(top_before, top_after_lit, axis_points(0.2, 0.8), 2 * opt.max_unseen_change);
  }
  const DetectedStand* on = nullptr;
  const DetectedStand* crossed = nullptr;  // the first base the stick crosses
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
    if (!crossed) crossed = &s;
    const StandSurface surface = MeasureStandSurface(s, view, top_before, opt.border_mm);
    // A top of nothing but its border's colour: figures of the side colour over its interior.
    const bool own_colour_top =
        opt.own_colour_top_holds_figures && TopOfBordersColour(surface, opt.min_figure_cover);
    if (!surface.valid || (surface.figure_cover < opt.min_figure_cover && !own_colour_top))
      continue;
    const OrientedRect top_area = Grown(s.stand.footprint, MmToInches(1.0));
    const OrientedRect interior = Grown(s.stand.footprint, -MmToInches(opt.border_mm));
    // The length of stick over figures: each piece counts the share of it that shows figures,
    // as thin figure tops (a head, a musket) cover only part of a piece as wide as the stick.
    double run_mm = 0, hidden_mm = 0;
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
      const double share =
          own_colour_top
              ? (interior.Contains(view.TableAtHeight(along(i), on_figures_in)) ? 1.0 : 0.0)
              : FigureShare(surface, top_before, piece, opt.min_figure_cover);
      if (share < opt.min_piece_share) continue;
      // The figures there hide the stick: it lies lower than they stand.
      if (stick_bgr) {
        const double t = static_cast<double>(i) / kSamples, dt = 0.5 / kSamples;
        const double hidden = HiddenShare(top_before, top_after_lit,
                                          axis_points(std::max(0.0, t - dt), std::min(1.0, t + dt)),
                                          *stick_bgr, opt.max_unseen_change);
        if (hidden >= opt.min_hidden_share) {
          hidden_mm += share * sample_mm;
          continue;
        }
      }
      run_mm += share * sample_mm;
      lo = std::min(lo, i);
      hi = std::max(hi, i);
    }
    // Hidden behind this stand's figures along a figure run's worth of its length, and along
    // more of it than it is seen over them: it lies well below their tops, so they do not hold
    // it up; what is left of the run over them is their blurred edges where it comes out from
    // behind them. A stick seen lying over them for longer is on them: a taller figure beside
    // the one it rests on hides a stretch of it at most (lamp seed 223 scene 3: seen over them
    // for 15.7 mm and "hidden" for 3.2, it was put on the base top 21 mm below them).
    if (hidden_mm >= opt.min_figure_run_mm && hidden_mm >= run_mm) {
      out.hidden_by = s.stand.id;
      continue;
    }
    if (run_mm > best_run) {
      best_run = run_mm;
      best_lo = lo;
      best_hi = hi;
      on = &s;
    }
  }
  if (!on || best_run < opt.min_figure_run_mm) {
    // A stick across a base with neither end on it cannot lie on the mat: it lies at least on
    // the base's top (`hard` 109 scene 2: ruled on the mat across a wagon whose figures held it
    // 13 mm up, with no check of its height).
    if (out.what == "mat" && crossed) {
      out.what = "base";
      out.stand_id = crossed->stand.id;
      out.tip_height_in = out.plain_height_in = base_in + stick_r;
    }
    return out;
  }
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
