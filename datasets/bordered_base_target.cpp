#include "datasets/bordered_base_target.hpp"

#include <cmath>
#include <vector>

#include "datasets/polygon_coverage.hpp"

namespace referee {
namespace {

std::vector<cv::Point2d> Corners(const BorderedBaseTarget& t, double inset_px) {
  const std::array<cv::Point2d, 4> n = BorderedBaseNormals(t);
  const cv::Point2d u = n[1], v = n[3];
  const double hw = 0.5 * t.width_px - inset_px, hd = 0.5 * t.depth_px - inset_px;
  return {t.centre_px - hw * u - hd * v, t.centre_px + hw * u - hd * v,
          t.centre_px + hw * u + hd * v, t.centre_px - hw * u + hd * v};
}

// f = f * (1 - alpha) + colour * alpha over the coverage (f: CV_32FC3).
void Blend(cv::Mat& f, const PolygonCoverage& c, const cv::Scalar& colour) {
  for (int y = 0; y < c.roi.height; ++y) {
    const float* a = c.alpha.ptr<float>(y);
    auto* p = f.ptr<cv::Vec3f>(y + c.roi.y) + c.roi.x;
    for (int x = 0; x < c.roi.width; ++x) {
      for (int ch = 0; ch < 3; ++ch) {
        p[x][ch] = p[x][ch] * (1.0f - a[x]) + static_cast<float>(colour[ch]) * a[x];
      }
    }
  }
}

}  // namespace

cv::Mat RenderBorderedBase(const BorderedBaseTarget& t) {
  cv::Mat f(t.image_px, CV_32FC3, t.mat_bgr);
  Blend(f, CoverPolygon(Corners(t, 0.0), t.image_px), t.border_bgr);
  Blend(f, CoverPolygon(Corners(t, t.border_px), t.image_px), t.inside_bgr);
  cv::Mat out;
  f.convertTo(out, CV_8UC3);
  return out;
}

std::array<cv::Point2d, 4> BorderedBaseNormals(const BorderedBaseTarget& t) {
  const double a = t.angle_deg * CV_PI / 180.0;
  const cv::Point2d u(std::cos(a), std::sin(a)), v(-std::sin(a), std::cos(a));
  return {-u, u, -v, v};
}

}  // namespace referee
