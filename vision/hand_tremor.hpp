// Is something lying over the board's edge alive? A hand or an arm held "still" over a table is
// never perfectly still: it trembles and sways by a fraction of a millimetre to a few
// millimetres, far below what counts as motion (whole cells changing by the hand test's
// level), while terrain, a card or a ruler across the edge changes only by the camera's noise.
// The picture round the thing is cut into small blocks, and each block's shift since the thing
// came to rest is fitted from its brightness gradients (Lucas-Kanade, with a brightness offset
// for flicker); a shift counts when it stands far out of the block's own noise (the residual
// of the fit): noise and JPEG do not shift a block, a tremor of a tenth of a pixel does.
#pragma once

#include <opencv2/core.hpp>

namespace referee {

struct TremorOptions {
  // Block side, camera pixels. Default 12: a hand's outline or a finger in every block at
  // 720p-1080p; the fit needs a few edges per block.
  int block_px = 12;
  // A block has shifted when its fitted shift is this many standard errors of noise (chi^2 of
  // the shift with its covariance). Default 20: white noise alone exceeds it once in ~20000
  // blocks.
  double significance = 20.0;
};

class TremorWatch {
 public:
  TremorWatch() = default;
  explicit TremorWatch(TremorOptions options) : options_(options) {}

  // The picture when the thing came to rest, over `zone_px` (camera pixels, clipped to it).
  void Anchor(const cv::Mat& frame_bgr, const cv::Rect& zone_px);
  void Clear() { anchor_.release(); }
  bool anchored() const { return !anchor_.empty(); }
  const cv::Rect& zone_px() const { return zone_; }

  // How many blocks of the zone shifted since the anchor (0 when not anchored).
  int ShiftedBlocks(const cv::Mat& frame_bgr) const;

 private:
  TremorOptions options_;
  cv::Rect zone_;
  cv::Mat anchor_;   // CV_32F grey, smoothed, over the zone
  cv::Mat gx_, gy_;  // its gradients
};

}  // namespace referee
