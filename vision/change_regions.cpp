#include "vision/change_regions.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include <opencv2/imgproc.hpp>

#include "engine/order_statistics.hpp"
#include "vision/principal_axis.hpp"

namespace referee {

LineFit FitLine(const std::vector<cv::Point>& pts, double mm_per_px) {
  const PrincipalAxis fit = FitPrincipalAxis(pts);
  const cv::Point2d c = fit.centre;
  const cv::Point2d axis = fit.axis;
  const cv::Point2d perp(-axis.y, axis.x);
  std::vector<double> across;
  double tmin = 1e9, tmax = -1e9;
  for (const auto& p : pts) {
    const cv::Point2d d = cv::Point2d(p) - c;
    tmin = std::min(tmin, d.dot(axis));
    tmax = std::max(tmax, d.dot(axis));
    across.push_back(std::abs(d.dot(perp)));
  }
  return {(tmax - tmin + 1.0) * mm_per_px, 2.0 * Percentile(across, 0.97) * mm_per_px + mm_per_px,
          c + tmin * axis, c + tmax * axis};
}

cv::Mat SeenByCamera(const TopView& view) {
  cv::Mat seen;
  cv::erode(view.Rectify(cv::Mat(view.calibration().camera.image_size, CV_8U, cv::Scalar(255))),
            seen, cv::getStructuringElement(cv::MORPH_RECT, {5, 5}));
  return seen;
}

std::vector<ChangeBlob> RegionsOfChange(const cv::Mat& changed, const cv::Mat& seen,
                                        double mm_per_px, double ignore_area_mm2) {
  const double mm = mm_per_px;
  // Group nearby changed pixels (a thin stick may break up): dilate by ~2 mm for labelling.
  cv::Mat grouped, labels;
  const int r = std::max(1, static_cast<int>(std::lround(2.0 / mm)));
  cv::dilate(changed, grouped,
             cv::getStructuringElement(cv::MORPH_ELLIPSE, {2 * r + 1, 2 * r + 1}));
  const int n = cv::connectedComponents(grouped, labels, 8, CV_32S);
  std::vector<std::vector<cv::Point>> groups(static_cast<size_t>(n));
  for (int y = 0; y < changed.rows; ++y) {
    for (int x = 0; x < changed.cols; ++x) {
      if (changed.at<uchar>(y, x))
        groups[static_cast<size_t>(labels.at<int>(y, x))].emplace_back(x, y);
    }
  }
  std::vector<ChangeBlob> out;
  const cv::Rect inner(2, 2, changed.cols - 4, changed.rows - 4);
  for (int i = 1; i < n; ++i) {
    auto& g = groups[static_cast<size_t>(i)];
    const double area = static_cast<double>(g.size()) * mm * mm;
    if (area < ignore_area_mm2) continue;
    ChangeBlob b{g, area, cv::boundingRect(g)};
    for (const auto& p : g) {
      b.from_outside |= seen.at<uchar>(p) < 255;
      b.cut_off |= !inner.contains(p);
    }
    out.push_back(std::move(b));
  }
  return out;
}

}  // namespace referee
