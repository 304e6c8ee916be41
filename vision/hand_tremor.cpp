#include "vision/hand_tremor.hpp"

#include <opencv2/imgproc.hpp>

namespace referee {

namespace {

constexpr double kSmoothPx = 1.0;
// The smoothing correlates the noise over ~4 pi kSmoothPx^2 pixels: a block's residuals are
// that many times fewer independent samples than pixels, and a shift's chi^2 taken as if they
// were independent is that many times too large.
constexpr double kNoiseCorrelationPx = 4.0 * 3.14159265358979 * kSmoothPx * kSmoothPx;

// Grey, lightly smoothed (Gaussian, kSmoothPx): the fit's gradients then follow sub-pixel
// shifts far better.
cv::Mat Grey(const cv::Mat& bgr) {
  cv::Mat grey, out;
  cv::cvtColor(bgr, grey, cv::COLOR_BGR2GRAY);
  grey.convertTo(out, CV_32F);
  cv::GaussianBlur(out, out, {0, 0}, kSmoothPx);
  return out;
}

}  // namespace

void TremorWatch::Anchor(const cv::Mat& frame_bgr, const cv::Rect& zone_px) {
  anchor_.release();
  if (frame_bgr.empty() || frame_bgr.type() != CV_8UC3) return;
  zone_ = zone_px & cv::Rect({0, 0}, frame_bgr.size());
  if (zone_.width < options_.block_px || zone_.height < options_.block_px) return;
  anchor_ = Grey(frame_bgr(zone_));
  cv::Sobel(anchor_, gx_, CV_32F, 1, 0, 3, 0.125);
  cv::Sobel(anchor_, gy_, CV_32F, 0, 1, 3, 0.125);
}

int TremorWatch::ShiftedBlocks(const cv::Mat& frame_bgr) const {
  if (anchor_.empty() || frame_bgr.empty() || frame_bgr.type() != CV_8UC3 ||
      (zone_ & cv::Rect({0, 0}, frame_bgr.size())) != zone_) {
    return 0;
  }
  const cv::Mat now = Grey(frame_bgr(zone_));
  const cv::Mat dt = now - anchor_;
  const int b = options_.block_px;
  int shifted = 0;
  for (int y0 = 0; y0 + b <= anchor_.rows; y0 += b) {
    for (int x0 = 0; x0 + b <= anchor_.cols; x0 += b) {
      // Least squares of dt ~ gx * u + gy * v + c over the block (normal equations).
      cv::Matx33d a = cv::Matx33d::zeros();
      cv::Vec3d r(0, 0, 0);
      double tt = 0;
      for (int y = y0; y < y0 + b; ++y) {
        const float* px = gx_.ptr<float>(y);
        const float* py = gy_.ptr<float>(y);
        const float* pt = dt.ptr<float>(y);
        for (int x = x0; x < x0 + b; ++x) {
          const cv::Vec3d g(px[x], py[x], 1.0);
          a += g * g.t();
          r += g * static_cast<double>(pt[x]);
          tt += static_cast<double>(pt[x]) * pt[x];
        }
      }
      cv::Vec3d p;
      if (!cv::solve(a, r, p, cv::DECOMP_CHOLESKY)) continue;  // a flat block: nothing to fit
      const int n = b * b;
      // Residual variance, and the shift's chi^2 against it: (u v) A_uv (u v)^T / sigma^2 with
      // the offset profiled out (the fit's explained sum minus the offset's share).
      const double explained = p.dot(r);
      const double sigma2 = std::max(1e-6, (tt - explained) / (n - 3));
      const double offset_only = r[2] * r[2] / a(2, 2);
      const double chi2 = (explained - offset_only) / sigma2 / kNoiseCorrelationPx;
      if (chi2 >= options_.significance) ++shifted;
    }
  }
  return shifted;
}

}  // namespace referee
