#include "vision/shadow_change.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <vector>

#include <opencv2/imgproc.hpp>

#include "vision/principal_axis.hpp"

namespace referee {

double DifferenceNoise(const cv::Mat& before, const cv::Mat& after) {
  CV_Assert(before.type() == CV_32FC3 && after.type() == CV_32FC3 && before.size() == after.size());
  // About 40000 samples whatever the frame size: enough for a stable median, cheap on 4K.
  const int step =
      std::max(1, static_cast<int>(std::sqrt(static_cast<double>(before.total()) / 40000.0)));
  std::vector<float> d;
  d.reserve(3 * (before.total() / static_cast<size_t>(step * step) + before.rows + before.cols));
  for (int y = 0; y < before.rows; y += step) {
    const auto* b = before.ptr<cv::Vec3f>(y);
    const auto* a = after.ptr<cv::Vec3f>(y);
    for (int x = 0; x < before.cols; x += step) {
      // Black fill outside what the camera sees carries no noise: left out.
      if (b[x][0] + b[x][1] + b[x][2] < 3.0f) continue;
      for (int c = 0; c < 3; ++c) d.push_back(std::abs(a[x][c] - b[x][c]));
    }
  }
  if (d.empty()) return 0.0;
  const auto mid = d.begin() + static_cast<long>(d.size() / 2);
  std::nth_element(d.begin(), mid, d.end());
  return 1.4826 * *mid;
}

namespace {

// The one ratio k that best maps before onto after (least squares over the channels); -1 when
// before is black (nothing to darken).
double OneRatio(const cv::Vec3f& before, const cv::Vec3f& after) {
  double bb = 0, ab = 0;
  for (int c = 0; c < 3; ++c) {
    bb += static_cast<double>(before[c]) * before[c];
    ab += static_cast<double>(after[c]) * before[c];
  }
  return bb < 1.0 ? -1.0 : ab / bb;
}

}  // namespace

bool IsShadowChange(const cv::Vec3f& before, const cv::Vec3f& after, double noise_8bit,
                    const ShadowTestOptions& opt) {
  const double k = OneRatio(before, after);
  if (k < opt.min_ratio || k > opt.max_ratio) return false;
  // Each channel within the noise (of a difference) plus the chroma share of its shadowed value.
  const double n = opt.noise_sigmas * noise_8bit;
  const double grey = k * (before[0] + before[1] + before[2]) / 3.0;
  bool grey_fits = true;  // whether a neutral grey of the same brightness would pass too
  for (int c = 0; c < 3; ++c) {
    const double fit = k * before[c];
    const double tol = std::sqrt(n * n + std::pow(opt.chroma_share * fit, 2));
    if (std::abs(after[c] - fit) > tol) return false;
    grey_fits &= std::abs(grey - fit) <= tol;
  }
  // The surface's chroma must stand out of that tolerance: on a grey surface, or in noise that
  // swamps its chroma, a black or grey paint darkens it just as a shadow does. Not told then.
  return !grey_fits;
}

cv::Mat ShadowPixels(const cv::Mat& before, const cv::Mat& after, double noise, int paint_rim_px,
                     const ShadowTestOptions& opt) {
  CV_Assert(before.type() == CV_32FC3 && after.type() == CV_32FC3 && before.size() == after.size());
  cv::Mat shadow(before.size(), CV_8U, cv::Scalar(0)), dark(before.size(), CV_8U, cv::Scalar(0));
  // Darker than a shadow, by clearly more than the noise (a dark surface's ratio is noise).
  const float dark_drop = static_cast<float>(2 * opt.noise_sigmas * noise);
  for (int y = 0; y < before.rows; ++y) {
    const auto* b = before.ptr<cv::Vec3f>(y);
    const auto* a = after.ptr<cv::Vec3f>(y);
    auto* s = shadow.ptr<uchar>(y);
    auto* d = dark.ptr<uchar>(y);
    for (int x = 0; x < before.cols; ++x) {
      if (IsShadowChange(b[x], a[x], noise, opt)) {
        s[x] = 255;
        continue;
      }
      const float drop = std::max({b[x][0] - a[x][0], b[x][1] - a[x][1], b[x][2] - a[x][2]});
      const double k = OneRatio(b[x], a[x]);
      if (drop > dark_drop && k >= 0 && k < opt.min_ratio) d[x] = 255;
    }
  }
  if (paint_rim_px > 0) {
    cv::dilate(
        dark, dark,
        cv::getStructuringElement(cv::MORPH_ELLIPSE, {2 * paint_rim_px + 1, 2 * paint_rim_px + 1}));
    shadow.setTo(0, dark);
  }
  return shadow;
}

namespace {

// Width of `pts` across their principal axis, px: twice the 97th percentile of the distances
// to it, as the projectile detector measures a change's width.
double WidthPx(const std::vector<cv::Point>& pts) {
  const PrincipalAxis fit = FitPrincipalAxis(pts);
  const cv::Point2d perp(-fit.axis.y, fit.axis.x);
  std::vector<double> across;
  across.reserve(pts.size());
  for (const cv::Point& p : pts)
    across.push_back(std::abs((cv::Point2d(p) - fit.centre).dot(perp)));
  const auto at = across.begin() + static_cast<long>(0.97 * static_cast<double>(across.size() - 1));
  std::nth_element(across.begin(), at, across.end());
  return 2.0 * *at + 1.0;
}

// How well `shadow` is the shadow of `object` lying on the mat: a point at height h casts its
// shadow h / tan(elevation) away from the lamp, so a lying object's shadow runs from under it
// to its outline moved by one offset (its top's). For each offset within `reach_px`: the share
// of the shadow inside the object swept along the offset, and the share of that swept area,
// where the object does not hide it, that the shadow covers (both grown by `tolerance_px`).
// The offset that holds at least `min_inside` of the shadow and is covered best; none (all
// zero) when no offset holds so much. Points and masks in one frame (CV_8U).
struct CopyFit {
  double inside = 0, covered = 0;
  cv::Point offset;
};

CopyFit BestOffsetCopy(const std::vector<cv::Point>& object, const std::vector<cv::Point>& shadow,
                       const cv::Mat& object_mask, const cv::Mat& shadow_mask, double reach_px,
                       int tolerance_px, double min_inside) {
  cv::Mat object_grown, shadow_grown;
  const cv::Mat disc =
      cv::getStructuringElement(cv::MORPH_ELLIPSE, {2 * tolerance_px + 1, 2 * tolerance_px + 1});
  cv::dilate(object_mask, object_grown, disc);
  cv::dilate(shadow_mask, shadow_grown, disc);
  cv::Mat swept_at(object_mask.size(), CV_32S, cv::Scalar(-1));  // the offset that swept there
  const cv::Rect whole(0, 0, object_mask.cols, object_mask.rows);
  const int r = static_cast<int>(std::ceil(reach_px));
  // How much of the shadow may miss an offset's sweep: past that, stop (it cannot hold).
  const auto may_miss =
      static_cast<size_t>((1.0 - min_inside) * static_cast<double>(shadow.size()));
  CopyFit best;
  int offset_id = 0;
  for (int dy = -r; dy <= r; ++dy) {
    for (int dx = -r; dx <= r; ++dx, ++offset_id) {
      if (dx * dx + dy * dy > reach_px * reach_px || (dx == 0 && dy == 0)) continue;
      const int steps = std::max(std::abs(dx), std::abs(dy));
      size_t missed = 0;
      for (const cv::Point& p : shadow) {
        bool in = false;
        for (int i = 0; i <= steps && !in; ++i) {
          const cv::Point q(p.x - (dx * i) / steps, p.y - (dy * i) / steps);
          in = whole.contains(q) && object_grown.at<uchar>(q);
        }
        if (!in && ++missed > may_miss) break;
      }
      if (missed > may_miss) continue;
      const double inside_share =
          1.0 - static_cast<double>(missed) / static_cast<double>(shadow.size());
      int seen = 0, covered = 0;
      for (const cv::Point& p : object) {
        for (int i = 1; i <= steps; ++i) {
          const cv::Point q(p.x + (dx * i) / steps, p.y + (dy * i) / steps);
          if (!whole.contains(q) || object_mask.at<uchar>(q) || swept_at.at<int>(q) == offset_id)
            continue;
          swept_at.at<int>(q) = offset_id;
          ++seen;
          covered += shadow_grown.at<uchar>(q) ? 1 : 0;
        }
      }
      const double covered_share = seen ? static_cast<double>(covered) / seen : 0.0;
      if (covered_share > best.covered) best = {inside_share, covered_share, {dx, dy}};
    }
  }
  return best;
}

}  // namespace

cv::Mat WithoutOwnShadows(const cv::Mat& changed, const cv::Mat& before,
                          const std::function<cv::Mat()>& after_corrected, double mm_per_px,
                          const std::function<bool(const std::vector<cv::Point>&)>& fits,
                          const OwnShadowOptions& opt, int* removed_px) {
  CV_Assert(changed.type() == CV_8U && before.type() == CV_8UC3 && before.size() == changed.size());
  if (removed_px) *removed_px = 0;
  cv::Mat out = changed.clone();
  // The detector's regions: changed pixels grouped within its radius.
  cv::Mat grouped, labels;
  const int group_r = std::max(1, static_cast<int>(std::lround(opt.group_mm / mm_per_px)));
  cv::dilate(changed, grouped,
             cv::getStructuringElement(cv::MORPH_ELLIPSE, {2 * group_r + 1, 2 * group_r + 1}));
  const int n = cv::connectedComponents(grouped, labels, 8, CV_32S);
  std::vector<std::vector<cv::Point>> regions(static_cast<size_t>(n));
  for (int y = 0; y < changed.rows; ++y) {
    const uchar* c = changed.ptr<uchar>(y);
    const int* l = labels.ptr<int>(y);
    for (int x = 0; x < changed.cols; ++x) {
      if (c[x]) regions[static_cast<size_t>(l[x])].emplace_back(x, y);
    }
  }
  // Only a region the projectile's shape does not explain as it is, is looked at again.
  std::vector<size_t> unexplained;
  for (size_t i = 1; i < regions.size(); ++i) {
    if (regions[i].size() >= 3 && !fits(regions[i])) unexplained.push_back(i);
  }
  if (unexplained.empty()) return out;
  // The shadow test on the views the change mask compares: smoothed alike (3x3), the noise of
  // their difference measured over the whole frame.
  cv::Mat before_s, after_s;
  before.convertTo(before_s, CV_32FC3);
  cv::GaussianBlur(before_s, before_s, {3, 3}, 0);
  cv::GaussianBlur(after_corrected(), after_s, {3, 3}, 0);
  const double noise = DifferenceNoise(before_s, after_s);
  const double tan_elevation = std::tan(opt.min_lamp_elevation_deg * CV_PI / 180.0);
  constexpr int kPaintRimPx = 4;
  const cv::Rect whole(0, 0, changed.cols, changed.rows);
  for (const size_t i : unexplained) {
    const std::vector<cv::Point>& pts = regions[i];
    const cv::Rect box = cv::boundingRect(pts);
    const cv::Rect look = (box + cv::Size(4 * kPaintRimPx, 4 * kPaintRimPx) -
                           cv::Point(2 * kPaintRimPx, 2 * kPaintRimPx)) &
                          whole;
    const cv::Mat shadow = ShadowPixels(before_s(look), after_s(look), noise, kPaintRimPx);
    std::vector<cv::Point> object, cast;
    for (const cv::Point& p : pts) (shadow.at<uchar>(p - look.tl()) ? cast : object).push_back(p);
    if (cast.empty() || object.size() < 3 || !fits(object)) continue;
    // How far its shadow can lie: the projectile is about as high as it is wide.
    const double reach_px = WidthPx(object) / tan_elevation;
    const int margin = static_cast<int>(std::ceil(reach_px)) + opt.tolerance_px + 1;
    const cv::Rect area =
        (box + cv::Size(2 * margin, 2 * margin) - cv::Point(margin, margin)) & whole;
    cv::Mat object_mask(area.size(), CV_8U, cv::Scalar(0));
    for (cv::Point& p : object) object_mask.at<uchar>(p -= area.tl()) = 255;
    // The whole shadow those pixels are part of, in the change mask or not (the mask's own
    // shadow test leaves most of a shadow out already): that is what must be the copy.
    cv::Mat shadow_labels;
    const int shadows = cv::connectedComponents(
        ShadowPixels(before_s(area), after_s(area), noise, kPaintRimPx), shadow_labels, 8, CV_32S);
    std::vector<uchar> joined(static_cast<size_t>(shadows), 0);
    for (const cv::Point& p : cast)
      joined[static_cast<size_t>(shadow_labels.at<int>(p - area.tl()))] = 1;
    joined[0] = 0;
    cv::Mat shadow_mask(area.size(), CV_8U, cv::Scalar(0));
    std::vector<cv::Point> shadow_pts;
    bool beyond_reach = false;  // it runs out of the area a projectile's shadow can fall in
    for (int y = 0; y < area.height; ++y) {
      for (int x = 0; x < area.width; ++x) {
        if (!joined[static_cast<size_t>(shadow_labels.at<int>(y, x))]) continue;
        shadow_mask.at<uchar>(y, x) = 255;
        shadow_pts.emplace_back(x, y);
        beyond_reach |= x == 0 || y == 0 || x == area.width - 1 || y == area.height - 1;
      }
    }
    if (shadow_pts.empty() || beyond_reach) continue;
    const CopyFit fit = BestOffsetCopy(object, shadow_pts, object_mask, shadow_mask, reach_px,
                                       opt.tolerance_px, opt.min_shadow_inside);
    if (fit.inside < opt.min_shadow_inside || fit.covered < opt.min_copy_covered) continue;
    for (const cv::Point& p : cast) out.at<uchar>(p) = 0;
    if (removed_px) *removed_px += static_cast<int>(cast.size());
  }
  return out;
}

}  // namespace referee
