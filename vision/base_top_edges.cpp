#include "vision/base_top_edges.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "vision/bgr_sample.hpp"

namespace referee {

std::array<bool, 4> RefineEdges(const cv::Mat& img, PxRect& r, double mm, double min_border_mm) {
  std::array<bool, 4> placed{};
  const cv::Point2d b = r.AxisB();
  const cv::Point2d normals[4] = {-r.axis_a, r.axis_a, -b, b};
  double shift[4] = {0, 0, 0, 0};
  for (int side = 0; side < 4; ++side) {
    const cv::Point2d n = normals[side];
    const cv::Point2d t(-n.y, n.x);
    const double half_len = 0.5 * (side < 2 ? r.len_b : r.len_a);
    const double half_other = 0.5 * (side < 2 ? r.len_a : r.len_b);
    const cv::Point2d edge_mid = r.center + half_other * n;
    const double in0 = -std::max(1.0, 0.8 * min_border_mm / mm), in1 = -0.6 / mm;
    const double out0 = 1.5 / mm, out1 = 3.0 / mm;
    // Search window for the edge: well outside the border's inner edge (>= min_border_mm in).
    const double lo = -std::min(2.0, 0.6 * min_border_mm) / mm, hi = 2.0 / mm;
    const double step = 0.25;
    const int n_steps = static_cast<int>((hi - lo) / step) + 1;
    std::vector<cv::Vec3f> prof(static_cast<size_t>(n_steps) + 4);
    std::vector<double> grad(static_cast<size_t>(n_steps));
    std::vector<double> crossings;
    for (int k = -6; k <= 6; ++k) {
      const cv::Point2d base = edge_mid + (0.6 * half_len * k / 6.0) * t;
      cv::Vec3f inside(0, 0, 0), outside(0, 0, 0);
      int ni = 0, no = 0;
      for (double d = in0; d <= in1; d += 0.5) inside += SampleBgr(img, base + d * n), ++ni;
      for (double d = out0; d <= out1; d += 0.5) outside += SampleBgr(img, base + d * n), ++no;
      inside *= 1.0f / static_cast<float>(ni);
      outside *= 1.0f / static_cast<float>(no);
      const cv::Vec3f dir = inside - outside;
      const float contrast2 = dir.dot(dir);
      if (contrast2 < 30.0f * 30.0f || inside[0] < 0 || outside[0] < 0) continue;
      // The edge of the top is the first strong peak of the colour gradient going outward
      // (the sub-pixel gradient peak, as the calibration measures grid lines): beyond it a
      // base's darker side face and its shadow add further, weaker steps that a half-way
      // level between border and mat colours would be pulled toward.
      for (int i = 0; i < n_steps + 4; ++i) {
        prof[static_cast<size_t>(i)] = SampleBgr(img, base + (lo + (i - 2) * step) * n);
      }
      double gmax = 0;
      for (int i = 0; i < n_steps; ++i) {
        const cv::Vec3f dv = prof[static_cast<size_t>(i) + 4] - prof[static_cast<size_t>(i)];
        grad[static_cast<size_t>(i)] = std::sqrt(dv.dot(dv));
        gmax = std::max(gmax, grad[static_cast<size_t>(i)]);
      }
      if (gmax < 1e-6) continue;
      for (int i = 1; i + 1 < n_steps; ++i) {
        const double g0 = grad[static_cast<size_t>(i) - 1], g1 = grad[static_cast<size_t>(i)],
                     g2 = grad[static_cast<size_t>(i) + 1];
        if (g1 < 0.5 * gmax || g1 < g0 || g1 < g2) continue;
        const double den = g0 - 2 * g1 + g2;
        const double sub = den < -1e-9 ? std::clamp(0.5 * (g0 - g2) / den, -0.5, 0.5) : 0.0;
        crossings.push_back(lo + (i + sub) * step);
        break;
      }
    }
    if (crossings.size() >= 4) {
      std::nth_element(crossings.begin(),
                       crossings.begin() + static_cast<long>(crossings.size() / 2),
                       crossings.end());
      // Edge position relative to the current side, in px; sample positions are centres of
      // pixels so a half-way crossing at d means the edge is at d.
      shift[side] = std::clamp(crossings[crossings.size() / 2], -2.5 / mm, 2.5 / mm);
      placed[static_cast<size_t>(side)] = true;
    }
  }
  // Apply: the -a side moves outward by shift[0] (along -axis_a), etc.
  const double da = shift[1] - shift[0], db = shift[3] - shift[2];
  r.center += 0.5 * da * r.axis_a + 0.5 * db * b;
  r.len_a += shift[0] + shift[1];
  r.len_b += shift[2] + shift[3];
  return placed;
}

namespace {

// Per side (-a, +a, -b, +b), how far the side face shows beyond the top's edge on the mat
// plane (px; 0 on a side facing away from the camera).
std::array<double, 4> SideFaceSpansPx(const TopView& view, double base_h_in, const PxRect& r) {
  const cv::Point2d b = r.AxisB();
  const cv::Point2d outward[4] = {-r.axis_a, r.axis_a, -b, b};
  std::array<double, 4> span_px{};
  for (int side = 0; side < 4; ++side) {
    const cv::Point2d n = outward[side];
    const cv::Point2d edge_px = r.center + 0.5 * (side < 2 ? r.len_a : r.len_b) * n;
    // Where the top's edge seen at edge_px stands; its foot is seen there, on the mat.
    const Vec2 foot = view.TableAtHeight(view.TableFromRectified(edge_px), base_h_in);
    const cv::Point2d foot_px = view.RectifiedFromTable(foot);
    span_px[static_cast<size_t>(side)] = std::max(0.0, (foot_px - edge_px).dot(n));
  }
  return span_px;
}

}  // namespace

void CentreInSideFaceSpan(const TopView& view, double base_h_in, const std::array<bool, 4>& placed,
                          PxRect& r) {
  const std::array<double, 4> span_px = SideFaceSpansPx(view, base_h_in, r);
  double inward_px[4] = {0, 0, 0, 0};
  double shift_px[2] = {0, 0};  // along a and b, for an axis whose size the image did not give
  for (size_t axis = 0; axis < 2; ++axis) {
    const size_t lo = 2 * axis, hi = 2 * axis + 1;
    if (placed[lo] || placed[hi]) {
      if (placed[lo]) inward_px[lo] = 0.5 * span_px[lo];
      if (placed[hi]) inward_px[hi] = 0.5 * span_px[hi];
    } else {
      shift_px[axis] = -0.25 * (span_px[hi] - span_px[lo]);
    }
  }
  const cv::Point2d b = r.AxisB();
  r.center -=
      0.5 * (inward_px[1] - inward_px[0]) * r.axis_a + 0.5 * (inward_px[3] - inward_px[2]) * b;
  r.center += shift_px[0] * r.axis_a + shift_px[1] * b;
  r.len_a -= inward_px[0] + inward_px[1];
  r.len_b -= inward_px[2] + inward_px[3];
}

}  // namespace referee
