// How another camera would have shot the same table. The generator renders every scene with one
// ideal response; a real webcam has its own white balance, tone curve, lens shading, sharpness
// and sensor noise, the same in every frame it sends. Benches apply one response in memory to
// every frame of a scene (empty, before, after, hand) to measure what that does to the referee
// (`referee bench accuracy|stands|calibration DIR --camera-...`).
#pragma once

#include <cstdint>
#include <string>

#include <opencv2/core.hpp>

namespace referee {

struct CameraResponse {
  cv::Vec3d white_balance{1, 1, 1};  // per-channel gain, B, G, R (a tungsten-lit room: 0.8,1,1.2)
  double gamma = 1.0;                // tone curve: out = 255 * (in / 255)^gamma (0.75: brighter)
  double vignette = 0.0;             // lens shading: gain 1 - vignette * r^2 (r = 1 at the sides)
  double desaturate = 0.0;           // saturation lost, 0..1 (a cheap sensor: 0.35)
  double blur_px = 0.0;              // a soft lens or focus: Gaussian sigma, pixels
  double noise = 0.0;                // sensor noise: Gaussian sigma, grey levels
  int jpeg_quality = 0;              // sent as JPEG at this quality (an MJPEG webcam: 80); 0: as is
  bool active = false;               // any of the above set

  // One line naming what is set, for a bench's header ("white balance 0.8,1,1.2, blur 1.2 px").
  std::string Describe() const;
};

// `frame` (BGR, 8 bit) as that camera would have sent it; `frame` itself when the response is
// not active. JPEG frames (`jpeg`) are compressed again at quality 92, every frame at
// jpeg_quality when that is set (OpenCV's encoder, its 4:2:0 chroma subsampling). `noise_seed`
// seeds the noise (the same seed, the same frame).
cv::Mat Reshot(const cv::Mat& frame, const CameraResponse& response, bool jpeg,
               uint64_t noise_seed = 1);

}  // namespace referee
