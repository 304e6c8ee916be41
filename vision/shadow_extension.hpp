// A base completed across a border lost in a figure's shadow.
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include <opencv2/core.hpp>

#include "vision/outline_probe.hpp"
#include "vision/px_rect.hpp"
#include "vision/stand_detector.hpp"

namespace referee {

// A base whose border on one side lies in a figure's shadow comes out short across it: the
// plain colour gate loses that border and its blob ends at the base's inside. The shadow-aware
// gate (shadow_mask: the plain gate's pixels plus shadowed ones continuing them) keeps it, but
// it also takes a base's darker side face, which lies outside the top beyond a lit border edge.
// So it may only complete a base to its catalogue size, and only across a side where the top
// shows no lit border (the blob ended inside the base, not at a border's outer edge): there the
// added strip must show the shadowed border along a third of its far edge or more and one flank
// continuing a lit one (the figures, leaning over the border as the tilted camera sees them, may
// hide the rest), and no side colour just beyond it (past the blur).
void ExtendIntoShadow(PxRect& r, size_t s, const cv::Mat& plain_mask,
                      const std::function<const cv::Mat&()>& shadow_mask, double mm,
                      const std::vector<BaseSize>& sizes, const StandDetectorOptions& options,
                      const OutlineProbe& probe, const std::vector<std::vector<PxRect>>& rects,
                      const PxRect* self);

}  // namespace referee
