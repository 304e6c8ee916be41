// Bases of a side whose colour the camera washes out toward the mat, found by refitting that
// side's colour to the rings they show.
#pragma once

#include <vector>

#include <opencv2/core.hpp>

#include "vision/px_rect.hpp"
#include "vision/stand_detector.hpp"

namespace referee {

// What AddWashedOutBases saw and leaves for later passes, per side.
struct WashedOutRings {
  // The rings it saw where no base had been found (for AddLoneRings).
  std::vector<std::vector<PxRect>> lone;
  // The refitted sides' bases (for PlaceRefittedBases).
  std::vector<std::vector<PxRect>> refitted;
};

// Bases of a side whose colour this camera washes out toward the mat, past the colour model's
// gate (see vision/side_washout.hpp). Where several base-shaped rings of relaxed evidence lie
// where no base was found, the side is refitted from those rings' border pixels and detected
// again; the bases that finds where none was found, and where one of those rings lies, are
// returned as `refitted`, to be placed once the ring and blob searches have had their look
// (PlaceRefittedBases). Bases already found keep the model that found them: a refit to the
// washed-out rings alone would lose saturated borders elsewhere in the frame (uneven light).
// Also returns the rings it saw where no base had been found (`lone`, for AddLoneRings).
// blur_mm: how far this frame spreads a base's colour past its edge (EdgeBlurMm), for
// options.thick_washed_rings; with it, each ring it returns carries, as other_sizes, the
// catalogue sizes over the same centre whose every side lies within blur_mm of its own: a
// ring whose hue spreads that far fits them about alike, and the players say which.
WashedOutRings AddWashedOutBases(const cv::Mat& chroma, const cv::Mat& valid,
                                 const cv::Vec2f& mat_chroma, double mm,
                                 const std::vector<BaseSize>& sizes,
                                 const StandDetectorOptions& options, double blur_mm,
                                 const StandDetection& det,
                                 const std::vector<std::vector<PxRect>>& rects);

// Places each of the refitted sides' bases (WashedOutRings::refitted) where no base of any side
// lies (AnyBaseAt). Run after the ring and blob searches, the washed sides' among them
// (vision/washed_side_refit.hpp): a base one of them finds it places more closely, fitted to the
// frame's blur rather than to a mask of a hue the frame spreads.
void PlaceRefittedBases(const std::vector<std::vector<PxRect>>& bases,
                        std::vector<std::vector<PxRect>>& rects);

// Rings too few to refit a side's colour from them alone (a side whose other bases the washed
// passes found) are still that side's bases when they show its colour as this camera leaves
// it: their border departs from the mat toward the side at least
// WashoutOptions::lone_ring_min_share as far as the median of the side's found borders
// (MeasuredWashout), their inside at most max_inside_to_border as far (figures, not paper or a
// road, which depart alike throughout), and no base of any side lies there (AnyBaseAt). Run
// after the ring and blob searches: a ring one of them found is placed by it, more closely.
void AddLoneRings(const cv::Mat& chroma, const cv::Mat& valid, const cv::Vec2f& mat_chroma,
                  const std::vector<SideColor>& sides,
                  const std::vector<std::vector<PxRect>>& rings, double mm,
                  const StandDetectorOptions& options, std::vector<std::vector<PxRect>>& rects);

// Patches filled with a side's washed hue (AddFrameWashoutBases' `filled`) that are that
// side's bases with figures on them: a white figure on a base whose blue border the camera
// washed toward a warm mat lies on the same line from the mat as the border, so the hue shows
// no ring. Each is placed, for a side with at least WashoutOptions::min_candidates bases found,
// when no base of any side lies there (AnyBaseAt, the ones it places included), the board's
// terrain that may show a side's shade (solid_terrain, CV_8U, may be empty) is not where it
// lies (InTerrain), its border departs as a lone ring's must (AddLoneRings), and its inside's
// brightness in top_bgr (the largest channel) spreads at least
// WashoutOptions::min_figure_brightness_spread of its median (figures lit and shaded, not one
// paint). Run after the ring and blob searches, as AddLoneRings. Returns the bases it placed.
std::vector<PxRect> AddWashedBasesWithFigures(const cv::Mat& top_bgr, const cv::Mat& chroma,
                                              const cv::Mat& valid, const cv::Vec2f& mat_chroma,
                                              const std::vector<SideColor>& sides,
                                              const std::vector<std::vector<PxRect>>& filled,
                                              const cv::Mat& solid_terrain, double mm,
                                              const StandDetectorOptions& options,
                                              std::vector<std::vector<PxRect>>& rects);

}  // namespace referee
