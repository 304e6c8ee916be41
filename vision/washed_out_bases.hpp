// Bases of a side whose colour the camera washes out toward the mat, found by refitting that
// side's colour to the rings they show.
#pragma once

#include <vector>

#include <opencv2/core.hpp>

#include "vision/px_rect.hpp"
#include "vision/stand_detector.hpp"

namespace referee {

// Bases of a side whose colour this camera washes out toward the mat, past the colour model's
// gate (see vision/side_washout.hpp). Where several base-shaped rings of relaxed evidence lie
// where no base was found, the side is refitted from those rings' border pixels, detected
// again, and the bases that finds where none was found are added. Bases already found keep
// the model that found them: a refit to the washed-out rings alone would lose saturated
// borders elsewhere in the frame (uneven light).
void AddWashedOutBases(const cv::Mat& chroma, const cv::Mat& valid, const cv::Vec2f& mat_chroma,
                       double mm, const std::vector<BaseSize>& sizes,
                       const StandDetectorOptions& options, StandDetection& det,
                       std::vector<std::vector<PxRect>>& rects);

}  // namespace referee
