// Shrinking a camera frame by an integer factor, each output pixel the mean of its block: what
// the live tests compare on every frame. OpenCV's area resize has a fast vector path only for
// a factor of 2 (a 4K frame halves in ~4 ms on one core, while a factor of 4 or 6 in one step
// takes 14-17 ms), so the factor is taken in halvings first, then the odd rest in one step of
// our own (vector sums over rows, then columns: a 1080p frame by 3 in ~2.5 ms, OpenCV ~4.5).
#pragma once

#include <opencv2/core.hpp>

namespace referee {

// `image` (any type cv::resize takes) shrunk by `factor` >= 1 each way to
// (cols / factor, rows / factor): the pixels past the last whole block are left out. Equal to
// one INTER_AREA resize up to rounding (each halving rounds to the nearest level; an odd
// factor alone is exact).
cv::Mat ShrinkByBlocks(const cv::Mat& image, int factor);

}  // namespace referee
