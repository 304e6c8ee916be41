#include "vision/shadow_change.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include <opencv2/imgproc.hpp>

namespace referee {

double DifferenceNoise(const cv::Mat& before, const cv::Mat& after) {
  CV_Assert(before.type() == CV_32FC3 && after.type() == CV_32FC3 && before.size() == after.size());
  // About 40000 samples whatever the frame size: enough for a stable median, cheap on 4K.
  const int step = std::max(1, static_cast<int>(std::sqrt(before.total() / 40000.0)));
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

cv::Mat ShadowPixels(const cv::Mat& before, const cv::Mat& after, int paint_rim_px,
                     const ShadowTestOptions& opt) {
  const double noise = DifferenceNoise(before, after);
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

cv::Mat WithLoneShadows(const cv::Mat& object, const cv::Mat& shadow, int reach_px) {
  cv::Mat near, labels, stats, centroids;
  cv::dilate(object, near,
             cv::getStructuringElement(cv::MORPH_ELLIPSE, {2 * reach_px + 1, 2 * reach_px + 1}));
  const int n = cv::connectedComponentsWithStats(shadow, labels, stats, centroids, 8, CV_32S);
  std::vector<uchar> own(static_cast<size_t>(n), 0);
  for (int y = 0; y < shadow.rows; ++y) {
    const int* l = labels.ptr<int>(y);
    const uchar* m = near.ptr<uchar>(y);
    for (int x = 0; x < shadow.cols; ++x) {
      if (l[x] > 0 && m[x]) own[static_cast<size_t>(l[x])] = 1;
    }
  }
  // An object's own shadow under a lamp well above the table is about the object's size (less
  // what the object hides, plus penumbra): one more than twice the object beside it is cast by
  // something else, above the table (a hand out of view over a small change).
  const cv::Rect whole(0, 0, shadow.cols, shadow.rows);
  for (int i = 1; i < n; ++i) {
    if (!own[static_cast<size_t>(i)]) continue;
    const cv::Rect box(stats.at<int>(i, cv::CC_STAT_LEFT), stats.at<int>(i, cv::CC_STAT_TOP),
                       stats.at<int>(i, cv::CC_STAT_WIDTH), stats.at<int>(i, cv::CC_STAT_HEIGHT));
    const cv::Rect around =
        (box + cv::Size(2 * reach_px, 2 * reach_px) - cv::Point(reach_px, reach_px)) & whole;
    const int object_px = cv::countNonZero(object(around));
    // Nor does it reach past the object by more than a lamp's offset (a few reaches): a larger
    // shadow merely touching the object (a hand's, over a Q-tip) is not its own.
    const cv::Rect object_box = cv::boundingRect(object(around)) + around.tl();
    const cv::Rect allowed =
        object_box + cv::Size(6 * reach_px, 6 * reach_px) - cv::Point(3 * reach_px, 3 * reach_px);
    if (stats.at<int>(i, cv::CC_STAT_AREA) > 2 * object_px || (box & allowed) != box)
      own[static_cast<size_t>(i)] = 0;
  }
  cv::Mat out = object.clone();
  for (int y = 0; y < shadow.rows; ++y) {
    const int* l = labels.ptr<int>(y);
    uchar* o = out.ptr<uchar>(y);
    for (int x = 0; x < shadow.cols; ++x) {
      if (l[x] > 0 && !own[static_cast<size_t>(l[x])]) o[x] = 255;
    }
  }
  return out;
}

}  // namespace referee
