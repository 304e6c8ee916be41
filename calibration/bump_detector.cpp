#include "calibration/bump_detector.hpp"

#include <algorithm>
#include <cmath>
#include <opencv2/calib3d.hpp>
#include <opencv2/imgproc.hpp>
#include <vector>

#include "calibration/intersection_refine.hpp"
#include "engine/order_statistics.hpp"

namespace referee {

namespace {

cv::Mat EdgeMap(const cv::Mat& thumb) {
  cv::Mat f, gx, gy, mag;
  thumb.convertTo(f, CV_32F);
  cv::Sobel(f, gx, CV_32F, 1, 0);
  cv::Sobel(f, gy, CV_32F, 0, 1);
  cv::magnitude(gx, gy, mag);
  return mag;
}

}  // namespace

BumpDetector::BumpDetector(TableCalibration calibration, BumpOptions options)
    : cal_(std::move(calibration)), options_(options) {
  if (!cal_.reference_gray.empty()) reference_edges_ = EdgeMap(cal_.reference_gray);
}

BumpReport BumpDetector::Check(const cv::Mat& frame) const {
  BumpReport rep;
  rep.reference = static_cast<int>(cal_.intersections.size());
  if (frame.empty() || rep.reference == 0) return rep;
  // Coarse shift (whole-frame translation) from the thumbnails' edge maps.
  cv::Point2d coarse(0, 0);
  if (!reference_edges_.empty()) {
    const cv::Mat live = EdgeMap(ReferenceThumbnail(frame));
    if (live.size() == reference_edges_.size()) {
      cv::Mat win;
      cv::createHanningWindow(win, live.size(), CV_32F);
      const cv::Point2d s = cv::phaseCorrelate(reference_edges_, live, win);
      coarse = s * (static_cast<double>(frame.cols) / live.cols);
    }
  }
  const cv::Mat gray = RefineImage(frame);
  const double sq = cal_.board.square_size_in;
  std::vector<cv::Point3d> obj;
  for (const auto& f : cal_.intersections) {
    obj.emplace_back((f.col - 0.25) * sq, f.row * sq, 0);
    obj.emplace_back((f.col + 0.25) * sq, f.row * sq, 0);
    obj.emplace_back(f.col * sq, (f.row - 0.25) * sq, 0);
    obj.emplace_back(f.col * sq, (f.row + 0.25) * sq, 0);
  }
  std::vector<cv::Point2d> p;
  const CameraModel& cam = cal_.camera;
  cv::projectPoints(obj, cam.rvec_cam_from_table, cam.tvec_cam_from_table, cam.camera_matrix,
                    cam.distortion, p);
  std::vector<double> dx, dy, mag;
  for (size_t i = 0; i < cal_.intersections.size(); ++i) {
    const cv::Point2d d1 = p[4 * i + 1] - p[4 * i], d2 = p[4 * i + 3] - p[4 * i + 2];
    const double spacing = 2.0 * std::min(cv::norm(d1), cv::norm(d2));
    // Try where it was, then where the coarse shift says it went.
    const cv::Point2d ref = cal_.intersections[i].px;
    std::optional<RefinedCrossing> rc = RefineCrossing(gray, ref, d1, d2, spacing);
    if (cv::norm(coarse) > 0.1 * spacing) {
      auto moved = RefineCrossing(gray, ref + coarse, d1, d2, spacing);
      if (moved) rc = moved;
    }
    if (!rc) continue;
    const cv::Point2d d = rc->px - ref;
    dx.push_back(d.x);
    dy.push_back(d.y);
    mag.push_back(cv::norm(d));
  }
  rep.measured = static_cast<int>(mag.size());
  rep.visible_fraction = static_cast<double>(rep.measured) / rep.reference;
  rep.reliable = rep.measured >= options_.min_crossings;
  rep.median_vector = {Median(dx), Median(dy)};
  rep.median_shift_px = Median(mag);
  rep.bumped = rep.reliable && rep.median_shift_px >= options_.shift_threshold_px;
  return rep;
}

std::optional<TableCalibration> BumpDetector::Recalibrate(const cv::Mat& frame,
                                                          const BumpReport& report,
                                                          const CalibrateOptions& options) const {
  if (report.visible_fraction < options_.recalibrate_min_visible) return std::nullopt;
  std::optional<LensModel> lens;
  if (cal_.lens_from_file) {
    lens = LensModel{cal_.camera.image_size, cal_.camera.camera_matrix, cal_.camera.distortion, 0};
  }
  const CalibrationResult r = CalibrateTable(frame, cal_.board, lens, options);
  if (const auto* cal = std::get_if<TableCalibration>(&r)) return *cal;
  return std::nullopt;
}

}  // namespace referee
