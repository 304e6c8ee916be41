#include "vision/qtip_template.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <opencv2/imgproc.hpp>

#include "engine/order_statistics.hpp"
#include "vision/principal_axis.hpp"

namespace referee {

namespace {

// Column energies of band-minus-flanks placements in one strip along an axis.
class StripEnergy {
 public:
  // `strip`: the difference resampled along the axis (rows across, columns along, 1 px steps).
  explicit StripEnergy(const cv::Mat& strip) : rows_(strip.rows), cols_(strip.cols) {
    sums_.assign(static_cast<size_t>(rows_ + 1) * static_cast<size_t>(cols_), cv::Vec3d(0, 0, 0));
    for (int j = 0; j < rows_; ++j) {
      const auto* s = strip.ptr<cv::Vec3f>(j);
      for (int i = 0; i < cols_; ++i) At(j + 1, i) = At(j, i) + cv::Vec3d(s[i]);
    }
  }
  // Mean over rows [a, b] (clamped) of column i.
  cv::Vec3d Mean(int a, int b, int i) const {
    a = std::clamp(a, 0, rows_ - 1);
    b = std::clamp(b, 0, rows_ - 1);
    if (b < a) return {0, 0, 0};
    return (At(b + 1, i) - At(a, i)) * (1.0 / (b - a + 1));
  }
  // Squared norm of band-minus-flanks per column, the band centred on row `centre`.
  std::vector<double> Energy(double centre, double band, double gap, double flank) const {
    std::vector<double> out(static_cast<size_t>(cols_));
    const int b0 = static_cast<int>(std::ceil(centre - band)),
              b1 = static_cast<int>(std::floor(centre + band));
    const int lo0 = static_cast<int>(std::ceil(centre - band - gap - flank)),
              lo1 = static_cast<int>(std::floor(centre - band - gap));
    const int hi0 = static_cast<int>(std::ceil(centre + band + gap)),
              hi1 = static_cast<int>(std::floor(centre + band + gap + flank));
    for (int i = 0; i < cols_; ++i) {
      const cv::Vec3d e = Mean(b0, b1, i) - 0.5 * (Mean(lo0, lo1, i) + Mean(hi0, hi1, i));
      out[static_cast<size_t>(i)] = e.dot(e);
    }
    return out;
  }
  int cols() const { return cols_; }

 private:
  cv::Vec3d& At(int j, int i) { return sums_[Index(j, i)]; }
  const cv::Vec3d& At(int j, int i) const { return sums_[Index(j, i)]; }
  size_t Index(int j, int i) const {
    return static_cast<size_t>(j) * static_cast<size_t>(cols_) + static_cast<size_t>(i);
  }
  int rows_, cols_;
  std::vector<cv::Vec3d> sums_;
};

struct Window {
  double score = -1;
  int start = 0;
};

// The best window of `length` columns whose start lies in [s_lo, s_hi].
Window BestWindow(const std::vector<double>& z, int length, int s_lo, int s_hi) {
  std::vector<double> prefix(z.size() + 1, 0.0);
  for (size_t i = 0; i < z.size(); ++i) prefix[i + 1] = prefix[i] + z[i];
  Window best;
  s_lo = std::max(s_lo, 0);
  s_hi = std::min(s_hi, static_cast<int>(z.size()) - length);
  for (int s = s_lo; s <= s_hi; ++s) {
    const auto at = static_cast<size_t>(s);
    const double w = prefix[at + static_cast<size_t>(length)] - prefix[at];
    if (w > best.score) best = {w, s};
  }
  return best;
}

double ShareAbove(const std::vector<double>& z, int a, int b, double level) {
  a = std::max(a, 0);
  b = std::min(b, static_cast<int>(z.size()) - 1);
  if (b < a) return 0.0;
  int n = 0;
  for (int i = a; i <= b; ++i) n += z[static_cast<size_t>(i)] > level ? 1 : 0;
  return static_cast<double>(n) / (b - a + 1);
}

}  // namespace

QtipTemplateResult MatchQtipTemplate(const cv::Mat& difference, const std::vector<cv::Point>& seed,
                                     double mm_per_px, const QtipTemplateOptions& opt) {
  QtipTemplateResult out;
  if (seed.size() < 5 || difference.type() != CV_32FC3) {
    out.reason = "too little change to match a Q-tip to";
    return out;
  }
  const double px = 1.0 / mm_per_px;
  const PrincipalAxis fit = FitPrincipalAxis(seed);
  const cv::Point2d centre = fit.centre;
  const double angle0 = std::atan2(fit.axis.y, fit.axis.x);

  // Geometry of the matched band and its nulls, px.
  const double band = (0.5 * opt.head_diameter_mm + opt.blur_mm) * px;
  const double gap = 1.0 * px, flank = 3.0 * px;
  const double offset_max = 3.0 * px;  // the fragment may sit off the axis (one head, blur)
  const std::vector<double> null_offsets_mm{-24, -21, -18, -15, -12, 12, 15, 18, 21, 24};
  const double half_v = 24.0 * px + band + gap + flank + 1;
  const int length = static_cast<int>(std::lround(opt.length_mm * px));
  const double half_u = opt.length_mm * px + 20.0 * px;
  const int nu = 2 * static_cast<int>(std::ceil(half_u)) + 1;
  const int nv = 2 * static_cast<int>(std::ceil(half_v)) + 1;
  const int u_mid = nu / 2, v_mid = nv / 2;
  // The fragment lies inside the model, 5 mm from its ends at least.
  const int inside = static_cast<int>(std::lround(5.0 * px));
  const int s_lo = u_mid - length + inside, s_hi = u_mid - inside;

  QtipTemplateMatch best;
  double best_score = -1;
  double best_angle = angle0, best_offset = 0;
  std::vector<double> best_z, best_null_z;
  int s_best = 0;  // first column of the best window in best_z
  const double step_deg = 1.0;
  cv::Mat map(nv, nu, CV_32FC2), strip;
  for (double d = -opt.angle_search_deg; d <= opt.angle_search_deg + 1e-9; d += step_deg) {
    const double a = angle0 + d * CV_PI / 180.0;
    const cv::Point2d axis(std::cos(a), std::sin(a)), across(-axis.y, axis.x);
    for (int j = 0; j < nv; ++j) {
      auto* m = map.ptr<cv::Vec2f>(j);
      for (int i = 0; i < nu; ++i) {
        const cv::Point2d p = centre + (i - u_mid) * axis + (j - v_mid) * across;
        m[i] = {static_cast<float>(p.x), static_cast<float>(p.y)};
      }
    }
    cv::remap(difference, strip, map, cv::Mat(), cv::INTER_LINEAR, cv::BORDER_REPLICATE);
    const StripEnergy energy(strip);
    // The pair's own level of band-minus-flanks energy, away from the fragment.
    std::vector<std::vector<double>> nulls;
    std::vector<double> pooled;
    for (double o : null_offsets_mm) {
      nulls.push_back(energy.Energy(v_mid + o * px, band, gap, flank));
      pooled.insert(pooled.end(), nulls.back().begin(), nulls.back().end());
    }
    const double scale = std::max(1e-6, Median(pooled));
    for (auto& n : nulls) {
      for (double& v : n) v /= scale;
    }
    for (double o = -offset_max; o <= offset_max + 1e-9; o += 0.5) {
      std::vector<double> z = energy.Energy(v_mid + o, band, gap, flank);
      for (double& v : z) v /= scale;
      const Window w = BestWindow(z, length, s_lo, s_hi);
      if (w.score <= best_score) continue;
      best_score = w.score;
      best_angle = a;
      best_offset = o;
      best.score = w.score;
      best_z = z;
      s_best = w.start;
      // A typical placement beside it: one parallel line of structure (a grid line's JPEG
      // edge, the Q-tip's own shadow) must not hide the Q-tip.
      std::vector<double> null_scores;
      null_scores.reserve(nulls.size());
      for (const auto& n : nulls) null_scores.push_back(BestWindow(n, length, s_lo, s_hi).score);
      best.null_score = Median(null_scores);
      std::vector<double> all;
      for (const auto& n : nulls) all.insert(all.end(), n.begin(), n.end());
      best_null_z = all;
      const cv::Point2d c = centre + o * across;
      best.end_a_px = c + (w.start - u_mid) * axis;
      best.end_b_px = c + (w.start + length - 1 - u_mid) * axis;
    }
  }
  if (best_score < 0) {
    out.reason = "no room for a Q-tip along the change";
    return out;
  }
  const double level = Percentile(best_null_z, 0.9);
  const cv::Point2d axis(std::cos(best_angle), std::sin(best_angle));
  const cv::Point2d across(-axis.y, axis.x);
  const cv::Point2d c = centre + best_offset * across;
  // The object's own extent: the run of columns above `stop_level` that holds the fragment
  // (most energy over that level). A painted head the colour of the mat shows no change, so
  // the run may be a head shorter than the model; FitQtip then places the tip.
  int start = u_mid, stop = u_mid;
  const auto run_over = [&](double stop_level) {
    double run = 0, best_run = -1e18;
    int run_start = 0;
    for (int i = 0; i < static_cast<int>(best_z.size()); ++i) {
      if (run <= 0 && i <= u_mid) run = 0, run_start = i;
      run += best_z[static_cast<size_t>(i)] - stop_level;
      if (i >= u_mid && run > best_run) best_run = run, start = run_start, stop = i;
    }
  };
  double stop_level = level;
  run_over(stop_level);
  // Longer than a Q-tip over the null: where the change keeps a share of its own energy too.
  // A plain stick lying along a grid line has the line's residual of an exposure change (a few
  // levels in the flanks) running on past its ends, over the plain mat's null but far under
  // the stick. Only then: a dark head over a dark background keeps less than that share and
  // is still the object.
  if ((stop - start + 1) * mm_per_px > (1 + opt.size_tolerance) * opt.length_mm) {
    const double own = Median(std::vector<double>(
        best_z.begin() + std::clamp(s_best, 0, static_cast<int>(best_z.size())),
        best_z.begin() + std::clamp(s_best + length, 0, static_cast<int>(best_z.size()))));
    stop_level = std::max(level, opt.min_own_energy_share * own);
    run_over(stop_level);
  }
  best.end_a_px = c + (start - u_mid) * axis;
  best.end_b_px = c + (stop - u_mid) * axis;
  const int extent = stop - start + 1;
  best.length_mm = extent * mm_per_px;
  best.column_share = ShareAbove(best_z, start, stop, level);
  const int beyond = static_cast<int>(std::lround(15.0 * px));
  best.beyond_share = std::max(ShareAbove(best_z, start - beyond, start - 1, stop_level),
                               ShareAbove(best_z, stop + 1, stop + beyond, stop_level));
  // The model's footprint: a head-wide band over its length.
  const double half_w = 0.5 * opt.head_diameter_mm * px;
  for (int i = 0; i < extent; ++i) {
    for (double v = -half_w; v <= half_w; v += 0.5) {
      const cv::Point2d p = best.end_a_px + i * axis + v * across;
      const cv::Point q(static_cast<int>(std::lround(p.x)), static_cast<int>(std::lround(p.y)));
      if (q.x < 0 || q.y < 0 || q.x >= difference.cols || q.y >= difference.rows) continue;
      if (best.footprint.empty() || best.footprint.back() != q) best.footprint.push_back(q);
    }
  }
  out.match = best;
  char buf[200];
  if (best.length_mm < opt.min_length_share * opt.length_mm ||
      best.length_mm > (1 + opt.size_tolerance) * opt.length_mm) {
    std::snprintf(buf, sizeof buf, "the change along it is %.0f mm long, not a Q-tip's %.0f mm",
                  best.length_mm, opt.length_mm);
    out.reason = buf;
  } else if (best.column_share < opt.min_column_share) {
    std::snprintf(buf, sizeof buf,
                  "the change does not run the length of a Q-tip (%.0f %% of it stands out of "
                  "the noise)",
                  100 * best.column_share);
    out.reason = buf;
  } else if (best.score < opt.min_margin * best.null_score) {
    std::snprintf(buf, sizeof buf,
                  "a Q-tip matched along the change scores only %.1fx the same match beside it",
                  best.score / std::max(1e-9, best.null_score));
    out.reason = buf;
  } else if (best.beyond_share > opt.max_beyond_share) {
    out.reason = "the change runs on past the ends of a Q-tip (a long edge, not a Q-tip)";
  } else {
    out.found = true;
  }
  return out;
}

}  // namespace referee
