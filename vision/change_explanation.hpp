// One region of change between two top views explained by a projectile model, and what every
// stage of that explanation reads: the frames, the view, the stands, the options and the plain
// change test's output.
#pragma once

#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "vision/change_regions.hpp"
#include "vision/lit_after.hpp"
#include "vision/projectile_detector.hpp"
#include "vision/shell_support.hpp"
#include "vision/stand_detector.hpp"
#include "vision/top_view.hpp"

namespace referee {

// The frame pair and what the plain change test found in it. Read-only but for `lit`, which
// computes the gain-corrected `after` on first use.
struct ChangeScene {
  const cv::Mat& top_before;
  const cv::Mat& top_after;
  const TopView& view;
  const std::vector<DetectedStand>& stands;
  const ProjectileOptions& opt;
  const cv::Mat& tall_terrain;
  const cv::Mat& flat_terrain;
  LitAfter& lit;
  double mm;        // top-view mm per px
  cv::Mat mask;     // the plain change test's changed pixels, own shadows taken out
  cv::Mat mag;      // the largest per-channel change (ChangeMask's `magnitude`)
  cv::Mat object;   // the same without shadows (ChangeMask's `object_change`)
  cv::Mat seen;     // what the camera sees of the top view (SeenByCamera)
  double max_area;  // MaxProjectileChangeMm2
};

// A length or an area in whole mm, for refusal texts and notes.
std::string MmText(double v);

// How many times as long as wide a thin change shorter than a Q-tip must be to be matched by
// the whole model along its axis. Default 1.5: a painted head alone (12 x 5 mm) blurs to 11 x 6
// mm on `hard`; a round fleck has no axis to match along.
inline constexpr double kMinFragmentElongation = 1.5;
// Shortest faint piece taken alone, head lengths. Default 1.5: a head and a stretch of stick
// as long as half a head; a head alone says nothing of which way its stick runs.
inline constexpr double kFaintSinglePieceMinHeads = 1.5;
// Ends the refusal of a change that neither model explains, which a faint shell's core may be.
inline constexpr const char* kNeitherModel = "is neither a Q-tip nor a shell";

// Gap between a projectile's footprint edge and the band its surroundings are read in, mm,
// past the blur; and that band's width, mm.
inline constexpr double kTakenAwayRingGapMm = 1.5;
inline constexpr double kTakenAwayRingWidthMm = 3.0;

// What may hold a shell up, from the detector's options (plain and faint shells alike).
ShellSupportOptions ShellSupportOptionsOf(const ProjectileOptions& opt);

// One region of change explained by a projectile model.
// `pieces`: the blob is several regions joined along one line (a Q-tip seen in pieces): only
// the whole-model match may explain it.
// `faint`: the blob is from the lowered change threshold (nothing cleared the plain one): only
// the whole Q-tip model's strict match may explain it.
// `any_axis`: the blob is a head with no axis of its own: the model is matched in every
// direction from it.
ProjectileResult ExplainRegion(const ChangeScene& s, const ChangeBlob& blob, bool pieces = false,
                               bool faint = false, bool any_axis = false);

}  // namespace referee
