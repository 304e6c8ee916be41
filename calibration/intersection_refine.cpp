#include "calibration/intersection_refine.hpp"

#include <algorithm>
#include <cmath>
#include <opencv2/imgproc.hpp>
#include <vector>

namespace referee {

namespace {

double Sample(const cv::Mat& img, double x, double y) {
  const int x0 = static_cast<int>(std::floor(x)), y0 = static_cast<int>(std::floor(y));
  if (x0 < 0 || y0 < 0 || x0 + 1 >= img.cols || y0 + 1 >= img.rows) return -1;
  const double fx = x - x0, fy = y - y0;
  const float* r0 = img.ptr<float>(y0);
  const float* r1 = img.ptr<float>(y0 + 1);
  return (1 - fy) * ((1 - fx) * r0[x0] + fx * r0[x0 + 1]) +
         fy * ((1 - fx) * r1[x0] + fx * r1[x0 + 1]);
}

cv::Point2d Unit(cv::Point2d v) {
  const double n = std::hypot(v.x, v.y);
  return n > 0 ? v * (1.0 / n) : v;
}

// Centre of the dark line crossing the profile at `p` along `normal`; nullopt if no clean line.
std::optional<double> LineCentre(const cv::Mat& img, cv::Point2d p, cv::Point2d normal,
                                 double half_width, double max_line_px, double min_contrast,
                                 double along_line_px, bool reject_steps) {
  const double step = 0.5;
  const int n = static_cast<int>(2 * half_width / step) + 1;
  // Parallel profiles 1 px apart along the line, averaged (see RefineOptions::along_line_px).
  const int along = static_cast<int>(std::floor(std::max(0.0, along_line_px)));
  const cv::Point2d t(-normal.y, normal.x);
  std::vector<double> v(n, 0.0);
  for (int i = 0; i < n; ++i) {
    const double o = -half_width + i * step;
    for (int a = -along; a <= along; ++a) {
      const double s = Sample(img, p.x + o * normal.x + a * t.x, p.y + o * normal.y + a * t.y);
      if (s < 0) return std::nullopt;
      v[i] += s;
    }
    v[i] /= 2 * along + 1;
  }
  // Linear baseline from the outer quarter on each side (uneven light is a ramp).
  const int edge = std::max(2, n / 4);
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  int m = 0;
  for (int i = 0; i < n; ++i) {
    if (i >= edge && i < n - edge) continue;
    sx += i;
    sy += v[i];
    sxx += static_cast<double>(i) * i;
    sxy += i * v[i];
    ++m;
  }
  const double slope = (m * sxy - sx * sy) / std::max(1e-9, m * sxx - sx * sx);
  const double icpt = (sy - slope * sx) / m;
  std::vector<double> d(n);
  double noise = 0;
  for (int i = 0; i < n; ++i) {
    d[i] = icpt + slope * i - v[i];
    if (i < edge || i >= n - edge) noise += d[i] * d[i];
  }
  noise = std::sqrt(noise / m);
  const int peak = static_cast<int>(std::max_element(d.begin(), d.end()) - d.begin());
  const double h = d[peak];
  if (h < min_contrast || h < 4 * noise) return std::nullopt;
  // The mat lighter on one side than the other by more than the line is deep: a step.
  if (reject_steps && std::abs(slope) * (n - 1) > h) return std::nullopt;
  int lo = peak, hi = peak;
  while (lo > 0 && d[lo - 1] > 0.5 * h) --lo;
  while (hi < n - 1 && d[hi + 1] > 0.5 * h) ++hi;
  if ((hi - lo + 1) * step > max_line_px) return std::nullopt;  // a blob, not a line
  if (lo < edge || hi >= n - edge) return std::nullopt;
  // Everything outside the line must be clearly lighter than the line itself.
  const int guard = static_cast<int>(std::ceil((hi - lo + 1) * 0.75));
  for (int i = 0; i < n; ++i) {
    if (i >= lo - guard && i <= hi + guard) continue;
    if (d[i] > 0.5 * h) return std::nullopt;
  }
  // Centroid over the half-maximum region widened by a third of its width on each side.
  const int lo2 = std::max(0, lo - (hi - lo + 3) / 3),
            hi2 = std::min(n - 1, hi + (hi - lo + 3) / 3);
  double w = 0, wx = 0;
  for (int i = lo2; i <= hi2; ++i) {
    const double wi = std::max(0.0, d[i]);
    w += wi;
    wx += wi * i;
  }
  if (w <= 0) return std::nullopt;
  return -half_width + (wx / w) * step;
}

struct FittedLine {
  cv::Point2d point, dir;
  double rms = 0;
  int samples = 0;
};

std::optional<FittedLine> FitLine(std::vector<cv::Point2d> pts, int min_samples) {
  for (int pass = 0; pass < 3; ++pass) {
    if (static_cast<int>(pts.size()) < min_samples) return std::nullopt;
    cv::Vec4f l;
    std::vector<cv::Point2f> f(pts.begin(), pts.end());
    cv::fitLine(f, l, cv::DIST_L2, 0, 0.01, 0.01);
    FittedLine fl{{l[2], l[3]}, {l[0], l[1]}, 0, static_cast<int>(pts.size())};
    // fitLine works in float; recompute the centroid in double for sub-pixel accuracy.
    cv::Point2d c(0, 0);
    for (const auto& p : pts) c += p;
    fl.point = c * (1.0 / static_cast<double>(pts.size()));
    const cv::Point2d nrm(-fl.dir.y, fl.dir.x);
    std::vector<double> res;
    double ss = 0;
    for (const auto& p : pts) {
      res.push_back(std::abs((p - fl.point).dot(nrm)));
      ss += res.back() * res.back();
    }
    fl.rms = std::sqrt(ss / static_cast<double>(pts.size()));
    std::vector<double> sorted = res;
    std::nth_element(sorted.begin(),
                     sorted.begin() + static_cast<std::ptrdiff_t>(sorted.size() / 2), sorted.end());
    const double cut = std::max(0.5, 3.0 * 1.4826 * sorted[sorted.size() / 2]);
    std::vector<cv::Point2d> keep;
    for (size_t i = 0; i < pts.size(); ++i) {
      if (res[i] <= cut) keep.push_back(pts[i]);
    }
    if (keep.size() == pts.size()) return fl;
    pts = keep;
  }
  return std::nullopt;
}

}  // namespace

std::optional<double> MeasureLineOffset(const cv::Mat& gray, cv::Point2d p, cv::Point2d normal,
                                        double spacing_px, const RefineOptions& options) {
  if (spacing_px < 8) return std::nullopt;
  const double half_width = std::clamp(0.18 * spacing_px, 5.0, 30.0);
  const double max_line_px = std::max(3.0, 0.12 * spacing_px);
  return LineCentre(gray, p, Unit(normal), half_width, max_line_px, options.min_contrast,
                    options.along_line_px, options.reject_steps);
}

cv::Mat RefineImage(const cv::Mat& image) {
  cv::Mat gray = image;
  if (image.channels() == 3) cv::cvtColor(image, gray, cv::COLOR_BGR2GRAY);
  cv::Mat f;
  gray.convertTo(f, CV_32F);
  cv::GaussianBlur(f, f, {0, 0}, 0.7);
  return f;
}

std::optional<RefinedCrossing> RefineCrossing(const cv::Mat& gray, cv::Point2d guess,
                                              cv::Point2d dir1, cv::Point2d dir2, double spacing_px,
                                              const RefineOptions& options) {
  if (spacing_px < 8) return std::nullopt;
  dir1 = Unit(dir1);
  dir2 = Unit(dir2);
  const double half_width = std::clamp(0.18 * spacing_px, 5.0, 30.0);
  const double max_line_px = std::max(3.0, 0.12 * spacing_px);
  cv::Point2d centre = guess;
  RefinedCrossing out;
  for (int iter = 0; iter < 2; ++iter) {
    const double s_min = std::max(0.15 * spacing_px, 4.0 + max_line_px);
    const double s_max = 0.42 * spacing_px;
    if (s_max <= s_min) return std::nullopt;
    const int per_arm = std::clamp(static_cast<int>((s_max - s_min) / 1.5), 3, 12);
    std::optional<FittedLine> fitted[2];
    const cv::Point2d dirs[2] = {dir1, dir2};
    for (int li = 0; li < 2; ++li) {
      const cv::Point2d d = dirs[li];
      const cv::Point2d nrm(-d.y, d.x);
      std::vector<cv::Point2d> pts;
      int arms_with_samples = 0;
      for (int side = -1; side <= 1; side += 2) {
        int count = 0;
        for (int k = 0; k < per_arm; ++k) {
          const double s = side * (s_min + (s_max - s_min) * k / (per_arm - 1));
          const cv::Point2d p = centre + s * d;
          auto o = LineCentre(gray, p, nrm, half_width, max_line_px, options.min_contrast,
                              options.along_line_px, options.reject_steps);
          if (!o) continue;
          pts.push_back(p + *o * nrm);
          ++count;
        }
        if (count >= 2) ++arms_with_samples;
      }
      // One arm is enough: the board's border lines end at T- and L-shaped crossings.
      if (arms_with_samples < 1) return std::nullopt;
      fitted[li] = FitLine(pts, options.min_samples_per_line);
      if (!fitted[li] || fitted[li]->rms > options.max_line_rms_px) return std::nullopt;
    }
    const FittedLine& a = *fitted[0];
    const FittedLine& b = *fitted[1];
    const double det = a.dir.x * (-b.dir.y) - a.dir.y * (-b.dir.x);
    if (std::abs(det) < 0.2) return std::nullopt;
    const cv::Point2d r = b.point - a.point;
    const double s = (r.x * (-b.dir.y) - r.y * (-b.dir.x)) / det;
    const cv::Point2d x = a.point + s * a.dir;
    if (std::hypot(x.x - guess.x, x.y - guess.y) > 0.3 * spacing_px) return std::nullopt;
    centre = x;
    dir1 = a.dir;
    dir2 = b.dir;
    out.px = x;
    out.line_rms_px = std::max(a.rms, b.rms);
    out.samples = a.samples + b.samples;
  }
  return out;
}

}  // namespace referee
