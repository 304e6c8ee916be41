#include "vision/change_mask.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include <opencv2/imgproc.hpp>

#include "vision/lit_after.hpp"

namespace referee {

cv::Mat ChangeMask(const cv::Mat& top_before, const cv::Mat& top_after, double min_change,
                   double px_per_camera_px, cv::Mat* magnitude, cv::Mat* object_change,
                   bool shadows_count) {
  const cv::Mat after = GainCorrected(top_before, top_after);
  cv::Mat before;
  top_before.convertTo(before, CV_32FC3);
  // The range of `before` within a pixel of each pixel, per channel. Only what leaves it is
  // counted: at a sharp edge (a base border, a grid line) a resampling shift, a little more
  // blur or JPEG's halved colour resolution mixes the two sides, which stays inside that
  // range, while a new object brings a colour that was not there. Real webcams send JPEG or
  // MJPEG, and `before` and `after` need not be compressed alike.
  // Both are smoothed a little first: sensor noise would widen that range as much as an edge.
  cv::Mat lo, hi, before_s, after_s;
  cv::GaussianBlur(before, before_s, {3, 3}, 0);
  cv::GaussianBlur(after, after_s, {3, 3}, 0);
  const cv::Mat k3 = cv::getStructuringElement(cv::MORPH_RECT, {3, 3});
  cv::erode(before_s, lo, k3);
  cv::dilate(before_s, hi, k3);
  // Webcams send colour at half their resolution (JPEG and MJPEG 4:2:0, YUYV 4:2:2) and
  // decoders interpolate it back: a colour edge comes back spread about one camera pixel either
  // side while brightness stays sharp. A base's 3 mm border is one or two camera pixels wide at
  // 720p, so its colour fades in `after` alone when only `after` went through that (`before`
  // kept losslessly, or compressed at another phase). A change within the range of `before`
  // with its colour so spread, and within its range of brightness, is that and no object.
  cv::Mat spread_lo, spread_hi, luma_lo, luma_hi, luma_after;
  {
    cv::Mat ycc;
    cv::cvtColor(before_s, ycc, cv::COLOR_BGR2YCrCb);
    std::vector<cv::Mat> planes;
    cv::split(ycc, planes);
    cv::erode(planes[0], luma_lo, k3);
    cv::dilate(planes[0], luma_hi, k3);
    const double sigma = std::max(0.5, px_per_camera_px);
    for (int c = 1; c < 3; ++c) cv::GaussianBlur(planes[c], planes[c], {0, 0}, sigma);
    cv::merge(planes, ycc);
    cv::Mat spread;
    cv::cvtColor(ycc, spread, cv::COLOR_YCrCb2BGR);
    cv::erode(spread, spread_lo, k3);
    cv::dilate(spread, spread_hi, k3);
    cv::min(lo, spread_lo, spread_lo);
    cv::max(hi, spread_hi, spread_hi);
    cv::cvtColor(after_s, ycc, cv::COLOR_BGR2YCrCb);
    cv::extractChannel(ycc, luma_after, 0);
  }
  cv::Mat mag(before.size(), CV_32F), mask(before.size(), CV_8U, cv::Scalar(0));
  cv::Mat object(before.size(), CV_32F);
  for (int y = 0; y < before.rows; ++y) {
    const auto* b = before.ptr<cv::Vec3f>(y);
    const auto* a = after.ptr<cv::Vec3f>(y);
    const auto* as = after_s.ptr<cv::Vec3f>(y);
    const auto* bl = lo.ptr<cv::Vec3f>(y);
    const auto* bh = hi.ptr<cv::Vec3f>(y);
    const auto* sl = spread_lo.ptr<cv::Vec3f>(y);
    const auto* sh = spread_hi.ptr<cv::Vec3f>(y);
    const auto* yl = luma_lo.ptr<float>(y);
    const auto* yh = luma_hi.ptr<float>(y);
    const auto* ya = luma_after.ptr<float>(y);
    auto* m = mag.ptr<float>(y);
    auto* o = object.ptr<float>(y);
    auto* k = mask.ptr<uchar>(y);
    for (int x = 0; x < before.cols; ++x) {
      const cv::Vec3f d = a[x] - b[x];
      const float v = std::max({std::abs(d[0]), std::abs(d[1]), std::abs(d[2])});
      float outside = 0.0f, outside_spread = 0.0f;
      for (int c = 0; c < 3; ++c) {
        outside = std::max({outside, as[x][c] - bh[x][c], bl[x][c] - as[x][c]});
        outside_spread = std::max({outside_spread, as[x][c] - sh[x][c], sl[x][c] - as[x][c]});
      }
      const float outside_luma = std::max(ya[x] - yh[x], yl[x] - ya[x]);
      m[x] = v;
      o[x] = v;
      // A shadow darkens all channels by about the same ratio: not an object.
      float r[3];
      for (int c = 0; c < 3; ++c) r[c] = (a[x][c] + 4.0f) / (b[x][c] + 4.0f);
      const float rmax = std::max({r[0], r[1], r[2]}), rmin = std::min({r[0], r[1], r[2]});
      const bool shadow = !shadows_count && rmax < 0.92f && rmin > 0.3f && rmax / rmin < 1.15f;
      if (shadow) o[x] = 0.0f;
      const bool colour_spread = outside_spread < min_change && outside_luma < min_change;
      if (outside >= min_change && !shadow && !colour_spread) k[x] = 255;
    }
  }
  if (object_change) *object_change = object;
  cv::morphologyEx(mask, mask, cv::MORPH_OPEN, k3);
  if (magnitude) *magnitude = mag;
  return mask;
}

}  // namespace referee
