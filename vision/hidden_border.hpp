// Bases whose far border the figures hide. The camera looks down at a tilt, so a figure's top is
// seen on the mat plane displaced away from the camera's foot: by h * (distance to the foot) /
// (camera height - h) for a top h above the mat. Figures standing at a base's far end (the side
// facing away from the camera) then lean over its far border, and often over the far ends of
// its flanks, as the top view sees them: the side's colour stops at the figures and the base is
// found one catalogue size short. The calibrated pose says, for each base and side, how far the
// tallest figures can reach past where they stand, so the hidden part is bounded by physics,
// not by a constant fitted to one set of scenes.
#pragma once

#include <vector>

#include <opencv2/core.hpp>

#include "vision/px_rect.hpp"
#include "vision/top_view.hpp"

namespace referee {

struct HiddenBorderOptions {
  // Tallest figures on a base, mm above the base's top. Default 25 (TABLE_KIT: "up to ~25 mm
  // tall"); raise for taller figures (more of a far border may hide behind them).
  double max_figure_height_mm = 25.0;
  // Height of a base's top above the mat, mm (StandDetectorOptions::base_height_mm).
  double base_height_mm = 2.5;
  // Thinnest side-colour border, mm (StandDetectorOptions::min_border_mm).
  double min_border_mm = 3.0;
  // How far a base may differ from a catalogue size, mm (StandDetectorOptions).
  double size_tolerance_mm = 5.0;
  // The frame's edge blur, mm (EdgeBlurMm): the mat and neighbours are read past it.
  double blur_mm = 0.0;
};

// How far, in top-view px along the unit direction `outward`, the top of a thing height_mm tall
// whose foot is seen at at_px appears past its foot (> 0: `outward` points away from the
// camera's foot). Exact through the pose (TopView::TableAtHeight).
double LeanPx(const TopView& view, cv::Point2d at_px, cv::Point2d outward, double height_mm);

// The measurements behind one completion of a short base r to `grown` across its far side.
struct HiddenSideEvidence {
  double ext_px = 0;         // how far the far side moves out
  double border_px = 0;      // the thinnest border (StandDetectorOptions::min_border_mm)
  double reach_px = 0;       // how far the tallest figures' tops are seen past their feet there
  double end_colour = 0;     // side colour along r's own far border band (a border seen there)
  double strip_figures = 0;  // share of the added strip's inside unlike the local mat
  double flank_colour = 0;   // side colour along the strip's flanks (the larger of the two)
  // Side colour along both flanks where the figures cannot reach (farther than reach_px from
  // the grown far edge; 1 when the whole strip is within their reach): the smaller one.
  double unhidden_flank_colour = 1;
  double beyond = 0;  // side colour just past the grown outline (a neighbour's border)
};

// Whether the evidence allows the completion: the figures can reach over the far border at
// all (reach_px >= border_px), r's far border band shows no border (the blob ended at figures),
// the strip shows figures rather than the mat, a flank continues into it and both flanks show
// their border wherever the figures cannot hide it, and no other border lies just beyond.
bool HiddenSideAllowed(const HiddenSideEvidence& e);

// A side CompleteHiddenFarSides completed: the grown outline and that side's outward normal.
struct HiddenSide {
  PxRect grown;
  cv::Point2d outward;
};

// Whether r's side with outward normal `outward` is one completed across hidden figures: the
// figures' tops lie where a front stripe would, so that side shows no stripe to read.
bool IsHiddenSide(const std::vector<HiddenSide>& hidden, const PxRect& r, cv::Point2d outward);

// Completes, in place, each base of rects (per side, top-view px; side_masks: each side's
// colour evidence) whose far side figures hide to the smallest larger catalogue size that
// HiddenSideAllowed accepts and that overlaps no other base found. Returns how many it grew;
// each completed side is appended to `completed` when given.
int CompleteHiddenFarSides(const cv::Mat& top_bgr, const std::vector<cv::Mat>& side_masks,
                           const TopView& view, const std::vector<BaseSize>& sizes,
                           const HiddenBorderOptions& options,
                           std::vector<std::vector<PxRect>>& rects,
                           std::vector<HiddenSide>* completed = nullptr);

}  // namespace referee
