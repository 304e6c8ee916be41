// A test mat (CV_32F grey levels) as the camera would deliver it to the line search: blurred by
// a Gaussian of `blur_px`, given Gaussian noise of `noise_sigma` from a fixed `seed`, made 8-bit
// and prepared as the calibration reads it (RefineImage).
#pragma once

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "calibration/intersection_refine.hpp"

namespace referee::test {

inline cv::Mat BlurredNoisy(cv::Mat mat, double blur_px, double noise_sigma, uint64_t seed) {
  cv::GaussianBlur(mat, mat, {0, 0}, blur_px);
  cv::Mat noise(mat.size(), CV_32F);
  cv::RNG rng(seed);
  rng.fill(noise, cv::RNG::NORMAL, 0.0, noise_sigma);
  mat += noise;
  cv::Mat out;
  mat.convertTo(out, CV_8U);
  return RefineImage(out);
}

}  // namespace referee::test
