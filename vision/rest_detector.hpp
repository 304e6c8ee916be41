// When has the shot come to rest? Watches a frame stream and fires once when the table has
// been still for rest_seconds after something moved (the projectile flying in, bouncing,
// sliding). Adjudication starts then, without a key press; a hand still in view is refused
// later by the projectile detector (it is a change no projectile explains).
#pragma once

#include <opencv2/core.hpp>

namespace referee {

struct RestOptions {
  // Stillness before the shot counts as at rest, seconds. Default 0.5; raise for bouncy
  // tables or slow-rolling shells, lower for a snappier referee.
  double rest_seconds = 0.5;
  // Per-pixel grey change counted as motion, 8-bit levels (after a light blur). Default 18;
  // raise for noisy cameras or flickering light.
  double motion_level = 18.0;
  // Fraction of the working image that must change to count as motion. Default 0.00005
  // (a few pixels: a Q-tip sliding is tiny). Raise if sensor noise keeps it "moving".
  double motion_fraction = 0.00005;
  // Width the frames are shrunk to before comparing, px. Default 480: cheap and still sees a
  // Q-tip at 1080p.
  int work_width = 480;
};

struct RestUpdate {
  bool moving = false;        // this frame differs from the last
  bool came_to_rest = false;  // fires once: still for rest_seconds after motion
  double still_seconds = 0;   // how long nothing has moved
};

class RestDetector {
 public:
  explicit RestDetector(RestOptions options = {}) : options_(options) {}
  // Feed a frame (BGR or grey) with its capture time in seconds.
  RestUpdate Push(const cv::Mat& frame, double t_seconds);
  // Forget the history (e.g. after an adjudication or a camera bump).
  void Reset();
  const RestOptions& options() const { return options_; }

 private:
  RestOptions options_;
  cv::Mat last_;
  double last_motion_t_ = 0;
  bool armed_ = false;  // something moved since the last rest
};

}  // namespace referee
