#include "vision/change_meter.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include <opencv2/imgproc.hpp>

namespace referee {

namespace {

// Per-channel gain g with after * g ~ before, from block means: the median over blocks, so a
// hand or a shadow over part of the table does not set it. Clamped to [0.5, 2].
cv::Vec3f GlobalGain(const cv::Mat& before, const cv::Mat& after) {
  const int cols = std::min(16, before.cols);
  const int rows = std::max(1, before.rows * cols / std::max(1, before.cols));
  cv::Mat b, a;
  cv::resize(before, b, {cols, rows}, 0, 0, cv::INTER_AREA);
  cv::resize(after, a, {cols, rows}, 0, 0, cv::INTER_AREA);
  cv::Vec3f gain;
  for (int c = 0; c < 3; ++c) {
    std::vector<float> r;
    r.reserve(b.total());
    for (int y = 0; y < rows; ++y) {
      for (int x = 0; x < cols; ++x) {
        const float bv = b.at<cv::Vec3b>(y, x)[c], av = a.at<cv::Vec3b>(y, x)[c];
        if (bv > 8 && av > 8) r.push_back(bv / av);  // black fill outside the camera: no info
      }
    }
    if (r.empty()) {
      gain[c] = 1.0f;
      continue;
    }
    std::nth_element(r.begin(), r.begin() + static_cast<long>(r.size() / 2), r.end());
    gain[c] = std::clamp(r[r.size() / 2], 0.5f, 2.0f);
  }
  return gain;
}

}  // namespace

ChangeMeter::ChangeMeter(const TopView& view, ChangeOptions options) : options_(options) {
  mm_per_px_ = view.MmPerPx();
  factor_ = std::max(1, static_cast<int>(std::lround(options_.cell_mm / mm_per_px_)));
  cell_area_mm2_ = std::pow(factor_ * view.MmPerPx(), 2);
  full_ = view.size();
  cells_ = {std::max(1, full_.width / factor_), std::max(1, full_.height / factor_)};
  // A cell is seen when all of it samples the camera image; the edge band is the seen cells
  // within two cells of the view border or of the unseen fill (where an arm must come in).
  cv::Mat seen = view.seen_mask();
  if (seen.empty()) seen = cv::Mat(full_, CV_8U, cv::Scalar(255));
  cv::Mat seen_cells;
  cv::resize(seen(cv::Rect(0, 0, cells_.width * factor_, cells_.height * factor_)), seen_cells,
             cells_, 0, 0, cv::INTER_AREA);
  seen_cells = seen_cells == 255;
  cv::Mat inner;
  cv::erode(seen_cells, inner, cv::getStructuringElement(cv::MORPH_RECT, {5, 5}), {-1, -1}, 1,
            cv::BORDER_CONSTANT, cv::Scalar(0));
  edge_ = seen_cells & ~inner;
}

cv::Mat ChangeMeter::Shrink(const cv::Mat& top_bgr) const {
  cv::Mat out;
  const cv::Rect whole(0, 0, cells_.width * factor_, cells_.height * factor_);
  // An exact integer factor keeps cv::resize on its fast block-average path.
  cv::resize(top_bgr(whole & cv::Rect({0, 0}, top_bgr.size())), out, cells_, 0, 0, cv::INTER_AREA);
  return out;
}

cv::Mat ChangeMeter::Changed(const cv::Mat& before, const cv::Mat& after) const {
  return ChangedCells(before, after, options_.level);
}

cv::Mat ChangedCells(const cv::Mat& before, const cv::Mat& after, double level_8bit) {
  cv::Mat out(before.size(), CV_8U, cv::Scalar(0));
  if (before.empty() || before.size() != after.size() || before.type() != CV_8UC3 ||
      after.type() != CV_8UC3) {
    return out;
  }
  const cv::Vec3f g = GlobalGain(before, after);
  const auto level = static_cast<float>(level_8bit);
  for (int y = 0; y < before.rows; ++y) {
    const auto* b = before.ptr<cv::Vec3b>(y);
    const auto* a = after.ptr<cv::Vec3b>(y);
    auto* o = out.ptr<uchar>(y);
    for (int x = 0; x < before.cols; ++x) {
      const std::array<float, 3> bc{static_cast<float>(b[x][0]), static_cast<float>(b[x][1]),
                                    static_cast<float>(b[x][2])};
      const std::array<float, 3> ac{static_cast<float>(a[x][0]) * g[0],
                                    static_cast<float>(a[x][1]) * g[1],
                                    static_cast<float>(a[x][2]) * g[2]};
      const float d =
          std::max({std::abs(ac[0] - bc[0]), std::abs(ac[1] - bc[1]), std::abs(ac[2] - bc[2])});
      if (d < level) continue;
      // A shadow darkens every channel by about the same ratio: not an object.
      std::array<float, 3> r{};
      for (int c = 0; c < 3; ++c) r[c] = (ac[c] + 4.0f) / (bc[c] + 4.0f);
      const float rmax = std::max({r[0], r[1], r[2]}), rmin = std::min({r[0], r[1], r[2]});
      const bool shadow = rmax < 0.92f && rmin > 0.3f && rmax / rmin < 1.15f;
      if (!shadow) o[x] = 255;
    }
  }
  return out;
}

double ChangeMeter::AreaMm2(const cv::Mat& changed) const {
  return changed.empty() ? 0.0 : cv::countNonZero(changed) * cell_area_mm2_;
}

std::vector<ChangeRegion> ChangeMeter::Regions(const cv::Mat& changed) const {
  std::vector<ChangeRegion> out;
  if (changed.empty() || cv::countNonZero(changed) == 0) return out;
  cv::Mat labels, stats, centroids;
  const int n = cv::connectedComponentsWithStats(changed, labels, stats, centroids, 8, CV_32S);
  std::vector<bool> touches(static_cast<size_t>(n), false);
  if (edge_.size() == changed.size()) {
    for (int y = 0; y < labels.rows; ++y) {
      const auto* l = labels.ptr<int>(y);
      const auto* e = edge_.ptr<uchar>(y);
      for (int x = 0; x < labels.cols; ++x) {
        if (l[x] > 0 && e[x]) touches[static_cast<size_t>(l[x])] = true;
      }
    }
  }
  for (int i = 1; i < n; ++i) {
    ChangeRegion r;
    r.box_px = cv::Rect(stats.at<int>(i, cv::CC_STAT_LEFT) * factor_,
                        stats.at<int>(i, cv::CC_STAT_TOP) * factor_,
                        stats.at<int>(i, cv::CC_STAT_WIDTH) * factor_,
                        stats.at<int>(i, cv::CC_STAT_HEIGHT) * factor_);
    r.area_mm2 = stats.at<int>(i, cv::CC_STAT_AREA) * cell_area_mm2_;
    r.touches_edge = touches[static_cast<size_t>(i)];
    out.push_back(r);
  }
  std::sort(out.begin(), out.end(),
            [](const ChangeRegion& a, const ChangeRegion& b) { return a.area_mm2 > b.area_mm2; });
  return out;
}

cv::Rect ChangeMeter::Bounds(const cv::Mat& changed) const {
  if (changed.empty()) return {};
  const cv::Rect cells = cv::boundingRect(changed);
  if (cells.area() == 0) return {};
  return {cells.x * factor_, cells.y * factor_, cells.width * factor_, cells.height * factor_};
}

cv::Rect ChangeMeter::Around(const cv::Mat& changed, double min_region_mm2,
                             double margin_mm) const {
  cv::Rect box;
  for (const ChangeRegion& r : Regions(changed)) {
    if (r.area_mm2 >= min_region_mm2) box |= r.box_px;
  }
  if (box.empty()) return {};
  const int m = factor_ + static_cast<int>(std::ceil(margin_mm / mm_per_px_));
  return cv::Rect(box.x - m, box.y - m, box.width + 2 * m, box.height + 2 * m) &
         cv::Rect({0, 0}, full_);
}

}  // namespace referee
