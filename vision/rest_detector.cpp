#include "vision/rest_detector.hpp"

#include <algorithm>

#include <opencv2/imgproc.hpp>

namespace referee {

RestUpdate RestDetector::Push(const cv::Mat& frame, double t_seconds) {
  cv::Mat grey, small;
  if (frame.channels() == 3) {
    cv::cvtColor(frame, grey, cv::COLOR_BGR2GRAY);
  } else {
    grey = frame;
  }
  const double s = std::min(1.0, static_cast<double>(options_.work_width) / grey.cols);
  cv::resize(grey, small, {}, s, s, cv::INTER_AREA);
  cv::GaussianBlur(small, small, {3, 3}, 0);
  RestUpdate u;
  if (last_.empty() || last_.size() != small.size()) {
    last_ = small;
    last_motion_t_ = t_seconds;
    return u;
  }
  cv::Mat diff;
  cv::absdiff(small, last_, diff);
  last_ = small;
  const int changed = cv::countNonZero(diff > options_.motion_level);
  u.moving = changed > options_.motion_fraction * static_cast<double>(diff.total());
  if (u.moving) {
    last_motion_t_ = t_seconds;
    armed_ = true;
  }
  u.still_seconds = t_seconds - last_motion_t_;
  if (armed_ && u.still_seconds >= options_.rest_seconds) {
    u.came_to_rest = true;
    armed_ = false;
  }
  return u;
}

void RestDetector::Reset() {
  last_.release();
  armed_ = false;
}

}  // namespace referee
