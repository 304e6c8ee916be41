// The lighting change between two frames, divided out of the later one: a lamp moved, a cloud or
// the camera's exposure changes every pixel a little, which would otherwise read as change.
#pragma once

#include <opencv2/core.hpp>

namespace referee {

// Per-channel lighting change between the frames, measured at a scale far larger than any
// projectile (so the projectile itself does not bias it): after * gain ~ before. `before` and
// `after` are CV_8UC3 of one size; the result is `after` so corrected, CV_32FC3.
cv::Mat GainCorrected(const cv::Mat& before, const cv::Mat& after);

// `after` with the lighting change divided out (GainCorrected), computed at most once per frame
// pair: the shadow test, every model fit and the taken-away test read it. Read-only.
class LitAfter {
 public:
  LitAfter(const cv::Mat& before, const cv::Mat& after) : before_(before), after_(after) {}
  const cv::Mat& Float();
  const cv::Mat& Bytes();

 private:
  const cv::Mat& before_;
  const cv::Mat& after_;
  cv::Mat float_, bytes_;
};

}  // namespace referee
