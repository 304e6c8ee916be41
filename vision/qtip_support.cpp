#include "vision/qtip_support.hpp"

#include <algorithm>
#include <cmath>

#include <opencv2/imgproc.hpp>

namespace referee {

namespace {

// `rect` grown (positive) or shrunk (negative) by `by_in` on every side.
OrientedRect Grown(OrientedRect rect, double by_in) {
  rect.width_in = std::max(0.0, rect.width_in + 2 * by_in);
  rect.depth_in = std::max(0.0, rect.depth_in + 2 * by_in);
  return rect;
}

std::vector<cv::Point> PolygonPx(const OrientedRect& rect, const TopView& view) {
  std::vector<cv::Point> out;
  for (const Vec2 c : rect.Corners()) {
    const cv::Point2d p = view.RectifiedFromTable(c);
    out.emplace_back(static_cast<int>(std::lround(p.x)), static_cast<int>(std::lround(p.y)));
  }
  return out;
}

}  // namespace

double FigureCover(const DetectedStand& stand, const TopView& view, const cv::Mat& top,
                   double border_mm) {
  if (top.empty()) return 0.0;
  const double border_in = MmToInches(border_mm);
  const OrientedRect& fp = stand.stand.footprint;
  cv::Mat ring(top.size(), CV_8U, cv::Scalar(0)), inner(top.size(), CV_8U, cv::Scalar(0));
  cv::fillConvexPoly(ring, PolygonPx(Grown(fp, -0.25 * border_in), view), cv::Scalar(255));
  cv::fillConvexPoly(ring, PolygonPx(Grown(fp, -0.85 * border_in), view), cv::Scalar(0));
  cv::fillConvexPoly(inner, PolygonPx(Grown(fp, -1.5 * border_in), view), cv::Scalar(255));
  if (cv::countNonZero(ring) < 8 || cv::countNonZero(inner) < 8) return 0.0;
  // The border's colour, robustly: the per-channel median.
  std::vector<int> hist[3];
  for (int y = 0; y < top.rows; ++y) {
    const auto* r = ring.ptr<uchar>(y);
    const auto* t = top.ptr<cv::Vec3b>(y);
    for (int x = 0; x < top.cols; ++x) {
      if (!r[x]) continue;
      for (int c = 0; c < 3; ++c) hist[c].push_back(t[x][c]);
    }
  }
  cv::Vec3d border;
  for (int c = 0; c < 3; ++c) {
    auto mid = hist[c].begin() + static_cast<long>(hist[c].size() / 2);
    std::nth_element(hist[c].begin(), mid, hist[c].end());
    border[c] = *mid;
  }
  // Clearly another colour: further than uneven light and JPEG move a painted border.
  const double far = 0.25 * std::max(60.0, cv::norm(border));
  int n = 0, differ = 0;
  for (int y = 0; y < top.rows; ++y) {
    const auto* m = inner.ptr<uchar>(y);
    const auto* t = top.ptr<cv::Vec3b>(y);
    for (int x = 0; x < top.cols; ++x) {
      if (!m[x]) continue;
      ++n;
      differ += cv::norm(cv::Vec3d(t[x][0], t[x][1], t[x][2]) - border) > far ? 1 : 0;
    }
  }
  return n ? static_cast<double>(differ) / n : 0.0;
}

QtipSupport QtipRestHeights(Vec2 tip_on_mat, Vec2 plain_on_mat, const TopView& view,
                            const cv::Mat& top_before, const std::vector<DetectedStand>& stands,
                            const QtipSupportOptions& opt) {
  const double base_in = MmToInches(opt.base_height_mm);
  const double figure_top_in = base_in + MmToInches(opt.figure_height_mm);
  const double head_r = MmToInches(opt.head_radius_mm);
  const double stick_r = MmToInches(opt.stick_radius_mm);
  const double border_in = MmToInches(opt.border_mm);
  constexpr int kSamples = 40;
  const auto along = [&](int i) {
    const double t = static_cast<double>(i) / kSamples;
    return tip_on_mat + t * (plain_on_mat - tip_on_mat);
  };

  QtipSupport out;
  out.what = "mat";
  out.tip_height_in = out.plain_height_in = head_r;
  // Across figures: some point of the stick, raised to the figures' top, lies over the
  // interior of a stand that carries figures. The stick then rests on them, level.
  for (const auto& s : stands) {
    const OrientedRect interior = Grown(s.stand.footprint, -border_in);
    // Raised, it must be over the interior; on the mat it could not cross the base at all, so
    // a stick just beyond a base (which raising would shift onto it) is not taken for one on it.
    const OrientedRect inside = Grown(s.stand.footprint, -MmToInches(1.0));
    bool over = false, crosses = false;
    for (int i = 0; i <= kSamples; ++i) {
      over = over || interior.Contains(view.TableAtHeight(along(i), figure_top_in + stick_r));
      crosses = crosses || inside.Contains(view.TableAtHeight(along(i), head_r));
    }
    if (!over || !crosses) continue;
    if (FigureCover(s, view, top_before, opt.border_mm) < opt.min_figure_cover) continue;
    out.what = "figures";
    out.stand_id = s.stand.id;
    out.tip_height_in = out.plain_height_in = figure_top_in + stick_r;
    return out;
  }
  // On bare base tops or the mat: each end lies on what is under it (the stick between may
  // slope from a base down to the mat).
  const auto base_under = [&](Vec2 end_on_mat) -> const DetectedStand* {
    const Vec2 p = view.TableAtHeight(end_on_mat, base_in + head_r);
    for (const auto& s : stands) {
      if (DistanceToRect(p, s.stand.footprint) < MmToInches(0.5)) return &s;
    }
    return nullptr;
  };
  const DetectedStand* under_tip = base_under(tip_on_mat);
  const DetectedStand* under_plain = base_under(plain_on_mat);
  if (under_tip) out.tip_height_in += base_in;
  if (under_plain) out.plain_height_in += base_in;
  if (under_tip || under_plain) {
    out.what = "base";
    out.stand_id = (under_tip ? under_tip : under_plain)->stand.id;
  }
  return out;
}

}  // namespace referee
