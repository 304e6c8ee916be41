#include "vision/side_washout.hpp"

#include <algorithm>

#include <opencv2/imgproc.hpp>

#include "vision/side_classify.hpp"

namespace referee {

namespace {
// Fraction of `mask` set deeper than depth_px inside r (0 when nothing is that deep).
double InsideFraction(const cv::Mat& mask, const PxRect& r, double depth_px) {
  const double ha = 0.5 * r.len_a - depth_px, hb = 0.5 * r.len_b - depth_px;
  if (ha <= 0 || hb <= 0) return 0.0;
  std::vector<cv::Point> poly = GrownCorners(r, -depth_px);
  const cv::Rect box = cv::boundingRect(poly) & cv::Rect(0, 0, mask.cols, mask.rows);
  if (box.empty()) return 0.0;
  cv::Mat inside(box.size(), CV_8U, cv::Scalar(0));
  for (auto& p : poly) p -= box.tl();
  cv::fillConvexPoly(inside, poly, cv::Scalar(255));
  const int n = cv::countNonZero(inside);
  return n > 0 ? static_cast<double>(cv::countNonZero(inside & mask(box))) / n : 0.0;
}
}  // namespace

void AddFrameWashoutBases(const cv::Mat& chroma, const cv::Mat& valid, const cv::Vec2f& mat_chroma,
                          const SideColorModel& colors, const WashoutOptions& options,
                          const SideMaskDetector& detect, double mm_per_px,
                          const RingFitOptions& ring, std::vector<std::vector<PxRect>>& rects) {
  const double depth_px = ring.interior_depth_mm / mm_per_px;
  const auto taken = [&](const PxRect& r) {
    for (const auto& side_rects : rects) {
      for (const PxRect& o : side_rects) {
        if (cv::norm(r.center - o.center) < 0.5 * std::min({r.len_a, r.len_b, o.len_a, o.len_b}))
          return true;
      }
    }
    return false;
  };
  for (const double factor : options.frame_factors) {
    const std::vector<SideColor> washed =
        WashedToward(colors.sides(), mat_chroma, factor, colors.options().min_sigma);
    std::vector<cv::Mat> masks =
        ClassifySides(chroma, valid, washed, colors.options().gate_sigma, &mat_chroma);
    // Anything at least half as far toward a side as the washed colour: the blurred edge of a
    // roof or of water in the side's full colour is a ring of the washed colour around it.
    const std::vector<cv::Mat> toward =
        TowardSidesMasks(chroma, valid, mat_chroma, colors.sides(), 0.5 * factor, options.cone);
    std::vector<std::vector<PxRect>> added(rects.size());
    for (size_t s = 0; s < masks.size() && s < rects.size(); ++s) {
      const cv::Mat any_hue = masks[s] | toward[s];
      for (const PxRect& r : detect(masks[s])) {
        // A washed-out side colour is near neutral: paper, roads and pale terrain pass it too,
        // filled; bases are rings around figures.
        if (!taken(r) && InsideFraction(any_hue, r, depth_px) <= ring.max_interior_fraction) {
          added[s].push_back(r);
        }
      }
    }
    for (size_t s = 0; s < added.size(); ++s) {
      rects[s].insert(rects[s].end(), added[s].begin(), added[s].end());
    }
  }
}

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
    for (double d = inset_px; d < inset_px + depth_px; d += 0.5) {
      cv::polylines(band, GrownCorners(r, -d), true, cv::Scalar(255), 1);
    }
  }
  return band;
}

}  // namespace referee
