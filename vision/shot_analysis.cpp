#include "vision/shot_analysis.hpp"

#include <cmath>

#include "vision/flat_terrain_mask.hpp"
#include "vision/pair_hand_check.hpp"
#include "vision/tall_terrain_mask.hpp"

namespace referee {

ShotAnalysis AnalyseShot(const TopView& view, const cv::Mat& before, const cv::Mat& after,
                         const SideColorModel& colors, const StandKindCatalog& catalog,
                         const Board* board, const StandDetectorOptions& stand_options,
                         const ProjectileOptions& projectile_options, const cv::Mat& empty) {
  ShotAnalysis a;
  a.top_before = view.Rectify(before);
  a.top_after = view.Rectify(after);
  a.stands = DetectStands(a.top_before, view, colors, catalog, stand_options, board,
                          empty.empty() ? cv::Mat() : view.Rectify(empty));
  // Where the board's tall terrain may hide a stick, as the stand search reads it.
  a.tall_terrain =
      board ? TallTerrainMask(*board, view, a.top_before.size(),
                              MmToInches(stand_options.tall_terrain_height_mm),
                              static_cast<int>(std::lround(stand_options.tall_terrain_margin_mm /
                                                           view.MmPerPx())))
            : cv::Mat();
  a.flat_terrain = board ? FlatTerrainMask(*board, view, a.top_before.size(),
                                           FlatTerrainMarginPx(view.MmPerPx()))
                         : cv::Mat();
  // A hand the top view sees only in part (skin of the mat's colour) is still refused.
  if (auto hand = HandInPair(view.calibration(), before, after)) {
    a.refusal = std::move(*hand);
    return a;
  }
  const ProjectileResult r = DetectProjectile(a.top_before, a.top_after, view, a.stands.stands,
                                              projectile_options, a.tall_terrain, a.flat_terrain);
  if (const auto* o = std::get_if<ProjectileObservation>(&r)) {
    a.projectile = *o;
  } else {
    a.refusal = std::get<Refusal>(r).reason;
  }
  return a;
}

std::vector<std::string> KindPreference(const std::string& ruleset) {
  if (ruleset == "ancient") return {"heavy_infantry", "heavy_cavalry", "chariot", "light_catapult"};
  return StandDetectorOptions{}.kind_preference;
}

void ApplyBoardKit(const BoardFile& kit, StandDetectorOptions& stands,
                   ProjectileOptions& projectile) {
  stands.base_height_mm = kit.base_height_mm;
  projectile.base_height_mm = kit.base_height_mm;
  projectile.figure_height_mm = kit.figure_height_mm;
  const auto& rgb = kit.shell_colour_srgb;
  projectile.shell_bgr = cv::Vec3d(rgb[2], rgb[1], rgb[0]);
}

CloseCallOptions CloseCallOptionsFor(const BoardFile& kit) {
  CloseCallOptions options;
  options.unseen_dot_mm = kit.shell_dot_offset_mm;
  options.unseen_tip_mm = kit.qtip_head_spread_mm;
  return options;
}

std::vector<Stand> StandsOf(const StandDetection& detection) {
  std::vector<Stand> out;
  for (const auto& d : detection.stands) out.push_back(d.stand);
  return out;
}

}  // namespace referee
