#include "vision/shell_dot.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include <opencv2/imgproc.hpp>

namespace referee {

namespace {

// The dot of radius `r_px` centred `offset` px from the middle of a (2 * half + 1)^2 patch,
// blurred by `sigma_px`, with what fitting the patch (a disc of radius `half`) as a plane plus
// the dot needs that does not depend on the picture: the normal equations' inverse. Every place
// the template is fitted at shares it.
struct DotTemplate {
  cv::Mat disc;  // the share of each pixel the dot darkens
  int half = 0;
  cv::Matx44d inverse;
  bool solvable = false;
  int n = 0;           // pixels in the patch
  double deepest = 0;  // where the disc darkens most: the darkening shown there is this
                       // times the dot's contrast
  // The patch's pixels (offsets from its middle) and their design rows (1, dx, dy, disc),
  // listed once: every place fitted walks the same ones.
  std::vector<cv::Point> offsets;
  std::vector<cv::Vec4d> rows;
};

DotTemplate MakeTemplate(double r_px, double sigma_px, int half, cv::Point2d offset) {
  constexpr int kSuper = 5;
  const int n = 2 * half + 1;
  cv::Mat fine(n * kSuper, n * kSuper, CV_32F);
  for (int y = 0; y < fine.rows; ++y) {
    for (int x = 0; x < fine.cols; ++x) {
      const double dx = (x + 0.5) / kSuper - half - 0.5 - offset.x;
      const double dy = (y + 0.5) / kSuper - half - 0.5 - offset.y;
      fine.at<float>(y, x) = dx * dx + dy * dy <= r_px * r_px ? 1.0f : 0.0f;
    }
  }
  DotTemplate t;
  t.half = half;
  cv::resize(fine, t.disc, {n, n}, 0, 0, cv::INTER_AREA);
  if (sigma_px > 0) cv::GaussianBlur(t.disc, t.disc, {0, 0}, sigma_px, 0, cv::BORDER_CONSTANT);
  cv::minMaxLoc(t.disc, nullptr, &t.deepest);
  cv::Matx44d xtx = cv::Matx44d::zeros();
  for (int dy = -half; dy <= half; ++dy) {
    for (int dx = -half; dx <= half; ++dx) {
      if (dx * dx + dy * dy > half * half) continue;
      const cv::Vec4d row(1.0, dx, dy, t.disc.at<float>(dy + half, dx + half));
      xtx += row * row.t();
      t.offsets.emplace_back(dx, dy);
      t.rows.push_back(row);
      ++t.n;
    }
  }
  t.solvable = true;
  t.inverse = xtx.inv(cv::DECOMP_CHOLESKY, &t.solvable);
  t.solvable = t.solvable && t.n > 8;
  return t;
}

struct DotFit {
  double t = -1e9;
  double contrast = 0;
};

// The patch around `c` fitted as a plane plus `k` times the template's disc: the darkening -k
// over its standard error, and over the plane's level at the centre.
DotFit FitAt(const cv::Mat& gray, cv::Point c, const DotTemplate& tmpl) {
  DotFit out;
  const int half = tmpl.half;
  if (!tmpl.solvable || c.x - half < 0 || c.y - half < 0 || c.x + half >= gray.cols ||
      c.y + half >= gray.rows) {
    return out;
  }
  cv::Vec4d xty(0, 0, 0, 0);
  double yy = 0;
  for (size_t i = 0; i < tmpl.rows.size(); ++i) {
    const double v = gray.at<float>(c + tmpl.offsets[i]);
    xty += v * tmpl.rows[i];
    yy += v * v;
  }
  const cv::Vec4d beta = tmpl.inverse * xty;
  const double rss = std::max(0.0, yy - beta.dot(xty));
  const double se = std::sqrt(rss / (tmpl.n - 4) * tmpl.inverse(3, 3));
  out.t = -beta[3] / std::max(se, 1e-6);
  out.contrast = -beta[3] / std::max(beta[0], 1.0);
  return out;
}

}  // namespace

ShellDotMatch MatchShellDot(const cv::Mat& gray, cv::Point2d top_centre_px, double mm_per_px,
                            double dot_diameter_mm, const ShellDotOptions& opt) {
  CV_Assert(gray.type() == CV_32F);
  const double mm = mm_per_px;
  const double r_px = 0.5 * dot_diameter_mm / mm;
  const double reach_px = opt.reach_mm / mm;
  const int reach = static_cast<int>(std::ceil(reach_px));
  const cv::Point mid(static_cast<int>(top_centre_px.x), static_cast<int>(top_centre_px.y));
  ShellDotMatch best;
  best.t = -1e9;
  cv::Point best_at;
  int best_half = 0;
  for (double blur_mm = opt.blur_step_mm; blur_mm <= opt.max_blur_mm + 1e-9;
       blur_mm += opt.blur_step_mm) {
    const double sigma_px = blur_mm / mm;
    const int half = static_cast<int>(std::ceil(r_px + 2 * sigma_px + 1));
    const DotTemplate tmpl = MakeTemplate(r_px, sigma_px, half, {0, 0});
    for (int y = mid.y - reach; y <= mid.y + reach; ++y) {
      for (int x = mid.x - reach; x <= mid.x + reach; ++x) {
        if (std::hypot(x - top_centre_px.x, y - top_centre_px.y) > reach_px) continue;
        const DotFit f = FitAt(gray, {x, y}, tmpl);
        if (f.t <= best.t) continue;
        best.t = f.t;
        best.contrast = f.contrast;
        best.darkening = f.contrast * tmpl.deepest;
        best.blur_mm = blur_mm;
        best_at = {x, y};
        best_half = half;
      }
    }
  }
  if (best_half == 0) return {};
  // A quarter of a pixel: the disc fitted at fractional offsets around the best place.
  best.centre_px = cv::Point2d(best_at);
  const double sigma_px = best.blur_mm / mm;
  for (int j = -3; j <= 3; ++j) {
    for (int i = -3; i <= 3; ++i) {
      if (i == 0 && j == 0) continue;
      const cv::Point2d off(0.25 * i, 0.25 * j);
      const DotTemplate tmpl = MakeTemplate(r_px, sigma_px, best_half, off);
      const DotFit f = FitAt(gray, best_at, tmpl);
      if (f.t <= best.t) continue;
      best.t = f.t;
      best.contrast = f.contrast;
      best.darkening = f.contrast * tmpl.deepest;
      best.centre_px = cv::Point2d(best_at) + off;
    }
  }
  best.found = best.t >= opt.min_t && best.darkening >= opt.min_darkening &&
               best.blur_mm <= opt.max_blur_of_radius * 0.5 * dot_diameter_mm + 1e-9;
  return best;
}

}  // namespace referee
