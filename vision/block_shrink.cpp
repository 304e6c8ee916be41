#include "vision/block_shrink.hpp"

#include <algorithm>

#include <opencv2/imgproc.hpp>

namespace referee {

cv::Mat ShrinkByBlocks(const cv::Mat& image, int factor) {
  factor = std::max(1, factor);
  const cv::Size out(image.cols / factor, image.rows / factor);
  cv::Mat m = image(cv::Rect(0, 0, out.width * factor, out.height * factor));
  if (factor == 1) return m;
  while (factor % 2 == 0) {
    cv::Mat half;
    cv::resize(m, half, {m.cols / 2, m.rows / 2}, 0, 0, cv::INTER_AREA);
    m = half;
    factor /= 2;
  }
  if (factor > 1) {
    cv::Mat rest;
    cv::resize(m, rest, out, 0, 0, cv::INTER_AREA);
    m = rest;
  }
  return m;
}

}  // namespace referee
