#include "vision/shot_analysis.hpp"

namespace referee {

ShotAnalysis AnalyseShot(const TopView& view, const cv::Mat& before, const cv::Mat& after,
                         const SideColorModel& colors, const StandKindCatalog& catalog,
                         const Board* board, const StandDetectorOptions& stand_options,
                         const ProjectileOptions& projectile_options) {
  ShotAnalysis a;
  a.top_before = view.Rectify(before);
  a.top_after = view.Rectify(after);
  a.stands = DetectStands(a.top_before, view, colors, catalog, stand_options, board);
  const ProjectileResult r =
      DetectProjectile(a.top_before, a.top_after, view, a.stands.stands, projectile_options);
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

std::vector<Stand> StandsOf(const StandDetection& detection) {
  std::vector<Stand> out;
  for (const auto& d : detection.stands) out.push_back(d.stand);
  return out;
}

}  // namespace referee
