#include "vision/blurred_ring_fit.hpp"

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <numeric>
#include <optional>
#include <utility>

#include <opencv2/imgproc.hpp>

#include "engine/geometry.hpp"
#include "engine/order_statistics.hpp"

namespace referee {

namespace {

// A Gaussian edge rises from 10 % to 90 % over 2.563 standard deviations.
constexpr double kRiseToSigma = 1.0 / 2.5631;

double Phi(double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); }

// The blurred band's departure at depth d_px inside the base's edge: a band [0, w] of the
// side's colour, blurred by a Gaussian of sigma_px, on mat (0) both sides.
double BandModel(double d_px, double w_px, double sigma_px) {
  return Phi(d_px / sigma_px) - Phi((d_px - w_px) / sigma_px);
}

// Scale and blur of the frame, px.
struct Geometry {
  double mm_per_px = 1, sigma_px = 1, border_px = 1;
  double out_px = 1;       // profiles start this far outside the edge
  double interior_px = 1;  // the inside, for the evidence test, is deeper than this
  int row_px = 0;          // the departure map's row length, for samples as flat offsets
};

// The geometry of departure's frame at this scale, blur and border width.
Geometry FrameGeometry(const cv::Mat& departure, double mm_per_px, double blur_mm,
                       double border_mm) {
  Geometry g;
  g.mm_per_px = mm_per_px;
  g.sigma_px = std::max(0.5, blur_mm * kRiseToSigma / mm_per_px);
  g.border_px = border_mm / mm_per_px;
  // Past the blur, then 1 mm of plain mat.
  g.out_px = 2.5 * g.sigma_px + 1.0 / mm_per_px;
  g.interior_px = g.border_px + 2.0 * g.sigma_px;
  g.row_px = departure.cols;
  return g;
}

struct Sample {
  cv::Point off;
  int flat;  // off as an offset into the map's rows (Geometry::row_px)
  float model;
};

struct Moments {
  double n = 0, m = 0, mm = 0, d = 0, dd = 0, dm = 0;
  void Add(double dv, double mv) {
    n += 1, m += mv, mm += mv * mv, d += dv, dd += dv * dv, dm += dv * mv;
  }
  void Add(const Moments& o) { n += o.n, m += o.m, mm += o.mm, d += o.d, dd += o.dd, dm += o.dm; }
  double CovDm() const { return dm - d * m / n; }
  double VarM() const { return mm - m * m / n; }
  double VarD() const { return dd - d * d / n; }
  // Least-squares gain of the model (with a free offset), and the correlation.
  double Gain() const { return n > 2 && VarM() > 1e-9 ? CovDm() / VarM() : 0.0; }
  double Rho() const {
    const double v = VarM() * VarD();
    return n > 2 && v > 1e-12 ? CovDm() / std::sqrt(v) : 0.0;
  }
};

// One pose of a base's blurred ring, as sample offsets around its centre: per side, profiles
// across the edge (middle 80 % of the side, corners left out), plus (with_evidence) the band,
// the mat just outside and the inside for the evidence tests.
struct Ring {
  double len_a = 0, len_b = 0, angle = 0;
  int stride = 1;
  double depth_step = 1.0;
  std::array<std::vector<Sample>, 4> side;
  // Per side, the model's own moments (n, m, mm) over its samples: the same for every centre
  // where the whole ring lies on the map, so a fit there adds up only the map's terms.
  std::array<Moments, 4> side_model;
  std::vector<cv::Point> band, outside, interior;
  std::array<std::vector<cv::Point>, 4> outside_side;  // the outside, side by side
  std::vector<cv::Point> band_line, outside_line;      // the quick look: band middle, outside
  std::vector<int> band_flat, outside_flat;            // ... as flat offsets
  int reach = 0;  // largest |x| or |y| of any profile or quick-look sample
};

// Are all of t's profile samples around c inside the map (no sample needs checking)?
bool AllInside(const cv::Mat& m, const Ring& t, cv::Point c) {
  return c.x - t.reach >= 0 && c.y - t.reach >= 0 && c.x + t.reach < m.cols &&
         c.y + t.reach < m.rows;
}

// The search scores thousands of poses; only the one claimed needs the evidence samples.
Ring MakeRing(double len_a, double len_b, double angle, const Geometry& g, int stride,
              double depth_step = 1.0, bool with_evidence = false) {
  Ring t;
  t.len_a = len_a;
  t.len_b = len_b;
  t.angle = angle;
  t.stride = stride;
  t.depth_step = depth_step;
  const cv::Point2d a(std::cos(angle), std::sin(angle)), b(-a.y, a.x);
  const cv::Point2d outward[4] = {-a, a, -b, b};
  const auto px = [](cv::Point2d p) { return cv::Point(cvRound(p.x), cvRound(p.y)); };
  // The band's profile across a side, the same at every point along it.
  std::vector<float> model;
  for (double d = -g.out_px; d <= g.border_px; d += depth_step) {
    model.push_back(static_cast<float>(BandModel(d, g.border_px, g.sigma_px)));
  }
  int reach = 0;  // a local, kept in a register, not stored into t at every sample
  for (size_t s = 0; s < 4; ++s) {
    const double half_other = 0.5 * (s < 2 ? len_a : len_b);
    const double half_len = 0.5 * (s < 2 ? len_b : len_a);
    const cv::Point2d along = s < 2 ? b : a;
    t.side[s].reserve((static_cast<size_t>(1.6 * half_len / stride) + 2) * model.size());
    for (double u = -0.8 * half_len; u <= 0.8 * half_len; u += stride) {
      const cv::Point2d edge = half_other * outward[s] + u * along;
      size_t i = 0;
      for (double d = -g.out_px; d <= g.border_px; d += depth_step, ++i) {
        const cv::Point p = px(edge - d * outward[s]);
        t.side[s].push_back({p, p.y * g.row_px + p.x, model[i]});
        reach = std::max({reach, std::abs(p.x), std::abs(p.y)});
        if (!with_evidence) continue;
        if (d >= 0) t.band.push_back(p);
        if (d <= -2.0 * g.sigma_px) {
          t.outside.push_back(p);
          t.outside_side[s].push_back(p);
        }
      }
      t.band_line.push_back(px(edge - 0.5 * g.border_px * outward[s]));
      t.outside_line.push_back(px(edge + (g.sigma_px + 0.5 * g.out_px) * outward[s]));
    }
  }
  // A side's model moments depend only on its sample count (its profiles repeat the model):
  // opposite sides share them.
  for (size_t s = 0; s < 4; ++s) {
    if (s % 2 == 1 && t.side[s].size() == t.side[s - 1].size()) {
      t.side_model[s] = t.side_model[s - 1];
      continue;
    }
    for (const Sample& q : t.side[s]) t.side_model[s].Add(0.0, q.model);
  }
  for (const auto* line : {&t.band_line, &t.outside_line}) {
    for (const cv::Point& p : *line) reach = std::max({reach, std::abs(p.x), std::abs(p.y)});
  }
  t.reach = reach;
  for (const cv::Point& p : t.band_line) t.band_flat.push_back(p.y * g.row_px + p.x);
  for (const cv::Point& p : t.outside_line) t.outside_flat.push_back(p.y * g.row_px + p.x);
  if (!with_evidence) return t;
  const double ia = 0.5 * len_a - g.interior_px, ib = 0.5 * len_b - g.interior_px;
  for (double u = -ia; u <= ia; u += 2.0) {
    for (double v = -ib; v <= ib; v += 2.0) t.interior.push_back(px(u * a + v * b));
  }
  return t;
}

struct Fit {
  double rho = -2, gain = 0;
  std::array<double, 4> side_gain{0, 0, 0, 0};
};

bool Inside(const cv::Mat& m, cv::Point p) {
  return p.x >= 0 && p.y >= 0 && p.x < m.cols && p.y < m.rows;
}

// The search scores a ring at many centres. N of them are summed side by side, each in its own
// accumulators and in the same order as alone (so to the same bits): one centre's sums wait on
// their last add, N centres' keep the adder busy. at: each centre's pixel; every sample inside.
// The lane loops are unrolled whole: left as loops, the lanes' sums stayed in memory (s50).
constexpr size_t kLanes = 4;

template <size_t N>
void EvaluateInside(const std::array<const float*, N>& at, const Ring& t, Fit* out) {
  std::array<Moments, N> all;
  for (size_t s = 0; s < 4; ++s) {
    std::array<double, N> d{}, dd{}, dm{};
    for (const Sample& q : t.side[s]) {
#pragma GCC unroll kLanes
      for (size_t j = 0; j < N; ++j) {
        const double dv = at[j][q.flat];
        d[j] += dv, dd[j] += dv * dv, dm[j] += dv * q.model;
      }
    }
    for (size_t j = 0; j < N; ++j) {
      Moments side = t.side_model[s];
      side.d += d[j], side.dd += dd[j], side.dm += dm[j];
      out[j].side_gain[s] = side.Gain();
      all[j].Add(side);
    }
  }
  for (size_t j = 0; j < N; ++j) out[j].rho = all[j].Rho(), out[j].gain = all[j].Gain();
}

Fit Evaluate(const cv::Mat& dep, const Ring& t, cv::Point c) {
  Fit f;
  if (AllInside(dep, t, c)) {
    EvaluateInside<1>({dep.ptr<float>(c.y) + c.x}, t, &f);
    return f;
  }
  Moments all;
  for (size_t s = 0; s < 4; ++s) {
    Moments side;
    for (const Sample& q : t.side[s]) {
      const cv::Point p = q.off + c;
      if (Inside(dep, p)) side.Add(dep.at<float>(p), q.model);
    }
    f.side_gain[s] = side.Gain();
    all.Add(side);
  }
  f.rho = all.Rho();
  f.gain = all.Gain();
  return f;
}

double MeanAt(const cv::Mat& dep, const std::vector<cv::Point>& pts, cv::Point c) {
  double sum = 0;
  int n = 0;
  for (const cv::Point& q : pts) {
    const cv::Point p = q + c;
    if (Inside(dep, p)) sum += dep.at<float>(p), ++n;
  }
  return n > 0 ? sum / n : 0.0;
}

double MedianAt(const cv::Mat& dep, const std::vector<cv::Point>& pts, cv::Point2d c) {
  std::vector<double> v;
  v.reserve(pts.size());
  const cv::Point ci(cvRound(c.x), cvRound(c.y));
  for (const cv::Point& q : pts) {
    const cv::Point p = q + ci;
    if (Inside(dep, p)) v.push_back(dep.at<float>(p));
  }
  return v.empty() ? 0.0 : Median(std::move(v));
}

// The quick look: the band's middle line's mean less the outside line's (N centres side by
// side, as EvaluateInside).
template <size_t N>
void QuickContrastInside(const std::array<const float*, N>& at, const Ring& t, double* out) {
  std::array<double, N> band{}, outside{};
  for (const int k : t.band_flat) {
#pragma GCC unroll kLanes
    for (size_t j = 0; j < N; ++j) band[j] += at[j][k];
  }
  for (const int k : t.outside_flat) {
#pragma GCC unroll kLanes
    for (size_t j = 0; j < N; ++j) outside[j] += at[j][k];
  }
  for (size_t j = 0; j < N; ++j) {
    out[j] = band[j] / static_cast<double>(t.band_flat.size()) -
             outside[j] / static_cast<double>(t.outside_flat.size());
  }
}

double QuickContrast(const cv::Mat& dep, const Ring& t, cv::Point c) {
  if (!AllInside(dep, t, c)) return MeanAt(dep, t.band_line, c) - MeanAt(dep, t.outside_line, c);
  double out = 0;
  QuickContrastInside<1>({dep.ptr<float>(c.y) + c.x}, t, &out);
  return out;
}

// Ring t's quick look and fit at every centre of cs, in cs' order: kLanes at a time where all
// of them are inside the map.
template <typename T, typename Inside, typename One>
void AtEveryCentre(const cv::Mat& dep, const Ring& t, const std::vector<cv::Point>& cs,
                   std::vector<T>& out, Inside inside, One one) {
  out.resize(cs.size());
  size_t i = 0;
  while (i < cs.size()) {
    std::array<const float*, kLanes> at{};
    size_t n = 0;
    while (n < kLanes && i + n < cs.size() && AllInside(dep, t, cs[i + n])) {
      at[n] = dep.ptr<float>(cs[i + n].y) + cs[i + n].x;
      ++n;
    }
    if (n == kLanes) {
      inside(at, out.data() + i);
      i += kLanes;
      continue;
    }
    // Fewer than kLanes left inside in a row: the next one alone.
    out[i] = one(cs[i]);
    ++i;
  }
}

void QuickContrasts(const cv::Mat& dep, const Ring& t, const std::vector<cv::Point>& cs,
                    std::vector<double>& out) {
  AtEveryCentre(
      dep, t, cs, out,
      [&](const std::array<const float*, kLanes>& at, double* o) {
        QuickContrastInside<kLanes>(at, t, o);
      },
      [&](cv::Point c) { return QuickContrast(dep, t, c); });
}

void Evaluations(const cv::Mat& dep, const Ring& t, const std::vector<cv::Point>& cs,
                 std::vector<Fit>& out) {
  AtEveryCentre(
      dep, t, cs, out,
      [&](const std::array<const float*, kLanes>& at, Fit* o) { EvaluateInside<kLanes>(at, t, o); },
      [&](cv::Point c) { return Evaluate(dep, t, c); });
}

// The centres within half px of c in x and y, row by row (the order the search compares them in).
std::vector<cv::Point> SquareAround(cv::Point c, int half) {
  std::vector<cv::Point> cell;
  for (int dy = -half; dy <= half; ++dy) {
    for (int dx = -half; dx <= half; ++dx) cell.push_back(c + cv::Point(dx, dy));
  }
  return cell;
}

// Robust centre and spread (median, 1.4826 MAD) of a sample.
struct Spread {
  double centre = 0, sigma = 1e9;
};
Spread RobustSpread(std::vector<double> v) {
  Spread s;
  if (v.size() < 10) return s;
  s.centre = Median(v);
  for (double& x : v) x = std::abs(x - s.centre);
  s.sigma = std::max(1e-6, 1.4826 * Median(std::move(v)));
  return s;
}

// What a size's template scores on this frame's bare mat: random placements clear of the
// bases found, their correlation and gain (the null the fits are judged against).
struct Null {
  Spread rho, gain;
};
Null MeasureNull(const cv::Mat& dep, const cv::Mat& claimed_sum, const BaseSize& size,
                 const Geometry& g, int samples) {
  cv::RNG rng(0x5eed);
  std::vector<double> rhos, gains;
  const double la = size.width_mm / g.mm_per_px, lb = size.depth_mm / g.mm_per_px;
  const int reach = static_cast<int>(0.5 * std::hypot(la, lb) + g.out_px) + 1;
  if (dep.cols <= 2 * reach || dep.rows <= 2 * reach) return {};
  std::vector<Ring> turned;
  turned.reserve(12);
  for (int k = 0; k < 12; ++k) turned.push_back(MakeRing(la, lb, k * kPi / 12, g, 2));
  // The placements, per turn (scored a turn at a time; the spreads do not depend on order).
  std::vector<std::vector<cv::Point>> placed(turned.size());
  int n = 0;
  for (int k = 0; k < 20 * samples && n < samples; ++k) {
    const cv::Point c(rng.uniform(reach, dep.cols - reach), rng.uniform(reach, dep.rows - reach));
    // Clear of the bases found: nothing claimed in the box (claimed_sum: its integral image).
    const int x0 = c.x - reach, y0 = c.y - reach, x1 = c.x + reach, y1 = c.y + reach;
    if (claimed_sum.at<int>(y1, x1) - claimed_sum.at<int>(y0, x1) - claimed_sum.at<int>(y1, x0) +
            claimed_sum.at<int>(y0, x0) >
        0) {
      continue;
    }
    placed[static_cast<size_t>(k) % turned.size()].push_back(c);
    ++n;
  }
  std::vector<Fit> fits;
  for (size_t i = 0; i < turned.size(); ++i) {
    Evaluations(dep, turned[i], placed[i], fits);
    for (const Fit& f : fits) rhos.push_back(f.rho), gains.push_back(f.gain);
  }
  return {RobustSpread(std::move(rhos)), RobustSpread(std::move(gains))};
}

// Rectangle axis direction (mod 90 degrees) from the smoothed departure's gradients in box,
// with the angle quadrupled so that all four sides vote alike.
double DominantAngle(const cv::Mat& smooth, const cv::Rect& box) {
  cv::Mat gx, gy;
  cv::Sobel(smooth(box), gx, CV_32F, 1, 0);
  cv::Sobel(smooth(box), gy, CV_32F, 0, 1);
  double sx = 0, sy = 0;
  for (int y = 1; y + 1 < box.height; ++y) {
    for (int x = 1; x + 1 < box.width; ++x) {
      const double dx = gx.at<float>(y, x), dy = gy.at<float>(y, x);
      const double w2 = dx * dx + dy * dy;
      const double phi = std::atan2(dy, dx);
      sx += w2 * std::cos(4 * phi);
      sy += w2 * std::sin(4 * phi);
    }
  }
  return 0.25 * std::atan2(sy, sx);
}

// Other rectangle directions (mod 90 degrees) the box's gradients support, more than
// min_apart_rad from theta and from each other: a box holding a base and part of a neighbour,
// figures or a terrain edge may pull the mean direction (DominantAngle) tens of degrees off
// the base's own, while its sides still give a peak of their own in the directions'
// histogram (2 degree bins, weighted by the squared gradient). Peaks of at least
// min_peak_fraction of the highest, highest first, at most max_extra.
std::vector<double> OtherRectAngles(const cv::Mat& smooth, const cv::Rect& box, double theta,
                                    double min_peak_fraction, double min_apart_rad,
                                    size_t max_extra) {
  constexpr int kBins = 45;  // 2 degrees each over 90
  cv::Mat gx, gy;
  cv::Sobel(smooth(box), gx, CV_32F, 1, 0);
  cv::Sobel(smooth(box), gy, CV_32F, 0, 1);
  std::array<double, kBins> hist{};
  for (int y = 1; y + 1 < box.height; ++y) {
    for (int x = 1; x + 1 < box.width; ++x) {
      const double dx = gx.at<float>(y, x), dy = gy.at<float>(y, x);
      double phi = std::fmod(std::atan2(dy, dx), 0.5 * kPi);
      if (phi < 0) phi += 0.5 * kPi;
      const int bin = std::min(kBins - 1, static_cast<int>(phi / (0.5 * kPi) * kBins));
      hist[static_cast<size_t>(bin)] += dx * dx + dy * dy;
    }
  }
  // Circular smoothing over +-2 bins (the side of a blurred ring spreads over a few degrees).
  std::array<double, kBins> smooth_hist{};
  for (int i = 0; i < kBins; ++i) {
    for (int k = -2; k <= 2; ++k) {
      smooth_hist[static_cast<size_t>(i)] +=
          (3 - std::abs(k)) * hist[static_cast<size_t>((i + k + kBins) % kBins)];
    }
  }
  const double top = *std::max_element(smooth_hist.begin(), smooth_hist.end());
  std::vector<std::pair<double, double>> peaks;  // (height, angle)
  for (int i = 0; i < kBins; ++i) {
    const double h = smooth_hist[static_cast<size_t>(i)];
    if (h < min_peak_fraction * top || h <= 0) continue;
    if (h < smooth_hist[static_cast<size_t>((i + 1) % kBins)] ||
        h < smooth_hist[static_cast<size_t>((i + kBins - 1) % kBins)]) {
      continue;
    }
    peaks.emplace_back(h, (i + 0.5) * (0.5 * kPi) / kBins);
  }
  std::sort(peaks.begin(), peaks.end(), [](const auto& x, const auto& y) { return x > y; });
  const auto apart = [&](double a, double b) {
    const double d = std::fmod(std::abs(a - b), 0.5 * kPi);
    return std::min(d, 0.5 * kPi - d) > min_apart_rad;
  };
  std::vector<double> out;
  for (const auto& peak : peaks) {
    if (out.size() >= max_extra) break;
    const double angle = peak.second;
    if (!apart(angle, theta)) continue;
    if (std::all_of(out.begin(), out.end(), [&](double o) { return apart(angle, o); }))
      out.push_back(angle);
  }
  return out;
}

// The best pose of one hypothesis (a size, one way round) over the box: centres on a 1.5 mm
// grid, angles 2 degrees apart around theta, every third profile.
struct Pose {
  Fit fit;
  Ring ring;
  cv::Point c;
};

int GridStepPx(const Geometry& g) {
  return std::max(1, static_cast<int>(std::lround(1.5 / g.mm_per_px)));
}

Pose CoarsePose(const cv::Mat& dep, const cv::Rect& box, double la, double lb, double theta,
                const Geometry& g, double quick_min) {
  const int step = GridStepPx(g);
  Pose best;
  std::optional<Ring> best_ring;
  std::vector<cv::Point> row, looked;
  std::vector<double> contrast;
  std::vector<Fit> fits;
  for (int k = -2; k <= 2; ++k) {
    Ring coarse = MakeRing(la, lb, theta + DegToRad(2.0 * k), g, 4, 2.0);
    bool improved = false;
    for (int y = box.y; y < box.y + box.height; y += step) {
      row.clear();
      for (int x = box.x; x < box.x + box.width; x += step) row.emplace_back(x, y);
      // A quick look: the band's middle must stand above the mat just outside it.
      QuickContrasts(dep, coarse, row, contrast);
      looked.clear();
      for (size_t i = 0; i < row.size(); ++i) {
        if (contrast[i] >= quick_min) looked.push_back(row[i]);
      }
      Evaluations(dep, coarse, looked, fits);
      for (size_t i = 0; i < looked.size(); ++i) {
        if (fits[i].rho > best.fit.rho) best.fit = fits[i], best.c = looked[i], improved = true;
      }
    }
    if (improved) best_ring = std::move(coarse);
  }
  if (best_ring) best.ring = std::move(*best_ring);
  return best;
}

// ... then every profile, half-degree turns and pixel steps within the coarse grid's cell.
Pose FinePose(const cv::Mat& dep, const Pose& coarse, const Geometry& g) {
  const int half = std::max(1, GridStepPx(g) / 2);
  Pose fine{Fit{}, coarse.ring, coarse.c};
  const std::vector<cv::Point> cell = SquareAround(coarse.c, half);
  std::vector<Fit> fits;
  for (int k = -3; k <= 3; ++k) {
    Ring t =
        MakeRing(coarse.ring.len_a, coarse.ring.len_b, coarse.ring.angle + DegToRad(0.5 * k), g, 1);
    bool improved = false;
    Evaluations(dep, t, cell, fits);
    for (size_t i = 0; i < cell.size(); ++i) {
      if (fits[i].rho > fine.fit.rho) fine.fit = fits[i], fine.c = cell[i], improved = true;
    }
    if (improved) fine.ring = std::move(t);
  }
  return fine;
}

float Bilinear(const cv::Mat& m, cv::Point2d p) {
  const int x0 = static_cast<int>(std::floor(p.x)), y0 = static_cast<int>(std::floor(p.y));
  if (x0 < 0 || y0 < 0 || x0 + 1 >= m.cols || y0 + 1 >= m.rows) return 0.0f;
  const float fx = static_cast<float>(p.x - x0), fy = static_cast<float>(p.y - y0);
  const float* r0 = m.ptr<float>(y0) + x0;
  const float* r1 = m.ptr<float>(y0 + 1) + x0;
  return (1 - fy) * ((1 - fx) * r0[0] + fx * r0[1]) + fy * ((1 - fx) * r1[0] + fx * r1[1]);
}

// Where the part of side s of r between u0 and u1 (along the side, px from its middle) fits
// the blurred band best: its outward shift, px, within +-reach_px (kFound), or which end of the
// reach the best lies at (the side fits better further away than the search allows).
enum class Shift { kFound, kInwardEnd, kOutwardEnd };
Shift SideShift(const cv::Mat& dep, const PxRect& r, const Geometry& g, size_t s, double u0,
                double u1, double reach_px, double& shift) {
  const cv::Point2d b = r.AxisB();
  const cv::Point2d outward[4] = {-r.axis_a, r.axis_a, -b, b};
  const double half_other = 0.5 * (s < 2 ? r.len_a : r.len_b);
  const cv::Point2d along = s < 2 ? b : r.axis_a;
  const double step = 0.25;
  std::vector<double> rho;
  for (double sh = -reach_px; sh <= reach_px + 1e-9; sh += step) {
    Moments m;
    for (double u = u0; u <= u1; u += 1.0) {
      const cv::Point2d edge = r.center + (half_other + sh) * outward[s] + u * along;
      for (double d = -g.out_px; d <= g.border_px; d += 1.0) {
        m.Add(Bilinear(dep, edge - d * outward[s]), BandModel(d, g.border_px, g.sigma_px));
      }
    }
    rho.push_back(m.Rho());
  }
  const size_t i = static_cast<size_t>(std::max_element(rho.begin(), rho.end()) - rho.begin());
  if (i == 0) return Shift::kInwardEnd;
  if (i + 1 == rho.size()) return Shift::kOutwardEnd;
  const double den = rho[i - 1] - 2 * rho[i] + rho[i + 1];
  const double sub =
      den < -1e-12 ? std::clamp(0.5 * (rho[i - 1] - rho[i + 1]) / den, -0.5, 0.5) : 0.0;
  shift = -reach_px + (static_cast<double>(i) + sub) * step;
  return Shift::kFound;
}

// The edges of r, each side's two halves moved on their own to where they fit best: each
// side's mean shift (outward, px) and the turn (rad) the halves' differences agree on.
// seen_past: per side, whether the tallest figures' tops are seen past its whole border (see
// FigureTopsPastPx). Their colours spread the band outward there, so that side's fit may run
// off the reach's outward end; it is then placed by its opposite side at the catalogue size,
// and the turn is the other sides'. On any other side one half may run off outward too: a gun's
// barrel, a horse or a wagon's pole overhangs the base's edge, and its colour (or a neighbour's
// band just outside) spreads that half's band past the reach. That half tells nothing; the
// side is placed by its other half, at the turn the other sides give (one_half_sides; not for a
// size tie, where a ring larger than the base reaches past its band and its edges are what
// tell the sizes apart).
struct Refined {
  std::array<double, 4> shift{0, 0, 0, 0};
  double turn_rad = 0;
};
bool RefineSides(const cv::Mat& dep, const PxRect& r, const Geometry& g, double reach_px,
                 const std::array<bool, 4>& seen_past, bool one_half_sides, Refined& out) {
  const cv::Point2d b = r.AxisB();
  const cv::Point2d outward[4] = {-r.axis_a, r.axis_a, -b, b};
  double turn_sum = 0;
  int turns = 0;
  std::array<bool, 4> unplaced{false, false, false, false};
  // Sides placed by one half: the half's shift and where it lies along the side, as the outward
  // move per radian of turn (px/rad) that shift includes.
  std::array<bool, 4> one_half{false, false, false, false};
  std::array<double, 4> half_lever_px{0, 0, 0, 0};
  for (size_t s = 0; s < 4; ++s) {
    const double half_len = 0.5 * (s < 2 ? r.len_b : r.len_a);
    const cv::Point2d along = s < 2 ? b : r.axis_a;
    // A turn by e moves the point u along the side outward by e u (perp(along) . outward).
    const cv::Point2d perp(-along.y, along.x);
    double lo = 0, hi = 0;
    const Shift lo_found = SideShift(dep, r, g, s, -0.8 * half_len, 0.0, reach_px, lo);
    const Shift hi_found = SideShift(dep, r, g, s, 0.0, 0.8 * half_len, reach_px, hi);
    if (lo_found != Shift::kFound || hi_found != Shift::kFound) {
      const bool pulled_out = lo_found != Shift::kInwardEnd && hi_found != Shift::kInwardEnd;
      if (one_half_sides && !seen_past[s] && pulled_out &&
          (lo_found == Shift::kFound || hi_found == Shift::kFound)) {
        const bool by_lo = lo_found == Shift::kFound;
        out.shift[s] = by_lo ? lo : hi;
        half_lever_px[s] = (by_lo ? -0.4 : 0.4) * half_len * perp.dot(outward[s]);
        one_half[s] = true;
        continue;
      }
      if (!seen_past[s] || !pulled_out) return false;
      unplaced[s] = true;
      continue;
    }
    out.shift[s] = 0.5 * (lo + hi);
    turn_sum += (hi - lo) / (0.8 * half_len) / perp.dot(outward[s]);
    ++turns;
  }
  // No side placed by both halves: nothing tells the turn.
  if (turns == 0) return false;
  out.turn_rad = turn_sum / turns;
  // A side placed by one half: that half's shift less what the turn moves it by there.
  for (size_t s = 0; s < 4; ++s) {
    if (one_half[s]) out.shift[s] -= out.turn_rad * half_lever_px[s];
  }
  // Sides 0/1 and 2/3 face each other: the opposite side's edge and the catalogue size place it
  // (figures are seen past at most one of two opposite sides).
  for (size_t s = 0; s < 4; ++s) {
    if (unplaced[s]) out.shift[s] = -out.shift[s ^ 1];
  }
  return true;
}

bool OverlapsAny(const PxRect& r, const std::vector<PxRect>& others) {
  return std::any_of(others.begin(), others.end(),
                     [&](const PxRect& o) { return OverlapTooMuch(r, o); });
}

// Pose p's frame: its axes and half sizes, px, to render its blurred band at any pixel.
struct RenderedPose {
  cv::Point2d c, a, b;
  double hu = 0, hv = 0;
  explicit RenderedPose(const Pose& p)
      : c(p.c.x, p.c.y),
        a(std::cos(p.ring.angle), std::sin(p.ring.angle)),
        b(-a.y, a.x),
        hu(0.5 * p.ring.len_a),
        hv(0.5 * p.ring.len_b) {}
  // Pixel q in the pose's axes.
  cv::Point2d Local(cv::Point q) const {
    const cv::Point2d r(q.x - c.x, q.y - c.y);
    return {r.dot(a), r.dot(b)};
  }
  // How deep inside the outline a point at local (u, v) lies, px (negative outside).
  double DepthPx(cv::Point2d uv) const {
    return std::min(hu - std::abs(uv.x), hv - std::abs(uv.y));
  }
  // The blurred band there: a rectangle less the one border_px inside it, each blurred by the
  // frame's Gaussian (separable, so exact at the corners too).
  double Band(cv::Point2d uv, const Geometry& g) const {
    const double u = uv.x, v = uv.y;
    const auto box = [&](double bu, double bv) {
      if (bu <= 0 || bv <= 0) return 0.0;
      const double s = g.sigma_px;
      return (Phi((bu - u) / s) + Phi((bu + u) / s) - 1.0) *
             (Phi((bv - v) / s) + Phi((bv + v) / s) - 1.0);
    };
    return box(hu, hv) - box(hu - g.border_px, hv - g.border_px);
  }
};

// Two hypotheses scored on the same pixels, those either template looks at, each predicting its
// blurred band where it has one and bare mat outside its outline. The figures inside a base may
// wear its side's colour, so neither says anything about the pixels inside the other's band:
// those are left out. A 40 x 20 mm ring inside a 40 x 40 mm base's border fits the part of the
// border it covers as well as the larger ring does, but here it is held to the border runs it
// leaves unexplained, and the larger ring to the mat a smaller base leaves bare. Returns the two
// correlations.
std::pair<double, double> JointRho(const cv::Mat& dep, const Pose& p, const Pose& q,
                                   const Geometry& g) {
  // The pixels either template looks at, each once, in row order: marked on a map of their
  // bounding box (the search calls this for every rival of every leader).
  cv::Point lo(INT_MAX, INT_MAX), hi(INT_MIN, INT_MIN);
  for (const Pose* o : {&p, &q}) {
    for (const auto& side : o->ring.side) {
      for (const Sample& smp : side) {
        const cv::Point pt = smp.off + o->c;
        lo = {std::min(lo.x, pt.x), std::min(lo.y, pt.y)};
        hi = {std::max(hi.x, pt.x), std::max(hi.y, pt.y)};
      }
    }
  }
  if (hi.x < lo.x) return {0.0, 0.0};
  cv::Mat1b seen(hi.y - lo.y + 1, hi.x - lo.x + 1, uchar{0});
  for (const Pose* o : {&p, &q}) {
    for (const auto& side : o->ring.side) {
      for (const Sample& smp : side) seen(smp.off + o->c - lo) = 1;
    }
  }
  const RenderedPose rp(p), rq(q);
  const double inner_px = g.border_px + g.sigma_px;
  Moments mp, mq;
  for (int y = 0; y < seen.rows; ++y) {
    const uchar* row = seen[y];
    for (int x = 0; x < seen.cols; ++x) {
      const cv::Point pt(x + lo.x, y + lo.y);
      if (!row[x] || !Inside(dep, pt)) continue;
      const cv::Point2d up = rp.Local(pt), uq = rq.Local(pt);
      if (rp.DepthPx(up) > inner_px || rq.DepthPx(uq) > inner_px) continue;
      const double d = dep.at<float>(pt);
      mp.Add(d, rp.Band(up, g));
      mq.Add(d, rq.Band(uq, g));
    }
  }
  return {mp.Rho(), mq.Rho()};
}

// The fine poses and joint scores one seed's search has computed. A seed's box is searched up
// to three times (at the gradients' mean direction, with the other directions added, and with
// gain alone ruling out the mat), mostly over the same coarse poses; the departure map does not
// change until a base is found, so each is computed once per box.
class SeedCache {
 public:
  Pose Fine(const cv::Mat& dep, const Pose& coarse, const Geometry& g) {
    const Key key = KeyOf(coarse, g);
    for (const auto& [k, fine] : fine_) {
      if (k == key) return fine;
    }
    fine_.emplace_back(key, FinePose(dep, coarse, g));
    return fine_.back().second;
  }
  std::pair<double, double> Joint(const cv::Mat& dep, const Pose& p, const Pose& q,
                                  const Geometry& g) {
    const std::pair<Key, Key> key{KeyOf(p, g), KeyOf(q, g)};
    for (const auto& [k, rhos] : joint_) {
      if (k == key) return rhos;
    }
    joint_.emplace_back(key, JointRho(dep, p, q, g));
    return joint_.back().second;
  }

 private:
  // Everything a pose's samples and model depend on, compared exactly.
  struct Key {
    double len_a, len_b, angle, depth_step, border_px, sigma_px;
    int stride;
    cv::Point c;
    bool operator==(const Key&) const = default;
  };
  static Key KeyOf(const Pose& p, const Geometry& g) {
    return {p.ring.len_a, p.ring.len_b, p.ring.angle,  p.ring.depth_step,
            g.border_px,  g.sigma_px,   p.ring.stride, p.c};
  }
  std::vector<std::pair<Key, Pose>> fine_;
  std::vector<std::pair<std::pair<Key, Key>, std::pair<double, double>>> joint_;
};

// How far past each side of pose p the tallest figures' tops are seen, px (outward; 0 where
// the camera is not known, see BlurredRingOptions).
std::array<double, 4> FigureTopsPastPx(const Pose& p, const BlurredRingOptions& options) {
  std::array<double, 4> past{0, 0, 0, 0};
  if (!options.figure_top_shift_px) return past;
  const cv::Point2d shift = options.figure_top_shift_px(cv::Point2d(p.c));
  const cv::Point2d a(std::cos(p.ring.angle), std::sin(p.ring.angle)), b(-a.y, a.x);
  const cv::Point2d outward[4] = {-a, a, -b, b};
  for (size_t s = 0; s < 4; ++s) past[s] = outward[s].dot(shift);
  return past;
}

// The band's median departure where the border is the side's colour throughout (departure 1),
// blurred as the frame is: what a band of full strength reads.
double FullBandMedian(const Geometry& g) {
  std::vector<double> m;
  for (double d = 0; d <= g.border_px; d += 0.25)
    m.push_back(BandModel(d, g.border_px, g.sigma_px));
  return Median(std::move(m));
}

// Is the inside of ring t around c, whose band departs `band` toward the side's colour, what a
// base's inside can be? No more toward the colour than the band; or more, but textured: figures
// that wear the side's colour also show flesh, metal, black and the bare top (their departure's
// interquartile range at least min_inside_spread_fraction of the band's), where a patch of the
// colour (a roof, water, a blurred base of another colour read as this one) is even; not on
// terrain that may show an even shade of the colour (see the option); with a band clearly of
// this side's colour, not another side's, part of the inside showing that colour, and that
// colour ending at the ring.
bool InsideLikeABase(const cv::Mat& dep, const Ring& t, cv::Point2d c, double band,
                     double full_band, const BlurredRingOptions& options) {
  const cv::Point ci(cvRound(c.x), cvRound(c.y));
  const auto values = [&](const std::vector<cv::Point>& pts) {
    std::vector<double> v;
    v.reserve(pts.size());
    for (const cv::Point& q : pts) {
      const cv::Point p = q + ci;
      if (Inside(dep, p)) v.push_back(dep.at<float>(p));
    }
    return v;
  };
  std::vector<double> v = values(t.interior);
  if ((v.empty() ? 0.0 : Median(v)) <= band) return true;
  if (v.empty() || options.min_inside_spread_fraction <= 0) return false;
  const cv::Mat& shade = options.even_shade_terrain;
  if (!shade.empty() && Inside(shade, ci) && shade.at<uchar>(ci) != 0) return false;
  if (Percentile(v, 0.75) - Percentile(v, 0.25) < options.min_inside_spread_fraction * band) {
    return false;
  }
  // A band clearly of the side's colour: at least min_band_strength of what a border painted
  // in it reads under this blur (full_band); a faint tint along a paper's or ruler's edge is
  // no border, however its inside reads.
  if (band < options.min_band_strength * full_band) return false;
  // Figures that wear the side's colour show it: part of the inside is nearer that colour than
  // the mat (a ruler, a sheet of paper or a road edge tinted toward it is not).
  if (Percentile(v, options.coloured_inside_quantile) < options.min_coloured_inside_departure) {
    return false;
  }
  // The band is more this side's colour than another's: a base of another side, whose figures
  // wear this side's colour, has a band of its own colour.
  for (const std::array<cv::Mat, 2>& share : options.rival_shares) {
    if (MedianAt(share[1], t.band, c) >= MedianAt(share[0], t.band, c)) return false;
  }
  // The colour ends at the ring: past the blur, no side's outside reads as far toward it as the
  // band over more than a tenth of that side (a ring fitted inside a larger base of the colour,
  // or along a ruler, has the colour run on past a side).
  if (options.colour_ends_at_ring) {
    for (const std::vector<cv::Point>& side : t.outside_side) {
      const std::vector<double> out = values(side);
      if (!out.empty() && Percentile(out, 0.9) > band) return false;
    }
  }
  return true;
}

// The fraction of the way from `outside` to the side's colour (1) that `band` lies: how much of
// the colour the band shows over what surrounds it (0: the same as its surroundings).
double FractionOverSurroundings(double band, double outside) {
  return outside < 1.0 ? (band - outside) / (1.0 - outside) : 0.0;
}

// Does the band of ring t around c, departing `band` (its outside's median: `outside`), end at
// the ring? The mat outside it reads at most a third of the band; or, where the surroundings are a
// shade toward the colour (paper, a card, a road, a tinted mat), the band stands above them by a
// clear part of what a border of the full colour reads (full_band), over all and on each side (see
// the options).
bool ColourEndsAtBand(const cv::Mat& dep, const Ring& t, cv::Point2d c, double band, double outside,
                      double full_band, const BlurredRingOptions& options) {
  if (outside <= band / 3.0) return true;
  if (options.min_local_band_fraction <= 0 || full_band <= 0) return false;
  if (FractionOverSurroundings(band, outside) < options.min_local_band_fraction * full_band) {
    return false;
  }
  for (const std::vector<cv::Point>& side : t.outside_side) {
    if (FractionOverSurroundings(band, MedianAt(dep, side, c)) <
        options.min_local_side_fraction * full_band) {
      return false;
    }
  }
  return true;
}

// Does each side of pose p show its band? A side facing away from the camera's foot only in
// part where the tallest figures' tops are seen past its whole border: two sides of a base the
// camera sees along its diagonal, one of a base it sees square on.
bool BandOnEverySide(const Pose& p, const std::array<double, 4>& past_px, const Geometry& g,
                     const BlurredRingOptions& options) {
  const std::array<double, 4>& gain = p.fit.side_gain;
  for (size_t s = 0; s < 4; ++s) {
    const bool hideable = past_px[s] >= g.border_px;
    const double fraction =
        hideable ? options.min_far_side_gain_fraction : options.min_side_gain_fraction;
    if (gain[s] < fraction * p.fit.gain) return false;
  }
  return true;
}

// Every hypothesis' best coarse pose over the box (each size, both ways round), at angles
// around each of thetas; size_of gets each pose's size.
std::vector<Pose> CoarsePoses(const cv::Mat& dep, const cv::Rect& box,
                              const std::vector<BaseSize>& sizes, const std::vector<double>& thetas,
                              const Geometry& g, double mat_sigma, std::vector<size_t>& size_of) {
  std::vector<Pose> poses;
  size_of.clear();
  for (size_t i = 0; i < sizes.size(); ++i) {
    const double la = sizes[i].width_mm / g.mm_per_px, lb = sizes[i].depth_mm / g.mm_per_px;
    const bool square = std::abs(la - lb) < 1.0;
    for (int turn = 0; turn < (square ? 1 : 2); ++turn) {
      Pose best;
      for (const double t : thetas) {
        Pose p = CoarsePose(dep, box, la, lb, t + turn * 0.5 * kPi, g, 2.0 * mat_sigma);
        if (p.fit.rho > best.fit.rho) best = std::move(p);
      }
      poses.push_back(std::move(best));
      size_of.push_back(i);
    }
  }
  return poses;
}

bool OutOfNull(const Pose& p, const Null& null, const BlurredRingOptions& options) {
  const double sg = options.strong_gain_sigma, sr = options.min_sigma_strong_gain;
  const auto above = [](double v, const Spread& s, double k) {
    return v >= s.centre + k * s.sigma;
  };
  if (!above(p.fit.gain, null.gain, options.min_sigma)) return false;
  if (above(p.fit.rho, null.rho, options.min_sigma)) return true;
  return sg > 0 && above(p.fit.gain, null.gain, sg) && above(p.fit.rho, null.rho, sr);
}

PxRect RectOf(const Pose& p) {
  PxRect r;
  r.center = p.c;
  r.axis_a = {std::cos(p.ring.angle), std::sin(p.ring.angle)};
  r.len_a = p.ring.len_a;
  r.len_b = p.ring.len_b;
  return r;
}

// Where no hypothesis wins: the leader (the best-scoring one out of the bare mat's scores) when
// every hypothesis it does not beat by the margin is a rival over the same base (another size,
// or the same turned, its centre near the leader's; scored on the same pixels as the leader it
// is as good, whether or not it stands out of the null alone); tied gets those rivals. A rival
// elsewhere, or more of them than options allow, is no base the band can size.
std::optional<size_t> SizeTieLeader(const cv::Mat& dep, SeedCache& cache,
                                    const std::vector<Pose>& poses,
                                    const std::vector<size_t>& order,
                                    const std::vector<size_t>& size_of,
                                    const std::vector<Null>& nulls, const Geometry& g,
                                    const BlurredRingOptions& options, std::vector<size_t>& tied) {
  tied.clear();
  std::optional<size_t> leader;
  for (const size_t cand : order) {
    if (OutOfNull(poses[cand], nulls[size_of[cand]], options)) {
      leader = cand;
      break;
    }
  }
  if (!leader) return std::nullopt;
  const Pose& p = poses[*leader];
  const double margin = options.winner_margin_sigma * nulls[size_of[*leader]].rho.sigma;
  const double max_shift_px = options.max_tie_centre_shift_mm / g.mm_per_px;
  for (size_t k = 0; k < poses.size(); ++k) {
    if (k == *leader || poses[k].fit.rho < -1) continue;
    const auto [mine, theirs] = cache.Joint(dep, p, poses[k], g);
    if (mine - theirs >= margin) continue;
    const cv::Point d = poses[k].c - p.c;
    if (std::hypot(d.x, d.y) > max_shift_px) {
      return std::nullopt;
    }
    tied.push_back(k);
  }
  if (tied.empty() || tied.size() > options.max_size_ties) return std::nullopt;
  return leader;
}

std::optional<PxRect> FitWinner(const cv::Mat& dep, Pose win, const Null& null, const Geometry& g,
                                const BlurredRingOptions& options, bool size_tie,
                                std::optional<PxRect>* kept_out);

// The base a seed's box holds, if one size and angle clearly explain it (see the header).
// poses: every hypothesis' coarse pose (CoarsePoses), size_of their sizes; nulls: per size,
// the scores on bare mat. tie_out (may be null): where no size wins but the leader ties only
// with other sizes of the same base (SizeTieLeader), that base with its rivals, if none was
// kept there before. kept_out (may be null): the winner at the search's pose where its edges
// are pulled (see FitWinner), if none was kept there before.
std::optional<PxRect> FitSeed(const cv::Mat& dep, SeedCache& cache, std::vector<Pose> poses,
                              const std::vector<size_t>& size_of, const std::vector<Null>& nulls,
                              const Geometry& g, const BlurredRingOptions& options,
                              std::optional<PxRect>* tie_out, std::optional<PxRect>* kept_out) {
  // Fine poses for the hypotheses near the best: one far behind on the coarse grid stays
  // behind (a finer step gains a few hundredths of correlation).
  double coarse_best = -2;
  for (const Pose& p : poses) coarse_best = std::max(coarse_best, p.fit.rho);
  if (coarse_best < -1) return std::nullopt;
  for (size_t k = 0; k < poses.size(); ++k) {
    const double margin = options.winner_margin_sigma * nulls[size_of[k]].rho.sigma;
    if (poses[k].fit.rho > coarse_best - margin - 0.1) poses[k] = cache.Fine(dep, poses[k], g);
  }
  // The clear winner: out of the bare mat's scores on its own template, and better than every
  // other hypothesis when both are scored on the pixels either looks at (see JointRho).
  std::vector<size_t> order(poses.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::sort(order.begin(), order.end(),
            [&](size_t x, size_t y) { return poses[x].fit.rho > poses[y].fit.rho; });
  std::optional<size_t> winner;
  for (const size_t cand : order) {
    const Pose& p = poses[cand];
    const Null& null = nulls[size_of[cand]];
    if (!OutOfNull(p, null, options)) continue;
    const double margin = options.winner_margin_sigma * null.rho.sigma;
    bool beats_all = true;
    for (size_t k = 0; k < poses.size() && beats_all; ++k) {
      if (k == cand || poses[k].fit.rho < -1) continue;
      const auto [mine, theirs] = cache.Joint(dep, p, poses[k], g);
      beats_all = mine - theirs >= margin;
    }
    if (beats_all) {
      winner = cand;
      break;
    }
  }
  if (winner) {
    return FitWinner(dep, poses[*winner], nulls[size_of[*winner]], g, options, false, kept_out);
  }
  // No clear winner: a tie between sizes of the same base, kept aside with its rivals for when
  // no other attempt at this seed finds a clear one.
  std::vector<size_t> tied;
  if (tie_out != nullptr && !*tie_out && options.report_size_ties) {
    if (const auto leader =
            SizeTieLeader(dep, cache, poses, order, size_of, nulls, g, options, tied)) {
      // Reported at the first of them (best score first) whose band, inside and edges bear it
      // out; the others are the sizes it could also be.
      std::vector<size_t> members{*leader};
      members.insert(members.end(), tied.begin(), tied.end());
      std::stable_sort(members.begin() + 1, members.end(),
                       [&](size_t x, size_t y) { return poses[x].fit.rho > poses[y].fit.rho; });
      for (const size_t m : members) {
        *tie_out = FitWinner(dep, poses[m], nulls[size_of[m]], g, options, true, nullptr);
        if (!*tie_out) continue;
        for (const size_t k : members) {
          if (k != m) (*tie_out)->other_sizes.push_back(RectOf(poses[k]));
        }
        break;
      }
    }
  }
  return std::nullopt;
}

// The winning hypothesis' base, if its band, inside, surroundings and edges bear it out; null:
// the bare mat's scores on its template.
std::optional<PxRect> FitWinner(const cv::Mat& dep, Pose win, const Null& null, const Geometry& g,
                                const BlurredRingOptions& options, bool size_tie,
                                std::optional<PxRect>* kept_out) {
  win.ring = MakeRing(win.ring.len_a, win.ring.len_b, win.ring.angle, g, win.ring.stride,
                      win.ring.depth_step, true);
  // A band along every side (the far side may be partly hidden by figures, see the options).
  const std::array<double, 4> past_px = FigureTopsPastPx(win, options);
  if (!BandOnEverySide(win, past_px, g, options)) return std::nullopt;
  // The band clearly above what surrounds it (texture a ring fits on shows next to nothing of
  // the colour); the inside no more toward the side's colour than the band (a patch of the
  // colour, a roof or water, is that colour throughout); the colour ends at the band (the mat
  // outside at most a third of the band's departure, or, on paper or a tinted mat, the band
  // clearly above what surrounds it: a larger patch of the colour is no base's edge).
  const double band = MedianAt(dep, win.ring.band, win.c);
  const double full_band = FullBandMedian(g);
  const double outside = MedianAt(dep, win.ring.outside, win.c);
  if (FractionOverSurroundings(band, outside) < options.min_band_over_surroundings * full_band) {
    return std::nullopt;
  }
  if (!InsideLikeABase(dep, win.ring, win.c, band, full_band, options) ||
      !ColourEndsAtBand(dep, win.ring, win.c, band, outside, full_band, options)) {
    return std::nullopt;
  }
  PxRect r = RectOf(win);
  // The edges, each moved to where it fits best, must leave the fit where it is.
  Refined ref;
  std::array<bool, 4> seen_past{};
  for (size_t s = 0; s < 4; ++s) seen_past[s] = past_px[s] >= g.border_px;
  if (!RefineSides(dep, r, g, 2.0 * options.max_refined_shift_mm / g.mm_per_px, seen_past,
                   !size_tie, ref)) {
    return std::nullopt;
  }
  const auto moved = [](const PxRect& from, const Refined& rf) {
    const std::array<double, 4>& sh = rf.shift;
    return cv::Point2d(0.5 * (sh[1] - sh[0]) * from.axis_a + 0.5 * (sh[3] - sh[2]) * from.AxisB());
  };
  const auto turned = [](PxRect x, cv::Point2d mv, double turn) {
    x.center += mv;
    const double c = std::cos(turn), sn = std::sin(turn);
    x.axis_a = {c * x.axis_a.x - sn * x.axis_a.y, sn * x.axis_a.x + c * x.axis_a.y};
    return x;
  };
  const cv::Point2d move = moved(r, ref);
  const auto pose_at = [&](const PxRect& x) {
    Pose p;
    p.c = cv::Point(cvRound(x.center.x), cvRound(x.center.y));
    p.ring = MakeRing(x.len_a, x.len_b, std::atan2(x.axis_a.y, x.axis_a.x), g, 1);
    p.fit = Evaluate(dep, p.ring, p.c);
    return p;
  };
  // Edges pulled (see BlurredRingOptions::keep_search_pose_over_pulled_edges): the search's pose
  // stands where the one they give explains the band worse and the band is clearly the colour.
  const auto band_clearly_the_colour = [&] {
    return options.keep_search_pose_over_pulled_edges && !options.off_line.empty() &&
           band >= options.min_band_strength * full_band &&
           MedianAt(options.off_line, win.ring.band, win.c) <= band;
  };
  // Kept aside: a fit another border width or angle gives cleanly is preferred (see
  // FitBlurredRings).
  const auto keep = [kept_out](const PxRect& x) {
    if (kept_out != nullptr && !*kept_out) *kept_out = x;
  };
  if (cv::norm(move) * g.mm_per_px > options.max_refined_shift_mm) {
    if (band_clearly_the_colour() && pose_at(turned(r, move, ref.turn_rad)).fit.rho < win.fit.rho)
      keep(r);
    return std::nullopt;
  }
  if (std::abs(ref.turn_rad) <= DegToRad(options.max_refined_turn_deg)) {
    return turned(r, move, ref.turn_rad);
  }
  // The edges turn the fit by more than the search's step: the pose they give is fitted again,
  // and kept only if it explains the band at least as well as the search's own pose (edges
  // pulled by figures or a neighbour give a worse one), still stands out of the bare mat with a
  // band on every side, and its edges, moved again, now leave it in place.
  const PxRect r2 = turned(r, move, ref.turn_rad);
  const Pose p2 = pose_at(r2);
  if (p2.fit.rho < win.fit.rho && band_clearly_the_colour()) {
    keep(r);
    return std::nullopt;
  }
  if (p2.fit.rho < win.fit.rho || !OutOfNull(p2, null, options) ||
      !BandOnEverySide(p2, FigureTopsPastPx(p2, options), g, options)) {
    return std::nullopt;
  }
  Refined ref2;
  if (!RefineSides(dep, r2, g, 2.0 * options.max_refined_shift_mm / g.mm_per_px, seen_past,
                   !size_tie, ref2))
    return std::nullopt;
  const cv::Point2d move2 = moved(r2, ref2);
  if (cv::norm(move2) * g.mm_per_px > options.max_refined_shift_mm ||
      std::abs(ref2.turn_rad) > DegToRad(options.max_refined_turn_deg)) {
    return std::nullopt;
  }
  return turned(r2, move2, ref2.turn_rad);
}

}  // namespace

namespace {

// Per valid pixel of chroma, f(its offset from mat_chroma); 0 elsewhere.
template <typename F>
cv::Mat PerPixelFromMat(const cv::Mat& chroma, const cv::Mat& valid, const cv::Vec2f& mat_chroma,
                        F f) {
  cv::Mat out(chroma.size(), CV_32F, cv::Scalar(0));
  for (int y = 0; y < chroma.rows; ++y) {
    const auto* c = chroma.ptr<cv::Vec2f>(y);
    const auto* v = valid.ptr<uchar>(y);
    auto* o = out.ptr<float>(y);
    for (int x = 0; x < chroma.cols; ++x) {
      if (v[x]) o[x] = f(c[x] - mat_chroma);
    }
  }
  return out;
}

}  // namespace

cv::Mat DepartureToward(const cv::Mat& chroma, const cv::Mat& valid, const cv::Vec2f& mat_chroma,
                        const cv::Vec2f& side_chroma) {
  const cv::Vec2f dir = side_chroma - mat_chroma;
  const float len2 = std::max(1e-6f, dir.dot(dir));
  return PerPixelFromMat(chroma, valid, mat_chroma,
                         [&](const cv::Vec2f& d) { return d.dot(dir) / len2; });
}

cv::Mat OffLineDeparture(const cv::Mat& chroma, const cv::Mat& valid, const cv::Vec2f& mat_chroma,
                         const cv::Vec2f& side_chroma) {
  const cv::Vec2f dir = side_chroma - mat_chroma;
  const float len2 = std::max(1e-6f, dir.dot(dir));
  // |d x dir| / |dir|^2: the distance from the line in units of the mat-to-side distance.
  return PerPixelFromMat(chroma, valid, mat_chroma, [&](const cv::Vec2f& d) {
    return std::abs(d[0] * dir[1] - d[1] * dir[0]) / len2;
  });
}

std::optional<std::array<cv::Vec2f, 2>> TwoColourShareRows(const cv::Vec2f& mat_chroma,
                                                           const cv::Vec2f& first,
                                                           const cv::Vec2f& second) {
  const cv::Vec2f a = first - mat_chroma, b = second - mat_chroma;
  const float det = a[0] * b[1] - a[1] * b[0];
  if (std::abs(det) < 1e-6f * std::max(1e-12f, a.dot(a) + b.dot(b))) return std::nullopt;
  return std::array<cv::Vec2f, 2>{cv::Vec2f(b[1] / det, -b[0] / det),
                                  cv::Vec2f(-a[1] / det, a[0] / det)};
}

std::array<cv::Mat, 2> ShareOfTwoColours(const cv::Mat& chroma, const cv::Mat& valid,
                                         const cv::Vec2f& mat_chroma, const cv::Vec2f& first,
                                         const cv::Vec2f& second) {
  const std::optional<std::array<cv::Vec2f, 2>> rows =
      TwoColourShareRows(mat_chroma, first, second);
  if (!rows) return {};
  const cv::Vec2f& row_u = (*rows)[0];
  const cv::Vec2f& row_w = (*rows)[1];
  std::array<cv::Mat, 2> out{cv::Mat(chroma.size(), CV_32F, cv::Scalar(0)),
                             cv::Mat(chroma.size(), CV_32F, cv::Scalar(0))};
  for (int y = 0; y < chroma.rows; ++y) {
    const auto* c = chroma.ptr<cv::Vec2f>(y);
    const auto* v = valid.ptr<uchar>(y);
    auto* u = out[0].ptr<float>(y);
    auto* w = out[1].ptr<float>(y);
    for (int x = 0; x < chroma.cols; ++x) {
      if (!v[x]) continue;
      const cv::Vec2f d = c[x] - mat_chroma;
      u[x] = row_u.dot(d);
      w[x] = row_w.dot(d);
    }
  }
  return out;
}

// Border widths (narrowest first) searched at the seed's other gradient directions.
constexpr size_t kExtraAngleWidths = 1;

std::vector<PxRect> FitBlurredRings(const cv::Mat& departure, const std::vector<PxRect>& bases,
                                    const cv::Mat& excluded, double mm_per_px,
                                    const std::vector<BaseSize>& sizes, double blur_mm,
                                    double border_mm, const BlurredRingOptions& options) {
  std::vector<PxRect> found;
  if (departure.empty() || sizes.empty() || blur_mm <= 0) return found;
  const Geometry g = FrameGeometry(departure, mm_per_px, blur_mm, border_mm);
  // The border widths tried, narrowest first: hand-painted borders are wider than the nominal
  // one (a 5 mm band blurred by 5 mm is no 3 mm band's profile).
  std::vector<Geometry> widths{g};
  for (double b_mm = border_mm + 1.0; b_mm <= options.max_border_mm + 1e-9; b_mm += 1.0) {
    Geometry wide = g;
    wide.border_px = b_mm / mm_per_px;
    wide.interior_px = wide.border_px + 2.0 * wide.sigma_px;
    widths.push_back(wide);
  }
  cv::Mat claimed(departure.size(), CV_8U, cv::Scalar(0));
  for (const PxRect& r : bases)
    cv::fillConvexPoly(claimed, GrownCorners(r, g.out_px), cv::Scalar(255));
  if (!excluded.empty()) claimed |= excluded;
  cv::Mat dep = departure.clone();
  dep.setTo(0.0f, claimed);

  // The smoothed departure's noise on the mat: seeds are where it stands out.
  cv::Mat smooth;
  cv::GaussianBlur(dep, smooth, {0, 0}, g.sigma_px);
  std::vector<double> mat_values;
  for (int y = 0; y < smooth.rows; y += 3) {
    for (int x = 0; x < smooth.cols; x += 3) {
      if (!claimed.at<uchar>(y, x)) mat_values.push_back(smooth.at<float>(y, x));
    }
  }
  const Spread mat = RobustSpread(std::move(mat_values));
  if (mat.sigma > 1e8) return found;
  cv::Mat seeds = smooth > mat.centre + 4.0 * mat.sigma;
  seeds &= ~claimed;
  double max_diag_px = 0, min_dim_px = 1e9;
  cv::Mat claimed_sum;
  cv::integral(claimed, claimed_sum, CV_32S);
  for (const BaseSize& s : sizes) {
    max_diag_px = std::max(max_diag_px, std::hypot(s.width_mm, s.depth_mm) / mm_per_px);
    min_dim_px = std::min(min_dim_px, std::min(s.width_mm, s.depth_mm) / mm_per_px);
  }
  // Per border width, per size: the scores on bare mat.
  std::vector<std::vector<Null>> nulls(widths.size());
  for (size_t k = 0; k < widths.size(); ++k) {
    for (const BaseSize& s : sizes)
      nulls[k].push_back(MeasureNull(dep, claimed_sum, s, widths[k], options.null_samples));
  }
  const int join = std::max(1, static_cast<int>(std::lround(g.border_px)));
  cv::Mat joined;
  cv::dilate(seeds, joined,
             cv::getStructuringElement(cv::MORPH_RECT, {2 * join + 1, 2 * join + 1}));
  cv::Mat labels, stats, centroids;
  const int n = cv::connectedComponentsWithStats(joined, labels, stats, centroids, 8, CV_32S);
  const cv::Rect frame(0, 0, dep.cols, dep.rows);
  const int grow = static_cast<int>(g.sigma_px) + 2;
  const auto grown = [&](const cv::Rect& b) {
    return (b + cv::Size(2 * grow, 2 * grow) - cv::Point(grow, grow)) & frame;
  };
  BlurredRingOptions strict = options;
  strict.strong_gain_sigma = 0;
  for (int l = 1; l < n; ++l) {
    const cv::Rect seed(stats.at<int>(l, cv::CC_STAT_LEFT), stats.at<int>(l, cv::CC_STAT_TOP),
                        stats.at<int>(l, cv::CC_STAT_WIDTH), stats.at<int>(l, cv::CC_STAT_HEIGHT));
    // Seeds smaller than a side of the smallest base.
    if (std::max(seed.width, seed.height) < 0.5 * min_dim_px) continue;
    // Where the centres may lie and the box searched. A seed much larger than any base is
    // bases standing close, their blurred bands joined (a formation), or a terrain edge's halo:
    // searched a tile at a time, each fit held to the same tests and kept only with its centre
    // in its own tile.
    std::vector<std::pair<cv::Rect, cv::Rect>> tiles;
    if (seed.width > 2 * max_diag_px || seed.height > 2 * max_diag_px) {
      const int t = static_cast<int>(std::ceil(0.5 * max_diag_px));
      for (int y = seed.y; y < seed.y + seed.height; y += t) {
        for (int x = seed.x; x < seed.x + seed.width; x += t) {
          const cv::Rect core = cv::Rect(x, y, t, t) & seed;
          // Searched only around the seed's part in it (a terrain edge's halo is a thin line).
          const cv::Rect part = cv::boundingRect(labels(core) == l);
          if (part.area() > 0) tiles.push_back({core, grown(part + core.tl())});
        }
      }
    } else {
      tiles.push_back({frame, grown(seed)});
    }
    for (const auto& [core, box] : tiles) {
      // A wider border only where the narrower ones explain nothing: every base a narrower
      // ring fits is kept as it was.
      std::optional<PxRect> r, tie, kept;
      SeedCache cache;
      const double theta = DominantAngle(smooth, box);
      std::vector<std::vector<Pose>> poses(widths.size());
      std::vector<size_t> size_of;
      for (size_t k = 0; k < widths.size() && !r; ++k) {
        poses[k] = CoarsePoses(dep, box, sizes, {theta}, widths[k], mat.sigma, size_of);
        r = FitSeed(dep, cache, poses[k], size_of, nulls[k], widths[k], strict, &tie, &kept);
      }
      // Nothing fits at the gradients' mean direction: the other directions they peak at are
      // searched too (a neighbour, figures or a terrain edge in the box can pull the mean tens
      // of degrees off a base's own), each hypothesis keeping its best pose over all of them;
      // at the nominal border width only (most seeds fit nothing: every width would cost the
      // search half as much again).
      const std::vector<double> extra =
          r ? std::vector<double>{}
            : OtherRectAngles(smooth, box, theta, options.min_angle_peak_fraction,
                              DegToRad(options.min_angle_peak_apart_deg), options.max_extra_angles);
      for (size_t k = 0; k < kExtraAngleWidths && k < widths.size() && !r && !extra.empty(); ++k) {
        std::vector<Pose> more = CoarsePoses(dep, box, sizes, extra, widths[k], mat.sigma, size_of);
        for (size_t h = 0; h < more.size(); ++h) {
          if (more[h].fit.rho > poses[k][h].fit.rho) poses[k][h] = std::move(more[h]);
        }
        r = FitSeed(dep, cache, poses[k], size_of, nulls[k], widths[k], strict, &tie, &kept);
      }
      // Nothing stood out of the bare mat by its correlation: the same hypotheses judged again
      // where their gain alone rules the mat out (BlurredRingOptions::strong_gain_sigma), only
      // here, so that no base the strict test finds, or reports with its other sizes, changes.
      for (size_t k = 0; k < widths.size() && !r && !tie && options.strong_gain_sigma > 0; ++k) {
        if (!poses[k].empty())
          r = FitSeed(dep, cache, poses[k], size_of, nulls[k], widths[k], options, &tie, &kept);
      }
      // No attempt found a clean fit: the winner whose edges are pulled, else a base whose size
      // the band could not tell.
      if (!r) r = std::move(kept);
      if (!r) r = std::move(tie);
      if (!r || OverlapsAny(*r, bases) || OverlapsAny(*r, found)) continue;
      if (!core.contains(cv::Point(cvRound(r->center.x), cvRound(r->center.y)))) continue;
      found.push_back(*r);
      // Its band is explained: a neighbour's seed is fitted without it.
      cv::fillConvexPoly(dep, GrownCorners(*r, g.out_px), cv::Scalar(0));
    }
  }
  return found;
}

BlurredRingScore ScoreBlurredRing(const cv::Mat& departure, const PxRect& r, double mm_per_px,
                                  double blur_mm, double border_mm) {
  BlurredRingScore out;
  if (departure.empty() || blur_mm <= 0 || mm_per_px <= 0) return out;
  const Geometry g = FrameGeometry(departure, mm_per_px, blur_mm, border_mm);
  const Ring t = MakeRing(r.len_a, r.len_b, std::atan2(r.axis_a.y, r.axis_a.x), g, 1, 1.0, true);
  const cv::Point c(cvRound(r.center.x), cvRound(r.center.y));
  const Fit f = Evaluate(departure, t, c);
  out.rho = f.rho;
  out.gain = f.gain;
  out.side_gain = f.side_gain;
  out.band = MedianAt(departure, t.band, cv::Point2d(c));
  return out;
}

std::pair<PxRect, BlurredRingScore> BestBlurredRingNear(const cv::Mat& departure, const PxRect& r,
                                                        double mm_per_px, double blur_mm,
                                                        double border_mm, int reach_px,
                                                        const std::vector<double>& turns_rad) {
  PxRect best = r;
  if (departure.empty() || blur_mm <= 0 || mm_per_px <= 0) return {best, {}};
  const Geometry g = FrameGeometry(departure, mm_per_px, blur_mm, border_mm);
  const double angle = std::atan2(r.axis_a.y, r.axis_a.x);
  const cv::Point c0(cvRound(r.center.x), cvRound(r.center.y));
  double best_rho = -2;
  const std::vector<cv::Point> cell = SquareAround(c0, reach_px);
  std::vector<Fit> fits;
  for (const double turn : turns_rad) {
    const Ring t = MakeRing(r.len_a, r.len_b, angle + turn, g, 1);
    Evaluations(departure, t, cell, fits);
    for (size_t i = 0; i < cell.size(); ++i) {
      if (fits[i].rho <= best_rho) continue;
      best_rho = fits[i].rho;
      best.center = cv::Point2d(cell[i]);
      best.axis_a = {std::cos(angle + turn), std::sin(angle + turn)};
    }
  }
  return {best, ScoreBlurredRing(departure, best, mm_per_px, blur_mm, border_mm)};
}

void AddBlurredRingBases(const cv::Mat& chroma, const cv::Mat& valid, const cv::Vec2f& mat_chroma,
                         const cv::Mat& terrain, const std::vector<SideColor>& sides,
                         double mm_per_px, const std::vector<BaseSize>& sizes, double blur_mm,
                         double border_mm, std::vector<std::vector<PxRect>>& rects,
                         const BlurredRingOptions& options) {
  if (blur_mm < border_mm) return;
  for (size_t s = 0; s < sides.size() && s < rects.size(); ++s) {
    if (!options.fit_sides.empty() && (s >= options.fit_sides.size() || !options.fit_sides[s]))
      continue;
    const std::vector<PxRect> all = AllRects(rects);
    const cv::Vec2f own(sides[s].mean);
    const cv::Mat dep = DepartureToward(chroma, valid, mat_chroma, own);
    BlurredRingOptions side_options = options;
    if (options.keep_search_pose_over_pulled_edges)
      side_options.off_line = OffLineDeparture(chroma, valid, mat_chroma, own);
    for (size_t k = 0; k < sides.size(); ++k) {
      if (k == s || !options.compare_other_sides) continue;
      std::array<cv::Mat, 2> share =
          ShareOfTwoColours(chroma, valid, mat_chroma, own, cv::Vec2f(sides[k].mean));
      if (!share[0].empty()) side_options.rival_shares.push_back(std::move(share));
    }
    for (const PxRect& r :
         FitBlurredRings(dep, all, terrain, mm_per_px, sizes, blur_mm, border_mm, side_options)) {
      rects[s].push_back(r);
    }
  }
}

}  // namespace referee
