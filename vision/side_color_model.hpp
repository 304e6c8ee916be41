// One colour model per side, in a space that ignores how bright the light is and, after a local
// correction, what colour it is: log-chromaticity (log R/G, log B/G). A change of intensity
// leaves it unchanged and a change of white balance (a per-channel gain) only shifts it, so
// the local shift is measured on the mat (the dominant surface around any point) and removed.
// Each side is a 2-D Gaussian there; pixels are assigned by Mahalanobis distance.
#pragma once

#include <array>
#include <map>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

namespace referee {

struct SideColorOptions {
  // Mahalanobis gate, in standard deviations. Default 3.5; lower if figures painted close to a
  // side colour spill into the borders, raise if borders come out ragged under odd light.
  double gate_sigma = 3.5;
  // Pixels darker than this (max channel, 0..255) carry no reliable colour. Default 28; raise
  // for noisy low-light cameras.
  int min_brightness = 28;
  // Spread of a side colour given only as sRGB, in log-chroma units. Default 0.16 (about 17%
  // per channel ratio); the model narrows itself after sampling real pixels (Refit).
  double prior_sigma = 0.16;
  // Smallest spread a fitted side keeps (noise, JPEG). Default 0.08.
  double min_sigma = 0.08;
  // Size of the window over which the mat's colour cast is measured, inches. Default 4
  // (one square); raise for mats with large printed patterns.
  double illuminant_window_in = 4.0;
  // Border evidence (ClassifyTowardSides): how far from the mat's chroma toward a side's a
  // pixel must lie, 0..1. Default 0.4: a 3 mm border blurred over two camera pixels, or seen
  // beside a white or grey surface, keeps about half its colour. Lower for very soft cameras.
  double toward_min_fraction = 0.4;
  // ... and how far off that line it may stray, as a fraction of its distance along it
  // (a cone, about 27 degrees). Default 0.5.
  double toward_cone = 0.5;
};

struct SideColor {
  std::string name;
  cv::Vec2d mean;  // log-chroma (log R/G, log B/G), after local white balance
  cv::Matx22d cov;
};

// Log-chromaticity of every pixel of a BGR image (CV_32FC2), and a validity mask (CV_8U) of
// pixels bright enough to have a colour.
void LogChroma(const cv::Mat& bgr, int min_brightness, cv::Mat& chroma, cv::Mat& valid);
cv::Vec2d LogChromaOf(cv::Vec3b bgr);

// Shift per pixel (CV_32FC2) that removes the local colour cast: the mat's local chroma minus
// the mat's median chroma over the whole view. window_px is the averaging window.
// mat_chroma (optional) receives the mat's median chroma.
cv::Mat LocalIlluminantShift(const cv::Mat& chroma, const cv::Mat& valid, int window_px,
                             cv::Vec2f* mat_chroma = nullptr);

class SideColorModel {
 public:
  explicit SideColorModel(SideColorOptions options = {}) : options_(options) {}

  // A side given by its nominal sRGB (e.g. from the board file), with the prior spread.
  void AddSideFromSrgb(const std::string& name, cv::Vec3b rgb);
  // ... each side of a board file's colours (side name -> sRGB 0-255), in the map's order.
  void AddSidesFromSrgb(const std::map<std::string, std::array<int, 3>>& srgb);
  // A side sampled from camera pixels (BGR), e.g. a click on a base border in the UI. The
  // pixels' raw chroma is used: prefer AddSideFromTopView, which removes the local colour cast
  // where they were taken exactly as Classify will.
  void AddSideFromSamples(const std::string& name, const std::vector<cv::Vec3b>& bgr_samples);
  // A side sampled from the top view: the pixels under `mask` (CV_8U, 255 = sample, e.g. a
  // base border the user clicked), balanced for the local light as Classify balances them.
  // False (nothing added) when fewer than 10 bright pixels are under the mask.
  bool AddSideFromTopView(const std::string& name, const cv::Mat& top_bgr, double px_per_inch,
                          const cv::Mat& mask);

  // Per side, a CV_8U mask (255 = this side) over a BGR image (the top view). Each pixel goes
  // to the nearest side within the gate, or to none.
  std::vector<cv::Mat> Classify(const cv::Mat& bgr, double px_per_inch) const;
  // Same, from already computed (white-balanced) chroma and validity.
  // With a mat chroma, a pixel must also be nearer the side than the mat (in the side's
  // metric): a blurred edge then splits at the half-way mix, not at the gate's far end.
  std::vector<cv::Mat> ClassifyChroma(const cv::Mat& chroma, const cv::Mat& valid,
                                      const cv::Vec2f* mat_chroma = nullptr) const;
  // Same, with each pixel's brightness (CV_8U, largest channel): a border darker than its
  // side's lit borders (a figure's shadow) may stray further from the side's chroma (see
  // ClassifySides in vision/side_classify.hpp).
  std::vector<cv::Mat> ClassifyChroma(const cv::Mat& chroma, const cv::Mat& valid,
                                      const cv::Mat& brightness, const cv::Vec2f* mat_chroma) const;
  // Per side, a loose CV_8U mask of border evidence: pixels whose chroma lies part of the way
  // from the mat's chroma toward the side's (options toward_min_fraction, toward_cone), as a
  // border blurred into the mat or desaturated by pale terrain beside it does. Brown roads and
  // figures pass too: use it only where the base's shape is checked.
  // cone (optional, > 0): the cone's half-width instead of options().toward_cone.
  std::vector<cv::Mat> ClassifyTowardSides(const cv::Mat& chroma, const cv::Mat& valid,
                                           const cv::Vec2f& mat_chroma, double cone = -1) const;
  // Re-estimate side i from the pixels under mask (e.g. the borders of detected bases).
  void Refit(size_t side, const cv::Mat& chroma, const cv::Mat& mask);

  const std::vector<SideColor>& sides() const { return sides_; }
  const SideColorOptions& options() const { return options_; }

 private:
  SideColorOptions options_;
  std::vector<SideColor> sides_;
};

// Chroma of the whole view with the local colour cast removed (what Classify uses).
// mat_chroma (optional) receives the mat's chroma after balancing.
void BalancedChroma(const cv::Mat& bgr, double px_per_inch, const SideColorOptions& options,
                    cv::Mat& chroma, cv::Mat& valid, cv::Vec2f* mat_chroma = nullptr);

// Per side, a CV_8U mask of the valid pixels whose chroma lies at least min_fraction of the way
// from mat_chroma toward the side's mean, within a cone of half-width `cone` (a fraction of the
// distance along the line); each pixel goes to the side whose line it lies closest to.
std::vector<cv::Mat> TowardSidesMasks(const cv::Mat& chroma, const cv::Mat& valid,
                                      const cv::Vec2f& mat_chroma,
                                      const std::vector<SideColor>& sides, double min_fraction,
                                      double cone);

}  // namespace referee
