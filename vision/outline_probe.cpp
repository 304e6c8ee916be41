#include "vision/outline_probe.hpp"

namespace referee {

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

}  // namespace referee
