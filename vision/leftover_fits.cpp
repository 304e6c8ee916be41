#include "vision/leftover_fits.hpp"

#include <opencv2/imgproc.hpp>

#include "vision/base_ring_fit.hpp"
#include "vision/edge_blur.hpp"
#include "vision/filled_base_fit.hpp"

namespace referee {

// Per side, the evidence left for a second look: pixels part of the way toward the side's
// colour (only the strict colour in terrain: the edge of water or a roof blurred into the mat
// lies part of the way toward a side's colour all round) or in its strict mask, with every
// side's bases found so far, grown 1 mm, taken away (a patch of one side's colour on another
// side's base is its figures).
std::vector<cv::Mat> LeftoverEvidence(const cv::Mat& chroma, const cv::Mat& valid,
                                      const cv::Vec2f& mat_chroma, const cv::Mat& terrain,
                                      const StandDetection& det, double mm,
                                      const std::vector<std::vector<PxRect>>& rects) {
  cv::Mat smooth;
  cv::blur(chroma, smooth, {3, 3});  // pixel noise would break a washed-out border into dots
  const std::vector<cv::Mat> loose = det.colors.ClassifyTowardSides(smooth, valid, mat_chroma);
  cv::Mat claimed(chroma.size(), CV_8U, cv::Scalar(0));
  for (const auto& side_rects : rects) {
    for (const PxRect& r : side_rects) {
      cv::fillConvexPoly(claimed, GrownCorners(r, 1.0 / mm), cv::Scalar(255));
    }
  }
  std::vector<cv::Mat> evidence;
  for (size_t s = 0; s < rects.size() && s < loose.size(); ++s) {
    const cv::Mat usable = terrain.empty() ? loose[s] : loose[s] & ~terrain;
    evidence.push_back((usable | det.side_masks[s]) & ~claimed);
  }
  return evidence;
}

void AddRingFits(const cv::Mat& chroma, const cv::Mat& valid, const cv::Vec2f& mat_chroma,
                 const cv::Mat& terrain, const cv::Mat& hidden, const StandDetection& det,
                 double mm, const std::vector<BaseSize>& sizes, const StandDetectorOptions& options,
                 std::vector<std::vector<PxRect>>& rects) {
  const std::vector<cv::Mat> evidence =
      LeftoverEvidence(chroma, valid, mat_chroma, terrain, det, mm, rects);
  for (size_t s = 0; s < evidence.size(); ++s) {
    for (const RingFit& f :
         FitBasesToBorderEvidence(evidence[s], mm, sizes, options.ring_fit, hidden)) {
      rects[s].push_back(f.rect);
    }
  }
}

void AddFilledFits(const cv::Mat& top_bgr, const cv::Mat& chroma, const cv::Mat& valid,
                   const cv::Vec2f& mat_chroma, const cv::Mat& terrain, const StandDetection& det,
                   double mm, const std::vector<BaseSize>& sizes,
                   const StandDetectorOptions& options, std::vector<std::vector<PxRect>>& rects) {
  // How soft the frame is, from the bases found so far (every side's).
  const double blur_mm = EdgeBlurMm(top_bgr, AllRects(rects), mm);
  if (blur_mm < options.filled_fit.min_blur_mm) return;
  const std::vector<cv::Mat> evidence =
      LeftoverEvidence(chroma, valid, mat_chroma, terrain, det, mm, rects);
  for (size_t s = 0; s < evidence.size(); ++s) {
    for (const PxRect& r : FitFilledBases(evidence[s], mm, sizes, blur_mm, options.filled_fit)) {
      rects[s].push_back(r);
    }
  }
}

}  // namespace referee
