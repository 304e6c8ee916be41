#include "vision/projectile_detector.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <utility>

#include "vision/change_explanation.hpp"
#include "vision/change_regions.hpp"
#include "vision/faint_change.hpp"
#include "vision/lit_after.hpp"
#include "vision/qtip_model.hpp"
#include "vision/qtip_pieces.hpp"
#include "vision/shadow_change.hpp"
#include "vision/taken_away.hpp"
#include "vision/white_change.hpp"

namespace referee {

namespace {

// Whether 80 % of `pts` (top-view px) lie within one head diameter of the Q-tip's axis seen
// between its ends (a shell: within a side of its centre).
bool AlongProjectile(const ProjectileObservation& o, const std::vector<cv::Point>& pts,
                     const ProjectileOptions& opt, double mm_per_px) {
  const double reach_px =
      (o.kind == "qtip" ? opt.qtip_head_diameter_mm : opt.shell_side_mm) / mm_per_px;
  const cv::Point2d a = o.point_px, ab = o.other_end_px - o.point_px;
  const double ab2 = std::max(1e-9, ab.dot(ab));
  int near = 0;
  for (const cv::Point& p : pts) {
    const double t = std::clamp((cv::Point2d(p) - a).dot(ab) / ab2, 0.0, 1.0);
    near += cv::norm(cv::Point2d(p) - (a + t * ab)) <= reach_px ? 1 : 0;
  }
  return near >= 0.8 * static_cast<double>(pts.size());
}

// How far a pixel's chromaticity (r, g shares) may lie from the shells' colour to show it.
// 0.05: `hard` shells at rest under its exposure, white balance and blur read 0.57-1.0 of their
// middle within it, the surface they were picked up from 0.
constexpr double kShellChromaTolerance = 0.05;
// A camera that washes colour out moves a shell off that chromaticity but keeps its hue: its
// pixels depart from grey toward the shells' colour by at least kShellHueMinDeparture of its
// distance, within a cone of kShellHueCone (off the line / along it). 0.5 and 0.35: the kit's
// tan and brown mats lie outside (0.38 and 0.44 of the way); on ancient 5 and 223 shells at
// rest filled 0.40-1.0 of their middle so with 35 % of the saturation lost, and the frame
// without the shell at most 0.06 as rendered and 0.34 (yellow figures) through a webcam that
// washes colour.
constexpr double kShellHueMinDeparture = 0.5;
constexpr double kShellHueCone = 0.35;
// Below this saturation ((max - min) / max of the channels) a shell colour is taken as white
// or grey.
constexpr double kColourlessSaturation = 0.25;

double Saturation(const cv::Vec3d& bgr) {
  const double hi = std::max({bgr[0], bgr[1], bgr[2]}), lo = std::min({bgr[0], bgr[1], bgr[2]});
  return hi > 0 ? (hi - lo) / hi : 0.0;
}

}  // namespace

double MaxProjectileChangeMm2(const ProjectileOptions& opt, double mm_per_px) {
  // The change a projectile can make: its outline grown by the blur of lens and resampling
  // (about 1.5 px a side, at least 1 mm), once for itself and once for what the shadow test
  // keeps of its shadow, times a margin for a Q-tip lying across figures (it hides some of
  // them and its shadow falls on them in pieces).
  const double blur_mm = std::max(1.0, 1.5 * mm_per_px);
  const double qtip =
      (opt.qtip_length_mm + 2 * blur_mm) * (opt.qtip_head_diameter_mm + 2 * blur_mm);
  const double shell = std::pow(opt.shell_side_mm + 2 * blur_mm, 2);
  return opt.change_area_margin * 2.0 * std::max(qtip, shell);
}

namespace {

// Several regions of similar size changed (`blobs`, the largest first). Adjudicated only when
// exactly one is a projectile and every other is small beside it, away from it and explained by
// no model (noise, a figure's shadow); else refused with `several`. Pieces along a Q-tip matched
// as one are added to `blobs`.
ProjectileResult ExplainSeveral(const ChangeScene& s, std::vector<ChangeBlob>& blobs,
                                const std::string& several) {
  const ProjectileOptions& opt = s.opt;
  const double mm = s.mm;
  std::optional<ProjectileObservation> found;
  size_t found_at = 0;
  std::vector<bool> joined(blobs.size(), false);
  if (const std::vector<size_t> line = PiecesAlongAQtip(blobs, opt, mm); !line.empty()) {
    ChangeBlob merged{{}, 0.0, blobs[line[0]].box};
    for (const size_t i : line) {
      merged.pts.insert(merged.pts.end(), blobs[i].pts.begin(), blobs[i].pts.end());
      merged.area_mm2 += blobs[i].area_mm2;
      merged.box |= blobs[i].box;
    }
    ProjectileResult r = ExplainRegion(s, merged, true);
    if (auto* o = std::get_if<ProjectileObservation>(&r)) {
      found = *o;
      for (const size_t i : line) joined[i] = true;
      blobs.push_back(std::move(merged));
      joined.push_back(true);
      found_at = blobs.size() - 1;
      found->note = "Q-tip seen in " + std::to_string(line.size()) +
                    " pieces along its length, matched as one";
    }
  }
  const bool pieces_found = found.has_value();
  for (size_t i = 0; i < blobs.size() && !pieces_found; ++i) {
    const ProjectileResult r = ExplainRegion(s, blobs[i]);
    const auto* o = std::get_if<ProjectileObservation>(&r);
    if (!o) continue;
    if (found && cv::norm(found->point_px - o->point_px) * mm > opt.qtip_head_length_mm)
      return Refusal{several};  // two projectiles
    if (!found) found = *o, found_at = i;
  }
  if (!found) return Refusal{several};
  const ChangeBlob& chosen = blobs[found_at];
  const auto along_projectile = [&](const ChangeBlob& other) {
    return AlongProjectile(*found, other.pts, opt, mm);
  };
  int small = 0;
  for (size_t i = 0; i < blobs.size(); ++i) {
    if (i == found_at || joined[i]) continue;
    // Pieces of one projectile (a stick broken up where it lies over figures): which figures
    // hold it up, and so its height, is not measured reliably yet; refused.
    if (along_projectile(blobs[i])) return Refusal{several};
    if (blobs[i].area_mm2 > 0.5 * chosen.area_mm2) return Refusal{several};
    ++small;
  }
  if (small > 0) {
    if (!found->note.empty()) found->note += "; ";
    found->note += "also changed: " + std::to_string(small) +
                   " small region(s) no projectile model explains (noise, a shadow), ignored";
  }
  return *found;
}

// `r`, ExplainSeveral's answer for `blobs`, or, when it refused them as several and they are
// all specks, the projectile in the faint change they all lie along.
ProjectileResult SpecksAlongFaint(const ChangeScene& s, const std::vector<ChangeBlob>& blobs,
                                  ProjectileResult r, const std::string& several) {
  const ProjectileOptions& opt = s.opt;
  const double mm = s.mm;
  // Only specks cleared the plain test (a white stick under heavy blur on a pale mat: its
  // brightest bits, `hard` 103 scene 3), and they are no one projectile: it is looked for in
  // the faint change as when nothing cleared the plain test, and taken only when every speck
  // lies along what it finds.
  const double speck_mm2 = opt.qtip_head_length_mm * opt.qtip_head_diameter_mm;
  const auto* refusal = std::get_if<Refusal>(&r);
  if (refusal && refusal->reason == several &&
      std::all_of(blobs.begin(), blobs.end(),
                  [&](const ChangeBlob& b) { return b.area_mm2 < speck_mm2 && !b.from_outside; })) {
    ProjectileResult faint = LookFaint(s);
    if (auto* o = std::get_if<ProjectileObservation>(&faint);
        o && std::all_of(blobs.begin(), blobs.end(), [&](const ChangeBlob& b) {
          return AlongProjectile(*o, b.pts, opt, mm);
        })) {
      o->note = (o->note.empty() ? "" : o->note + "; ") + "the plain change only " +
                std::to_string(blobs.size()) + " specks along it";
      return faint;
    }
  }
  return r;
}

ProjectileResult ExplainChange(const cv::Mat& top_before, const cv::Mat& top_after,
                               const TopView& view, const std::vector<DetectedStand>& stands,
                               const ProjectileOptions& opt, const cv::Mat& tall_terrain,
                               const cv::Mat& flat_terrain, LitAfter& lit) {
  if (top_before.empty() || top_after.empty() || top_before.size() != top_after.size() ||
      top_before.type() != CV_8UC3 || top_after.type() != CV_8UC3) {
    return Refusal{"before and after top views are missing or differ in size/type"};
  }
  const double mm = view.MmPerPx();
  cv::Mat mag, object;
  cv::Mat mask =
      ChangeMask(top_before, top_after, opt.min_change, view.PxPerCameraPx(), &mag, &object);
  // A low lamp's shadow beside a Q-tip joins its change: set aside where the change is no
  // Q-tip with it and one without it, and the shadow is its outline moved (shadow_change.hpp).
  if (opt.expect != "shell") {
    const auto qtip_like = [&](const std::vector<cv::Point>& pts) {
      const LineFit l = FitLine(pts, mm);
      return std::abs(l.length_mm - opt.qtip_length_mm) <=
                 opt.size_tolerance * opt.qtip_length_mm &&
             l.width_mm <= 2.0 * opt.qtip_head_diameter_mm;
    };
    mask = WithoutOwnShadows(
        mask, top_before, [&] { return lit.Float(); }, mm, qtip_like);
  }
  const ChangeScene s{top_before,
                      top_after,
                      view,
                      stands,
                      opt,
                      tall_terrain,
                      flat_terrain,
                      lit,
                      mm,
                      mask,
                      mag,
                      object,
                      SeenByCamera(view),
                      MaxProjectileChangeMm2(opt, mm)};
  std::vector<ChangeBlob> blobs = RegionsOfChange(mask, s.seen, mm, opt.ignore_area_mm2);
  std::sort(blobs.begin(), blobs.end(),
            [](const ChangeBlob& a, const ChangeBlob& b) { return a.area_mm2 > b.area_mm2; });
  for (const auto& b : blobs) {
    if (b.from_outside) {
      return Refusal{
          "something entered from the edge of the camera's view (hand or arm?): frame refused"};
    }
    if (b.area_mm2 > s.max_area) {
      return Refusal{"large change of " + MmText(b.area_mm2) +
                     " mm^2 (hand, arm or moved stand?): not a projectile, frame refused"};
    }
  }
  // Nothing (or only specks, see SpecksAlongFaint) cleared the plain change test.
  if (blobs.empty()) return LookFaint(s);
  if (blobs.size() == 1 || blobs[1].area_mm2 <= 0.25 * blobs[0].area_mm2)
    return ExplainAroundCore(s, blobs, ExplainRegion(s, blobs[0]));
  const std::string several = "more than one thing changed (" + std::to_string(blobs.size()) +
                              " regions): cannot tell which is the projectile, frame refused";
  ProjectileResult r = ExplainSeveral(s, blobs, several);
  return SpecksAlongFaint(s, blobs, std::move(r), several);
}

}  // namespace

ProjectileResult DetectProjectile(const cv::Mat& top_before, const cv::Mat& top_after,
                                  const TopView& view, const std::vector<DetectedStand>& stands,
                                  const ProjectileOptions& opt, const cv::Mat& tall_terrain,
                                  const cv::Mat& flat_terrain) {
  LitAfter lit(top_before, top_after);
  ProjectileResult r =
      ExplainChange(top_before, top_after, view, stands, opt, tall_terrain, flat_terrain, lit);
  const auto* o = std::get_if<ProjectileObservation>(&r);
  if (!o) return r;
  // The object explained must be in `after`: one picked up changes the same pixels.
  const double mm = view.MmPerPx();
  const bool qtip = o->kind == "qtip";
  const double half_width_mm =
      qtip ? 0.5 * QtipModelOptions{}.stick_diameter_mm : 0.35 * opt.shell_side_mm;
  const double ring_from_mm = qtip ? 0.5 * opt.qtip_head_diameter_mm + kTakenAwayRingGapMm
                                   : std::sqrt(0.5) * opt.shell_side_mm + kTakenAwayRingGapMm;
  const cv::Mat& after_lit = lit.Bytes();
  const double ring_to_mm = ring_from_mm + kTakenAwayRingWidthMm;
  // A Q-tip by its white stick, against its surroundings or as cotton leaving a coloured
  // ground, or by a match that shows nothing in `after` (bare mat where a stick and its shadow
  // lay; lamp 331 scene 7); a shell by its colour, or, for shells of another colour, by how much
  // it stands out of its surroundings in each frame. A Q-tip's contrast only under a low bar:
  // one lying across a stand covers figures and borders that stand out of the stand around them
  // more than the thin stick does (`hard` 89 scene 9: 148 levels in `before`, 42 in `after`).
  bool taken = false, shell_unseen_in_after = false, white_left = false;
  const bool coloured_shell = !qtip && Saturation(opt.shell_bgr) >= kColourlessSaturation;
  if (qtip) {
    taken =
        TakenAway(MeasureStickWhiteness(top_before, after_lit, o->point_px, o->other_end_px,
                                        half_width_mm / mm, ring_from_mm / mm, ring_to_mm / mm)) ||
        TakenAway(CountWhiteWay(top_before, after_lit, o->point_px, o->other_end_px,
                                half_width_mm / mm)) ||
        StickTakenAway(MeasureObjectContrast(top_before, after_lit, o->point_px, o->other_end_px,
                                             half_width_mm / mm, ring_from_mm / mm,
                                             ring_to_mm / mm));
  } else {
    const ShellColourShare share =
        MeasureShellColourShare(top_before, after_lit, o->point_px, half_width_mm / mm,
                                opt.shell_bgr, kShellChromaTolerance);
    const ObjectContrast contrast =
        MeasureObjectContrast(top_before, after_lit, o->point_px, o->other_end_px,
                              half_width_mm / mm, ring_from_mm / mm, ring_to_mm / mm);
    // The shell's hue, for a camera that moved it off the kit's chromaticity (ancient 5 scene
    // 16 with a quarter of the saturation lost: 0.09 of its middle within the tolerance where
    // it was, all of it in its hue; `hard` 7 scene 10 through a webcam that washes colour:
    // 0.79 of it in its hue where it was, 0.11 on the figures left). Read again at half the
    // shell's own departure where that is under the kit's bar (ShellHueBar): ancient 5 scenes
    // 16 and 18 with half the saturation lost, the shell 0.43-0.47 of the way where it was and
    // the ground left 0.24-0.28, 0.19-0.21 of its middle past the kit's bar and 0.71-1.0 past
    // half its own, 0-0.17 of the ground.
    taken = TakenAway(share) || TakenAway(contrast);
    if (!taken && coloured_shell) {
      const auto hue_taken = [&](double bar) {
        return HueTakenAway(MeasureShellHueShare(top_before, after_lit, o->point_px,
                                                 half_width_mm / mm, opt.shell_bgr, bar,
                                                 kShellHueCone));
      };
      const double bar = ShellHueBar(MeasureShellHueDeparture(top_before, after_lit, o->point_px,
                                                              half_width_mm / mm, opt.shell_bgr),
                                     kShellHueMinDeparture);
      taken = hue_taken(kShellHueMinDeparture) || (bar < kShellHueMinDeparture && hue_taken(bar));
    }
    shell_unseen_in_after = !ShownInAfter(o->dot_seen, share, contrast);
    // White cotton that left: a Q-tip's plain head picked up, the rest of it unseen, matched as
    // a faint shell whose middle turned from white to the ground (`hard` 5 scene 8 through a
    // washing webcam: 1.0 of it, no dot, no shell colour in either frame). Shells at rest read
    // 0-0.14 (s53: 116 landings as rendered, through that webcam and with half the saturation
    // lost). A shell come to rest on white paper reads so too, but shows its dot or colour.
    white_left = coloured_shell && !o->dot_seen &&
                 share.after <= TakenAwayOptions{}.max_shell_share_after &&
                 WhiteChangeShare(after_lit, top_before, o->point_px, half_width_mm / mm) >=
                     opt.max_white_share_shell;
  }
  if (coloured_shell && WhiteChangeShare(top_before, after_lit, o->point_px, half_width_mm / mm) >=
                            opt.max_white_share_shell) {
    return Refusal{
        "a change of a shell's size that is white like a Q-tip's cotton, not the "
        "shells' colour (a Q-tip's head, the rest of it hidden?): not adjudicated"};
  }
  if (white_left) {
    return Refusal{
        "a change of a shell's size that was white like a Q-tip's cotton in the before frame "
        "and is gone from the after one (a Q-tip's head picked up?): not adjudicated"};
  }
  if (shell_unseen_in_after && !taken) {
    return Refusal{
        "a change of a shell's shape that neither its dot, its colour nor its outline shows in "
        "the after frame more than in the before one (on ground of its own colour?): come to "
        "rest or picked up cannot be told: not adjudicated"};
  }
  if (taken) {
    return Refusal{"the " + std::string(qtip ? "Q-tip" : "shell") +
                   " the change shows is in the before frame, not the after one (taken away, "
                   "not come to rest): not adjudicated"};
  }
  return r;
}

}  // namespace referee
