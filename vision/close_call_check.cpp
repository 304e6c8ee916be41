#include "vision/close_call_check.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>

#include "engine/ruling_hits.hpp"
#include "vision/impact_placement.hpp"

namespace referee {

namespace {

// The ids in one of `a` and `b` but not both (both sorted).
std::vector<std::string> Changed(const std::vector<std::string>& a,
                                 const std::vector<std::string>& b) {
  std::vector<std::string> out;
  std::ranges::set_symmetric_difference(a, b, std::back_inserter(out));
  return out;
}

std::string Mm(double mm) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f mm", mm);
  return buf;
}

}  // namespace

std::optional<CloseCallCheck> CheckCloseCall(
    Vec2 point, double error_mm, const std::function<std::vector<std::string>(Vec2)>& hits,
    const CloseCallOptions& options, const std::string& error_said) {
  if (!(error_mm > 0.0) || options.directions < 1) return std::nullopt;
  const std::vector<std::string> ruled = SortedIds(hits(point));
  const double error_in = MmToInches(error_mm);
  CloseCallCheck check;
  check.error_mm = error_mm;
  check.hit_ruled = ruled;
  double nearest_in = error_in * 2.0;
  // Along each direction a stand's ruling changes once at most within the error: it is hit
  // inside its base grown by the circle's radius, a convex shape far wider than a millimetre.
  // So where the far end differs for a stand, its change lies between, found by halving.
  for (int k = 0; k < options.directions; ++k) {
    const double a = 2.0 * std::numbers::pi * k / options.directions;
    const Vec2 dir{std::cos(a), std::sin(a)};
    const auto at = [&](double r_in) {
      return Vec2{point.x + dir.x * r_in, point.y + dir.y * r_in};
    };
    for (const std::string& id : Changed(ruled, SortedIds(hits(at(error_in))))) {
      const bool hit_ruled = std::ranges::binary_search(ruled, id);
      double same_in = 0.0, differs_in = error_in;
      while (InchesToMm(differs_in - same_in) > options.precision_mm) {
        const double mid_in = 0.5 * (same_in + differs_in);
        const std::vector<std::string> mid = SortedIds(hits(at(mid_in)));
        (std::ranges::binary_search(mid, id) == hit_ruled ? same_in : differs_in) = mid_in;
      }
      const double changes_mm = InchesToMm(differs_in);
      auto s = std::ranges::find(check.stands, id, &CloseStand::id);
      if (s == check.stands.end()) {
        check.stands.push_back({id, hit_ruled, changes_mm});
      } else {
        s->changes_mm = std::min(s->changes_mm, changes_mm);
      }
      if (differs_in < nearest_in) {
        nearest_in = differs_in;
        check.point_there = at(differs_in);
      }
    }
  }
  if (check.stands.empty()) return std::nullopt;
  check.hit_there = SortedIds(hits(check.point_there));
  std::ranges::sort(check.stands, [](const CloseStand& a, const CloseStand& b) {
    return a.changes_mm != b.changes_mm ? a.changes_mm < b.changes_mm : a.id < b.id;
  });
  std::string reason = "too close to call:";
  for (size_t i = 0; i < check.stands.size(); ++i) {
    const CloseStand& s = check.stands[i];
    reason += (i == 0 ? " " : "; ") + s.id + " is ruled " + (s.hit_ruled ? "hit" : "clear") +
              " but is " + (s.hit_ruled ? "clear" : "hit") + " if the shot lies " +
              Mm(s.changes_mm) + " from where the camera put it";
  }
  reason += ", within " +
            (error_said.empty() ? "the camera's error here (" + Mm(error_mm) + ")" : error_said) +
            ": measure";
  check.reason = std::move(reason);
  return check;
}

double MmPerCameraPxAt(const TopView& view, Vec2 point, double height_in) {
  const TableCalibration& cal = view.calibration();
  const cv::Point2d px = cal.ImageFromTable(point, height_in);
  double mm = 0.0;
  for (const cv::Point2d step : {cv::Point2d(1, 0), cv::Point2d(0, 1)}) {
    mm = std::max(mm, InchesToMm(Distance(cal.TableFromImage(px + step, height_in), point)));
  }
  return mm;
}

CloseCallError CloseCallErrorAt(const ProjectileObservation& projectile, const TopView& view,
                                double blur_mm, const CloseCallOptions& options) {
  CloseCallError e;
  e.pixel_mm = options.camera_px * MmPerCameraPxAt(view, projectile.point, projectile.height_in);
  e.edge_mm = std::max(0.0, options.edge_blur_share * blur_mm);
  const double camera_mm = std::hypot(e.pixel_mm, e.edge_mm);
  e.said = "the camera's error here (" + Mm(camera_mm) +
           (e.edge_mm > 0.0 ? ": a pixel, " + Mm(e.pixel_mm) +
                                  ", and where a base's edge may lie under this frame's blur, " +
                                  Mm(e.edge_mm) + ")"
                            : ")");
  // A point placed from what lay around it is off by as much as the hidden mark may be.
  switch (UnseenMarkOf(projectile)) {
    case UnseenMark::kShellDot:
      e.unseen_mm = std::max(options.unseen_dot_mm, 0.0);
      e.said += " and how far its unseen dot may lie from the shell's centre";
      break;
    case UnseenMark::kQtipHead:
      e.unseen_mm = std::max(options.unseen_tip_mm, 0.0);
      e.said += " and how far its untold painted head may end from where it was put";
      break;
    case UnseenMark::kNone:
      break;
  }
  if (e.unseen_mm > 0.0) e.said += " (" + Mm(e.unseen_mm) + ")";
  e.total_mm = camera_mm + e.unseen_mm;
  return e;
}

std::optional<CloseCallCheck> CheckRulingCloseCall(
    const ProjectileObservation& projectile, const TopView& view, const Board& board,
    const std::vector<Stand>& stands, const Shot& shot, const StandKindCatalog& catalog,
    const ShotOptions& rules, double blur_mm, const CloseCallOptions& options) {
  const CloseCallError error = CloseCallErrorAt(projectile, view, blur_mm, options);
  auto check =
      CheckCloseCall(shot.point, error.total_mm, RulingHitsAt(board, stands, shot, catalog, rules),
                     options, error.said);
  if (!check) return check;
  check->unseen_mm = error.unseen_mm;
  check->edge_mm = error.edge_mm;
  // What the players measure, stand by stand, as the ruleset does.
  const Verdict v = AdjudicateShot(board, stands, shot, catalog, rules);
  std::string measure;
  for (const CloseStand& s : check->stands) {
    const auto near = std::ranges::find(v.stands_near, s.id, &StandNearShot::id);
    char what[160];
    if (near != v.stands_near.end() && near->equipment) {
      std::snprintf(what, sizeof what, "whether the tip touches %s", s.id.c_str());
    } else {
      std::snprintf(what, sizeof what, "from the shot to %s (hit within %.3g\")", s.id.c_str(),
                    v.hit_radius_in);
    }
    measure += (measure.empty() ? " " : " and ") + std::string(what);
  }
  check->reason += measure;
  return check;
}

}  // namespace referee
