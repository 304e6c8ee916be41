// The last step of the stand detector, base by base: a found rectangle's edges placed on the
// image, its facing read from the front stripe and its footprint in table inches.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <vector>

#include <opencv2/core.hpp>

#include "vision/hidden_border.hpp"
#include "vision/outline_probe.hpp"
#include "vision/px_rect.hpp"
#include "vision/stand_detector.hpp"

namespace referee {

// Bright, colourless pixels (a white front stripe), relative to the local light.
cv::Mat WhiteMask(const cv::Mat& top_bgr);

// What finishing a base reads of the frame, found once by DetectStands for all its bases.
struct FinishFrame {
  const cv::Mat& top_bgr;
  const TopView& view;
  const StandKindCatalog& catalog;
  const StandDetectorOptions& options;
  const std::vector<BaseSize>& sizes;
  double mm;  // mm per top-view px
  const SideColorModel& colors;
  const std::vector<cv::Mat>& side_masks;  // the strict gate's, per side
  const cv::Mat& chroma;
  const cv::Mat& valid;
  cv::Vec2f mat_chroma;
  const std::vector<std::vector<PxRect>>& rects;  // every base found, by side
  const std::vector<PxRect>& blurred_ring_bases;  // as the blurred ring fit placed them
  const std::vector<PxRect>& changed_fit_bases;   // as AddChangedRingFits placed them
  const std::vector<PxRect>& washed_out_bases;    // lone rings, washed patches with figures
  const std::vector<HiddenSide>& hidden_sides;    // sides completed across hidden figures
  const std::vector<cv::Mat>& evidence;           // the loose evidence, per side
  const cv::Mat& white;                           // WhiteMask
  const cv::Mat& terrain;                         // TerrainMask; may be empty
  // Toward each side's colour in a wide cone, for the terrain test.
  std::function<const cv::Mat&(std::size_t)> toward;
  double blur_mm;                                          // the frame's blur (EdgeBlurMm)
  bool shadow_pass;                                        // ExtendIntoShadow applies
  std::function<const cv::Mat&(std::size_t)> shadow_mask;  // ExtendIntoShadow's gate, per side
  const OutlineProbe& probe;
  // The board's tall terrain (vision/tall_terrain_extent.hpp); the masks only when any_tall.
  bool any_tall;
  const cv::Mat& tall_seen;
  const cv::Mat& tall_hidden;
  const cv::Mat& bare_mat;
  const TallTerrainExtentOptions& tall_extent;
};

// The stand for `found`, an entry of frame.rects[s], with n its side's stands so far (counted
// on); none where it looks like terrain (a roof, water).
std::optional<DetectedStand> FinishBase(const FinishFrame& frame, const PxRect& found,
                                        std::size_t s, int& n);

}  // namespace referee
