// A shell's dot found where blur has taken away most of its contrast. The dot is a dark disc of
// known size; under the lens's blur it is that disc blurred, sitting on a top whose shading is
// nearly a plane. So at each place near where the top's centre is seen, the top is fitted as
// a plane plus the blurred disc, and the disc's darkening is judged against that fit's own
// residual (its t statistic): a dot stands out of the top's noise and shading wherever the
// blur has left it any shape at all.
//  - Blur is not known per shell: the fit tries several widths and keeps the best. A dot whose
//    best blur is wider than most of its own radius is not taken: it has then spread over most
//    of a 12 mm top, and the fit places it on the top's shading (`hard` scenes, where the dot
//    is centred, put such fits 1.4-2.6 mm off).
//  - Nor is one that darkens the picture too little where it is deepest, however significant
//    its fit: the top's own shading fits so.
//  - The place is refined to a quarter of a pixel by fitting the disc at fractional offsets.
// A hand-pressed dot is rarely in the square's middle, and the 1" circle is centred on the dot.
#pragma once

#include <opencv2/core.hpp>

namespace referee {

struct ShellDotOptions {
  // How far from where the top's centre is seen the dot may lie, mm. Default 3: a quarter of
  // the shell's side.
  double reach_mm = 3.0;
  // Blur widths tried (Gaussian sigma), mm: from step to max in steps of step.
  double blur_step_mm = 0.4;
  double max_blur_mm = 2.0;
  // Widest blur at which the dot is taken, as a share of its radius. Default 0.8.
  double max_blur_of_radius = 0.8;
  // Smallest darkening over its standard error. Default 12: on the `before` frames of the
  // `hard` shell scenes, no shell there, the fit reached 11 (a blurred frame's pixels are not
  // independent, so the noise alone reaches more than a sharp frame's would).
  double min_t = 12.0;
  // Smallest darkening at the dot's deepest point as the picture shows it (the fitted blurred
  // disc), as a share of the top's brightness. Default 0.1, half the darkest-spot test's fifth
  // (the fit weighs the whole dot, not one pixel): dots fitted within 0.6 mm on the `hard` and
  // hand-made shells read 0.10-0.25; a fit 2.3 mm off the dot on `hard` 103/8, 0.07.
  double min_darkening = 0.1;
};

struct ShellDotMatch {
  bool found = false;
  cv::Point2d centre_px;  // the dot, in the picture's px
  double t = 0;           // its darkening over the standard error
  double contrast = 0;    // the unblurred dot's darkening, share of the top's brightness
  double darkening = 0;   // at its deepest point as the picture shows it, the same share
  double blur_mm = 0;     // the blur it fitted best at
};

// `gray`: brightness of the top and around it (CV_32F). `top_centre_px`: where the top's
// centre is seen in it. `mm_per_px`: the picture's scale. `dot_diameter_mm`: the dot's
// (TABLE_KIT marks the shell's centre with a dark dot; ShellModelOptions::dot_diameter_mm).
ShellDotMatch MatchShellDot(const cv::Mat& gray, cv::Point2d top_centre_px, double mm_per_px,
                            double dot_diameter_mm, const ShellDotOptions& options = {});

}  // namespace referee
