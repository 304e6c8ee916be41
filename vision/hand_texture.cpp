#include "vision/hand_texture.hpp"

#include <opencv2/imgproc.hpp>

namespace referee {

cv::Mat EdgeContrastCells(const cv::Mat& fine_bgr) {
  const cv::Size cells(fine_bgr.cols / 2, fine_bgr.rows / 2);
  if (cells.area() == 0) return cv::Mat(cells, CV_32F, cv::Scalar(0));
  cv::Mat gray, gx, gy, energy;
  cv::cvtColor(fine_bgr, gray, cv::COLOR_BGR2GRAY);
  cv::Sobel(gray, gx, CV_32F, 1, 0, 3, 0.25);  // 0.25: grey levels per pixel
  cv::Sobel(gray, gy, CV_32F, 0, 1, 3, 0.25);
  energy = cv::abs(gx) + cv::abs(gy);
  cv::Mat energy_cells, gray_cells;
  const cv::Rect whole(0, 0, cells.width * 2, cells.height * 2);
  cv::resize(energy(whole), energy_cells, cells, 0, 0, cv::INTER_AREA);
  cv::resize(gray(whole), gray_cells, cells, 0, 0, cv::INTER_AREA);
  gray_cells.convertTo(gray_cells, CV_32F, 1.0, 4.0);
  return energy_cells / gray_cells;
}

cv::Mat TextureChangedCells(const cv::Mat& before, const cv::Mat& after, double level) {
  if (before.empty() || before.size() != after.size()) return cv::Mat(after.size(), CV_8U, 0.0);
  // By `level` and by a third of the larger: an exposure change moves every cell's contrast a
  // little (the grey offset, rounding), a hidden grid line or grain takes most of it away.
  constexpr double kMinRatio = 1.5;
  cv::Mat diff, low, high;
  cv::absdiff(before, after, diff);
  cv::min(before, after, low);
  cv::max(before, after, high);
  return (diff >= level) & (high >= kMinRatio * low);
}

}  // namespace referee
