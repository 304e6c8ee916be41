#include "vision/rest_height_check.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <utility>

#include "engine/ruling_hits.hpp"

namespace referee {

namespace {

std::string Join(const std::vector<std::string>& ids) {
  std::string out;
  for (const auto& id : ids) out += (out.empty() ? "" : ", ") + id;
  return out;
}

// The heights tried, mm above the mat: from lying on the bare top to lying on the tallest
// figures (and the ruled height itself, whatever it was).
struct HeightRange {
  double low_mm = 0;
  double high_mm = 0;
};

HeightRange HeightsTried(const ProjectileObservation& projectile,
                         const RestHeightCheckOptions& options) {
  const double lift_mm =
      projectile.kind == "shell" ? options.shell_thickness_mm : options.qtip_head_radius_mm;
  const double ruled_mm = InchesToMm(projectile.height_in);
  return {std::min(options.base_height_mm + lift_mm, ruled_mm),
          std::max(options.base_height_mm + options.max_figure_height_mm + lift_mm, ruled_mm)};
}

// The height nearest the ruled one at which `hits` differs from `ruled`, if nearer than
// `nearer_than`'s.
std::optional<RestHeightCheck> NearestDecidingHeight(
    const ProjectileObservation& projectile, const TopView& view, HeightRange range,
    const std::vector<std::string>& ruled,
    const std::function<std::vector<std::string>(Vec2)>& hits,
    const std::optional<RestHeightCheck>& nearer_than, const RestHeightCheckOptions& options) {
  const double ruled_mm = InchesToMm(projectile.height_in);
  const Vec2 on_mat = view.SeenOnMat(projectile.point, projectile.height_in);
  double limit_mm = nearer_than ? std::abs(nearer_than->decides_height_mm - ruled_mm)
                                : std::numeric_limits<double>::infinity();
  std::optional<RestHeightCheck> best;
  const int steps = static_cast<int>(std::ceil((range.high_mm - range.low_mm) / options.step_mm));
  for (int i = 0; i <= steps; ++i) {
    const double h_mm = std::min(range.high_mm, range.low_mm + i * options.step_mm);
    if (std::abs(h_mm - ruled_mm) >= limit_mm) continue;
    const Vec2 there = view.TableAtHeight(on_mat, MmToInches(h_mm));
    std::vector<std::string> hit = SortedIds(hits(there));
    if (hit == ruled) continue;
    limit_mm = std::abs(h_mm - ruled_mm);
    best = RestHeightCheck{.stand_id = projectile.resting_on,
                           .ruled_height_mm = ruled_mm,
                           .decides_height_mm = h_mm,
                           .decides_within_mm = 0.0,
                           .point_there = there,
                           .hit_there = std::move(hit),
                           .hit_ruled = ruled,
                           .outline_stand_id = "",
                           .outline = "",
                           .reason = ""};
  }
  return best;
}

}  // namespace

std::optional<RestHeightCheck> CheckRestHeight(
    const ProjectileObservation& projectile, const TopView& view,
    const std::function<std::vector<std::string>(Vec2)>& hits,
    const RestHeightCheckOptions& options, const std::vector<RulingAtOutline>& at_other_outlines) {
  if (projectile.resting_on.empty() || options.step_mm <= 0) return std::nullopt;
  const HeightRange range = HeightsTried(projectile, options);
  const double ruled_mm = InchesToMm(projectile.height_in);
  const Vec2 on_mat = view.SeenOnMat(projectile.point, projectile.height_in);
  const std::vector<std::string> ruled = SortedIds(hits(projectile.point));

  std::optional<RestHeightCheck> best =
      NearestDecidingHeight(projectile, view, range, ruled, hits, std::nullopt, options);
  for (const RulingAtOutline& other : at_other_outlines) {
    if (SortedIds(other.hits(projectile.point)) != ruled) continue;
    if (auto c = NearestDecidingHeight(projectile, view, range, ruled, other.hits, best, options)) {
      best = std::move(c);
      best->outline_stand_id = other.stand_id;
      best->outline = other.outline;
    }
  }
  if (!best) return std::nullopt;
  const double moved_mm_per_mm =
      InchesToMm(Distance(view.TableAtHeight(on_mat, MmToInches(best->decides_height_mm)),
                          view.TableAtHeight(on_mat, MmToInches(best->decides_height_mm + 1.0))));
  best->decides_within_mm = options.point_error_mm / std::max(moved_mm_per_mm, 1e-6);

  std::vector<std::string> now_hit, now_clear;
  std::ranges::set_difference(best->hit_there, ruled, std::back_inserter(now_hit));
  std::ranges::set_difference(ruled, best->hit_there, std::back_inserter(now_clear));
  const bool lower = best->decides_height_mm < ruled_mm;
  char head[200];
  std::snprintf(head, sizeof head,
                "the height decides: the %s on %s is ruled %.1f mm above the mat; if it lies "
                "%.1f mm up (+-%.0f) or %s",
                projectile.kind == "shell" ? "shell" : "Q-tip", projectile.resting_on.c_str(),
                ruled_mm, best->decides_height_mm, std::ceil(best->decides_within_mm),
                lower ? "lower" : "higher");
  std::string reason = head;
  const std::string& other_base = best->outline_stand_id;
  if (!other_base.empty()) {
    reason += " and " + other_base + "'s base is " + best->outline +
              " (a size the camera could not tell from the one reported)";
  }
  if (!now_hit.empty())
    reason += ", " + Join(now_hit) + (now_hit.size() > 1 ? " are" : " is") + " hit";
  if (!now_clear.empty()) {
    reason += (now_hit.empty() ? ", " : " and ") + Join(now_clear) +
              (now_clear.size() > 1 ? " are" : " is") + " clear";
  }
  reason += ": measure how high it lies";
  if (!other_base.empty()) reason += " and " + other_base + "'s base";
  best->reason = std::move(reason);
  return best;
}

std::optional<RestHeightCheck> CheckRulingHeight(const ProjectileObservation& projectile,
                                                 const TopView& view, const Board& board,
                                                 const std::vector<Stand>& stands, Shot shot,
                                                 const StandKindCatalog& catalog,
                                                 const ShotOptions& rules,
                                                 const RestHeightCheckOptions& options) {
  const auto ruling = [&board, &catalog, &rules, &shot](std::vector<Stand> at) {
    return RulingHitsAt(board, std::move(at), shot, catalog, rules);
  };
  // The other sizes of the stands the shot could reach at any height tried.
  std::vector<RulingAtOutline> at_other_outlines;
  if (!projectile.resting_on.empty()) {
    const HeightRange range = HeightsTried(projectile, options);
    const Vec2 on_mat = view.SeenOnMat(projectile.point, projectile.height_in);
    const Vec2 low = view.TableAtHeight(on_mat, MmToInches(range.low_mm));
    const Vec2 high = view.TableAtHeight(on_mat, MmToInches(range.high_mm));
    const double reach_in = rules.report_radius_in + Distance(low, high);
    for (size_t i = 0; i < stands.size(); ++i) {
      const std::vector<Stand> outlines = OutlinesOf(stands[i]);
      for (size_t k = 1; k < outlines.size(); ++k) {
        const OrientedRect& fp = outlines[k].footprint;
        if (std::min(DistanceToRect(low, fp), DistanceToRect(high, fp)) > reach_in) continue;
        std::vector<Stand> at = stands;
        at[i] = outlines[k];
        at_other_outlines.push_back({stands[i].id, OutlineName(outlines[k]), ruling(at)});
      }
    }
  }
  return CheckRestHeight(projectile, view, ruling(stands), options, at_other_outlines);
}

RestHeightCheckOptions RestHeightCheckOptionsFor(const ProjectileOptions& projectile) {
  RestHeightCheckOptions o;
  o.base_height_mm = projectile.base_height_mm;
  o.max_figure_height_mm = std::max(o.max_figure_height_mm, projectile.figure_height_mm);
  return o;
}

}  // namespace referee
