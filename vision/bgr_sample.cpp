#include "vision/bgr_sample.hpp"

#include <cmath>

namespace referee {

cv::Vec3f SampleBgr(const cv::Mat& bgr, cv::Point2d p) {
  const int x0 = static_cast<int>(std::floor(p.x)), y0 = static_cast<int>(std::floor(p.y));
  if (x0 < 0 || y0 < 0 || x0 + 1 >= bgr.cols || y0 + 1 >= bgr.rows) return {-1, -1, -1};
  const float fx = static_cast<float>(p.x - x0), fy = static_cast<float>(p.y - y0);
  const cv::Vec3f a(bgr.at<cv::Vec3b>(y0, x0)), b(bgr.at<cv::Vec3b>(y0, x0 + 1));
  const cv::Vec3f c(bgr.at<cv::Vec3b>(y0 + 1, x0)), d(bgr.at<cv::Vec3b>(y0 + 1, x0 + 1));
  return (1 - fy) * ((1 - fx) * a + fx * b) + fy * ((1 - fx) * c + fx * d);
}

}  // namespace referee
