// What a webcam does to the `after` frame on its own between two shots: auto-exposure and
// white balance settle a little differently, a bystander's shadow darkens one side of the
// table, and the frame is JPEG-compressed again. Benches apply it in memory to test that the
// change detection answers the projectile, not the light.
#pragma once

#include <opencv2/core.hpp>

namespace referee {

struct ExposureDrift {
  double gain = 1.0;                 // global exposure gain
  cv::Vec3d white_balance{1, 1, 1};  // per-channel gain, B, G, R
  double ramp = 0.0;                 // gain falls from 1 at the left edge to 1 - ramp at the right
  int jpeg_quality = 92;             // the frame is sent as JPEG again at this quality
  bool active = false;               // when set, even a gain of 1 compresses again
};

// `frame` (BGR, 8 bit) as the camera would send it after the drift; `frame` itself when the
// drift is not active (no second JPEG pass either).
cv::Mat Drifted(const cv::Mat& frame, const ExposureDrift& drift);

}  // namespace referee
