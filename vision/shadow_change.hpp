// Whether a change between two frames is only a shadow. A shadow takes away part of the light
// a surface gets, so every channel of the surface darkens by about the same ratio and its chroma
// stays; an object brings its own colour. How close to one ratio the channels must be is set by
// the noise measured on the frames themselves (sensor noise, JPEG, resampling), so the same test
// holds on a clean render and on a noisy webcam frame.
// Not wired into the projectile detector yet: hooked into its change mask it finds the lamp
// scenes' Q-tips beside their own shadows, but a hand's shadow reaching a Q-tip was then taken
// for the Q-tip's own and one hand frame was adjudicated (napoleonic seed 31 scene 10).
#pragma once

#include <opencv2/core.hpp>

namespace referee {

struct ShadowTestOptions {
  // Darkest ratio (after / before) a shadow can leave: a room's ambient light still reaches it.
  // Default 0.3; a black or dark painted part on a mid-tone mat goes darker than that, and a
  // shadow on a real table under a ceiling lamp seldom does.
  double min_ratio = 0.3;
  // Lightest ratio that is still a shadow. Default 0.92: a change that darkens less is within
  // what a lighting drift leaves after the global correction.
  double max_ratio = 0.92;
  // Spread of the per-channel ratios a shadow may show beyond the noise: the light that still
  // reaches a shadow (ambient, sky) need not have the colour of the lamp. Default 0.07 of the
  // shadow's brightness per channel (about the 1.15 spread of max/min ratio used before).
  double chroma_share = 0.07;
  // Noise multiples a channel may stray from the one-ratio fit. Default 3.
  double noise_sigmas = 3.0;
};

// Robust sigma (8-bit levels) of one channel's difference `after - before` over the frame (both
// CV_32FC3, the same size): 1.4826 x the median absolute difference on a sparse grid. Most of a
// frame does not change between two shots, so this is the noise of unchanged pixels as the two
// frames were taken, compressed and resampled.
double DifferenceNoise(const cv::Mat& before, const cv::Mat& after);

// Whether `after` is `before` darkened by one ratio in every channel, within the noise
// `noise_8bit` (a DifferenceNoise) and the options' chroma share: a shadow, not an object.
// False when a neutral grey of that brightness would fit as well (a grey surface, or chroma
// lost in the noise): a black or grey paint cannot be told from a shadow there.
bool IsShadowChange(const cv::Vec3f& before, const cv::Vec3f& after, double noise_8bit,
                    const ShadowTestOptions& options = {});

// Pixels of `after` that are only a shadow on `before` (both CV_32FC3, smoothed alike): CV_8U,
// 255 where IsShadowChange holds with the noise measured by DifferenceNoise, except within
// `paint_rim_px` of a change darker than any shadow. A black or dark painted part blurred into
// the surface around it is, at its rim, exactly a darkened surface; its core is darker than a
// shadow can be, and the rim goes with the core. Default 4 px: the blur of lens, resampling
// and the 3x3 smoothing spreads an edge over about 2 x 1.5 px.
cv::Mat ShadowPixels(const cv::Mat& before, const cv::Mat& after, int paint_rim_px = 4,
                     const ShadowTestOptions& options = {});

// `object` (CV_8U changed pixels that are not shadow) with the pieces of `shadow` (CV_8U changed
// pixels that are only shadow) put back unless they are an object's own: within `reach_px` of
// it and at most twice its area there. A projectile's own shadow lies at its side and is left
// out of its shape; any other shadow is still evidence of something with height above the
// table (a hand, an arm).
cv::Mat WithLoneShadows(const cv::Mat& object, const cv::Mat& shadow, int reach_px);

}  // namespace referee
