// The band along a Q-tip's stick where the taken-away tests read it: from 0.2 to 0.95 of the way
// from its tip to its plain end, past the painted head (paint is no white material, in either
// frame).
#pragma once

#include <cmath>

#include <opencv2/core.hpp>

namespace referee {

// Calls `visit(pixel, across_px)` for each point every `step_px` along the stick's middle from
// tip `a` to plain end `b` (top-view px) and every `step_px` across it up to `max_across_px`
// either side of the axis, that lies inside `size`. Returns false (nothing visited) when a-b is
// shorter than 4 px.
template <typename Visit>
bool ForEachStickMiddlePixel(cv::Size size, cv::Point2d a, cv::Point2d b, double max_across_px,
                             double step_px, Visit&& visit) {
  const cv::Point2d ab = b - a;
  const double len = cv::norm(ab);
  if (len < 4.0) return false;
  const cv::Point2d along = ab * (1.0 / len), across(-along.y, along.x);
  const cv::Rect view({0, 0}, size);
  for (double t = 0.2 * len; t <= 0.95 * len; t += step_px) {
    for (double v = -max_across_px; v <= max_across_px + 1e-9; v += step_px) {
      const cv::Point2d q = a + t * along + v * across;
      const cv::Point p(cvRound(q.x), cvRound(q.y));
      if (view.contains(p)) visit(p, v);
    }
  }
  return true;
}

}  // namespace referee
