#include "vision/front_stripe.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>
#include <vector>

#include "engine/order_statistics.hpp"
#include "vision/band_fraction.hpp"
#include "vision/edge_band_walk.hpp"

namespace referee {

namespace {

constexpr double kBinMm = 0.5;      // profile resolution across an edge
constexpr double kOutsideMm = 3.0;  // how far past the edge the profile starts
constexpr int kSegments = 7;        // along the middle 70 % of an edge, a tenth of it each
// The whole edge, unfolded: from corner to corner minus the side borders (TABLE_KIT: 3 mm on a
// 40 mm edge, 0.85 of the half edge), in segments of a tenth of the half edge.
constexpr double kRunSpan = 0.8;
constexpr int kRunSegments = 16;

// Sums of the darkest and brightest channel per (side, depth bin, segment along the edge).
struct EdgeProfiles {
  int bins = 0;
  std::vector<double> lo, hi;
  std::vector<int> n;
  // Per (side, bin), all segments: each channel's sum, and the pixels summed.
  std::vector<cv::Vec3d> bgr;
  std::vector<int> n_bgr;
  // Per (side, depth bin, segment along the whole edge, signed): darkest and brightest channel.
  std::vector<double> run_lo, run_hi;
  std::vector<int> run_n;
  size_t RunIndex(int side, int bin, int seg) const {
    return At(side, bin) * kRunSegments + static_cast<size_t>(seg);
  }
  // Index of (side, bin) in the per-bin means (segments summed).
  size_t At(int side, int bin) const {
    return static_cast<size_t>(side) * static_cast<size_t>(bins) + static_cast<size_t>(bin);
  }
  size_t Index(int side, int bin, int seg) const {
    return At(side, bin) * kSegments + static_cast<size_t>(seg);
  }
};

EdgeProfiles Profile(const cv::Mat& img, const PxRect& r, double mm_per_px, double reach_mm) {
  EdgeProfiles p;
  p.bins = static_cast<int>((reach_mm + kOutsideMm) / kBinMm) + 1;
  const size_t size = 4 * static_cast<size_t>(p.bins) * kSegments;
  p.lo.assign(size, 0);
  p.hi.assign(size, 0);
  p.n.assign(size, 0);
  p.bgr.assign(4 * static_cast<size_t>(p.bins), cv::Vec3d(0, 0, 0));
  p.n_bgr.assign(p.bgr.size(), 0);
  const size_t run_size = 4 * static_cast<size_t>(p.bins) * kRunSegments;
  p.run_lo.assign(run_size, 0);
  p.run_hi.assign(run_size, 0);
  p.run_n.assign(run_size, 0);
  ForEachEdgeBandPixel(
      img, r, mm_per_px, kOutsideMm, reach_mm,
      [&](int side, double depth_mm, double signed_along, const cv::Vec3b& px) {
        const double along = std::abs(signed_along);
        const int bin = static_cast<int>((depth_mm + kOutsideMm) / kBinMm);
        if (along < kRunSpan) {
          const int run_seg = std::clamp(
              static_cast<int>((signed_along + kRunSpan) / (2 * kRunSpan) * kRunSegments), 0,
              kRunSegments - 1);
          const size_t ri = p.RunIndex(side, bin, run_seg);
          p.run_lo[ri] += std::min({px[0], px[1], px[2]});
          p.run_hi[ri] += std::max({px[0], px[1], px[2]});
          ++p.run_n[ri];
        }
        if (along > 0.7) return;
        const int seg = std::min(kSegments - 1, static_cast<int>((along / 0.7) * kSegments));
        const size_t i = p.Index(side, bin, seg);
        p.lo[i] += std::min({px[0], px[1], px[2]});
        p.hi[i] += std::max({px[0], px[1], px[2]});
        ++p.n[i];
        p.bgr[p.At(side, bin)] += cv::Vec3d(px[0], px[1], px[2]);
        ++p.n_bgr[p.At(side, bin)];
      });
  return p;
}

// Mean colour of side s over bins [from, from + count); false when no pixel lies there.
bool WindowColour(const EdgeProfiles& p, int s, int from, int count, cv::Vec3d& out) {
  cv::Vec3d sum(0, 0, 0);
  int n = 0;
  for (int i = from; i < std::min(p.bins, from + count); ++i) {
    sum += p.bgr[p.At(s, i)];
    n += p.n_bgr[p.At(s, i)];
  }
  if (n == 0) return false;
  out = sum / n;
  return true;
}

// Is side s's band [k, k + window) at least min_ratio of the other edges at the same depth in
// every channel (per channel, the median of the other edges)?
bool BrightInEveryChannel(const EdgeProfiles& p, int s, int k, int window, double min_ratio) {
  cv::Vec3d band;
  if (!WindowColour(p, s, k, window, band)) return false;
  std::vector<double> others[3];
  for (int o = 0; o < 4; ++o) {
    cv::Vec3d c;
    if (o == s || !WindowColour(p, o, k, window, c)) continue;
    for (int ch = 0; ch < 3; ++ch) others[ch].push_back(c[ch]);
  }
  for (int ch = 0; ch < 3; ++ch) {
    if (!others[ch].empty() && band[ch] < min_ratio * Median(std::move(others[ch]))) return false;
  }
  return true;
}

// The band at bins [k, k + window) of side s, read segment by segment along the whole edge
// (not folded about its middle): a painted stripe is one band along the edge, standing out of
// its own flanks (deeper and outside) in every stretch of it; a rank of figures is separate
// blobs at varying depths with gaps. Returns the median segment's band contrast (as a fraction
// of its brightest channel), and through `segments` how many segments had pixels at every bin
// read (a profile cut short by the base's middle reads none).
double WholeEdgeMedianBand(const EdgeProfiles& p, int s, int k, int window, int deeper, int outer,
                           int& segments) {
  std::vector<double> band;
  for (int g = 0; g < kRunSegments; ++g) {
    // Mean darkest (or brightest) channel of segment g over bins [from, from + window).
    const auto mean = [&](int from, bool hi) {
      double sum = 0;
      int n = 0;
      for (int i = from; i < from + window && i < p.bins; ++i) {
        const size_t idx = p.RunIndex(s, i, g);
        sum += hi ? p.run_hi[idx] : p.run_lo[idx];
        n += p.run_n[idx];
      }
      return n > 0 ? sum / n : -1.0;
    };
    const double peak = mean(k, false), in = mean(deeper, false), out = mean(outer, false);
    if (peak < 0 || in < 0 || out < 0) continue;
    band.push_back((peak - std::max(in, out)) / std::max(mean(k, true), 8.0));
  }
  segments = static_cast<int>(band.size());
  return band.empty() ? 0.0 : Median(std::move(band));
}

}  // namespace

std::array<double, 4> FrontStripeScores(const cv::Mat& img, const PxRect& r, double mm_per_px,
                                        double blur_mm, const FrontStripeOptions& options,
                                        const std::array<bool, 4>& edges_seen) {
  std::array<double, 4> out{0, 0, 0, 0};
  // Past the stripe by its width plus half the blur, the profile must have fallen back.
  const double fall_mm = options.min_stripe_mm + 0.5 * blur_mm + 1.0;
  const double reach_mm = options.max_stripe_depth_mm + fall_mm + 1.5;
  const EdgeProfiles p = Profile(img, r, mm_per_px, reach_mm);
  // Per side and bin (all segments): mean darkest and brightest channel; -1 where empty.
  std::vector<double> lo(4 * static_cast<size_t>(p.bins), -1), hi(lo.size(), -1);
  for (int s = 0; s < 4; ++s) {
    for (int k = 0; k < p.bins; ++k) {
      double l = 0, h = 0;
      int n = 0;
      for (int g = 0; g < kSegments; ++g) {
        const size_t i = p.Index(s, k, g);
        l += p.lo[i];
        h += p.hi[i];
        n += p.n[i];
      }
      if (n >= 3) {
        lo[p.At(s, k)] = l / n;
        hi[p.At(s, k)] = h / n;
      }
    }
  }
  // The other edges' darkest channel at the same depth: the middle of the three (one of them
  // may be a pale flank of figures or the real stripe).
  const auto control = [&](int s, int k) {
    std::vector<double> v;
    for (int o = 0; o < 4; ++o) {
      const double x = lo[p.At(o, k)];
      if (o != s && x >= 0) v.push_back(x);
    }
    return v.empty() ? -1.0 : Median(std::move(v));
  };
  // The border's brightest channel as the other edges show it (their brightest bin in the
  // outer 3 mm, blur included).
  const auto border_hi = [&](int s) {
    std::vector<double> v;
    for (int o = 0; o < 4; ++o) {
      if (o == s) continue;
      double m = -1;
      for (int k = static_cast<int>(kOutsideMm / kBinMm);
           k < static_cast<int>((kOutsideMm + 3.0) / kBinMm) && k < p.bins; ++k) {
        m = std::max(m, hi[p.At(o, k)]);
      }
      if (m >= 0) v.push_back(m);
    }
    return Median(std::move(v));
  };
  // Contrast of side s over a window of bins starting at k; segment g only, or all when g < 0.
  const int window =
      std::max(2, static_cast<int>(std::lround(0.75 * options.min_stripe_mm / kBinMm)));
  const auto contrast = [&](int s, int k, int g) {
    double c = 0;
    int used = 0;
    for (int i = k; i < std::min(p.bins, k + window); ++i) {
      const double ctrl = control(s, i);
      if (ctrl < 0) continue;
      double l = 0, h = 0;
      if (g < 0) {
        l = lo[p.At(s, i)];
        h = hi[p.At(s, i)];
        if (l < 0) continue;
      } else {
        const size_t idx = p.Index(s, i, g);
        if (p.n[idx] == 0) continue;
        l = p.lo[idx] / p.n[idx];
        h = p.hi[idx] / p.n[idx];
      }
      c += (l - ctrl) / std::max(h, 8.0);
      ++used;
    }
    return used > 0 ? c / used : -1e9;
  };
  // Expected contrast: a stripe min_stripe_mm wide under a Gaussian blur whose 10-90 % rise
  // is blur_mm keeps erf(w / (2 sqrt(2) sigma)) of its peak.
  const double sigma_mm = std::max(1e-3, blur_mm / 2.563);
  const double expected =
      options.unblurred_contrast *
      (blur_mm > 0 ? std::erf(options.min_stripe_mm / (2.0 * std::sqrt(2.0) * sigma_mm)) : 1.0);
  const int first = static_cast<int>(kOutsideMm / kBinMm);  // the edge's bin
  const int last = first + static_cast<int>(options.max_stripe_depth_mm / kBinMm);
  const int fall = window + static_cast<int>(std::ceil((0.5 + 0.5 * blur_mm) / kBinMm));
  const int before = static_cast<int>(std::ceil((1.0 + 0.5 * blur_mm) / kBinMm)) + window;
  for (int s = 0; s < 4; ++s) {
    double best = 0, best_c = 0;
    int best_k = -1;
    // The median of the other three edges stands for the base's own top only while at most one
    // of them is hidden.
    int others_seen = 0;
    for (int o = 0; o < 4; ++o) others_seen += o != s && edges_seen[static_cast<size_t>(o)];
    if (others_seen < 2) continue;
    for (int k = first; k <= last && k + window <= p.bins; ++k) {
      const double c = contrast(s, k, -1);
      if (c <= 0.0 || c < options.min_contrast_fraction * expected) continue;
      // Narrow both ways: dark again further in, and not light bleeding in from outside.
      // Both flanks must be seen: a profile cut short by the base's middle proves nothing.
      const int deeper = k + fall;
      if (deeper + window > p.bins || k - before < 0) continue;
      if (contrast(s, deeper, -1) > 0.5 * c || contrast(s, k - before, -1) > 0.5 * c) continue;
      // ... and the band is a peak of the edge's own profile, not only against the others.
      // Bins finer than a pixel hold none on an edge square to the pixel grid: only those
      // holding pixels are averaged (counting the empty ones as black read a clear stripe on a
      // base square to the grid as dimmer than its own border).
      const auto own = [&](int from) -> std::optional<std::pair<double, double>> {
        double l = 0, h = 0;
        int used = 0;
        for (int i = from; i < from + window; ++i) {
          if (lo[p.At(s, i)] < 0) continue;
          l += lo[p.At(s, i)];
          h += hi[p.At(s, i)];
          ++used;
        }
        if (used == 0) return std::nullopt;
        return std::make_pair(l / used, std::max(h / used, 8.0));
      };
      const auto peak = own(k), in = own(deeper), out = own(k - before);
      if (!peak || !in || !out) continue;
      const auto [peak_lo, peak_hi] = *peak;
      const double flank_lo = std::max(in->first, out->first);
      if (peak_lo - flank_lo < 0.5 * c * peak_hi) continue;
      // White is at least as bright as the border's own brightest channel (a pale flock or a
      // grey figure is lighter than the border only in its darkest channel).
      // Under a low lamp the stripe's own edge may lie in a figure's shadow while the others
      // are lit: its own border, outside the stripe, shares its light.
      double own_hi = -1;  // its brightest bin, blur included
      const int own_bins = static_cast<int>(options.own_border_mm / kBinMm);
      for (int i = first; i < first + own_bins && i + window / 2 < k; ++i) {
        own_hi = std::max(own_hi, hi[p.At(s, i)]);
      }
      const double ref_hi = own_hi >= 0 ? std::min(own_hi, border_hi(s)) : border_hi(s);
      if (peak_hi < options.min_brightness_of_border * ref_hi) continue;
      if (!BrightInEveryChannel(p, s, k, window, options.min_channel_of_other_edges)) continue;
      // Along the whole edge.
      bool whole = true;
      for (int g = 0; g < kSegments; ++g) {
        const double cg = contrast(s, k, g);
        if (cg < -1e8) continue;
        whole = whole && cg >= options.min_segment_fraction * c;
      }
      if (whole && c / expected > best) {
        best = c / expected;
        best_k = k;
        best_c = c;
      }
    }
    // At the depth where the band is strongest, it rises above its own flanks in the median
    // segment of the whole edge, unfolded, as it rises above the other edges: figures at varying
    // depths make the folded profile peak while no one stretch of the edge does. (Judged at the
    // strongest depth only: a weaker depth beside a rejected band is the same figures.)
    if (best_k >= 0) {
      const int deeper = best_k + fall;
      int segments = 0;
      const double median_band =
          WholeEdgeMedianBand(p, s, best_k, window, deeper, best_k - before, segments);
      if (segments > 0 && median_band < options.min_run_band_fraction * best_c) best = 0;
    }
    out[static_cast<size_t>(s)] = best;
  }
  return out;
}

std::array<bool, 4> StripeEdgesSeen(const cv::Mat& side_evidence, const PxRect& r, double border_px,
                                    const FrontStripeOptions& options) {
  std::array<bool, 4> seen{};
  for (int side = 0; side < 4; ++side) {
    seen[static_cast<size_t>(side)] =
        BandFraction(side_evidence, r, 0.0, border_px, side, 0.7) >= options.min_seen_border_share;
  }
  return seen;
}

int FrontStripeSide(const std::array<double, 4>& scores, const std::array<bool, 4>& allowed,
                    const FrontStripeOptions& options) {
  int best = -1;
  for (int s = 0; s < 4; ++s) {
    if (allowed[static_cast<size_t>(s)] &&
        (best < 0 || scores[static_cast<size_t>(s)] > scores[static_cast<size_t>(best)])) {
      best = s;
    }
  }
  if (best < 0 || scores[static_cast<size_t>(best)] < options.min_contrast_fraction) return -1;
  for (int s = 0; s < 4; ++s) {
    if (s != best && scores[static_cast<size_t>(s)] >
                         options.max_other_edge_fraction * scores[static_cast<size_t>(best)]) {
      return -1;
    }
  }
  return best;
}

}  // namespace referee
