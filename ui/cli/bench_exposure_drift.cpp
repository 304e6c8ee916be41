#include "ui/cli/bench_exposure_drift.hpp"

#include <sstream>
#include <string>
#include <vector>

#include <opencv2/imgcodecs.hpp>

#include "engine/input_error.hpp"

namespace referee::cli {

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

cv::Vec3d ParseWhiteBalance(const std::string& text) {
  std::stringstream in(text);
  cv::Vec3d wb;
  char comma = 0;
  if (!(in >> wb[0] >> comma) || comma != ',' || !(in >> wb[1] >> comma) || comma != ',' ||
      !(in >> wb[2]) || wb[0] <= 0 || wb[1] <= 0 || wb[2] <= 0) {
    throw InputError("--after-white-balance", text, "expected three positive gains B,G,R");
  }
  return wb;
}

}  // namespace referee::cli
