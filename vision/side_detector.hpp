// A side's bases from its colour mask: each blob's rectangle fitted, and blobs of touching bases
// cut along their seams (see vision/stand_detector.hpp).
#pragma once

#include <vector>

#include <opencv2/core.hpp>

#include "vision/px_rect.hpp"
#include "vision/stand_detector.hpp"

namespace referee {

// The side's mask as the detector reads it.
cv::Mat CleanMask(const cv::Mat& mask);

// The bases in one side's cleaned mask (CleanMask), mm_per_px: mm per top-view px.
std::vector<PxRect> DetectSideBases(const cv::Mat& side_mask, double mm_per_px,
                                    const std::vector<BaseSize>& sizes,
                                    const StandDetectorOptions& options);

}  // namespace referee
