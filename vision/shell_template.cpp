#include "vision/shell_template.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/order_statistics.hpp"

namespace referee {

namespace {

struct Offsets {
  std::vector<cv::Point> inside, ring;
};

// Pixel offsets of the disc and of the ring around it.
Offsets DiscAndRing(double r_in_px, double gap_px, double ring_px) {
  Offsets o;
  const double r_out = r_in_px + gap_px + ring_px;
  const int n = static_cast<int>(std::ceil(r_out));
  for (int y = -n; y <= n; ++y) {
    for (int x = -n; x <= n; ++x) {
      const double d = std::hypot(x, y);
      if (d <= r_in_px)
        o.inside.emplace_back(x, y);
      else if (d >= r_in_px + gap_px && d <= r_out)
        o.ring.emplace_back(x, y);
    }
  }
  return o;
}

// Energy of the placement at `c`; -1 when it runs off the picture.
double Energy(const cv::Mat& d, const Offsets& o, cv::Point c) {
  const auto mean = [&](const std::vector<cv::Point>& offs, cv::Vec3d& m) {
    m = {0, 0, 0};
    for (const cv::Point& p : offs) {
      const cv::Point q = c + p;
      if (q.x < 0 || q.y < 0 || q.x >= d.cols || q.y >= d.rows) return false;
      m += cv::Vec3d(d.at<cv::Vec3f>(q));
    }
    m *= 1.0 / static_cast<double>(offs.size());
    return true;
  };
  cv::Vec3d in, ring;
  if (!mean(o.inside, in) || !mean(o.ring, ring)) return -1;
  const cv::Vec3d e = in - ring;
  return e.dot(e);
}

// Best energy over placements within `search` px of `c`.
double BestEnergy(const cv::Mat& d, const Offsets& o, cv::Point c, int search, cv::Point* at) {
  double best = -1;
  for (int y = -search; y <= search; ++y) {
    for (int x = -search; x <= search; ++x) {
      if (x * x + y * y > search * search) continue;
      const double e = Energy(d, o, c + cv::Point(x, y));
      if (e > best) {
        best = e;
        if (at) *at = c + cv::Point(x, y);
      }
    }
  }
  return best;
}

// Centroid of the change toward `colour` (its unit direction) in a window of radius `r_px`
// around `c`, the mean of the ring just outside it taken as no change, and the ratio of its
// long to short spread.
cv::Point2d ChangeCentroid(const cv::Mat& d, cv::Point2d c, double r_px, double ring_px,
                           double* elongation) {
  for (int pass = 0; pass < 3; ++pass) {
    cv::Vec3d ring(0, 0, 0);
    cv::Vec3d inside(0, 0, 0);
    int n_ring = 0, n_in = 0;
    const int n = static_cast<int>(std::ceil(r_px + ring_px));
    const cv::Point ci(static_cast<int>(std::lround(c.x)), static_cast<int>(std::lround(c.y)));
    for (int y = -n; y <= n; ++y) {
      for (int x = -n; x <= n; ++x) {
        const cv::Point q = ci + cv::Point(x, y);
        if (q.x < 0 || q.y < 0 || q.x >= d.cols || q.y >= d.rows) continue;
        const double r = std::hypot(q.x - c.x, q.y - c.y);
        if (r <= r_px)
          inside += cv::Vec3d(d.at<cv::Vec3f>(q)), ++n_in;
        else if (r <= r_px + ring_px)
          ring += cv::Vec3d(d.at<cv::Vec3f>(q)), ++n_ring;
      }
    }
    if (n_in == 0 || n_ring == 0) return c;
    ring *= 1.0 / n_ring;
    inside *= 1.0 / n_in;
    cv::Vec3d u = inside - ring;
    const double un = cv::norm(u);
    if (un <= 1e-9) return c;
    u *= 1.0 / un;
    double sw = 0, sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0;
    for (int y = -n; y <= n; ++y) {
      for (int x = -n; x <= n; ++x) {
        const cv::Point q = ci + cv::Point(x, y);
        if (q.x < 0 || q.y < 0 || q.x >= d.cols || q.y >= d.rows) continue;
        if (std::hypot(q.x - c.x, q.y - c.y) > r_px) continue;
        const double w = std::max(0.0, (cv::Vec3d(d.at<cv::Vec3f>(q)) - ring).dot(u));
        sw += w, sx += w * q.x, sy += w * q.y;
        sxx += w * q.x * q.x, syy += w * q.y * q.y, sxy += w * q.x * q.y;
      }
    }
    if (sw <= 0) return c;
    c = {sx / sw, sy / sw};
    const double vxx = sxx / sw - c.x * c.x, vyy = syy / sw - c.y * c.y, vxy = sxy / sw - c.x * c.y;
    const double mid = 0.5 * (vxx + vyy), dev = std::hypot(0.5 * (vxx - vyy), vxy);
    if (elongation) *elongation = std::sqrt(std::max(0.0, mid + dev) / std::max(1e-9, mid - dev));
  }
  return c;
}

}  // namespace

ShellTemplateResult MatchShellTemplate(const cv::Mat& difference,
                                       const std::vector<cv::Point>& seed, double mm_per_px,
                                       const ShellTemplateOptions& opt) {
  ShellTemplateResult out;
  if (seed.empty() || difference.type() != CV_32FC3) {
    out.reason = "too little change to match a shell to";
    return out;
  }
  const double px = 1.0 / mm_per_px;
  cv::Point2d mean(0, 0);
  for (const cv::Point& p : seed) mean += cv::Point2d(p);
  mean *= 1.0 / static_cast<double>(seed.size());
  const cv::Point c(static_cast<int>(std::lround(mean.x)), static_cast<int>(std::lround(mean.y)));
  const Offsets o = DiscAndRing(0.5 * opt.side_mm * px, 1.5 * px, 3.0 * px);
  const int search = std::max(1, static_cast<int>(std::lround(opt.search_mm * px)));
  cv::Point at = c;
  out.score = BestEnergy(difference, o, c, search, &at);
  out.centre_px =
      ChangeCentroid(difference, cv::Point2d(at), opt.side_mm * px, 3.0 * px, &out.elongation);
  std::vector<double> nulls;
  for (const double r_mm : {20.0, 28.0, 36.0}) {
    for (int k = 0; k < 8; ++k) {
      const double a = (k + 0.5 * (r_mm == 28.0)) * CV_PI / 4.0;
      const cv::Point q(static_cast<int>(std::lround(c.x + r_mm * px * std::cos(a))),
                        static_cast<int>(std::lround(c.y + r_mm * px * std::sin(a))));
      const double e = BestEnergy(difference, o, q, search, nullptr);
      if (e >= 0) nulls.push_back(e);
    }
  }
  if (out.score < 0 || nulls.size() < 12) {
    out.reason = "too near the edge of the view to match a shell";
    return out;
  }
  out.null_median = Median(nulls);
  out.null_max = *std::max_element(nulls.begin(), nulls.end());
  char buf[200];
  if (out.score < opt.min_margin * out.null_median || out.score < opt.min_over_max * out.null_max) {
    std::snprintf(buf, sizeof buf,
                  "a shell matched there scores only %.1fx the median and %.1fx the largest "
                  "of the same match around it",
                  out.score / std::max(1e-9, out.null_median),
                  out.score / std::max(1e-9, out.null_max));
    out.reason = buf;
  } else if (out.elongation > opt.max_elongation) {
    std::snprintf(buf, sizeof buf, "the change is %.1fx as long as it is wide: not a shell",
                  out.elongation);
    out.reason = buf;
  } else {
    out.found = true;
  }
  return out;
}

}  // namespace referee
