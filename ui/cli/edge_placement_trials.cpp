#include "ui/cli/edge_placement_trials.hpp"

#include <algorithm>
#include <cmath>

#include <opencv2/imgproc.hpp>

#include "datasets/bordered_base_target.hpp"
#include "vision/base_top_edges.hpp"

namespace referee::cli {

EdgeTrialResult RunEdgeTrials(const EdgeTrialSpec& spec) {
  EdgeTrialResult out;
  // The top view: twice the camera's resolution, bilinear, as TopView's warp samples the frame;
  // top-view pixel d sees camera pixel (d + 0.5) / 2 - 0.5.
  const double up = 2.0, mm = spec.camera_mm / up;
  // Room for the base, turned any way, and the 10 mm around it the search reads.
  const double reach_px = (std::hypot(20.0, 10.0) + 10.0) / spec.camera_mm;
  const double first_px = std::max(60.0, std::ceil(reach_px) + 4.0);
  const int image_px = std::max(
      128, static_cast<int>(std::ceil(first_px + 2.0 + 0.291 * spec.trials + reach_px)) + 4);
  for (int trial = 0; trial < spec.trials; ++trial) {
    BorderedBaseTarget t;
    t.image_px = {image_px, image_px};
    // Stepped so the edges fall at every phase of the camera's pixels and JPEG's blocks.
    t.centre_px = {first_px + 0.137 * trial, first_px + 2.0 + 0.291 * trial};
    t.angle_deg = std::fmod(7.3 * trial, 90.0);
    t.width_px = 40.0 / spec.camera_mm;
    t.depth_px = 20.0 / spec.camera_mm;
    t.border_px = spec.border_mm / spec.camera_mm;
    t.mat_bgr = spec.mat_bgr;
    t.border_bgr = spec.border_bgr;
    t.inside_bgr = spec.inside_bgr;
    const cv::Mat frame =
        Reshot(RenderBorderedBase(t), spec.camera, false, static_cast<uint64_t>(trial) + 1);
    cv::Mat top;
    cv::resize(frame, top, {}, up, up, cv::INTER_LINEAR);
    const std::array<cv::Point2d, 4> n = BorderedBaseNormals(t);
    const cv::Point2d centre = up * t.centre_px + cv::Point2d(0.5, 0.5);
    const double half[4] = {0.5 * up * t.width_px, 0.5 * up * t.width_px, 0.5 * up * t.depth_px,
                            0.5 * up * t.depth_px};
    PxRect r;
    r.center = centre + cv::Point2d(0.4, -0.3);
    r.axis_a = n[1];
    r.len_a = up * t.width_px + 1.2;
    r.len_b = up * t.depth_px - 0.8;
    std::array<bool, 4> placed{};
    // Twice, as the stand search refines a found outline.
    for (int pass = 0; pass < 2; ++pass) {
      const std::array<bool, 4> now = RefineEdges(top, r, mm, 3.0);
      for (size_t k = 0; k < 4; ++k) placed[k] = placed[k] || now[k];
    }
    const double found_half[4] = {0.5 * r.len_a, 0.5 * r.len_a, 0.5 * r.len_b, 0.5 * r.len_b};
    for (size_t k = 0; k < 4; ++k) {
      ++out.sides;
      if (!placed[k]) continue;
      const double side_px = (r.center - centre).dot(n[k]) + found_half[k];
      out.outward_mm.push_back((side_px - half[k]) * mm);
    }
  }
  return out;
}

}  // namespace referee::cli
