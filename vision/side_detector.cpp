#include "vision/side_detector.hpp"

#include <algorithm>
#include <cmath>

#include <opencv2/imgproc.hpp>

#include "vision/band_fraction.hpp"
#include "vision/base_size_match.hpp"

namespace referee {

namespace {

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

}  // namespace

cv::Mat CleanMask(const cv::Mat& mask) {
  cv::Mat out;
  const cv::Mat k = cv::getStructuringElement(cv::MORPH_RECT, {3, 3});
  // Close only: borders may be only 2-3 px wide at webcam resolution, an opening would
  // break them; specks are dropped later by size.
  cv::morphologyEx(mask, out, cv::MORPH_CLOSE, k);
  return out;
}

std::vector<PxRect> DetectSideBases(const cv::Mat& side_mask, double mm_per_px,
                                    const std::vector<BaseSize>& sizes,
                                    const StandDetectorOptions& options) {
  return SideDetector(side_mask, mm_per_px, sizes, options).Run();
}

}  // namespace referee
