// Second looks for bases the colour blobs missed, on the evidence they left: rings of a
// catalogue size and solid patches.
#pragma once

#include <vector>

#include <opencv2/core.hpp>

#include "vision/px_rect.hpp"
#include "vision/stand_detector.hpp"

namespace referee {

// Bases the colour blobs missed, fitted as rings to the border evidence that is left once the
// found bases (grown 1 mm for their blurred edges) are taken away.
// In terrain (CV_8U, may be empty: see TerrainMask) only the strict colour counts as border
// evidence: the edge of water or a roof blurred into the mat lies part of the way toward a
// side's colour all round, as a washed-out border does.
void AddRingFits(const cv::Mat& chroma, const cv::Mat& valid, const cv::Vec2f& mat_chroma,
                 const cv::Mat& terrain, const cv::Mat& hidden, const StandDetection& det,
                 double mm, const std::vector<BaseSize>& sizes, const StandDetectorOptions& options,
                 std::vector<std::vector<PxRect>>& rects);

// Per side, the evidence left for a second look: pixels part of the way toward the side's
// colour (in terrain, CV_8U and may be empty, only the strict colour) or in its strict mask, with
// every side's bases found so far, grown 1 mm, taken away.
std::vector<cv::Mat> LeftoverEvidence(const cv::Mat& chroma, const cv::Mat& valid,
                                      const cv::Vec2f& mat_chroma, const cv::Mat& terrain,
                                      const StandDetection& det, double mm,
                                      const std::vector<std::vector<PxRect>>& rects);

// Bases whose side's evidence is one solid patch (figures painted near the side's colour, or
// blur melting a small base's border and figures together; see vision/filled_base_fit.hpp),
// on the same evidence as the ring fit, with every base found so far (grown 1 mm) taken away.
void AddFilledFits(const cv::Mat& top_bgr, const cv::Mat& chroma, const cv::Mat& valid,
                   const cv::Vec2f& mat_chroma, const cv::Mat& terrain, const StandDetection& det,
                   double mm, const std::vector<BaseSize>& sizes,
                   const StandDetectorOptions& options, std::vector<std::vector<PxRect>>& rects);

}  // namespace referee
