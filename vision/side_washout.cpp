#include "vision/side_washout.hpp"

#include <algorithm>
#include <cmath>

#include <opencv2/imgproc.hpp>

#include "engine/order_statistics.hpp"
#include "vision/side_classify.hpp"

namespace referee {

namespace {
// Fraction of `mask` set deeper than depth_px inside r (0 when nothing is that deep).
double InsideFraction(const cv::Mat& mask, const PxRect& r, double depth_px) {
  const double ha = 0.5 * r.len_a - depth_px, hb = 0.5 * r.len_b - depth_px;
  if (ha <= 0 || hb <= 0) return 0.0;
  std::vector<cv::Point> poly = GrownCorners(r, -depth_px);
  const cv::Rect box = cv::boundingRect(poly) & cv::Rect(0, 0, mask.cols, mask.rows);
  if (box.empty()) return 0.0;
  cv::Mat inside(box.size(), CV_8U, cv::Scalar(0));
  for (auto& p : poly) p -= box.tl();
  cv::fillConvexPoly(inside, poly, cv::Scalar(255));
  const int n = cv::countNonZero(inside);
  return n > 0 ? static_cast<double>(cv::countNonZero(inside & mask(box))) / n : 0.0;
}

}  // namespace

RingDeparture MeasureRingDeparture(const cv::Mat& chroma, const cv::Mat& valid,
                                   const cv::Vec2f& mat_chroma, const cv::Vec2f& side_chroma,
                                   const PxRect& r, double border_px, double depth_px) {
  RingDeparture out;
  std::vector<cv::Point> outer = GrownCorners(r, -1.0);
  const cv::Rect box = cv::boundingRect(outer) & cv::Rect(0, 0, chroma.cols, chroma.rows);
  if (box.empty()) return out;
  const auto local = [&](std::vector<cv::Point> poly) {
    for (auto& p : poly) p -= box.tl();
    return poly;
  };
  cv::Mat band(box.size(), CV_8U, cv::Scalar(0));
  cv::fillConvexPoly(band, local(outer), cv::Scalar(255));
  if (0.5 * r.len_a > 1.0 + border_px && 0.5 * r.len_b > 1.0 + border_px) {
    cv::fillConvexPoly(band, local(GrownCorners(r, -(1.0 + border_px))), cv::Scalar(0));
  }
  cv::Mat inside(box.size(), CV_8U, cv::Scalar(0));
  if (0.5 * r.len_a > depth_px && 0.5 * r.len_b > depth_px) {
    cv::fillConvexPoly(inside, local(GrownCorners(r, -depth_px)), cv::Scalar(255));
  }
  const cv::Vec2f dir = side_chroma - mat_chroma;
  const float len2 = std::max(1e-6f, dir.dot(dir));
  std::vector<double> t_band, t_inside;
  for (int y = 0; y < box.height; ++y) {
    const auto* c = chroma.ptr<cv::Vec2f>(box.y + y) + box.x;
    const auto* v = valid.ptr<uchar>(box.y + y) + box.x;
    const auto* b = band.ptr<uchar>(y);
    const auto* in = inside.ptr<uchar>(y);
    for (int x = 0; x < box.width; ++x) {
      if (!v[x] || (!b[x] && !in[x])) continue;
      const double t = (c[x] - mat_chroma).dot(dir) / len2;
      (b[x] ? t_band : t_inside).push_back(t);
    }
  }
  out.n_border = static_cast<int>(t_band.size());
  out.border = Median(std::move(t_band));
  out.inside = Median(std::move(t_inside));
  return out;
}

double MeasuredWashout(const cv::Mat& chroma, const cv::Mat& valid, const cv::Vec2f& mat_chroma,
                       const std::vector<SideColor>& sides,
                       const std::vector<std::vector<PxRect>>& rects, double border_px) {
  std::vector<double> departures;
  for (size_t s = 0; s < rects.size() && s < sides.size(); ++s) {
    for (const PxRect& r : rects[s]) {
      const RingDeparture d = MeasureRingDeparture(chroma, valid, mat_chroma,
                                                   cv::Vec2f(sides[s].mean), r, border_px, 1e9);
      if (d.n_border >= 20) departures.push_back(d.border);
    }
  }
  return departures.size() < 3 ? 0.0 : Median(std::move(departures));
}

double SideWashout(const cv::Mat& chroma, const cv::Mat& valid, const cv::Vec2f& mat_chroma,
                   const std::vector<SideColor>& sides,
                   const std::vector<std::vector<PxRect>>& rects, size_t s, int min_bases,
                   double border_px) {
  if (static_cast<int>(rects[s].size()) < min_bases) return 0.0;
  std::vector<std::vector<PxRect>> own(rects.size());
  own[s] = rects[s];
  return MeasuredWashout(chroma, valid, mat_chroma, sides, own, border_px);
}

void AddFrameWashoutBases(const cv::Mat& chroma, const cv::Mat& valid, const cv::Vec2f& mat_chroma,
                          const SideColorModel& colors, const WashoutOptions& options,
                          const SideMaskDetector& detect, double mm_per_px,
                          const RingFitOptions& ring, std::vector<std::vector<PxRect>>& rects,
                          std::vector<std::vector<PxRect>>* filled) {
  if (filled) filled->assign(rects.size(), {});
  const double depth_px = ring.interior_depth_mm / mm_per_px;
  const double border_px = options.border_band_mm / mm_per_px;
  // One pass: each side looked for at `factor` of its way from the mat, on `src`.
  const auto search = [&](double factor, const cv::Mat& src) {
    const std::vector<SideColor> washed =
        WashedToward(colors.sides(), mat_chroma, factor, colors.options().min_sigma);
    std::vector<cv::Mat> masks =
        ClassifySides(src, valid, washed, colors.options().gate_sigma, &mat_chroma);
    // Anything at least half as far toward a side as the washed colour: the blurred edge of a
    // roof or of water in the side's full colour is a ring of the washed colour around it.
    const std::vector<cv::Mat> toward =
        TowardSidesMasks(src, valid, mat_chroma, colors.sides(), 0.5 * factor, options.cone);
    std::vector<std::vector<PxRect>> added(rects.size());
    for (size_t s = 0; s < masks.size() && s < rects.size(); ++s) {
      const cv::Mat any_hue = masks[s] | toward[s];
      for (const PxRect& r : detect(masks[s])) {
        if (AnyBaseAt(r, rects)) continue;
        // A washed-out side colour is near neutral: paper, roads and pale terrain pass it too,
        // filled; bases are rings around figures.
        bool ring_like = InsideFraction(any_hue, r, depth_px) <= ring.max_interior_fraction;
        if (!ring_like && options.max_inside_to_border > 0) {
          // Under blur a small base's border bleeds over its inside: still a ring if its
          // inside departs much less than its border.
          const RingDeparture d = MeasureRingDeparture(
              chroma, valid, mat_chroma, cv::Vec2f(colors.sides()[s].mean), r, border_px, depth_px);
          ring_like =
              d.border >= 0.5 * factor && d.inside <= options.max_inside_to_border * d.border;
        }
        if (ring_like) {
          added[s].push_back(r);
        } else if (filled) {
          (*filled)[s].push_back(r);
        }
      }
    }
    for (size_t s = 0; s < added.size(); ++s) {
      rects[s].insert(rects[s].end(), added[s].begin(), added[s].end());
    }
  };
  // The ladder of factors, then the frame's own washout measured on the bases found so far
  // (the ladder's included) when it washes harder than the ladder, on chroma smoothed 3x3.
  for (const double factor : options.frame_factors) search(factor, chroma);
  if (options.measured_below <= 0 || options.frame_factors.empty()) return;
  const double lowest =
      *std::min_element(options.frame_factors.begin(), options.frame_factors.end());
  const double measured =
      MeasuredWashout(chroma, valid, mat_chroma, colors.sides(), rects, border_px);
  if (measured < options.min_measured_factor || measured >= options.measured_below * lowest) return;
  cv::Mat smooth;
  cv::blur(chroma, smooth, {3, 3});
  search(measured, smooth);
}

std::vector<RingFit> WashoutCandidates(const cv::Mat& evidence, double mm_per_px,
                                       const std::vector<BaseSize>& sizes,
                                       const RingFitOptions& base_options,
                                       const WashoutOptions& options) {
  RingFitOptions ring = base_options;
  ring.min_ring_fraction = options.min_ring_fraction;
  ring.min_corner_sides = options.min_corner_sides;
  ring.max_outside_fraction = options.max_outside_fraction;
  return FitBasesToBorderEvidence(evidence, mm_per_px, sizes, ring);
}

cv::Mat BorderBand(cv::Size size, const std::vector<PxRect>& rects, double inset_px,
                   double depth_px, cv::Point origin) {
  cv::Mat band(size, CV_8U, cv::Scalar(0));
  for (const auto& r : rects) {
    for (double d = inset_px; d < inset_px + depth_px; d += 0.5) {
      std::vector<cv::Point> corners = GrownCorners(r, -d);
      for (cv::Point& p : corners) p -= origin;
      cv::polylines(band, corners, true, cv::Scalar(255), 1);
    }
  }
  return band;
}

double RefitBandPx(double min_border_mm, double mm_per_px) {
  return std::max(1.0, min_border_mm / mm_per_px - 2.0);
}

bool RefitFromBorderBands(SideColorModel& colors, size_t s, const cv::Mat& chroma,
                          const std::vector<PxRect>& rects, double band_px, const cv::Mat& mask,
                          int min_pixels, const cv::Mat& excluded) {
  cv::Mat gated = BorderBand(chroma.size(), rects, 1.0, band_px) & mask;
  if (!excluded.empty()) gated.setTo(0, excluded);
  if (cv::countNonZero(gated) < min_pixels) return false;
  colors.Refit(s, chroma, gated);
  return true;
}

}  // namespace referee
