#include "vision/lit_after.hpp"

#include <algorithm>

#include <opencv2/imgproc.hpp>

namespace referee {

cv::Mat GainCorrected(const cv::Mat& before, const cv::Mat& after) {
  cv::Mat b, a;
  const cv::Size small(std::max(1, before.cols / 32), std::max(1, before.rows / 32));
  cv::resize(before, b, small, 0, 0, cv::INTER_AREA);
  cv::resize(after, a, small, 0, 0, cv::INTER_AREA);
  b.convertTo(b, CV_32FC3, 1.0, 1.0);
  a.convertTo(a, CV_32FC3, 1.0, 1.0);
  cv::Mat gain;
  cv::divide(b, a, gain);
  cv::medianBlur(gain, gain, 5);
  cv::min(gain, 2.0, gain);
  cv::max(gain, 0.5, gain);
  cv::Mat gain_full, out;
  cv::resize(gain, gain_full, before.size(), 0, 0, cv::INTER_LINEAR);
  after.convertTo(out, CV_32FC3);
  cv::multiply(out, gain_full, out);
  return out;
}

const cv::Mat& LitAfter::Float() {
  if (float_.empty()) float_ = GainCorrected(before_, after_);
  return float_;
}

const cv::Mat& LitAfter::Bytes() {
  if (bytes_.empty()) Float().convertTo(bytes_, CV_8UC3);
  return bytes_;
}

}  // namespace referee
