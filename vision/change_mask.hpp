// Which pixels of a top view changed between two frames, told from what only looks changed: the
// lighting's drift, resampling and compression at sharp edges, and shadows.
#pragma once

#include <opencv2/core.hpp>

namespace referee {

// Pixels that changed between two top views, with the lighting change divided out (CV_8U).
// `px_per_camera_px`: top-view pixels one camera pixel spans (TopView::PxPerCameraPx), the
// scale of what the camera's compression smears. `magnitude`: the largest per-channel change
// (CV_32F); `object_change`: the same with pixels that only got darker alike in every channel
// (shadows) set to 0. `shadows_count`: such pixels are counted as changed too (a black head
// blurred over white paper or a grey mat darkens every channel alike, as a shadow does).
cv::Mat ChangeMask(const cv::Mat& top_before, const cv::Mat& top_after, double min_change,
                   double px_per_camera_px = 1.0, cv::Mat* magnitude = nullptr,
                   cv::Mat* object_change = nullptr, bool shadows_count = false);

}  // namespace referee
