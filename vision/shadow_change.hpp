// A projectile's own shadow, told apart from its change between two frames. Under a low lamp a
// Q-tip's shadow falls on the mat a few mm beside it and joins it in the change mask: the stick
// and its shadow read as one region too wide for a Q-tip. A shadow takes away part of the light
// a surface gets, so every channel darkens by about one ratio and the chroma stays (how close
// is set by the noise measured on the frames themselves). But any shadow passes that test, and
// a hand's or an arm's shadow is evidence of something above the table: only a shadow that is
// the projectile's own by its geometry is set aside, one that is the projectile's outline moved
// by one offset (its height seen from a lamp's direction), and only where the change with it
// fails the projectile's shape and the change without it fits it.
#pragma once

#include <functional>
#include <vector>

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
  // shadow's brightness per channel.
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

// Pixels of `after` that are only a shadow on `before` (both CV_32FC3, smoothed alike, the same
// size): CV_8U, 255 where IsShadowChange holds with the noise `noise_8bit`, except within
// `paint_rim_px` of a change darker than any shadow. A black or dark painted part blurred into
// the surface around it is, at its rim, exactly a darkened surface; its core is darker than a
// shadow can be, and the rim goes with the core. Default 4 px: the blur of lens, resampling
// and the 3x3 smoothing spreads an edge over about 2 x 1.5 px.
cv::Mat ShadowPixels(const cv::Mat& before, const cv::Mat& after, double noise_8bit,
                     int paint_rim_px = 4, const ShadowTestOptions& options = {});

struct OwnShadowOptions {
  // Radius the projectile detector groups changed pixels by into one region, mm. Default 2 (its
  // own grouping: a thin stick may break up).
  double group_mm = 2.0;
  // Lowest lamp over the table, degrees above the horizontal. A projectile lying on the mat is
  // about as high as it is wide seen from above (a stick, a head, a plasticine square), so its
  // shadow lies at most width / tan(elevation) from it. Default 15: a lamp lower than that lights
  // the players' faces, not the table.
  double min_lamp_elevation_deg = 15.0;
  // Share of the shadow that must lie on the projectile's outline moved by the best offset
  // (grown by the blur and a penumbra). Default 0.9: a hand's shadow reaching the projectile is
  // not its copy and leaves most of itself outside.
  double min_shadow_inside = 0.9;
  // Share of that moved outline (where the projectile does not hide it) the shadow must cover.
  // Default 0.5: a dark patch beside a stick is no copy of it.
  double min_copy_covered = 0.5;
  // Tolerance of the copy, px: lens blur, resampling and the 3x3 smoothing spread an edge over
  // about 1.5 px a side; the lamp's penumbra adds about as much at a few mm. Default 2.
  int tolerance_px = 2;
};

// `changed` (CV_8U, the detector's change mask on top views of `mm_per_px`) with the own shadow
// of a projectile taken out: in each region of change (grouped as the detector groups them)
// that `fits` does not take for a projectile but whose non-shadow part it does, the shadow
// pixels (ShadowPixels of `before` and `after`, CV_8UC3 top views, `after` gain-corrected to
// `before`, CV_32FC3) are removed when they are that part's outline moved by one offset of at
// most its width / tan(lowest lamp elevation) (OwnShadowOptions). Every other region, and any
// other dark change, is left as it was. `after_corrected` is called only when a region is
// looked at. `removed_px`, when given, receives how many pixels were taken out.
cv::Mat WithoutOwnShadows(const cv::Mat& changed, const cv::Mat& before,
                          const std::function<cv::Mat()>& after_corrected, double mm_per_px,
                          const std::function<bool(const std::vector<cv::Point>&)>& fits,
                          const OwnShadowOptions& options = {}, int* removed_px = nullptr);

}  // namespace referee
