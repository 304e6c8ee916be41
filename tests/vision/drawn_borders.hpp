// Bases drawn as bands of chroma on a mat at chroma (0, 0), for the tests of the band fits and
// band readings (no camera, no render: the colour each pixel of a top view would hold).
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "vision/px_rect.hpp"

namespace referee {

// A base of w_mm x d_mm at centre_px, its first axis turned angle_deg, in a top view of mm_per_px.
inline PxRect DrawnRect(cv::Point2d centre_px, double w_mm, double d_mm, double angle_deg,
                        double mm_per_px) {
  const double a = angle_deg * CV_PI / 180.0;
  return {centre_px, {std::cos(a), std::sin(a)}, w_mm / mm_per_px, d_mm / mm_per_px, {}};
}

// The Gaussian sigma, px, of a blur whose 10-90 % edge rise is rise_mm (a Gaussian edge rises
// from 10 % to 90 % over 2.5631 sigma), in a top view of mm_per_px.
inline double BlurSigmaPx(double rise_mm, double mm_per_px) { return rise_mm / 2.5631 / mm_per_px; }

// Chroma (CV_32FC2) of the mat with each base's border (border_px wide) painted `border` chroma,
// blurred by a Gaussian of blur_sigma_px (0: sharp), with pixel noise of sigma 0.02 drawn from
// noise_seed.
inline cv::Mat ChromaWithBorders(cv::Size size, const std::vector<PxRect>& bases,
                                 const std::vector<cv::Vec2f>& border, double border_px,
                                 double blur_sigma_px, std::uint64_t noise_seed) {
  cv::Mat chroma(size, CV_32FC2, cv::Scalar(0, 0));
  for (size_t i = 0; i < bases.size(); ++i) {
    cv::Mat ring(size, CV_8U, cv::Scalar(0));
    cv::fillConvexPoly(ring, GrownCorners(bases[i], 0), cv::Scalar(255));
    cv::fillConvexPoly(ring, GrownCorners(bases[i], -border_px), cv::Scalar(0));
    chroma.setTo(cv::Scalar(border[i][0], border[i][1]), ring);
  }
  if (blur_sigma_px > 0) cv::GaussianBlur(chroma, chroma, {0, 0}, blur_sigma_px);
  cv::Mat noise(size, CV_32FC2);
  cv::RNG rng(noise_seed);
  rng.fill(noise, cv::RNG::NORMAL, 0.0, 0.02);
  return chroma + noise;
}

}  // namespace referee
