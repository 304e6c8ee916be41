#include "vision/table_change.hpp"

#include <algorithm>
#include <vector>

#include <opencv2/imgproc.hpp>

#include "vision/lit_after.hpp"

namespace referee {

cv::Mat TableChange(const cv::Mat& top, const cv::Mat& empty_top,
                    const TableChangeOptions& options) {
  if (top.empty() || top.size() != empty_top.size() || top.type() != CV_8UC3 ||
      empty_top.type() != CV_8UC3) {
    return {};
  }
  cv::Mat now, was;
  top.convertTo(now, CV_32FC3);
  cv::blur(now, now, {3, 3});
  // The empty table's view relit as now: per channel over a grid of 32 x 32 px cells, the
  // median over 5 x 5 cells (a base covers a few).
  cv::blur(GainCorrected(top, empty_top), was, {3, 3});
  cv::Mat diff;
  cv::absdiff(now, was, diff);
  cv::Mat ch[3];
  cv::split(diff, ch);
  cv::Mat level = cv::max(cv::max(ch[0], ch[1]), ch[2]);
  // Where either view shows nothing (outside the rectified camera frame).
  cv::Mat gray_now, gray_was, seen;
  cv::cvtColor(top, gray_now, cv::COLOR_BGR2GRAY);
  cv::cvtColor(empty_top, gray_was, cv::COLOR_BGR2GRAY);
  seen = (gray_now > 0) & (gray_was > 0);
  std::vector<float> v;
  v.reserve(static_cast<size_t>(level.total() / 16 + 1));
  for (int y = 0; y < level.rows; y += 4) {
    const float* l = level.ptr<float>(y);
    const uchar* s = seen.ptr<uchar>(y);
    for (int x = 0; x < level.cols; x += 4) {
      if (s[x] != 0) v.push_back(l[x]);
    }
  }
  if (v.empty()) return cv::Mat::zeros(top.size(), CV_8U);
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
  const double threshold =
      std::max(options.min_change_levels, options.noise_multiple * v[v.size() / 2]);
  cv::Mat out = (level > threshold) & seen;
  return out;
}

double ChangedShare(const cv::Mat& change, const PxRect& r) {
  if (change.empty()) return 0.0;
  std::vector<cv::Point> corners = GrownCorners(r, 0.0);
  const cv::Rect box = cv::boundingRect(corners) & cv::Rect(0, 0, change.cols, change.rows);
  if (box.area() == 0) return 0.0;
  for (cv::Point& c : corners) c -= box.tl();
  cv::Mat poly = cv::Mat::zeros(box.size(), CV_8U);
  cv::fillConvexPoly(poly, corners, cv::Scalar(255));
  const int n = cv::countNonZero(poly);
  if (n == 0) return 0.0;
  return static_cast<double>(cv::countNonZero(poly & change(box))) / n;
}

void DropUnchangedBases(std::vector<std::vector<PxRect>>& rects, const cv::Mat& change,
                        double min_share) {
  if (change.empty()) return;
  for (std::vector<PxRect>& side : rects) {
    std::erase_if(side, [&](const PxRect& r) { return ChangedShare(change, r) < min_share; });
  }
}

}  // namespace referee
