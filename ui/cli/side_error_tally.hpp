// The found bases' side errors of `referee bench stands --side-errors` pooled into one line:
// how far sides lie outward on average, split by whether their side face shows to the camera,
// and the same with each frame's own outward bias taken off, read from its bases' excess over
// their true (catalogue) sizes (s62: the bias a thin border's inner edge and JPEG give is alike
// for every base of a frame, README "Not met yet" 1).
#pragma once

#include <array>
#include <string>
#include <vector>

namespace referee::cli {

struct SideError {
  double outward_mm = 0;     // + the found side outside the truth's
  double cos_to_camera = 0;  // > 0.5: the side faces the camera (its side face shows)
};

class SideErrorTally {
 public:
  // One base's sides (-w, +w, -d, +d). Bases with another size offered or a side more than
  // 4 mm off (a different fit, not a bias) are left out.
  void AddBase(const std::array<SideError, 4>& sides, bool has_other_sizes);
  // Ends a frame: its bases' per-axis excess over the truth, halved, median, is that frame's
  // bias (0 where it has fewer than four bases).
  void EndFrame();
  std::string Summary() const;

  struct Figures {
    size_t sides = 0;
    double mean = 0, sd = 0, p90_abs = 0, facing_mean = 0, away_mean = 0;
  };
  Figures Raw() const { return Summarise(raw_); }
  Figures FrameBiasRemoved() const { return Summarise(corrected_); }

 private:
  static Figures Summarise(const std::vector<SideError>& v);
  std::vector<std::array<SideError, 4>> frame_;
  std::vector<SideError> raw_, corrected_;
  size_t bases_ = 0, frames_ = 0;
  std::vector<double> frame_bias_mm_;
};

}  // namespace referee::cli
