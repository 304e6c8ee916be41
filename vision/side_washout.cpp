#include "vision/side_washout.hpp"

#include <opencv2/imgproc.hpp>

namespace referee {

std::vector<RingFit> WashoutCandidates(const cv::Mat& evidence, double mm_per_px,
                                       const std::vector<BaseSize>& sizes,
                                       const RingFitOptions& base_options,
                                       const WashoutOptions& options) {
  RingFitOptions ring = base_options;
  ring.min_ring_fraction = options.min_ring_fraction;
  ring.min_corner_sides = options.min_corner_sides;
  ring.max_outside_fraction = options.max_outside_fraction;
  return FitBasesToBorderEvidence(evidence, mm_per_px, sizes, ring);
}

cv::Mat BorderBand(cv::Size size, const std::vector<PxRect>& rects, double inset_px,
                   double depth_px) {
  cv::Mat band(size, CV_8U, cv::Scalar(0));
  for (const auto& r : rects) {
    const cv::Point2d b = r.AxisB();
    for (double d = inset_px; d < inset_px + depth_px; d += 0.5) {
      const double ha = 0.5 * r.len_a - d, hb = 0.5 * r.len_b - d;
      std::vector<cv::Point> poly;
      for (const auto& [sa, sb] : {std::pair{-1, -1}, {1, -1}, {1, 1}, {-1, 1}}) {
        const cv::Point2d p = r.center + sa * ha * r.axis_a + sb * hb * b;
        poly.emplace_back(cvRound(p.x), cvRound(p.y));
      }
      cv::polylines(band, poly, true, cv::Scalar(255), 1);
    }
  }
  return band;
}

}  // namespace referee
