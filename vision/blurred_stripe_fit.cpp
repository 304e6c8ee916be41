#include "vision/blurred_stripe_fit.hpp"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "engine/order_statistics.hpp"
#include "vision/edge_band_walk.hpp"

namespace referee {

namespace {

constexpr double kBinMm = 0.5;         // profile resolution across an edge
constexpr double kOutsideMm = 3.0;     // how far past the edge the profile starts
constexpr double kFitOutsideMm = 2.0;  // the fit starts this far out: no stripe lies there
// Stretches along an edge: its middle 80 % (TABLE_KIT: a 3 mm border on a 40 mm edge leaves
// 0.85 of the half edge clear of the side borders).
constexpr double kSpan = 0.8;
constexpr int kSegments = 8;

struct Profiles {
  int bins = 0;
  // Per (side, bin, segment): sums of the darkest and brightest channel, of each channel, and
  // the pixels summed.
  std::vector<double> lo, hi;
  std::vector<cv::Vec3d> bgr;
  std::vector<int> n;
  size_t Index(int side, int bin, int seg) const {
    return (static_cast<size_t>(side) * static_cast<size_t>(bins) + static_cast<size_t>(bin)) *
               kSegments +
           static_cast<size_t>(seg);
  }
};

Profiles Profile(const cv::Mat& img, const PxRect& r, double mm_per_px, double reach_mm) {
  Profiles p;
  p.bins = static_cast<int>((reach_mm + kOutsideMm) / kBinMm) + 1;
  const size_t size = 4 * static_cast<size_t>(p.bins) * kSegments;
  p.lo.assign(size, 0);
  p.hi.assign(size, 0);
  p.bgr.assign(size, cv::Vec3d(0, 0, 0));
  p.n.assign(size, 0);
  ForEachEdgeBandPixel(img, r, mm_per_px, kOutsideMm, reach_mm,
                       [&](int side, double depth_mm, double along, const cv::Vec3b& px) {
                         if (std::abs(along) >= kSpan) return;
                         const int seg =
                             std::clamp(static_cast<int>((along + kSpan) / (2 * kSpan) * kSegments),
                                        0, kSegments - 1);
                         const int bin = static_cast<int>((depth_mm + kOutsideMm) / kBinMm);
                         const size_t i = p.Index(side, bin, seg);
                         p.lo[i] += std::min({px[0], px[1], px[2]});
                         p.hi[i] += std::max({px[0], px[1], px[2]});
                         p.bgr[i] += cv::Vec3d(px[0], px[1], px[2]);
                         ++p.n[i];
                       });
  return p;
}

// Per (side, bin): the median over the stretches along the edge of their mean darkest (or
// brightest) channel, -1 where fewer than half the stretches have pixels. A figure standing at
// one stretch of the edge moves the median little; a stripe along the whole edge moves it all.
std::vector<double> MedianOverSegments(const Profiles& p, const std::vector<double>& sums) {
  std::vector<double> out(4 * static_cast<size_t>(p.bins), -1.0);
  for (int s = 0; s < 4; ++s) {
    for (int k = 0; k < p.bins; ++k) {
      std::vector<double> v;
      for (int g = 0; g < kSegments; ++g) {
        const size_t i = p.Index(s, k, g);
        if (p.n[i] > 0) v.push_back(sums[i] / p.n[i]);
      }
      if (2 * static_cast<int>(v.size()) >= kSegments) {
        out[static_cast<size_t>(s) * static_cast<size_t>(p.bins) + static_cast<size_t>(k)] =
            Median(std::move(v));
      }
    }
  }
  return out;
}

double Phi(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

}  // namespace

BlurredStripeFit FitBlurredStripes(const cv::Mat& img, const PxRect& r, double mm_per_px,
                                   double blur_mm, const BlurredStripeOptions& options) {
  BlurredStripeFit out;
  // A Gaussian whose 10-90 % rise is blur_mm, widened by the profile's bins.
  const double sigma_mm = std::hypot(std::max(blur_mm, 0.1) / 2.563, kBinMm / std::sqrt(12.0));
  const double half_short_mm = 0.5 * std::min(r.len_a, r.len_b) * mm_per_px;
  // The fit runs past the deepest stripe's far edge by its spread, but not past the middle.
  const double reach_mm = std::min(
      options.max_stripe_depth_mm + options.max_stripe_mm + 2.5 * sigma_mm, half_short_mm - 0.5);
  if (reach_mm < options.min_stripe_depth_mm + options.max_stripe_mm) return out;
  const Profiles p = Profile(img, r, mm_per_px, reach_mm);
  const std::vector<double> lo = MedianOverSegments(p, p.lo);
  const std::vector<double> hi = MedianOverSegments(p, p.hi);
  const auto at = [&](int s, int k) {
    return static_cast<size_t>(s) * static_cast<size_t>(p.bins) + static_cast<size_t>(k);
  };
  // The border's brightest channel (the brightest bin of each edge's outer 3 mm, the middle
  // edge): the unit the box height is in, so that it does not depend on the light.
  std::vector<double> border;
  for (int s = 0; s < 4; ++s) {
    double m = -1;
    for (int k = static_cast<int>(kOutsideMm / kBinMm);
         k < static_cast<int>((kOutsideMm + 3.0) / kBinMm) && k < p.bins; ++k) {
      m = std::max(m, hi[at(s, k)]);
    }
    if (m > 0) border.push_back(m);
  }
  if (border.size() < 3) return out;
  const double scale = std::max(8.0, Median(std::move(border)));
  const auto control = [&](int s, int k) {
    std::vector<double> v;
    for (int o = 0; o < 4; ++o) {
      if (o != s && lo[at(o, k)] >= 0) v.push_back(lo[at(o, k)]);
    }
    return v.size() < 2 ? -1.0 : Median(std::move(v));
  };
  const int k0 = static_cast<int>((kOutsideMm - kFitOutsideMm) / kBinMm);
  const auto centre_mm = [](int k) { return (k + 0.5) * kBinMm - kOutsideMm; };
  const auto box = [&](double d, double from, double width) {
    return Phi((d - from) / sigma_mm) - Phi((d - from - width) / sigma_mm);
  };
  for (int s = 0; s < 4; ++s) {
    // The edge's profile over the other edges', in units of the border's brightest channel.
    std::vector<double> diff(static_cast<size_t>(p.bins), 0.0);
    std::vector<bool> valid(diff.size(), false);
    double total = 0;
    for (int k = k0; k < p.bins; ++k) {
      const double c = control(s, k);
      if (c < 0 || lo[at(s, k)] < 0) continue;
      diff[static_cast<size_t>(k)] = (lo[at(s, k)] - c) / scale;
      valid[static_cast<size_t>(k)] = true;
      total += diff[static_cast<size_t>(k)] * diff[static_cast<size_t>(k)];
    }
    if (total <= 0) continue;
    double best_gain = 0, best_reduction = 0, best_from = 0, best_width = 0;
    for (double from = options.min_stripe_depth_mm; from <= options.max_stripe_depth_mm + 1e-9;
         from += kBinMm) {
      for (double width = options.min_stripe_mm; width <= options.max_stripe_mm + 1e-9;
           width += kBinMm) {
        double dm = 0, mm2 = 0;
        for (int k = k0; k < p.bins; ++k) {
          if (!valid[static_cast<size_t>(k)]) continue;
          const double m = box(centre_mm(k), from, width);
          dm += diff[static_cast<size_t>(k)] * m;
          mm2 += m * m;
        }
        if (mm2 <= 0 || dm <= 0) continue;
        const double reduction = dm * dm / mm2;
        if (reduction > best_reduction) {
          best_reduction = reduction;
          best_gain = dm / mm2;
          best_from = from;
          best_width = width;
        }
      }
    }
    if (best_gain <= 0) continue;
    const size_t si = static_cast<size_t>(s);
    // Past the box's far edge by its spread, the profile is back at the other edges' level.
    double tail = 0;
    int tail_n = 0;
    for (int k = k0; k < p.bins; ++k) {
      if (valid[static_cast<size_t>(k)] &&
          centre_mm(k) >= best_from + best_width + 1.5 * sigma_mm) {
        tail += diff[static_cast<size_t>(k)];
        ++tail_n;
      }
    }
    out.tail[si] = tail_n >= 2 ? tail / tail_n / best_gain : 1.0;
    out.gain[si] = best_gain;
    out.explained[si] = best_reduction / total;
    out.depth_mm[si] = best_from;
    // Stretch by stretch along the edge, the same box's height.
    int stretches = 0, high = 0;
    for (int g = 0; g < kSegments; ++g) {
      double dm = 0, mm2 = 0;
      for (int k = k0; k < p.bins; ++k) {
        const size_t i = p.Index(s, k, g);
        const double c = control(s, k);
        if (p.n[i] == 0 || c < 0) continue;
        const double m = box(centre_mm(k), best_from, best_width);
        dm += (p.lo[i] / p.n[i] - c) / scale * m;
        mm2 += m * m;
      }
      if (mm2 <= 0) continue;
      ++stretches;
      high += dm / mm2 >= 0.5 * best_gain ? 1 : 0;
    }
    out.along[si] = stretches > 0 ? static_cast<double>(high) / stretches : 0.0;
    // White reflects every channel at least as well as whatever the other edges show there.
    const int band0 = static_cast<int>((best_from + kOutsideMm) / kBinMm);
    const int band1 = static_cast<int>((best_from + best_width + kOutsideMm) / kBinMm);
    std::array<cv::Vec3d, 4> colour{};
    std::array<int, 4> count{};
    for (int o = 0; o < 4; ++o) {
      for (int k = band0; k < std::min(band1, p.bins); ++k) {
        for (int g = 0; g < kSegments; ++g) {
          colour[static_cast<size_t>(o)] += p.bgr[p.Index(o, k, g)];
          count[static_cast<size_t>(o)] += p.n[p.Index(o, k, g)];
        }
      }
    }
    bool white = count[si] > 0;
    for (int ch = 0; ch < 3 && white; ++ch) {
      std::vector<double> others;
      for (int o = 0; o < 4; ++o) {
        if (o != s && count[static_cast<size_t>(o)] > 0) {
          others.push_back(colour[static_cast<size_t>(o)][ch] / count[static_cast<size_t>(o)]);
        }
      }
      white = !others.empty() && colour[si][ch] / count[si] >= Median(std::move(others));
    }
    out.white[si] = white;
  }
  return out;
}

int BlurredStripeSide(const BlurredStripeFit& fit, const std::array<bool, 4>& allowed,
                      const BlurredStripeOptions& options) {
  int best = -1;
  for (int s = 0; s < 4; ++s) {
    if (allowed[static_cast<size_t>(s)] &&
        (best < 0 || fit.gain[static_cast<size_t>(s)] > fit.gain[static_cast<size_t>(best)])) {
      best = s;
    }
  }
  if (best < 0) return -1;
  const size_t b = static_cast<size_t>(best);
  const double depth = fit.depth_mm[b];
  if (fit.gain[b] < options.min_gain || fit.explained[b] < options.min_explained ||
      fit.along[b] < options.min_along || !fit.white[b] ||
      fit.tail[b] > options.max_tail_fraction || depth <= options.min_stripe_depth_mm + 1e-6 ||
      depth >= options.max_stripe_depth_mm - 1e-6) {
    return -1;
  }
  for (int s = 0; s < 4; ++s) {
    if (s != best &&
        fit.gain[static_cast<size_t>(s)] > options.max_other_gain_fraction * fit.gain[b]) {
      return -1;
    }
  }
  return best;
}

bool AnotherEdgeBandAsHigh(const BlurredStripeFit& fit, int side,
                           const BlurredStripeOptions& options) {
  const double own = fit.gain[static_cast<size_t>(side)];
  for (size_t s = 0; s < 4; ++s) {
    if (static_cast<int>(s) == side) continue;
    const bool inside = fit.depth_mm[s] > options.min_stripe_depth_mm + 1e-6 &&
                        fit.depth_mm[s] < options.max_stripe_depth_mm - 1e-6;
    if (fit.white[s] && inside && fit.along[s] >= options.min_along &&
        fit.gain[s] >= options.min_gain && fit.gain[s] >= own) {
      return true;
    }
  }
  return false;
}

}  // namespace referee
