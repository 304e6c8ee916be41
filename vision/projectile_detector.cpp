#include "vision/projectile_detector.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <opencv2/imgproc.hpp>

#include "vision/qtip_model.hpp"
#include "vision/qtip_support.hpp"

namespace referee {

namespace {

std::string Mm(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f", v);
  return buf;
}

// Per-channel lighting change between the frames, measured at a scale far larger than any
// projectile (so the projectile itself does not bias it): after * gain ~ before.
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

double Percentile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  const size_t k = std::min(v.size() - 1, static_cast<size_t>(q * static_cast<double>(v.size())));
  std::nth_element(v.begin(), v.begin() + static_cast<long>(k), v.end());
  return v[k];
}

// A stand whose (slightly grown) footprint holds the point once raised to the base top.
const DetectedStand* StandUnder(Vec2 on_mat, const TopView& view,
                                const std::vector<DetectedStand>& stands, double height_in) {
  const Vec2 p = view.TableAtHeight(on_mat, height_in);
  for (const auto& s : stands) {
    if (DistanceToRect(p, s.stand.footprint) < MmToInches(0.5)) return &s;
  }
  return nullptr;
}

}  // namespace

double MaxProjectileChangeMm2(const ProjectileOptions& opt, double mm_per_px) {
  // The change a projectile can make: its outline grown by the blur of lens and resampling
  // (about 1.5 px a side, at least 1 mm), once for itself and once for what the shadow test
  // keeps of its shadow, times a margin for a Q-tip lying across figures (it hides some of
  // them and its shadow falls on them in pieces).
  const double blur_mm = std::max(1.0, 1.5 * mm_per_px);
  const double qtip =
      (opt.qtip_length_mm + 2 * blur_mm) * (opt.qtip_head_diameter_mm + 2 * blur_mm);
  const double shell = std::pow(opt.shell_side_mm + 2 * blur_mm, 2);
  return opt.change_area_margin * 2.0 * std::max(qtip, shell);
}

cv::Mat ChangeMask(const cv::Mat& top_before, const cv::Mat& top_after, double min_change,
                   cv::Mat* magnitude, cv::Mat* object_change) {
  const cv::Mat after = GainCorrected(top_before, top_after);
  cv::Mat before;
  top_before.convertTo(before, CV_32FC3);
  cv::Mat mag(before.size(), CV_32F), mask(before.size(), CV_8U, cv::Scalar(0));
  cv::Mat object(before.size(), CV_32F);
  for (int y = 0; y < before.rows; ++y) {
    const auto* b = before.ptr<cv::Vec3f>(y);
    const auto* a = after.ptr<cv::Vec3f>(y);
    auto* m = mag.ptr<float>(y);
    auto* o = object.ptr<float>(y);
    auto* k = mask.ptr<uchar>(y);
    for (int x = 0; x < before.cols; ++x) {
      const cv::Vec3f d = a[x] - b[x];
      const float v = std::max({std::abs(d[0]), std::abs(d[1]), std::abs(d[2])});
      m[x] = v;
      o[x] = v;
      // A shadow darkens all channels by about the same ratio: not an object.
      float r[3];
      for (int c = 0; c < 3; ++c) r[c] = (a[x][c] + 4.0f) / (b[x][c] + 4.0f);
      const float rmax = std::max({r[0], r[1], r[2]}), rmin = std::min({r[0], r[1], r[2]});
      const bool shadow = rmax < 0.92f && rmin > 0.3f && rmax / rmin < 1.15f;
      if (shadow) o[x] = 0.0f;
      if (v >= min_change && !shadow) k[x] = 255;
    }
  }
  if (object_change) *object_change = object;
  const cv::Mat k3 = cv::getStructuringElement(cv::MORPH_RECT, {3, 3});
  cv::morphologyEx(mask, mask, cv::MORPH_OPEN, k3);
  if (magnitude) *magnitude = mag;
  return mask;
}

ProjectileResult DetectProjectile(const cv::Mat& top_before, const cv::Mat& top_after,
                                  const TopView& view, const std::vector<DetectedStand>& stands,
                                  const ProjectileOptions& opt) {
  if (top_before.empty() || top_after.empty() || top_before.size() != top_after.size() ||
      top_before.type() != CV_8UC3 || top_after.type() != CV_8UC3) {
    return Refusal{"before and after top views are missing or differ in size/type"};
  }
  const double mm = view.MmPerPx();
  cv::Mat mag, object;
  const cv::Mat mask = ChangeMask(top_before, top_after, opt.min_change, &mag, &object);
  // What the camera sees of the top view: a change touching the border of the camera's field
  // came in from outside it (an arm), while the top view's own border only cuts the picture.
  cv::Mat seen;
  cv::erode(view.Rectify(cv::Mat(view.calibration().camera.image_size, CV_8U, cv::Scalar(255))),
            seen, cv::getStructuringElement(cv::MORPH_RECT, {5, 5}));
  // Group nearby changed pixels (a thin stick may break up): dilate by ~2 mm for labelling.
  cv::Mat grouped, labels;
  const int r = std::max(1, static_cast<int>(std::lround(2.0 / mm)));
  cv::dilate(mask, grouped, cv::getStructuringElement(cv::MORPH_ELLIPSE, {2 * r + 1, 2 * r + 1}));
  const int n = cv::connectedComponents(grouped, labels, 8, CV_32S);
  std::vector<std::vector<cv::Point>> groups(static_cast<size_t>(n));
  for (int y = 0; y < mask.rows; ++y) {
    for (int x = 0; x < mask.cols; ++x) {
      if (mask.at<uchar>(y, x))
        groups[static_cast<size_t>(labels.at<int>(y, x))].emplace_back(x, y);
    }
  }
  struct Blob {
    std::vector<cv::Point> pts;
    double area_mm2;
    cv::Rect box;
    bool from_outside = false;  // touches the border of the camera's field
    bool cut_off = false;       // runs out of the top view
  };
  std::vector<Blob> blobs;
  const cv::Rect inner(2, 2, mask.cols - 4, mask.rows - 4);
  for (int i = 1; i < n; ++i) {
    auto& g = groups[static_cast<size_t>(i)];
    const double area = static_cast<double>(g.size()) * mm * mm;
    if (area < opt.ignore_area_mm2) continue;
    Blob b{g, area, cv::boundingRect(g)};
    for (const auto& p : g) {
      b.from_outside |= seen.at<uchar>(p) < 255;
      b.cut_off |= !inner.contains(p);
    }
    blobs.push_back(std::move(b));
  }
  if (blobs.empty())
    return Refusal{"no projectile found: nothing changed between before and after"};
  std::sort(blobs.begin(), blobs.end(),
            [](const Blob& a, const Blob& b) { return a.area_mm2 > b.area_mm2; });
  const double max_area = MaxProjectileChangeMm2(opt, mm);
  for (const auto& b : blobs) {
    if (b.from_outside) {
      return Refusal{
          "something entered from the edge of the camera's view (hand or arm?): frame refused"};
    }
    if (b.area_mm2 > max_area) {
      return Refusal{"large change of " + Mm(b.area_mm2) +
                     " mm^2 (hand, arm or moved stand?): not a projectile, frame refused"};
    }
  }
  if (blobs.size() > 1 && blobs[1].area_mm2 > 0.25 * blobs[0].area_mm2) {
    return Refusal{"more than one thing changed (" + std::to_string(blobs.size()) +
                   " regions): cannot tell which is the projectile, frame refused"};
  }
  const Blob& blob = blobs[0];

  // Principal axis of the changed pixels.
  cv::Mat data(static_cast<int>(blob.pts.size()), 2, CV_64F);
  for (size_t i = 0; i < blob.pts.size(); ++i) {
    data.at<double>(static_cast<int>(i), 0) = blob.pts[i].x;
    data.at<double>(static_cast<int>(i), 1) = blob.pts[i].y;
  }
  cv::PCA pca(data, cv::Mat(), cv::PCA::DATA_AS_ROW);
  const cv::Point2d c(pca.mean.at<double>(0), pca.mean.at<double>(1));
  const cv::Point2d axis(pca.eigenvectors.at<double>(0, 0), pca.eigenvectors.at<double>(0, 1));
  const cv::Point2d perp(-axis.y, axis.x);
  std::vector<double> ss;
  double tmin = 1e9, tmax = -1e9;
  for (const auto& p : blob.pts) {
    const cv::Point2d d = cv::Point2d(p) - c;
    const double t = d.dot(axis);
    ss.push_back(std::abs(d.dot(perp)));
    tmin = std::min(tmin, t);
    tmax = std::max(tmax, t);
  }
  const double length_mm = (tmax - tmin + 1.0) * mm;
  const double width_mm = 2.0 * Percentile(ss, 0.97) * mm + mm;
  const double tol = opt.size_tolerance;
  // A Q-tip running out of the view only shows part of its length.
  const bool qtip_length_ok =
      blob.cut_off
          ? length_mm >= 0.4 * opt.qtip_length_mm && length_mm <= (1 + tol) * opt.qtip_length_mm
          : std::abs(length_mm - opt.qtip_length_mm) <= tol * opt.qtip_length_mm;
  const bool qtip_shape = qtip_length_ok && width_mm <= 2.0 * opt.qtip_head_diameter_mm;
  const bool shell_shape =
      !blob.cut_off &&
      blob.area_mm2 >= opt.shell_min_fill * opt.shell_side_mm * opt.shell_side_mm &&
      std::abs(length_mm - opt.shell_side_mm * std::sqrt(2.0)) <=
          (tol + 0.42) * opt.shell_side_mm &&
      width_mm >= (1 - tol) * opt.shell_side_mm &&
      width_mm <= (1 + tol) * opt.shell_side_mm * std::sqrt(2.0);
  ProjectileObservation obs;
  obs.change_area_mm2 = blob.area_mm2;
  obs.region_px = blob.box;
  if (qtip_shape && opt.expect != "shell") {
    QtipModelOptions model;
    model.length_mm = opt.qtip_length_mm;
    model.head_diameter_mm = opt.qtip_head_diameter_mm;
    model.head_length_mm = opt.qtip_head_length_mm;
    model.size_tolerance = tol;
    const auto fit = FitQtip(top_before, top_after, mag, object, blob.pts, mm, blob.cut_off, model);
    if (const auto* refusal = std::get_if<QtipRefusal>(&fit)) return Refusal{refusal->reason};
    const QtipFit& q = std::get<QtipFit>(fit);
    obs.kind = "qtip";
    obs.point_px = q.tip_px;
    obs.tip_from_edge = q.tip_from_edge;
    const Vec2 on_mat = view.TableFromRectified(obs.point_px);
    const Vec2 plain_on_mat = view.TableFromRectified(q.plain_end_px);
    QtipSupportOptions support_opt;
    support_opt.base_height_mm = opt.base_height_mm;
    support_opt.figure_height_mm = opt.figure_height_mm;
    support_opt.head_radius_mm = 0.5 * opt.qtip_head_diameter_mm;
    const QtipSupport support =
        QtipRestHeights(on_mat, plain_on_mat, view, top_before, stands, support_opt);
    obs.height_in = support.tip_height_in;
    obs.resting_on = support.stand_id;
    obs.point = view.TableAtHeight(on_mat, obs.height_in);
    obs.other_end = view.TableAtHeight(plain_on_mat, support.plain_height_in);
    return obs;
  }
  if (shell_shape && opt.expect != "qtip") {
    // The dot: a small spot darker than the shell's own top around it. It is ~3 mm, a few
    // pixels, blurred by the lens and JPEG, so it is judged by its contrast with the top's
    // surface (not by a fixed share of it), then located by the weighted centroid of what is
    // darker than half way between the spot and the surface.
    std::vector<cv::Point> hull;
    cv::convexHull(blob.pts, hull);
    const cv::Rect box = blob.box & cv::Rect(0, 0, mask.cols, mask.rows);
    cv::Mat gray;
    cv::cvtColor(top_after(box), gray, cv::COLOR_BGR2GRAY);
    cv::Mat smooth;
    cv::GaussianBlur(gray, smooth, {3, 3}, 0);
    // Only near the middle: the dot marks the centre, while the blob's outline also holds the
    // shell's darker sides and what the shadow test kept of its shadow (a few mm to one side).
    const cv::Moments hm = cv::moments(hull);
    const cv::Point2d mid = hm.m00 > 0 ? cv::Point2d(hm.m10 / hm.m00, hm.m01 / hm.m00) : c;
    std::vector<cv::Point> inner;
    std::vector<double> g;
    cv::Point darkest;
    double darkest_v = 256;
    for (int y = 0; y < box.height; ++y) {
      for (int x = 0; x < box.width; ++x) {
        const cv::Point p(x + box.x, y + box.y);
        if (cv::pointPolygonTest(hull, p, true) < 1.5 / mm) continue;
        if (cv::norm(cv::Point2d(p) - mid) * mm > 0.35 * opt.shell_side_mm) continue;
        inner.push_back(p);
        g.push_back(gray.at<uchar>(y, x));
        if (smooth.at<uchar>(y, x) < darkest_v) darkest_v = smooth.at<uchar>(y, x), darkest = p;
      }
    }
    const double surface = Percentile(g, 0.75);
    const double contrast = surface - darkest_v;
    const double level = darkest_v + 0.5 * contrast;
    double sw = 0, sx = 0, sy = 0;
    for (const cv::Point& p : inner) {
      if (cv::norm(p - darkest) * mm > 0.5 * opt.shell_dot_diameter_mm + 1.5) continue;
      const double w = level - gray.at<uchar>(p - box.tl());
      if (w <= 0) continue;
      sw += w;
      sx += w * p.x;
      sy += w * p.y;
    }
    obs.kind = "shell";
    const cv::Moments m = cv::moments(hull);
    const cv::Point2d centre = m.m00 > 0 ? cv::Point2d(m.m10 / m.m00, m.m01 / m.m00) : c;
    if (inner.empty() || contrast < opt.min_dot_contrast * std::max(1.0, surface) || sw <= 0) {
      return Refusal{"shell-sized change found but no centre dot on it: not adjudicated"};
    }
    obs.point_px = {sx / sw, sy / sw};
    // The dot must be near the middle of the square, else it is not a shell.
    if (cv::norm(obs.point_px - centre) * mm > 0.3 * opt.shell_side_mm) {
      return Refusal{"shell-sized change whose dark mark is off-centre: not adjudicated"};
    }
    const Vec2 on_mat = view.TableFromRectified(obs.point_px);
    const double top_h = MmToInches(opt.shell_thickness_mm);
    const double base_h = MmToInches(opt.base_height_mm);
    const DetectedStand* under = StandUnder(on_mat, view, stands, base_h + top_h);
    obs.height_in = top_h + (under ? base_h : 0.0);
    if (under) obs.resting_on = under->stand.id;
    obs.point = view.TableAtHeight(on_mat, obs.height_in);
    obs.other_end = obs.point;
    return obs;
  }
  return Refusal{"a change of " + Mm(length_mm) + " x " + Mm(width_mm) +
                 " mm is neither a Q-tip nor a shell: not adjudicated"};
}

}  // namespace referee
