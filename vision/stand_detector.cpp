#include "vision/stand_detector.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <optional>
#include <utility>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "vision/base_ring_fit.hpp"
#include "vision/bgr_sample.hpp"
#include "vision/blurred_ring_fit.hpp"
#include "vision/catalogue_extension.hpp"
#include "vision/edge_blur.hpp"
#include "vision/filled_base_fit.hpp"
#include "vision/front_stripe.hpp"
#include "vision/hidden_border.hpp"
#include "vision/px_rect.hpp"
#include "vision/side_washout.hpp"
#include "vision/tall_terrain_mask.hpp"

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

// Does (a, b) in mm match a catalogue base either way round? Returns the error, or -1.
double MatchError(double a_mm, double b_mm, const BaseSize& s, double tol) {
  const double e1 = std::max(std::abs(a_mm - s.width_mm), std::abs(b_mm - s.depth_mm));
  const double e2 = std::max(std::abs(a_mm - s.depth_mm), std::abs(b_mm - s.width_mm));
  const double e = std::min(e1, e2);
  return e <= tol ? e : -1.0;
}

// Rectangle of a filled piece: minAreaRect for a start, then each side re-fitted as a line
// through the boundary points near it (pixel centres sit half a pixel inside the edge).
PxRect FitRect(const std::vector<cv::Point>& contour) {
  const cv::RotatedRect rr = cv::minAreaRect(contour);
  PxRect r;
  const double ang = rr.angle * kPi / 180.0;
  r.axis_a = {std::cos(ang), std::sin(ang)};
  r.center = rr.center;
  r.len_a = rr.size.width + 1.0;
  r.len_b = rr.size.height + 1.0;
  // Refine: for each of the 4 sides, the median offset of the boundary points near it.
  for (int iter = 0; iter < 2; ++iter) {
    const cv::Point2d b = r.AxisB();
    std::vector<double> lo_a, hi_a, lo_b, hi_b;
    std::vector<double> slope_a, slope_b;  // for the angle: offset vs position along the side
    std::vector<cv::Point2d> side_pts[4];
    for (const auto& p : contour) {
      const cv::Point2d d = cv::Point2d(p) - r.center;
      const double u = d.dot(r.axis_a), v = d.dot(b);
      const double ha = 0.5 * r.len_a, hb = 0.5 * r.len_b;
      // Only points away from the corners, near the outside of a side.
      if (std::abs(v) < 0.8 * hb && std::abs(u) > ha - std::max(3.0, 0.3 * ha)) {
        side_pts[u < 0 ? 0 : 1].push_back({v, u});
      } else if (std::abs(u) < 0.8 * ha && std::abs(v) > hb - std::max(3.0, 0.3 * hb)) {
        side_pts[v < 0 ? 2 : 3].push_back({u, v});
      }
    }
    const double side_len[4] = {1.6 * 0.5 * r.len_b, 1.6 * 0.5 * r.len_b, 1.6 * 0.5 * r.len_a,
                                1.6 * 0.5 * r.len_a};
    // Each side is where most of its boundary points lie: a figure's gun barrel or a lance
    // poking over the border adds a few points further out, which minAreaRect would follow.
    for (int side = 0; side < 4; ++side) {
      auto& pts = side_pts[side];
      if (pts.size() < 5) continue;
      std::vector<double> off;
      off.reserve(pts.size());
      for (const auto& q : pts) off.push_back(q.y);
      std::sort(off.begin(), off.end());
      const double window = 3.0;
      std::vector<size_t> count(off.size(), 0);
      size_t best_n = 0;
      for (size_t i = 0, j = 0; i < off.size(); ++i) {
        while (j < off.size() && off[j] <= off[i] + window) ++j;
        count[i] = j - i;
        best_n = std::max(best_n, count[i]);
      }
      // No clear line of points (a side hidden under a figure, a blurred ragged edge): keep
      // the points near the current side, as minAreaRect placed it.
      const double need = std::max(0.4 * side_len[side], 0.6 * static_cast<double>(best_n));
      if (static_cast<double>(best_n) < 0.4 * side_len[side]) {
        const double current = side == 0   ? -0.5 * r.len_a
                               : side == 1 ? 0.5 * r.len_a
                               : side == 2 ? -0.5 * r.len_b
                                           : 0.5 * r.len_b;
        std::erase_if(pts, [&](const cv::Point2d& q) { return std::abs(q.y - current) >= 2.5; });
        continue;
      }
      // The outermost line of points: an open frame also shows its border's inner edge.
      const bool outward_is_up = side == 1 || side == 3;
      size_t pick = 0;
      bool found = false;
      for (size_t k = 0; k < off.size(); ++k) {
        const size_t i = outward_is_up ? off.size() - 1 - k : k;
        if (static_cast<double>(count[i]) >= need) {
          pick = i;
          found = true;
          break;
        }
      }
      if (!found) continue;
      // Centre on that line's median and keep the points within 1.5 px of it.
      std::vector<double> in_window(off.begin() + static_cast<long>(pick),
                                    off.begin() + static_cast<long>(pick + count[pick]));
      const double med = in_window[in_window.size() / 2];
      const double lo = med - 1.5, hi = med + 1.5;
      std::erase_if(pts, [&](const cv::Point2d& q) { return q.y < lo || q.y > hi; });
    }
    // Each side: fit offset = c + m * t (t along the side) by least squares; the angle
    // correction is the mean slope, signs chosen so all four agree.
    double offset[4] = {-0.5 * r.len_a + 0.5, 0.5 * r.len_a - 0.5, -0.5 * r.len_b + 0.5,
                        0.5 * r.len_b - 0.5};
    double slope_sum = 0, slope_w = 0;
    for (int s = 0; s < 4; ++s) {
      const auto& pts = side_pts[s];
      if (pts.size() < 5) continue;
      double st = 0, so = 0, stt = 0, sto = 0;
      for (const auto& q : pts) {
        st += q.x;
        so += q.y;
        stt += q.x * q.x;
        sto += q.x * q.y;
      }
      const double n = static_cast<double>(pts.size());
      const double den = n * stt - st * st;
      const double m = den > 1e-9 ? (n * sto - st * so) / den : 0.0;
      offset[s] = (so - m * st) / n;
      // Sides 0/1 measure u against v: a rotation by +e moves u by -e*v -> slope -e.
      // Sides 2/3 measure v against u: slope +e.
      const double e = s < 2 ? -m : m;
      slope_sum += e * n;
      slope_w += n;
    }
    if (offset[1] - offset[0] < 2.0 || offset[3] - offset[2] < 2.0) break;  // degenerate
    const double e = slope_w > 0 ? slope_sum / slope_w : 0.0;
    const double ca = 0.5 * (offset[0] + offset[1]), cb = 0.5 * (offset[2] + offset[3]);
    r.center = r.center + ca * r.axis_a + cb * b;
    r.len_a = offset[1] - offset[0] + 1.0;  // pixel centres -> pixel edges
    r.len_b = offset[3] - offset[2] + 1.0;
    const double c = std::cos(e), s = std::sin(e);
    r.axis_a = {c * r.axis_a.x - s * r.axis_a.y, s * r.axis_a.x + c * r.axis_a.y};
  }
  return r;
}

// Fraction of pixels set in `mask` inside the band of the rectangle between depth d0 and d1
// (px, measured inward from the edge); side = -1 all four sides, else 0..3 (-a, +a, -b, +b)
// keeping only the middle `middle` fraction of the side's length.
double BandFraction(const cv::Mat& mask, const PxRect& r, double d0, double d1, int side,
                    double middle = 1.0) {
  const cv::Point2d b = r.AxisB();
  const double ha = 0.5 * r.len_a, hb = 0.5 * r.len_b;
  const double reach = std::max(ha, hb) + 2 + std::max(0.0, -d0);
  const int x0 = std::max(0, static_cast<int>(r.center.x - reach));
  const int x1 = std::min(mask.cols - 1, static_cast<int>(r.center.x + reach));
  const int y0 = std::max(0, static_cast<int>(r.center.y - reach));
  const int y1 = std::min(mask.rows - 1, static_cast<int>(r.center.y + reach));
  int total = 0, set = 0;
  for (int y = y0; y <= y1; ++y) {
    for (int x = x0; x <= x1; ++x) {
      const cv::Point2d d = cv::Point2d(x, y) - r.center;
      const double u = d.dot(r.axis_a), v = d.dot(b);
      const double dist[4] = {u + ha, ha - u, v + hb, hb - v};
      // Outside the rectangle only the band beyond one side counts (d0 < 0).
      if (std::abs(u) > ha || std::abs(v) > hb) {
        if (d0 >= 0) continue;
        int outside = 0;
        for (double dd : dist) outside += dd < 0;
        if (outside != 1) continue;
      }
      bool in = false;
      for (int s = 0; s < 4; ++s) {
        if (side >= 0 && s != side) continue;
        if (dist[s] < d0 || dist[s] >= d1) continue;
        const double along = s < 2 ? std::abs(v) / hb : std::abs(u) / ha;
        if (along > middle) continue;
        in = true;
      }
      if (!in) continue;
      ++total;
      if (mask.at<uchar>(y, x)) ++set;
    }
  }
  return total > 0 ? static_cast<double>(set) / total : 0.0;
}

// Side-colour coverage of the border band: the mean of the three best sides, since a white
// front stripe may cover the fourth.
double BorderCoverage(const cv::Mat& side_mask, const PxRect& r, double band_px) {
  double f[4];
  for (int s = 0; s < 4; ++s) f[s] = BandFraction(side_mask, r, 0.5, band_px, s);
  std::sort(f, f + 4);
  return (f[1] + f[2] + f[3]) / 3.0;
}

std::vector<std::vector<cv::Point>> ExternalContours(const cv::Mat& mask) {
  std::vector<std::vector<cv::Point>> contours;
  cv::findContours(mask.clone(), contours, cv::RETR_EXTERNAL, cv::CHAIN_APPROX_NONE);
  return contours;
}

class SideDetector {
 public:
  SideDetector(const cv::Mat& side_mask, double mm_per_px, const std::vector<BaseSize>& sizes,
               const StandDetectorOptions& options)
      : side_(side_mask), mm_(mm_per_px), sizes_(sizes), opt_(options) {
    min_dim_mm_ = 1e9;
    max_dim_mm_ = 0;
    for (const auto& s : sizes_) {
      min_dim_mm_ = std::min({min_dim_mm_, s.width_mm, s.depth_mm});
      max_dim_mm_ = std::max({max_dim_mm_, s.width_mm, s.depth_mm});
    }
  }

  std::vector<PxRect> Run() {
    for (const auto& c : ExternalContours(side_)) {
      std::vector<cv::Point> hull;
      cv::convexHull(c, hull);
      const double area_mm2 = cv::contourArea(hull) * mm_ * mm_;
      // Smaller than half the smallest base cannot be a base (or a block of them).
      if (area_mm2 < 0.5 * min_dim_mm_ * min_dim_mm_) continue;
      cv::Mat filled(side_.size(), CV_8U, cv::Scalar(0));
      cv::drawContours(filled, std::vector<std::vector<cv::Point>>{c}, 0, cv::Scalar(255),
                       cv::FILLED);
      Split(filled, c, 0);
    }
    return found_;
  }

 private:
  bool IsOneBase(const PxRect& r) const {
    const double a = r.len_a * mm_, b = r.len_b * mm_;
    return std::any_of(sizes_.begin(), sizes_.end(), [&](const BaseSize& s) {
      return MatchError(a, b, s, opt_.size_tolerance_mm) >= 0;
    });
  }

  // Median width of the side colour along the outline of r, mm: from the edge inward, over the
  // middle 60 % of each side. What one border looks like in this mask, blur included.
  double BorderWidthMm(const PxRect& r) const {
    const cv::Point2d b = r.AxisB();
    const cv::Point2d inward[4] = {r.axis_a, -r.axis_a, b, -b};
    std::vector<double> widths;
    for (int side = 0; side < 4; ++side) {
      const cv::Point2d n = inward[side];
      const cv::Point2d t(-n.y, n.x);
      const double half_len = 0.5 * (side < 2 ? r.len_b : r.len_a);
      const double half_other = 0.5 * (side < 2 ? r.len_a : r.len_b);
      for (double u = -0.6 * half_len; u <= 0.6 * half_len; u += 1.0) {
        const cv::Point2d edge = r.center - half_other * n + u * t;
        int first = -1, width = 0;
        for (int d = -2; d < static_cast<int>(half_other); ++d) {
          const cv::Point2d p = edge + (d + 0.5) * n;
          const int x = cvRound(p.x), y = cvRound(p.y);
          const bool set =
              x >= 0 && y >= 0 && x < side_.cols && y < side_.rows && side_.at<uchar>(y, x) != 0;
          if (set && first < 0) first = d;
          if (first >= 0) {
            if (!set) break;
            ++width;
          }
        }
        if (first >= 0 && first <= 2) widths.push_back(width * mm_);
      }
    }
    if (widths.empty()) return 0.0;
    std::nth_element(widths.begin(), widths.begin() + static_cast<long>(widths.size() / 2),
                     widths.end());
    return widths[widths.size() / 2];
  }

  // Two touching bases meet in a seam of two borders side by side: side colour between two
  // straight lines (the borders' inner edges) from one outer border to the other. A
  // side-coloured figure lying across a base (a gun barrel down the middle of a 40 x 40 base)
  // is bounded by curves, tapers and stops short. Returns the fraction of places along the
  // middle 70 % of the candidate seam (profile bins [k, e) across axis a or b of r, len its
  // length) where the side colour through the seam's middle ends within 1.5 px of both lines
  // (the median ends), and the median width there.
  struct SeamShape {
    double width_mm = 0;  // median width of side colour through the seam's middle
    double straight = 0;  // fraction of places where both sides lie on the lines
  };
  SeamShape MeasureSeam(const PxRect& r, bool across_a, double len, int k, int e) const {
    const cv::Point2d ax = across_a ? r.axis_a : r.AxisB();
    const cv::Point2d along = across_a ? r.AxisB() : r.axis_a;
    const double half_along = 0.5 * (across_a ? r.len_b : r.len_a);
    const double mid = 0.5 * (k + e) - 0.5 * len;  // the seam's middle, from the centre
    const double reach = 2 * (e - k) + 6.0 / mm_;
    const auto set_at = [&](double t, double s) {
      const cv::Point2d p = r.center + t * ax + s * along;
      const int x = cvRound(p.x), y = cvRound(p.y);
      return x >= 0 && y >= 0 && x < side_.cols && y < side_.rows && side_.at<uchar>(y, x) != 0;
    };
    std::vector<double> lo_end, hi_end;
    for (double s = -0.7 * half_along; s <= 0.7 * half_along; s += 1.0) {
      double lo = -1, hi = -1;  // a gap in the seam: neither end near the lines
      if (set_at(mid, s)) {
        lo = 0, hi = 0;
        while (lo < reach && set_at(mid - lo - 1.0, s)) lo += 1.0;
        while (hi < reach && set_at(mid + hi + 1.0, s)) hi += 1.0;
      }
      lo_end.push_back(lo);
      hi_end.push_back(hi);
    }
    if (lo_end.empty()) return {};
    const auto median = [](std::vector<double> v) {
      std::nth_element(v.begin(), v.begin() + static_cast<long>(v.size() / 2), v.end());
      return v[v.size() / 2];
    };
    const double lo_med = median(lo_end), hi_med = median(hi_end);
    int straight = 0, counted = 0;
    for (size_t i = 0; i < lo_end.size(); ++i) {
      // Side colour running on along the seam's line (another seam crossing it in a 2 x 2
      // block) says nothing about this seam's edges.
      if (lo_end[i] >= reach || hi_end[i] >= reach) continue;
      ++counted;
      straight += lo_end[i] >= 0 && std::abs(lo_end[i] - lo_med) <= 1.5 &&
                  std::abs(hi_end[i] - hi_med) <= 1.5;
    }
    return {(lo_med + hi_med + 1.0) * mm_,
            counted > 0 ? static_cast<double>(straight) / static_cast<double>(counted) : 0.0};
  }

  // Bins [k, e) across axis a (across_a) or b of r are two borders side by side: about twice
  // as wide as this piece's outer border, between straight lines.
  bool IsSeam(const PxRect& r, bool across_a, double len, int k, int e) const {
    const SeamShape seam = MeasureSeam(r, across_a, len, k, e);
    return seam.width_mm >= opt_.min_seam_border_ratio * BorderWidthMm(r) &&
           seam.straight >= opt_.min_seam_straightness;
  }

  void Split(const cv::Mat& filled, const std::vector<cv::Point>& contour, int depth) {
    const PxRect r = FitRect(contour);
    const double rect_area = r.len_a * r.len_b;
    // Convex hull: a frame opened by a white front stripe still fills its rectangle.
    std::vector<cv::Point> hull;
    cv::convexHull(contour, hull);
    const double fill = cv::contourArea(hull) / std::max(1.0, rect_area);
    const bool one_base = IsOneBase(r) && fill > 0.85;
    if (depth > 6) return;
    // Cross-section profiles along both axes: side-colour fraction of the filled piece.
    const cv::Rect box = cv::boundingRect(contour) & cv::Rect(0, 0, side_.cols, side_.rows);
    struct Cut {
      double score = -1;
      bool both_fit = false;  // both pieces have catalogue lengths
      bool along_a = true;
      double at = 0;  // offset from the centre along the cut axis, px
    } best;
    for (int axis = 0; axis < 2; ++axis) {
      const cv::Point2d ax = axis == 0 ? r.axis_a : r.AxisB();
      const double len = axis == 0 ? r.len_a : r.len_b;
      if (!(len > 2.0 && len < 1e5)) continue;
      const int bins = static_cast<int>(std::ceil(len)) + 2;
      std::vector<int> side_n(static_cast<size_t>(bins), 0), fill_n(static_cast<size_t>(bins), 0);
      for (int y = box.y; y < box.y + box.height; ++y) {
        for (int x = box.x; x < box.x + box.width; ++x) {
          if (!filled.at<uchar>(y, x)) continue;
          const double t = (cv::Point2d(x, y) - r.center).dot(ax) + 0.5 * len;
          const int k = std::clamp(static_cast<int>(t), 0, bins - 1);
          ++fill_n[static_cast<size_t>(k)];
          if (side_.at<uchar>(y, x)) ++side_n[static_cast<size_t>(k)];
        }
      }
      const double min_piece = (min_dim_mm_ - opt_.size_tolerance_mm) / mm_;
      // Runs of high coverage well inside the piece are seams.
      int k = 0;
      while (k < bins) {
        auto cov = [&](int i) {
          const int f = fill_n[static_cast<size_t>(i)];
          return f > 3 ? static_cast<double>(side_n[static_cast<size_t>(i)]) / f : 0.0;
        };
        if (cov(k) < 0.8) {
          ++k;
          continue;
        }
        int e = k;
        double sum = 0;
        while (e < bins && cov(e) >= 0.8) sum += cov(e++);
        const double mid = 0.5 * (k + e);  // bins [k, e) -> centre of the run
        const double width_mm = (e - k) * mm_;
        // A seam has ordinary (mostly figure) cross-sections on both sides of it.
        bool low_before = false, low_after = false;
        for (int i = 0; i < k; ++i)
          low_before |= fill_n[static_cast<size_t>(i)] > 3 && cov(i) < 0.8;
        for (int i = e; i < bins; ++i)
          low_after |= fill_n[static_cast<size_t>(i)] > 3 && cov(i) < 0.8;
        if (low_before && low_after && mid > min_piece && len - mid > min_piece &&
            width_mm >= 1.2 * opt_.min_border_mm && IsSeam(r, axis == 0, len, k, e)) {
          // Prefer cuts leaving pieces of catalogue lengths, then wide, solid seams.
          // Each piece must be a whole catalogue base (its length across the cut too): a
          // side-coloured figure across a 40 x 20 base would otherwise cut it into 20 x 20s.
          const double across_mm = (axis == 0 ? r.len_b : r.len_a) * mm_;
          bool fit_lo = false, fit_hi = false;
          for (const auto& s : sizes_) {
            fit_lo |= MatchError(mid * mm_, across_mm, s, opt_.size_tolerance_mm) >= 0;
            fit_hi |= MatchError((len - mid) * mm_, across_mm, s, opt_.size_tolerance_mm) >= 0;
          }
          // Frame pattern: the cross-sections either side are mostly not side colour (open
          // interiors). Bases painted solid in the side colour show no such pattern, and a
          // band between two figures on one of them is not a seam.
          double lo_sum = 0, hi_sum = 0;
          int lo_n = 0, hi_n = 0;
          for (int i = 0; i < k; ++i) {
            if (fill_n[static_cast<size_t>(i)] > 3) lo_sum += cov(i), ++lo_n;
          }
          for (int i = e; i < bins; ++i) {
            if (fill_n[static_cast<size_t>(i)] > 3) hi_sum += cov(i), ++hi_n;
          }
          const bool framed = lo_n > 0 && hi_n > 0 && lo_sum / lo_n < 0.7 && hi_sum / hi_n < 0.7;
          const double score = (fit_lo + fit_hi) * 1000.0 + sum;
          if (score > best.score)
            best = {score, fit_lo && fit_hi && framed, axis == 0, mid - 0.5 * len};
        }
        k = e;
      }
    }
    // Two bases side by side can have exactly one bigger base's size (2 x 40x20 = 40x40):
    // a full seam splitting it into catalogue pieces wins over the single base.
    if (one_base && !best.both_fit) {
      if (BorderCoverage(side_, r, 0.8 * opt_.min_border_mm / mm_) >= opt_.min_border_coverage) {
        found_.push_back(r);
      }
      return;
    }
    if (best.score < 0) return;
    const cv::Point2d ax = best.along_a ? r.axis_a : r.AxisB();
    for (int half = 0; half < 2; ++half) {
      cv::Mat part(filled.size(), CV_8U, cv::Scalar(0));
      for (int y = box.y; y < box.y + box.height; ++y) {
        for (int x = box.x; x < box.x + box.width; ++x) {
          if (!filled.at<uchar>(y, x)) continue;
          const double t = (cv::Point2d(x, y) - r.center).dot(ax);
          if ((t < best.at) == (half == 0)) part.at<uchar>(y, x) = 255;
        }
      }
      for (const auto& c : ExternalContours(part)) {
        if (cv::contourArea(c) * mm_ * mm_ < 0.5 * min_dim_mm_ * min_dim_mm_) continue;
        cv::Mat sub(filled.size(), CV_8U, cv::Scalar(0));
        cv::drawContours(sub, std::vector<std::vector<cv::Point>>{c}, 0, cv::Scalar(255),
                         cv::FILLED);
        Split(sub, c, depth + 1);
      }
    }
  }

  const cv::Mat& side_;
  double mm_;
  const std::vector<BaseSize>& sizes_;
  const StandDetectorOptions& opt_;
  double min_dim_mm_ = 0, max_dim_mm_ = 0;
  std::vector<PxRect> found_;
};

cv::Mat CleanMask(const cv::Mat& mask) {
  cv::Mat out;
  const cv::Mat k = cv::getStructuringElement(cv::MORPH_RECT, {3, 3});
  // Close only: borders may be only 2-3 px wide at webcam resolution, an opening would
  // break them; specks are dropped later by size.
  cv::morphologyEx(mask, out, cv::MORPH_CLOSE, k);
  return out;
}

// Bright, colourless pixels (a white front stripe), relative to the local light.
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

// Moves each side of the rectangle to the sub-pixel edge of the base's top in the colour
// image: along profiles across the side, where the colour has moved half-way from the border
// just inside toward the surface just outside. Working in RGB (not chroma) keeps a base's
// darker, same-hued side faces and blur out of the top. Sides with no contrast (a touching
// base) stay put. The outline found is the top face, at the base's height. Returns, per side
// (-a, +a, -b, +b), whether the image placed it.
std::array<bool, 4> RefineEdges(const cv::Mat& img, PxRect& r, double mm, double min_border_mm) {
  std::array<bool, 4> placed{};
  const cv::Point2d b = r.AxisB();
  const cv::Point2d normals[4] = {-r.axis_a, r.axis_a, -b, b};
  double shift[4] = {0, 0, 0, 0};
  for (int side = 0; side < 4; ++side) {
    const cv::Point2d n = normals[side];
    const cv::Point2d t(-n.y, n.x);
    const double half_len = 0.5 * (side < 2 ? r.len_b : r.len_a);
    const double half_other = 0.5 * (side < 2 ? r.len_a : r.len_b);
    const cv::Point2d edge_mid = r.center + half_other * n;
    const double in0 = -std::max(1.0, 0.8 * min_border_mm / mm), in1 = -0.6 / mm;
    const double out0 = 1.5 / mm, out1 = 3.0 / mm;
    // Search window for the edge: well outside the border's inner edge (>= min_border_mm in).
    const double lo = -std::min(2.0, 0.6 * min_border_mm) / mm, hi = 2.0 / mm;
    const double step = 0.25;
    const int n_steps = static_cast<int>((hi - lo) / step) + 1;
    std::vector<cv::Vec3f> prof(static_cast<size_t>(n_steps) + 4);
    std::vector<double> grad(static_cast<size_t>(n_steps));
    std::vector<double> crossings;
    for (int k = -6; k <= 6; ++k) {
      const cv::Point2d base = edge_mid + (0.6 * half_len * k / 6.0) * t;
      cv::Vec3f inside(0, 0, 0), outside(0, 0, 0);
      int ni = 0, no = 0;
      for (double d = in0; d <= in1; d += 0.5) inside += SampleBgr(img, base + d * n), ++ni;
      for (double d = out0; d <= out1; d += 0.5) outside += SampleBgr(img, base + d * n), ++no;
      inside *= 1.0f / static_cast<float>(ni);
      outside *= 1.0f / static_cast<float>(no);
      const cv::Vec3f dir = inside - outside;
      const float contrast2 = dir.dot(dir);
      if (contrast2 < 30.0f * 30.0f || inside[0] < 0 || outside[0] < 0) continue;
      // The edge of the top is the first strong peak of the colour gradient going outward
      // (the sub-pixel gradient peak, as the calibration measures grid lines): beyond it a
      // base's darker side face and its shadow add further, weaker steps that a half-way
      // level between border and mat colours would be pulled toward.
      for (int i = 0; i < n_steps + 4; ++i) {
        prof[static_cast<size_t>(i)] = SampleBgr(img, base + (lo + (i - 2) * step) * n);
      }
      double gmax = 0;
      for (int i = 0; i < n_steps; ++i) {
        const cv::Vec3f dv = prof[static_cast<size_t>(i) + 4] - prof[static_cast<size_t>(i)];
        grad[static_cast<size_t>(i)] = std::sqrt(dv.dot(dv));
        gmax = std::max(gmax, grad[static_cast<size_t>(i)]);
      }
      if (gmax < 1e-6) continue;
      for (int i = 1; i + 1 < n_steps; ++i) {
        const double g0 = grad[static_cast<size_t>(i) - 1], g1 = grad[static_cast<size_t>(i)],
                     g2 = grad[static_cast<size_t>(i) + 1];
        if (g1 < 0.5 * gmax || g1 < g0 || g1 < g2) continue;
        const double den = g0 - 2 * g1 + g2;
        const double sub = den < -1e-9 ? std::clamp(0.5 * (g0 - g2) / den, -0.5, 0.5) : 0.0;
        crossings.push_back(lo + (i + sub) * step);
        break;
      }
    }
    if (crossings.size() >= 4) {
      std::nth_element(crossings.begin(),
                       crossings.begin() + static_cast<long>(crossings.size() / 2),
                       crossings.end());
      // Edge position relative to the current side, in px; sample positions are centres of
      // pixels so a half-way crossing at d means the edge is at d.
      shift[side] = std::clamp(crossings[crossings.size() / 2], -2.5 / mm, 2.5 / mm);
      placed[static_cast<size_t>(side)] = true;
    }
  }
  // Apply: the -a side moves outward by shift[0] (along -axis_a), etc.
  const double da = shift[1] - shift[0], db = shift[3] - shift[2];
  r.center += 0.5 * da * r.axis_a + 0.5 * db * b;
  r.len_a += shift[0] + shift[1];
  r.len_b += shift[2] + shift[3];
  return placed;
}

// A side of a base facing the camera shows the base's side face beside its top: on the mat
// plane it spans from where the top's edge is seen to the base's foot, side_face_px further out
// (the top lies base_h_in above the mat, so it is seen shifted away from the camera). The frame's
// blur merges its two steps (top to side face, side face to mat) into one edge that lies
// somewhere in that span, nearer the foot the more the side face looks like the top; its
// colour (paint, light) is unknown, so each such side that RefineEdges placed is taken half way
// back toward the top: its error is then at most half the span whatever the side face shows.
void CentreInSideFaceSpan(const TopView& view, double base_h_in, const std::array<bool, 4>& placed,
                          PxRect& r) {
  const cv::Point2d b = r.AxisB();
  const cv::Point2d outward[4] = {-r.axis_a, r.axis_a, -b, b};
  double inward_px[4] = {0, 0, 0, 0};
  for (int side = 0; side < 4; ++side) {
    if (!placed[static_cast<size_t>(side)]) continue;
    const cv::Point2d n = outward[side];
    const cv::Point2d edge_px = r.center + 0.5 * (side < 2 ? r.len_a : r.len_b) * n;
    // Where the top's edge seen at edge_px stands; its foot is seen there, on the mat.
    const Vec2 foot = view.TableAtHeight(view.TableFromRectified(edge_px), base_h_in);
    const cv::Point2d foot_px = view.RectifiedFromTable(foot);
    const double side_face_px = (foot_px - edge_px).dot(n);  // > 0: the side face shows
    if (side_face_px > 0) inward_px[side] = 0.5 * side_face_px;
  }
  r.center -=
      0.5 * (inward_px[1] - inward_px[0]) * r.axis_a + 0.5 * (inward_px[3] - inward_px[2]) * b;
  r.len_a -= inward_px[0] + inward_px[1];
  r.len_b -= inward_px[2] + inward_px[3];
}

// Terrain that may show a side colour over a whole base-sized patch: a roof (house), water
// and the water under a bridge. Known from the board file, so only there is a base-sized shape
// whose inside is nearly all the side colour taken for terrain: elsewhere it is a base with
// figures in its side colour (blue-coated infantry on a blue base).
bool MayShowSideColour(Terrain t) {
  return t == Terrain::kHouse || t == Terrain::kWater || t == Terrain::kBridge;
}

// Terrain that may show a solid patch of a shade toward a side's colour: the above and roads
// (brown, toward red), where only a base's strict colour is taken for a filled base.
bool MayShowSolidSideShade(Terrain t) { return MayShowSideColour(t) || t == Terrain::kRoad; }

// Where the board says terrain may show a side colour: its house, water and bridge squares and
// features, grown by `grow_px` (the blur at their edges), CV_8U 255 in the top view.
cv::Mat TerrainMask(const Board& board, const TopView& view, cv::Size size, int grow_px,
                    bool (*may_show)(Terrain) = MayShowSideColour) {
  cv::Mat mask(size, CV_8U, cv::Scalar(0));
  const auto fill = [&](const std::vector<Vec2>& outline) {
    FillTableOutline(view, outline, mask);
  };
  const Grid& g = board.grid;
  for (int row = 0; row < g.rows; ++row) {
    for (int col = 0; col < g.cols; ++col) {
      if (!may_show(board.TerrainAt({col, row}))) continue;
      const double s = g.square_size_in, x = col * s, y = row * s;
      fill({{x, y}, {x + s, y}, {x + s, y + s}, {x, y + s}});
    }
  }
  for (const auto& f : board.features) {
    if (may_show(f.type)) fill(f.outline.vertices);
  }
  if (grow_px > 0) {
    cv::dilate(mask, mask,
               cv::getStructuringElement(cv::MORPH_RECT, {2 * grow_px + 1, 2 * grow_px + 1}));
  }
  return mask;
}

// Where the mat point `on_mat` is seen when the camera looks at `p` raised height_in: the
// inverse of TopView::TableAtHeight, by fixed-point steps (it is nearly a scaling about the
// camera's foot, so a few steps converge).
Vec2 SeenOnMat(const TopView& view, Vec2 p, double height_in) {
  Vec2 on_mat = p;
  for (int i = 0; i < 6; ++i) on_mat = on_mat + (p - view.TableAtHeight(on_mat, height_in));
  return on_mat;
}

// Fraction of the valid pixels inside r (deeper than depth_px) whose chroma lies within 0.12
// (about 12 % in each channel ratio) of their median: near 1 for one paint (water, a roof),
// low for figures of several colours on flock.
double InteriorUniformity(const cv::Mat& chroma, const cv::Mat& valid, const PxRect& r,
                          double depth_px) {
  const cv::Point2d b = r.AxisB();
  const double ha = 0.5 * r.len_a - depth_px, hb = 0.5 * r.len_b - depth_px;
  if (ha <= 0 || hb <= 0) return 0.0;
  const double reach = std::hypot(ha, hb) + 1;
  const int x0 = std::max(0, static_cast<int>(r.center.x - reach));
  const int x1 = std::min(chroma.cols - 1, static_cast<int>(r.center.x + reach));
  const int y0 = std::max(0, static_cast<int>(r.center.y - reach));
  const int y1 = std::min(chroma.rows - 1, static_cast<int>(r.center.y + reach));
  std::vector<cv::Vec2f> px;
  for (int y = y0; y <= y1; ++y) {
    for (int x = x0; x <= x1; ++x) {
      const cv::Point2d d = cv::Point2d(x, y) - r.center;
      if (std::abs(d.dot(r.axis_a)) > ha || std::abs(d.dot(b)) > hb) continue;
      if (valid.at<uchar>(y, x)) px.push_back(chroma.at<cv::Vec2f>(y, x));
    }
  }
  if (px.empty()) return 0.0;
  std::vector<float> c0, c1;
  c0.reserve(px.size());
  c1.reserve(px.size());
  for (const auto& p : px) {
    c0.push_back(p[0]);
    c1.push_back(p[1]);
  }
  const auto mid = static_cast<long>(px.size() / 2);
  std::nth_element(c0.begin(), c0.begin() + mid, c0.end());
  std::nth_element(c1.begin(), c1.begin() + mid, c1.end());
  const cv::Vec2f med(c0[static_cast<size_t>(mid)], c1[static_cast<size_t>(mid)]);
  constexpr float kSamePaint = 0.12f;
  const auto same = std::count_if(px.begin(), px.end(), [&](const cv::Vec2f& p) {
    const cv::Vec2f d = p - med;
    return d.dot(d) < kSamePaint * kSamePaint;
  });
  return static_cast<double>(same) / static_cast<double>(px.size());
}

// A base-sized shape in terrain that may show a side colour (InTerrain), whose inside is
// mostly toward the side's colour (`toward`: ClassifyTowardSides with a wide cone) and one
// paint throughout: water or a roof, not a base with figures.
bool InTerrain(const cv::Mat& terrain, const PxRect& r) {
  const cv::Point c(cvRound(r.center.x), cvRound(r.center.y));
  return !terrain.empty() && cv::Rect(0, 0, terrain.cols, terrain.rows).contains(c) &&
         terrain.at<uchar>(c) != 0;
}

bool LooksLikeTerrain(const cv::Mat& toward, const cv::Mat& chroma, const cv::Mat& valid,
                      const PxRect& r, double border_px, const StandDetectorOptions& options) {
  const double inner = BandFraction(toward, r, border_px + 1.0, 1e6, -1);
  return inner > options.max_terrain_inner_fraction &&
         InteriorUniformity(chroma, valid, r, border_px + 1.0) > options.min_terrain_uniformity;
}

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

// Per side, the evidence left for a second look: pixels part of the way toward the side's
// colour (only the strict colour in terrain: the edge of water or a roof blurred into the mat
// lies part of the way toward a side's colour all round) or in its strict mask, with every
// side's bases found so far, grown 1 mm, taken away (a patch of one side's colour on another
// side's base is its figures).
std::vector<cv::Mat> LeftoverEvidence(const cv::Mat& chroma, const cv::Mat& valid,
                                      const cv::Vec2f& mat_chroma, const cv::Mat& terrain,
                                      const StandDetection& det, double mm,
                                      const std::vector<std::vector<PxRect>>& rects) {
  cv::Mat smooth;
  cv::blur(chroma, smooth, {3, 3});  // pixel noise would break a washed-out border into dots
  const std::vector<cv::Mat> loose = det.colors.ClassifyTowardSides(smooth, valid, mat_chroma);
  cv::Mat claimed(chroma.size(), CV_8U, cv::Scalar(0));
  for (const auto& side_rects : rects) {
    for (const PxRect& r : side_rects) {
      cv::fillConvexPoly(claimed, GrownCorners(r, 1.0 / mm), cv::Scalar(255));
    }
  }
  std::vector<cv::Mat> evidence;
  for (size_t s = 0; s < rects.size() && s < loose.size(); ++s) {
    const cv::Mat usable = terrain.empty() ? loose[s] : loose[s] & ~terrain;
    evidence.push_back((usable | det.side_masks[s]) & ~claimed);
  }
  return evidence;
}

// Bases the colour blobs missed, fitted as rings to the border evidence that is left once the
// found bases (grown 1 mm for their blurred edges) are taken away.
// In terrain (CV_8U, may be empty: see TerrainMask) only the strict colour counts as border
// evidence: the edge of water or a roof blurred into the mat lies part of the way toward a
// side's colour all round, as a washed-out border does.
void AddRingFits(const cv::Mat& chroma, const cv::Mat& valid, const cv::Vec2f& mat_chroma,
                 const cv::Mat& terrain, const cv::Mat& hidden, const StandDetection& det,
                 double mm, const std::vector<BaseSize>& sizes, const StandDetectorOptions& options,
                 std::vector<std::vector<PxRect>>& rects) {
  const std::vector<cv::Mat> evidence =
      LeftoverEvidence(chroma, valid, mat_chroma, terrain, det, mm, rects);
  for (size_t s = 0; s < evidence.size(); ++s) {
    for (const RingFit& f :
         FitBasesToBorderEvidence(evidence[s], mm, sizes, options.ring_fit, hidden)) {
      rects[s].push_back(f.rect);
    }
  }
}

// Bases whose side's evidence is one solid patch (figures painted near the side's colour, or
// blur melting a small base's border and figures together; see vision/filled_base_fit.hpp),
// on the same evidence as the ring fit, with every base found so far (grown 1 mm) taken away.
void AddFilledFits(const cv::Mat& top_bgr, const cv::Mat& chroma, const cv::Mat& valid,
                   const cv::Vec2f& mat_chroma, const cv::Mat& terrain, const StandDetection& det,
                   double mm, const std::vector<BaseSize>& sizes,
                   const StandDetectorOptions& options, std::vector<std::vector<PxRect>>& rects) {
  // How soft the frame is, from the bases found so far (every side's).
  const double blur_mm = EdgeBlurMm(top_bgr, AllRects(rects), mm);
  if (blur_mm < options.filled_fit.min_blur_mm) return;
  const std::vector<cv::Mat> evidence =
      LeftoverEvidence(chroma, valid, mat_chroma, terrain, det, mm, rects);
  for (size_t s = 0; s < evidence.size(); ++s) {
    for (const PxRect& r : FitFilledBases(evidence[s], mm, sizes, blur_mm, options.filled_fit)) {
      rects[s].push_back(r);
    }
  }
}

bool Overlaps(const PxRect& r, const std::vector<PxRect>& others) {
  return std::any_of(others.begin(), others.end(), [&](const PxRect& o) {
    return cv::norm(r.center - o.center) < 0.5 * std::min({r.len_a, r.len_b, o.len_a, o.len_b});
  });
}

// Fraction of r deeper than depth_px from its edge that is set in mask (1 when nothing is
// that deep).
double InteriorFraction(const cv::Mat& mask, const PxRect& r, double depth_px) {
  const double ha = 0.5 * r.len_a - depth_px, hb = 0.5 * r.len_b - depth_px;
  if (ha <= 0 || hb <= 0) return 1.0;
  cv::Mat inside(mask.size(), CV_8U, cv::Scalar(0));
  cv::fillConvexPoly(inside, GrownCorners(r, -depth_px), cv::Scalar(255));
  const int n = cv::countNonZero(inside);
  return n > 0 ? static_cast<double>(cv::countNonZero(inside & mask)) / n : 1.0;
}

// Bases of a side whose colour this camera washes out toward the mat, past the colour model's
// gate (see vision/side_washout.hpp). Where several base-shaped rings of relaxed evidence lie
// where no base was found, the side is refitted from those rings' border pixels, detected
// again, and the bases that finds where none was found are added. Bases already found keep
// the model that found them: a refit to the washed-out rings alone would lose saturated
// borders elsewhere in the frame (uneven light).
void AddWashedOutBases(const cv::Mat& chroma, const cv::Mat& valid, const cv::Vec2f& mat_chroma,
                       double mm, const std::vector<BaseSize>& sizes,
                       const StandDetectorOptions& options, StandDetection& det,
                       std::vector<std::vector<PxRect>>& rects) {
  const WashoutOptions washout;
  cv::Mat smooth;
  cv::blur(chroma, smooth, {3, 3});  // pixel noise would break a washed-out border into dots
  const std::vector<cv::Mat> loose = TowardSidesMasks(smooth, valid, mat_chroma, det.colors.sides(),
                                                      washout.min_fraction, washout.cone);
  const double t = std::max(1.0, options.min_border_mm / mm - 2.0);
  for (size_t s = 0; s < rects.size() && s < loose.size(); ++s) {
    std::vector<PxRect> missed;
    // Bases already found are left out: their rings need no fit (and most frames have no
    // washed-out side, so this keeps the search cheap).
    cv::Mat evidence = loose[s].clone();
    for (const PxRect& r : rects[s]) {
      cv::fillConvexPoly(evidence, GrownCorners(r, 2.0 / mm), cv::Scalar(0));
    }
    for (const RingFit& f : WashoutCandidates(evidence, mm, sizes, options.ring_fit, washout)) {
      if (!Overlaps(f.rect, rects[s])) missed.push_back(f.rect);
    }
    if (static_cast<int>(missed.size()) < washout.min_candidates) continue;
    const cv::Mat gated = BorderBand(chroma.size(), missed, 1.0, t) & loose[s];
    if (cv::countNonZero(gated) < 50) continue;
    SideColorModel washed = det.colors;
    washed.Refit(s, chroma, gated);
    const cv::Mat mask = CleanMask(washed.ClassifyChroma(chroma, valid, &mat_chroma)[s]);
    const std::vector<PxRect> again = SideDetector(mask, mm, sizes, options).Run();
    const std::vector<PxRect> before = rects[s];
    // Anything of the side's hue at all, for the interior test: the blurred edge of water or a
    // roof in a stronger shade of the side's colour passes the refitted gate as a ring.
    const cv::Mat any_hue = mask | loose[s] | det.side_masks[s];
    // Only where a washed-out ring was seen: the refitted gate also takes in figures and
    // terrain of a paler shade of the side's colour.
    for (const PxRect& r : again) {
      if (!Overlaps(r, before) && Overlaps(r, missed) &&
          InteriorFraction(any_hue, r, options.ring_fit.interior_depth_mm / mm) <=
              options.ring_fit.max_interior_fraction) {
        rects[s].push_back(r);
      }
    }
  }
}

// Fraction of the middle 80 % of side `side` of r (0..3: -a, +a, -b, +b) where the image
// steps in colour across the edge: the colour in_px inside differs from the colour between
// out0_px and out1_px outside by more than min_step (BGR distance). A base's top against the
// mat (or a road) steps all along its outline, whatever its border's shade; the mat does not.
double StepFraction(const cv::Mat& img, const PxRect& r, int side, double in_px, double out0_px,
                    double out1_px, double min_step) {
  const cv::Point2d b = r.AxisB();
  const cv::Point2d inward[4] = {r.axis_a, -r.axis_a, b, -b};
  const cv::Point2d n = inward[side];
  const cv::Point2d t(-n.y, n.x);
  const double half_len = 0.5 * (side < 2 ? r.len_b : r.len_a);
  const double half_other = 0.5 * (side < 2 ? r.len_a : r.len_b);
  const auto at = [&](cv::Point2d p, cv::Vec3d& c) {
    const int x = cvRound(p.x), y = cvRound(p.y);
    if (x < 0 || y < 0 || x >= img.cols || y >= img.rows) return false;
    c = cv::Vec3d(img.at<cv::Vec3b>(y, x));
    return true;
  };
  int n_all = 0, n_step = 0;
  for (double u = -0.8 * half_len; u <= 0.8 * half_len; u += 1.0) {
    const cv::Point2d edge = r.center - half_other * n + u * t;
    cv::Vec3d in, out_sum(0, 0, 0), c;
    if (!at(edge + in_px * n, in)) continue;
    int k = 0;
    for (double d = out0_px; d <= out1_px; d += 1.0) {
      if (at(edge - d * n, c)) out_sum += c, ++k;
    }
    if (k == 0) continue;
    ++n_all;
    n_step += cv::norm(in - out_sum / k) > min_step;
  }
  return n_all > 0 ? static_cast<double>(n_step) / n_all : 0.0;
}

// How a base's outline is read on this frame, shared by GrowShortBases and MergePieces: the
// border band (0.8 of the thinnest border), the depth inside the top read against the mat, and
// the mat band outside it, past the frame's blur.
struct OutlineProbe {
  OutlineProbe(const StandDetectorOptions& options, double mm, double blur_mm)
      : border_px(0.8 * options.min_border_mm / mm),
        in_px(0.5 * options.min_border_mm / mm),
        gap0((1.0 + options.filled_fit.blur_spread * blur_mm) / mm),
        gap1(gap0 + 2.5 / mm) {}
  double border_px, in_px, gap0, gap1;
  static constexpr double kMinStep = 40.0;  // BGR distance: border or base top against the mat

  // Fraction of side `side` of r showing the side colour in the border band.
  double Colour(const cv::Mat& mask, const PxRect& r, int side) const {
    return BandFraction(mask, r, 0.5, border_px, side, 0.8);
  }
  // ... or, where shadow or glare has taken that colour, a step to the mat.
  double Outline(const cv::Mat& mask, const cv::Mat& top_bgr, const PxRect& r, int side) const {
    return std::max(Colour(mask, r, side),
                    StepFraction(top_bgr, r, side, in_px, gap0, gap1, kMinStep));
  }
};

// A base found short of its catalogue size: its colour blob stopped at figures or at the front
// stripe, half way across the base. It is grown to a larger catalogue size sharing one of its
// sides when the added part shows the rest of a base's outline: the side colour along its far
// edge and both its flanks, and none just beyond them (past the frame's blur). Two touching
// bases are not one: the grown base may not cover another base found (other than pieces of
// its own side lying mostly inside it, which are this base and are dropped: IsPieceOf), nor a
// seam (the side colour on both sides of where the smaller base ended, two borders side by
// side).
void GrowShortBases(const cv::Mat& top_bgr, const std::vector<cv::Mat>& masks, double mm,
                    const std::vector<BaseSize>& sizes, const StandDetectorOptions& options,
                    double blur_mm, std::vector<std::vector<PxRect>>& rects) {
  const double tol = options.size_tolerance_mm;
  const OutlineProbe probe(options, mm, blur_mm);
  const double border_px = probe.border_px, gap0 = probe.gap0, gap1 = probe.gap1;
  // A shadowed or glare-washed border keeps 0.3-1.0 of its side's colour on some side of the
  // added part; the mat or another side's base beside a base shows 0.0-0.2.
  constexpr double kMinColour = 0.25;
  for (size_t s = 0; s < rects.size() && s < masks.size(); ++s) {
    const cv::Mat& mask = masks[s];
    for (size_t i = 0; i < rects[s].size(); ++i) {
      PxRect& r = rects[s][i];
      PxRect best = r;
      double best_score = -1;
      for (const CatalogueExtension& e :
           CatalogueExtensions(r, mm, sizes, tol, 2 * tol, std::numeric_limits<double>::max())) {
        const PxRect& added = e.added;
        const int far = e.far, near = far ^ 1, flank0 = e.flank0;
        // Each outer side shows the border's colour or, where shadow or glare has taken that, a
        // step to the mat. At least one of them must show some of the side's colour
        // (kMinColour): a step alone is also the edge of a neighbouring base of the other side,
        // or of terrain.
        double colour = 0;
        const auto outline = [&](int side) {
          colour = std::max(colour, probe.Colour(mask, added, side));
          return probe.Outline(mask, top_bgr, added, side);
        };
        const double far_in = outline(far);
        const double flank_in = std::min(outline(flank0), outline(flank0 + 1));
        double beyond = BandFraction(mask, added, -gap1, -gap0, far, 0.8);
        for (const int f : {flank0, flank0 + 1}) {
          beyond = std::max(beyond, BandFraction(mask, added, -gap1, -gap0, f, 0.8));
        }
        const bool seam = BandFraction(mask, added, 0.5, border_px, near, 0.8) > 0.8 &&
                          BandFraction(mask, r, 0.5, border_px, near ^ 1, 0.8) > 0.8;
        if (far_in < options.min_border_coverage || flank_in < options.min_border_coverage ||
            colour < kMinColour || beyond > 0.15 || seam ||
            OverlapsAnother(e.grown, s, rects, &r)) {
          continue;
        }
        const double score = far_in + flank_in - beyond;
        if (score > best_score) best_score = score, best = e.grown;
      }
      if (best_score < 0) continue;
      r = best;
      // The pieces of this base other passes found are this base (rects[s] may move).
      const PxRect grown = r;
      for (size_t j = rects[s].size(); j-- > 0;) {
        if (j != i && IsPieceOf(rects[s][j], grown)) {
          rects[s].erase(rects[s].begin() + static_cast<long>(j));
          if (j < i) --i;
        }
      }
    }
  }
}

// A base whose border on one side lies in a figure's shadow comes out short across it: the
// plain colour gate loses that border and its blob ends at the base's inside. The shadow-aware
// gate (shadow_mask: the plain gate's pixels plus shadowed ones continuing them) keeps it, but
// it also takes a base's darker side face, which lies outside the top beyond a lit border edge.
// So it may only complete a base to its catalogue size, and only across a side where the top
// shows no lit border (the blob ended inside the base, not at a border's outer edge): there the
// added strip must show the shadowed border along a third of its far edge or more and one flank
// continuing a lit one (the figures, leaning over the border as the tilted camera sees them, may
// hide the rest), and no side colour just beyond it (past the blur).
void ExtendIntoShadow(PxRect& r, size_t s, const cv::Mat& plain_mask,
                      const std::function<const cv::Mat&()>& shadow_mask, double mm,
                      const std::vector<BaseSize>& sizes, const StandDetectorOptions& options,
                      const OutlineProbe& probe, const std::vector<std::vector<PxRect>>& rects,
                      const PxRect* self) {
  const double tol = options.size_tolerance_mm;
  // Under half the narrowest border short: edge placement, RefineEdges' job.
  const double min_ext_mm = 0.5 * options.min_border_mm;
  // A lit border along the side: the top ends there (the blob reached the border's outer edge).
  constexpr double kMaxLitEnd = 0.5;
  // A third of the far border: the figures leaning over it (as the tilted camera sees them)
  // and the shadow's blur may hide the rest; a flank must still continue a lit one.
  constexpr double kMinFarBorder = 0.35;
  constexpr double kMaxBeyond = 0.15;  // as GrowShortBases: the mat beyond shows no side colour
  PxRect best = r;
  double best_score = -1;
  for (const CatalogueExtension& e : CatalogueExtensions(r, mm, sizes, tol, min_ext_mm, tol)) {
    const int far = e.far, flank0 = e.flank0;
    if (probe.Colour(plain_mask, r, far) > kMaxLitEnd) continue;
    const cv::Mat& shadowed = shadow_mask();
    const double far_in = probe.Colour(shadowed, e.grown, far);
    const double flank_in = std::max(probe.Colour(shadowed, e.added, flank0),
                                     probe.Colour(shadowed, e.added, flank0 + 1));
    double beyond = BandFraction(shadowed, e.added, -probe.gap1, -probe.gap0, far, 0.8);
    for (const int f : {flank0, flank0 + 1}) {
      beyond = std::max(beyond, BandFraction(shadowed, e.added, -probe.gap1, -probe.gap0, f, 0.8));
    }
    if (far_in < kMinFarBorder || flank_in < options.min_border_coverage || beyond > kMaxBeyond ||
        OverlapsAnother(e.grown, s, rects, self)) {
      continue;
    }
    const double score = far_in + flank_in - beyond;
    if (score > best_score) best_score = score, best = e.grown;
  }
  r = best;
}

bool IsCatalogueSize(const PxRect& r, double mm, const std::vector<BaseSize>& sizes, double tol) {
  return std::any_of(sizes.begin(), sizes.end(), [&](const BaseSize& s) {
    return MatchError(r.len_a * mm, r.len_b * mm, s, tol) >= 0;
  });
}

// The rectangle, in r's axes, that holds both r and o.
PxRect UnionInAxesOf(const PxRect& r, const PxRect& o) {
  const cv::Point2d b = r.AxisB();
  double lo_a = 1e18, hi_a = -1e18, lo_b = 1e18, hi_b = -1e18;
  for (const PxRect* q : {&r, &o}) {
    for (const double sa : {-0.5, 0.5}) {
      for (const double sb : {-0.5, 0.5}) {
        const cv::Point2d corner =
            q->center + sa * q->len_a * q->axis_a + sb * q->len_b * q->AxisB() - r.center;
        lo_a = std::min(lo_a, corner.dot(r.axis_a)), hi_a = std::max(hi_a, corner.dot(r.axis_a));
        lo_b = std::min(lo_b, corner.dot(b)), hi_b = std::max(hi_b, corner.dot(b));
      }
    }
  }
  PxRect u = r;
  u.center = r.center + 0.5 * (lo_a + hi_a) * r.axis_a + 0.5 * (lo_b + hi_b) * b;
  u.len_a = hi_a - lo_a;
  u.len_b = hi_b - lo_b;
  return u;
}

// Two pieces of one side that overlap or touch may be two fits of one base (a blob cut short at
// its figures and a ring fit of its far half, or two ring fits of its halves, crossed or side by
// side). They are taken as one catalogue base when the rectangle holding both is one, and that
// base shows its whole outline (the side colour or a step to the mat all round, and no side
// colour just beyond it past the blur) and no seam where it could split into two catalogue
// bases (two touching bases show two borders side by side there).
void MergePieces(const cv::Mat& top_bgr, const std::vector<cv::Mat>& masks, double mm,
                 const std::vector<BaseSize>& sizes, const StandDetectorOptions& options,
                 double blur_mm, std::vector<std::vector<PxRect>>& rects) {
  const double tol = options.size_tolerance_mm;
  const OutlineProbe probe(options, mm, blur_mm);
  const double border_px = probe.border_px;
  const double touch_px = 2.0 / mm;      // pieces this close count as touching
  constexpr double kMaxAxisDeg = 6.0;    // pieces of one base lie square to each other
  constexpr double kSeamFraction = 0.5;  // side colour over half a band two borders wide
  for (size_t s = 0; s < rects.size() && s < masks.size(); ++s) {
    const cv::Mat& mask = masks[s];
    for (size_t i = 0; i < rects[s].size(); ++i) {
      for (size_t j = i + 1; j < rects[s].size(); ++j) {
        const PxRect& r = rects[s][i];
        const PxRect& o = rects[s][j];
        const double turn_deg = std::fmod(
            std::abs(RadToDeg(std::atan2(r.axis_a.cross(o.axis_a), r.axis_a.dot(o.axis_a)))), 90.0);
        if (std::min(turn_deg, 90.0 - turn_deg) > kMaxAxisDeg) continue;
        PxRect near_r = r;
        near_r.len_a += 2 * touch_px;
        near_r.len_b += 2 * touch_px;
        if (OverlapAreaPx(near_r, o) <= 0) continue;
        const PxRect u = UnionInAxesOf(r, o);
        // The catalogue size the union is, turned as it lies.
        PxRect merged = u;
        double best_e = -1;
        // Each piece may reach past the base by the size tolerance on its own end.
        for (const BaseSize& sz : sizes) {
          const double e = MatchError(u.len_a * mm - tol, u.len_b * mm - tol, sz, 2 * tol);
          if (e < 0 || (best_e >= 0 && e >= best_e)) continue;
          best_e = e;
          const bool width_on_a =
              std::abs(u.len_a * mm - sz.width_mm) + std::abs(u.len_b * mm - sz.depth_mm) <=
              std::abs(u.len_a * mm - sz.depth_mm) + std::abs(u.len_b * mm - sz.width_mm);
          merged.len_a = (width_on_a ? sz.width_mm : sz.depth_mm) / mm;
          merged.len_b = (width_on_a ? sz.depth_mm : sz.width_mm) / mm;
        }
        if (best_e < 0) continue;
        // Its sides where the image shows them (the pieces' ends may lie a few mm off); still a
        // catalogue base.
        for (int iter = 0; iter < 2; ++iter)
          RefineEdges(top_bgr, merged, mm, options.min_border_mm);
        if (!IsCatalogueSize(merged, mm, sizes, tol)) continue;
        // Neither piece may be the whole base already, with the other beside it.
        if (merged.len_a * merged.len_b < 1.2 * std::max(r.len_a * r.len_b, o.len_a * o.len_b))
          continue;
        // Its whole outline: the side colour, or a step to the mat where shadow or glare took
        // it, along every side, and the colour itself along three (as BorderCoverage). Side
        // colour just beyond it says nothing on these frames: blur and the base's own side
        // faces spread it there.
        double outline = 1;
        for (int side = 0; side < 4; ++side) {
          outline = std::min(outline, probe.Outline(mask, top_bgr, merged, side));
        }
        if (outline < options.min_border_coverage ||
            BorderCoverage(mask, merged, border_px) < options.min_border_coverage) {
          continue;
        }
        // No seam where two catalogue bases could meet inside it.
        bool seam = false;
        for (int axis = 0; axis < 2 && !seam; ++axis) {
          const double len = axis == 0 ? merged.len_a : merged.len_b;
          const double across_mm = (axis == 0 ? merged.len_b : merged.len_a) * mm;
          const cv::Point2d ax = axis == 0 ? merged.axis_a : merged.AxisB();
          for (const BaseSize& sz : sizes) {
            for (const double piece_mm : {sz.width_mm, sz.depth_mm}) {
              const double rest_mm = len * mm - piece_mm;
              const bool pair_fits =
                  MatchError(piece_mm, across_mm, sz, tol) >= 0 &&
                  std::any_of(sizes.begin(), sizes.end(), [&](const BaseSize& z) {
                    return MatchError(rest_mm, across_mm, z, tol) >= 0;
                  });
              if (!pair_fits) continue;
              for (const double end : {-1.0, 1.0}) {  // the piece at either end
                PxRect band = merged;
                band.center = merged.center + end * (0.5 * len - piece_mm / mm) * ax;
                (axis == 0 ? band.len_a : band.len_b) = 2.0 * border_px;
                (axis == 0 ? band.len_b : band.len_a) *= 0.8;
                seam = seam || BandFraction(mask, band, 0.0, 1e9, -1) > kSeamFraction;
              }
            }
          }
        }
        if (seam) continue;
        rects[s][i] = merged;
        rects[s].erase(rects[s].begin() + static_cast<long>(j));
        j = i;  // the merged base may hold another piece
      }
    }
  }
}

// Two rectangles of one side that overlap (OverlapTooMuch) are two fits of one base: the later
// pass's is dropped (the passes run from the strictest evidence, whole colour blobs, to the
// loosest, rings of leftover evidence).
void DropDuplicates(std::vector<std::vector<PxRect>>& rects) {
  for (auto& side_rects : rects) {
    std::vector<PxRect> kept;
    for (const PxRect& r : side_rects) {
      if (std::none_of(kept.begin(), kept.end(),
                       [&](const PxRect& k) { return OverlapTooMuch(r, k); })) {
        kept.push_back(r);
      }
    }
    side_rects = std::move(kept);
  }
}

// A base of one side lying mostly inside a larger base of another side, its centre inside that
// base's border: bases cannot overlap and figures stand inside a base's border, so it is the
// larger base's figures painted in its side's colour (`hard` 103 scene 5: blue figures on a red
// commander's 40 x 30 mm base, read as a 37 x 16 mm blue base).
void DropFiguresOfAnotherSide(std::vector<std::vector<PxRect>>& rects, double border_px) {
  const auto figures_on = [border_px](const PxRect& r, const PxRect& o) {
    if (o.len_a * o.len_b <= r.len_a * r.len_b) return false;
    if (OverlapAreaPx(r, o) <= 0.5 * r.len_a * r.len_b) return false;
    const cv::Point2d d = r.center - o.center;
    return std::abs(d.dot(o.axis_a)) < 0.5 * o.len_a - border_px &&
           std::abs(d.dot(o.AxisB())) < 0.5 * o.len_b - border_px;
  };
  std::vector<std::vector<PxRect>> kept(rects.size());
  for (size_t s = 0; s < rects.size(); ++s) {
    for (const PxRect& r : rects[s]) {
      bool figures = false;
      for (size_t t = 0; t < rects.size() && !figures; ++t) {
        if (t == s) continue;
        figures = std::any_of(rects[t].begin(), rects[t].end(),
                              [&](const PxRect& o) { return figures_on(r, o); });
      }
      if (!figures) kept[s].push_back(r);
    }
  }
  rects = std::move(kept);
}

// Which side of a found rectangle is the width (frontage)? The catalogue size that fits best.
bool AIsWidth(double a_mm, double b_mm, const std::vector<BaseSize>& sizes) {
  bool a_is_width = a_mm >= b_mm;
  double best_e = 1e9;
  for (const auto& sz : sizes) {
    const double e1 = std::abs(a_mm - sz.width_mm) + std::abs(b_mm - sz.depth_mm);
    const double e2 = std::abs(b_mm - sz.width_mm) + std::abs(a_mm - sz.depth_mm);
    if (e1 < best_e) best_e = e1, a_is_width = true;
    if (e2 < best_e) best_e = e2, a_is_width = false;
  }
  return a_is_width;
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
  const int passes = options.refit_colors ? 2 : 1;
  for (int pass = 0; pass < passes; ++pass) {
    out.side_masks = out.colors.ClassifyChroma(chroma, valid, &mat_chroma);
    rects.clear();
    for (auto& m : out.side_masks) {
      m = CleanMask(m);
      rects.push_back(SideDetector(m, mm, sizes, options).Run());
    }
    if (pass + 1 < passes) {
      // Re-fit each side from the inner part of the borders just found.
      const double t = std::max(1.0, options.min_border_mm / mm - 2.0);
      for (size_t s = 0; s < rects.size(); ++s) {
        const cv::Mat gated = BorderBand(top_bgr.size(), rects[s], 1.0, t) & out.side_masks[s];
        if (cv::countNonZero(gated) > 50) out.colors.Refit(s, chroma, gated);
      }
    }
  }
  if (options.refit_colors) {
    // The camera may wash every side toward the mat (see vision/side_washout.hpp).
    AddFrameWashoutBases(
        chroma, valid, mat_chroma, colors, WashoutOptions(),
        [&](cv::Mat& m) { return SideDetector(m = CleanMask(m), mm, sizes, options).Run(); }, mm,
        options.ring_fit, rects);
  }
  if (options.refit_colors)
    AddWashedOutBases(chroma, valid, mat_chroma, mm, sizes, options, out, rects);

  const cv::Mat terrain =
      board ? TerrainMask(*board, view, top_bgr.size(), static_cast<int>(std::ceil(2.0 / mm)))
            : cv::Mat();
  if (options.fit_partial_borders) {
    const cv::Mat hidden =
        board ? TallTerrainMask(*board, view, top_bgr.size(),
                                MmToInches(options.tall_terrain_height_mm),
                                static_cast<int>(std::lround(options.tall_terrain_margin_mm / mm)))
              : cv::Mat();
    AddRingFits(chroma, valid, mat_chroma, terrain, hidden, out, mm, sizes, options, rects);
  }
  // A piece of road is a solid patch a shade toward a side's colour (brown toward red) too.
  const cv::Mat solid_terrain =
      board ? TerrainMask(*board, view, top_bgr.size(), static_cast<int>(std::ceil(2.0 / mm)),
                          MayShowSolidSideShade)
            : cv::Mat();
  if (options.fit_filled_bases) {
    AddFilledFits(top_bgr, chroma, valid, mat_chroma, solid_terrain, out, mm, sizes, options,
                  rects);
  }
  // Borders the blur has spread below every colour gate, fitted as blurred rings.
  // Their sizes are catalogue sizes and each side already sits where the blurred band fits it
  // best: kept so the edge and stripe steps below, whose evidence that blur defeats, leave them.
  std::vector<PxRect> blurred_ring_bases;
  {
    const std::vector<std::vector<PxRect>> before = rects;
    BlurredRingOptions ring = options.blurred_ring;
    ring.even_shade_terrain = solid_terrain;
    ring.figure_top_shift_px = [&view,
                                h_in = MmToInches(ring.max_figure_height_mm)](cv::Point2d c) {
      return view.RectifiedFromTable(SeenOnMat(view, view.TableFromRectified(c), h_in)) - c;
    };
    AddBlurredRingBases(chroma, valid, mat_chroma, terrain, out.colors.sides(), mm, sizes,
                        EdgeBlurMm(top_bgr, AllRects(rects), mm), options.min_border_mm, rects,
                        ring);
    for (size_t s = 0; s < rects.size(); ++s) {
      const size_t n_before = s < before.size() ? before[s].size() : 0;
      blurred_ring_bases.insert(blurred_ring_bases.end(),
                                rects[s].begin() + static_cast<std::ptrdiff_t>(n_before),
                                rects[s].end());
    }
  }
  std::vector<HiddenSide> hidden_sides;  // sides completed across hidden figures
  // The loose evidence (a blurred or washed-out border keeps part of its colour), as the
  // ring and filled fits use: the strict gate may show nothing of a base's far half.
  std::vector<cv::Mat> evidence;
  {
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
  }
  DropDuplicates(rects);
  DropFiguresOfAnotherSide(rects, options.min_border_mm / mm);
  if (!empty_top.empty()) {
    DropUnchangedBases(rects, TableChange(top_bgr, empty_top, options.table_change),
                       options.min_changed_share);
  }
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
  const Grid& grid = view.calibration().board;
  const double base_h_in = MmToInches(options.base_height_mm);
  for (size_t s = 0; s < rects.size(); ++s) {
    int n = 0;
    // Stable order: by row then column of the centre.
    auto& rs = rects[s];
    std::sort(rs.begin(), rs.end(), [](const PxRect& a, const PxRect& b) {
      return std::make_pair(std::round(a.center.y / 40), a.center.x) <
             std::make_pair(std::round(b.center.y / 40), b.center.x);
    });
    for (const PxRect& found : rs) {
      PxRect r = found;
      // A blurred-ring base no later step changed: RefineEdges' half-way crossing and the white
      // band outside would read the blur's spread, not the border's edge or a stripe.
      const bool ring_fitted =
          std::any_of(blurred_ring_bases.begin(), blurred_ring_bases.end(), [&](const PxRect& b) {
            return b.center == found.center && b.axis_a == found.axis_a && b.len_a == found.len_a &&
                   b.len_b == found.len_b;
          });
      std::array<bool, 4> placed{};
      for (int iter = 0; iter < 2 && !ring_fitted; ++iter) {
        const std::array<bool, 4> now = RefineEdges(top_bgr, r, mm, options.min_border_mm);
        for (size_t k = 0; k < 4; ++k) placed[k] = placed[k] || now[k];
      }
      const PxRect refined = r;
      if (shadow_pass) {
        ExtendIntoShadow(
            r, s, out.side_masks[s], [&]() -> const cv::Mat& { return shadow_mask(s); }, mm, sizes,
            options, probe, rects, &found);
      }
      // A base completed to its catalogue size across one side keeps that size along that axis.
      if (r.len_a != refined.len_a) placed[0] = placed[1] = false;
      if (r.len_b != refined.len_b) placed[2] = placed[3] = false;
      // A white stripe painted over the front of the border leaves the colour frame short:
      // grow the rectangle over a white band lying right outside one of its sides.
      for (int side = 0; side < 4 && !ring_fitted; ++side) {
        const double step = 0.5;
        double ext = 0;
        while (ext < 4.0 / mm && BandFraction(white, r, -(ext + step), -ext, side, 0.7) > 0.5) {
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
      if (any_tall && s < evidence.size() && s < out.side_masks.size()) {
        std::vector<PxRect> others;
        for (const auto& side_rects : rects) {
          for (const PxRect& o : side_rects) {
            if (&o != &found) others.push_back(o);
          }
        }
        const TallTerrainMasks masks{out.side_masks[s], evidence[s], white,
                                     bare_mat,          tall_seen,   tall_hidden};
        under_tall = ExtendUnderTallTerrain(r, masks, others, mm, sizes, tall_extent);
        if (under_tall.completed) {
          r = under_tall.rect;
          placed[static_cast<size_t>(under_tall.open_side)] = false;
        }
      }
      const double a_mm = r.len_a * mm, b_mm = r.len_b * mm;
      const bool a_is_width = AIsWidth(a_mm, b_mm, sizes);
      const double w_px = a_is_width ? r.len_a : r.len_b;
      const double d_px = a_is_width ? r.len_b : r.len_a;
      cv::Point2d width_axis = a_is_width ? r.axis_a : r.AxisB();
      // Facing: a white stripe along one of the width edges (any edge of a square base).
      const bool square_base = std::abs(w_px - d_px) * mm < 3.0;
      const std::array<double, 4> stripe =
          FrontStripeScores(top_bgr, r, mm, blur_mm, options.front_stripe);
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
      // Where the base stands: its top's outline, the side faces beside it taken out (the
      // stripe and terrain tests above read the outline the image edges gave).
      // Under a blur wider than the border (as shadow_pass) an edge is read to the blur's
      // spread, not to a side face's sub-millimetre span: left as found.
      PxRect top = r;
      if (shadow_pass) CentreInSideFaceSpan(view, base_h_in, placed, top);

      if (InTerrain(terrain, r) &&
          LooksLikeTerrain(toward(s), chroma, valid, r, options.min_border_mm / mm, options)) {
        continue;
      }
      DetectedStand ds;
      ds.stand.side = out.colors.sides()[s].name;
      ds.stand.id = ds.stand.side + "-" + std::to_string(++n);
      ds.stand.footprint = TopFootprint(view, base_h_in, top, width_axis, w_along_a);
      ds.stand.facing_known = facing_known;
      ds.stand.kind = GuessKind(InchesToMm(ds.stand.footprint.width_in),
                                InchesToMm(ds.stand.footprint.depth_in), catalog, options);
      // Sizes the blurred band could not tell from this one, each as a base of its kind; its
      // width axis turned the reported one's way where they are parallel (the same front).
      for (const PxRect& other : found.other_sizes) {
        const bool other_a_width = AIsWidth(other.len_a * mm, other.len_b * mm, sizes);
        cv::Point2d other_axis = other_a_width ? other.axis_a : other.AxisB();
        if (other_axis.dot(width_axis) < 0) other_axis = -other_axis;
        OtherOutline o;
        o.footprint = TopFootprint(view, base_h_in, other, other_axis,
                                   std::abs(other_axis.dot(other.axis_a)) > 0.5);
        o.kind = GuessKind(InchesToMm(o.footprint.width_in), InchesToMm(o.footprint.depth_in),
                           catalog, options);
        ds.stand.other_outlines.push_back(std::move(o));
      }
      ds.square = grid.SquareOf(ds.stand.footprint.center);
      ds.border_coverage = BorderCoverage(out.side_masks[s], r, 0.8 * options.min_border_mm / mm);
      ds.white_stripe = best_white;
      ds.partly_hidden = under_tall.partly_hidden;
      ds.completed_under_terrain = under_tall.completed;
      out.stands.push_back(ds);
    }
  }
  return out;
}

}  // namespace referee
