#include "datasets/exposure_drift.hpp"

#include <vector>

#include <opencv2/imgcodecs.hpp>

namespace referee {

cv::Mat Drifted(const cv::Mat& frame, const ExposureDrift& drift) {
  if (!drift.active || frame.empty()) return frame;
  cv::Mat f;
  frame.convertTo(f, CV_32FC3);
  const cv::Vec3d& wb = drift.white_balance;
  cv::multiply(f, cv::Scalar(drift.gain * wb[0], drift.gain * wb[1], drift.gain * wb[2]), f);
  if (drift.ramp != 0.0) {
    for (int y = 0; y < f.rows; ++y) {
      auto* p = f.ptr<cv::Vec3f>(y);
      for (int x = 0; x < f.cols; ++x)
        p[x] *= static_cast<float>(1.0 - drift.ramp * x / static_cast<double>(f.cols));
    }
  }
  cv::Mat out;
  f.convertTo(out, CV_8UC3);
  std::vector<uchar> jpg;
  cv::imencode(".jpg", out, jpg, {cv::IMWRITE_JPEG_QUALITY, drift.jpeg_quality});
  return cv::imdecode(jpg, cv::IMREAD_COLOR);
}

}  // namespace referee
