// Renders a SceneLayout as the webcam sees it: the table plane is warped pixel by pixel through
// the inverse camera model (lens distortion included) from a high-resolution top-view texture;
// solids are projected with their real heights (parallax) and drawn far-to-near; their shadows
// from the lamp darken the table (and, when the scenario asks, the solids' faces too:
// solid_shadows); everything is supersampled and area-averaged; then lighting, vignetting, blur
// and sensor noise are applied.
#pragma once

#include <vector>

#include <opencv2/core.hpp>

#include "datasets/scene_layout.hpp"

namespace referee {

class SceneRenderer {
 public:
  SceneRenderer(const SceneLayout& layout, int supersample);

  // The scene with `solids` standing on the table, at output size, before photo effects.
  cv::Mat RenderClean(const std::vector<Solid>& solids) const;
  // Lighting, vignetting, defocus/motion blur and sensor noise, as the camera delivers it.
  cv::Mat ApplyPhoto(const cv::Mat& clean, SynthRandom& rng) const;
  cv::Mat Render(const std::vector<Solid>& solids, SynthRandom& rng) const {
    return ApplyPhoto(RenderClean(solids), rng);
  }

  // Max pixel error of the ground warp's interpolated inverse mapping, checked half-way between
  // lattice points by projecting forward (for reports and tests).
  double max_map_error_px() const { return max_map_error_px_; }

 private:
  const SceneLayout& layout_;
  int ss_;
  cv::Size out_size_, ss_size_;
  cv::Mat ground_;  // CV_8UC3 at output size: the bare table plane with its lighting-free albedo
  cv::Mat gain_;    // CV_32FC3 at output size: lighting x vignetting x colour cast
  double max_map_error_px_ = 0.0;
};

// Solids of the static scene: terrain and room clutter, plus the stands when `with_stands`.
std::vector<Solid> StaticSolids(const SceneLayout& layout, bool with_stands);

}  // namespace referee
