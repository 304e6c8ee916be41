// One shot from two camera frames: rectify both, find the stands in `before`, find the
// projectile in the change to `after`. Shared by `referee adjudicate`, the benchmarks and the
// live overlay so they all run the same pipeline.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "engine/board.hpp"
#include "engine/board_file.hpp"
#include "engine/stand.hpp"
#include "vision/close_call_check.hpp"
#include "vision/projectile_detector.hpp"
#include "vision/rest_height_check.hpp"
#include "vision/side_color_model.hpp"
#include "vision/stand_detector.hpp"
#include "vision/top_view.hpp"
#include "vision/unfound_base_check.hpp"

namespace referee {

struct ShotAnalysis {
  cv::Mat top_before, top_after;  // rectified frames
  StandDetection stands;
  std::optional<ProjectileObservation> projectile;
  std::string refusal;  // why no projectile was accepted (empty when one was)
  // Where the board's tall terrain may hide the mat (TallTerrainMask; empty without a board),
  // as the projectile search was given it.
  cv::Mat tall_terrain;
  // Where the board lays flat terrain on the mat (FlatTerrainMask; empty without a board), as
  // the projectile search was given it.
  cv::Mat flat_terrain;
  // A side's colour in or beside the hit circle that no found stand explains (a base the stand
  // search missed?): FindUnfoundBases, run once the verdict gives the circle. The evidence
  // picture marks them.
  std::vector<UnfoundBaseCheck> unfound;
  // The height a shot on a stand is ruled at, where it decides who is hit (CheckRulingHeight,
  // run once the verdict is made): the evidence picture marks where it would lie then.
  std::optional<RestHeightCheck> height_check;
  // A stand within the camera's error of the hit circle's edge (CheckRulingCloseCall, run once
  // the verdict is made): the evidence picture marks the stands to measure.
  std::optional<CloseCallCheck> close_call;
};

// empty (optional): a camera frame of the table before the armies were deployed, through the
// same calibration (see DetectStands' empty_top).
ShotAnalysis AnalyseShot(const TopView& view, const cv::Mat& before, const cv::Mat& after,
                         const SideColorModel& colors, const StandKindCatalog& catalog,
                         const Board* board, const StandDetectorOptions& stand_options = {},
                         const ProjectileOptions& projectile_options = {},
                         const cv::Mat& empty = cv::Mat());

// The stand kinds a ruleset's armies hold first when several catalogue kinds share a base size
// (StandDetectorOptions::kind_preference): "ancient" -> heavy infantry, heavy cavalry, chariot
// (a 40 x 40 base, measured from its front edge like the elephant and catapult of the same
// size), light catapult; anything else -> the Napoleonic default.
std::vector<std::string> KindPreference(const std::string& ruleset);

// The board file's kit into the options: its stand and figure heights, which place things in
// 3D (a base's side faces, the height a projectile lying on a base or its figures is put at),
// and the shells' colour.
void ApplyBoardKit(const BoardFile& kit, StandDetectorOptions& stands,
                   ProjectileOptions& projectile);

// The board file's kit into the too-close-to-call check: how far its marks may lie from where a
// point placed without them seen is put (BoardFile::shell_dot_offset_mm, qtip_head_spread_mm).
CloseCallOptions CloseCallOptionsFor(const BoardFile& kit);

// Stands as the engine takes them.
std::vector<Stand> StandsOf(const StandDetection& detection);

}  // namespace referee
