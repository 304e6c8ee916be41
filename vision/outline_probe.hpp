// How a base's outline shows on this frame: its side colour along a side, or a step in colour
// to the mat where shadow or glare has taken that colour.
#pragma once

#include <algorithm>

#include <opencv2/core.hpp>

#include "vision/band_fraction.hpp"
#include "vision/px_rect.hpp"
#include "vision/stand_detector.hpp"

namespace referee {

// Fraction of the middle 80 % of side `side` of r (0..3: -a, +a, -b, +b) where the image
// steps in colour across the edge: the colour in_px inside differs from the colour between
// out0_px and out1_px outside by more than min_step (BGR distance). A base's top against the
// mat (or a road) steps all along its outline, whatever its border's shade; the mat does not.
double StepFraction(const cv::Mat& img, const PxRect& r, int side, double in_px, double out0_px,
                    double out1_px, double min_step);

// How a base's outline is read on this frame, shared by GrowShortBases and MergePieces: the
// border band (0.8 of the thinnest border), the depth inside the top read against the mat, and
// the mat band outside it, past the frame's blur.
struct OutlineProbe {
  OutlineProbe(const StandDetectorOptions& options, double mm, double blur_mm)
      : border_px(0.8 * options.min_border_mm / mm),
        in_px(0.5 * options.min_border_mm / mm),
        gap0((1.0 + options.filled_fit.blur_spread * blur_mm) / mm),
        gap1(gap0 + 2.5 / mm) {}
  double border_px, in_px, gap0, gap1;
  static constexpr double kMinStep = 40.0;  // BGR distance: border or base top against the mat

  // Fraction of side `side` of r showing the side colour in the border band.
  double Colour(const cv::Mat& mask, const PxRect& r, int side) const {
    return BandFraction(mask, r, 0.5, border_px, side, 0.8);
  }
  // ... or, where shadow or glare has taken that colour, a step to the mat.
  double Outline(const cv::Mat& mask, const cv::Mat& top_bgr, const PxRect& r, int side) const {
    return std::max(Colour(mask, r, side),
                    StepFraction(top_bgr, r, side, in_px, gap0, gap1, kMinStep));
  }
};

}  // namespace referee
