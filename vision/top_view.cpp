#include "vision/top_view.hpp"

#include "vision/block_shrink.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include <opencv2/calib3d.hpp>
#include <opencv2/imgproc.hpp>

namespace referee {

namespace {
// Pixels per inch the camera itself delivers near the board centre.
double NativePxPerInch(const TableCalibration& cal) {
  const Vec2 c{cal.board.Width() / 2, cal.board.Height() / 2};
  const cv::Point2d a = cal.camera.ImageFromTable(c);
  const cv::Point2d b = cal.camera.ImageFromTable(c + Vec2{1.0, 0.0});
  const cv::Point2d d = cal.camera.ImageFromTable(c + Vec2{0.0, 1.0});
  return 0.5 * (cv::norm(b - a) + cv::norm(d - a));
}
}  // namespace

TopView::TopView(const TableCalibration& cal, const TopViewOptions& options)
    : cal_(cal), margin_in_(options.margin_in) {
  px_per_inch_ = options.px_per_inch > 0 ? options.px_per_inch
                                         : std::clamp(std::ceil(NativePxPerInch(cal)), 32.0, 64.0);
  size_ =
      cv::Size(static_cast<int>(std::lround((cal.board.Width() + 2 * margin_in_) * px_per_inch_)),
               static_cast<int>(std::lround((cal.board.Height() + 2 * margin_in_) * px_per_inch_)));
  BuildMaps();
}

void TopView::BuildMaps() {
  // Project the view's pixel centres into the camera a band of rows at a time: a full-frame
  // list of 3D points at 2160p would cost hundreds of MB at start-up for nothing.
  map1_.create(size_, CV_16SC2);
  map2_.create(size_, CV_16UC1);
  seen_.create(size_, CV_8UC1);
  const int band = 64;
  std::vector<cv::Point3d> obj;
  std::vector<cv::Point2d> img;
  cv::Mat mapf;
  const cv::Size image = cal_.camera.image_size;
  // Block i of a frame shrunk by k averages camera pixels [i k, i k + k): its centre is at
  // camera pixel i k + (k - 1) / 2.
  const double k = frame_shrink_;
  const double shift = (k - 1) / 2;
  const cv::Size sampled =
      image.empty() ? image : cv::Size(image.width / frame_shrink_, image.height / frame_shrink_);
  const auto max_x = static_cast<float>(sampled.width - 1);
  const auto max_y = static_cast<float>(sampled.height - 1);
  for (int y0 = 0; y0 < size_.height; y0 += band) {
    const int rows = std::min(band, size_.height - y0);
    obj.clear();
    for (int y = y0; y < y0 + rows; ++y) {
      for (int x = 0; x < size_.width; ++x) {
        const Vec2 t = TableFromRectified({static_cast<double>(x), static_cast<double>(y)});
        obj.emplace_back(t.x, t.y, 0.0);
      }
    }
    cv::projectPoints(obj, cal_.camera.rvec_cam_from_table, cal_.camera.tvec_cam_from_table,
                      cal_.camera.camera_matrix, cal_.camera.distortion, img);
    if (frame_shrink_ > 1) {
      for (cv::Point2d& p : img) p = (p - cv::Point2d(shift, shift)) / k;
    }
    cv::Mat(rows, size_.width, CV_64FC2, img.data()).convertTo(mapf, CV_32FC2);
    const cv::Rect rows_roi(0, y0, size_.width, rows);
    cv::Mat m1 = map1_(rows_roi), m2 = map2_(rows_roi);
    cv::convertMaps(mapf, cv::Mat(), m1, m2, CV_16SC2);
    for (int y = 0; y < rows; ++y) {
      const auto* p = mapf.ptr<cv::Vec2f>(y);
      auto* s = seen_.ptr<uchar>(y0 + y);
      for (int x = 0; x < size_.width; ++x) {
        const bool in = sampled.empty() ||
                        (p[x][0] >= 0 && p[x][1] >= 0 && p[x][0] <= max_x && p[x][1] <= max_y);
        s[x] = in ? 255 : 0;
      }
    }
  }
}

cv::Mat TopView::Rectify(const cv::Mat& image) const {
  cv::Mat out;
  Rectify(image, out);
  return out;
}

void TopView::Rectify(const cv::Mat& image, cv::Mat& out) const {
  if (frame_shrink_ > 1 && !image.empty()) {
    // Block means in halvings: a 4K frame shrinks by 4 in a third of one resize's time.
    const cv::Mat shrunk = ShrinkByBlocks(image, frame_shrink_);
    cv::remap(shrunk, out, map1_, map2_, cv::INTER_LINEAR, cv::BORDER_CONSTANT, cv::Scalar::all(0));
    return;
  }
  cv::remap(image, out, map1_, map2_, cv::INTER_LINEAR, cv::BORDER_CONSTANT, cv::Scalar::all(0));
}

double TopView::PxPerCameraPx() const {
  const double camera_px_per_inch = NativePxPerInch(cal_) / frame_shrink_;
  if (!std::isfinite(camera_px_per_inch) || camera_px_per_inch <= 0) return 1.0;
  return px_per_inch_ / camera_px_per_inch;
}

TopView TopView::Coarse(int factor) const {
  factor = std::max(1, factor);
  TopView c;
  c.cal_ = cal_;
  c.px_per_inch_ = px_per_inch_ / factor;
  c.margin_in_ = margin_in_;
  c.size_ = {std::max(1, size_.width / factor), std::max(1, size_.height / factor)};
  c.origin_px_ = {origin_px_.x / factor, origin_px_.y / factor};
  const double camera_px_per_px = NativePxPerInch(cal_) / c.px_per_inch_;
  c.frame_shrink_ = std::max(1, static_cast<int>(std::lround(camera_px_per_px)));
  c.BuildMaps();
  return c;
}

TopView TopView::Crop(cv::Rect region_px) const {
  const cv::Rect r = region_px & cv::Rect({0, 0}, size_);
  TopView c = *this;
  c.origin_px_ = origin_px_ + r.tl();
  c.size_ = r.size();
  if (!map1_.empty()) {
    c.map1_ = map1_(r);
    c.map2_ = map2_(r);
    c.seen_ = seen_(r);
  }
  return c;
}

Vec2 TopView::TableAtHeight(Vec2 on_mat, double height_in) const {
  // The ray from the camera centre C through the mat point P meets z = -h at
  // C + s (P - C) with s = (C.z + h) / C.z (C.z < 0 above the table).
  const cv::Vec3d c = cal_.camera.CameraCenterTable();
  if (c[2] >= -1e-9) return on_mat;
  const double s = (c[2] + height_in) / c[2];
  return {c[0] + s * (on_mat.x - c[0]), c[1] + s * (on_mat.y - c[1])};
}

Vec2 TopView::SeenOnMat(Vec2 at_height, double height_in) const {
  // TableAtHeight is a scaling by s about the camera's foot: undo it.
  const cv::Vec3d c = cal_.camera.CameraCenterTable();
  if (c[2] >= -1e-9) return at_height;
  const double s = (c[2] + height_in) / c[2];
  return {c[0] + (at_height.x - c[0]) / s, c[1] + (at_height.y - c[1]) / s};
}

void FillTableOutline(const TopView& view, const std::vector<Vec2>& outline, cv::Mat& mask) {
  std::vector<cv::Point> poly;
  poly.reserve(outline.size());
  for (const Vec2& v : outline) {
    const cv::Point2d p = view.RectifiedFromTable(v);
    poly.emplace_back(cvRound(p.x), cvRound(p.y));
  }
  if (poly.size() >= 3) cv::fillPoly(mask, std::vector<std::vector<cv::Point>>{poly}, 255);
}

}  // namespace referee
