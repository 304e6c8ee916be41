#include "datasets/camera_response.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

namespace referee {

std::string CameraResponse::Describe() const {
  std::string out;
  char buf[96];
  const auto add = [&](const char* text) { out += (out.empty() ? "" : ", ") + std::string(text); };
  if (white_balance != cv::Vec3d(1, 1, 1)) {
    std::snprintf(buf, sizeof buf, "white balance %.3g,%.3g,%.3g", white_balance[0],
                  white_balance[1], white_balance[2]);
    add(buf);
  }
  const auto add_value = [&](const char* format, double value, double none) {
    if (value == none) return;
    std::snprintf(buf, sizeof buf, format, value);
    add(buf);
  };
  add_value("gamma %.3g", gamma, 1.0);
  add_value("vignette %.3g", vignette, 0.0);
  add_value("desaturate %.3g", desaturate, 0.0);
  add_value("blur %.3g px", blur_px, 0.0);
  add_value("noise %.3g levels", noise, 0.0);
  add_value("JPEG quality %.0f", jpeg_quality, 0.0);
  return out.empty() ? "as rendered" : out;
}

cv::Mat Reshot(const cv::Mat& frame, const CameraResponse& response, bool jpeg,
               uint64_t noise_seed) {
  if (!response.active || frame.empty()) return frame;
  cv::Mat f;
  frame.convertTo(f, CV_32FC3);
  // The lens first (blur, shading), then the sensor and its processing (balance, saturation,
  // tone curve), then its noise.
  if (response.blur_px > 0) cv::GaussianBlur(f, f, {0, 0}, response.blur_px);
  const auto& wb = response.white_balance;
  const double half_w = 0.5 * f.cols, half_h = 0.5 * f.rows;
  for (int y = 0; y < f.rows; ++y) {
    auto* p = f.ptr<cv::Vec3f>(y);
    const double dy = (y + 0.5 - half_h) / half_h;
    for (int x = 0; x < f.cols; ++x) {
      const double dx = (x + 0.5 - half_w) / half_w;
      const double shade = 1.0 - response.vignette * (dx * dx + dy * dy);
      cv::Vec3d c(p[x][0] * wb[0] * shade, p[x][1] * wb[1] * shade, p[x][2] * wb[2] * shade);
      const double grey = (c[0] + c[1] + c[2]) / 3.0;
      for (int ch = 0; ch < 3; ++ch) {
        double v = grey + (1.0 - response.desaturate) * (c[ch] - grey);
        v = std::clamp(v, 0.0, 255.0);
        if (response.gamma != 1.0) v = 255.0 * std::pow(v / 255.0, response.gamma);
        p[x][ch] = static_cast<float>(v);
      }
    }
  }
  if (response.noise > 0) {
    cv::Mat n(f.size(), CV_32FC3);
    cv::RNG rng(noise_seed);
    rng.fill(n, cv::RNG::NORMAL, 0.0, response.noise);
    f += n;
  }
  cv::Mat out;
  f.convertTo(out, CV_8UC3);  // rounds and saturates
  if (!jpeg && response.jpeg_quality <= 0) return out;
  std::vector<uchar> buf;
  cv::imencode(".jpg", out, buf,
               {cv::IMWRITE_JPEG_QUALITY, response.jpeg_quality > 0 ? response.jpeg_quality : 92});
  return cv::imdecode(buf, cv::IMREAD_COLOR);
}

}  // namespace referee
