#include "vision/faint_change.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <variant>

#include "vision/change_mask.hpp"
#include "vision/shell_support.hpp"
#include "vision/shell_template.hpp"

namespace referee {

namespace {

// Shortest faint piece matched on its own, share of a head's length. Default 0.75: a head
// blurred into the mat shows 9-12 mm; shorter specks have no axis to match along.
constexpr double kFaintPieceMinLengthShare = 0.75;

// Share of min_change a pixel must change by to be looked at again when nothing cleared
// min_change (a faint Q-tip; only the whole model's match may then explain it). Default 0.6:
// a white stick blurred over a mid-grey mat changes ~20 levels; sensor noise after the 3x3
// smoothing stays under ~10.
constexpr double kFaintChangeShare = 0.6;
// Share of the Q-tip's length a faint change must run along (and of its length x half a head
// diameter it must cover) to be looked at as one. Default 0.5.
constexpr double kFaintMinLengthShare = 0.5;
// Share of a shell's top (side^2) a faint change must cover to be matched as one. Default
// 0.25: heavy blur spreads a shell on the mat or on figures of its colour so that only its
// middle clears the lowered threshold; the whole model's match then decides.
constexpr double kFaintShellMinFill = 0.25;
// A shell seen plainly only at its core must show its whole extent in the faint change around
// that core: blur spreads a shell's footprint, never shrinks it, so at least this share of a
// shell's area (`hard` 109 scene 4: 157 mm^2 around a 27 mm^2 core, a shell being 144). A fleck
// of its colour 5 x 3 mm across shows 51.
constexpr double kCoreShellMinFaintFill = 0.75;
// ... and its core is its middle: shorter than its side (109/4: 8 mm). A plain change as long as
// a shell's side is judged by the plain models (sparse glints around a square of figures).
constexpr double kCoreMaxShellSideShare = 0.8;

constexpr const char* kNothingChanged =
    "no projectile found: nothing changed between before and after";

// The regions of the faint change: pixels that changed by kFaintChangeShare of min_change.
// `shadows_count`: pixels darkened alike in every channel, as by a shadow, count too.
std::vector<ChangeBlob> FaintRegions(const ChangeScene& s, bool shadows_count = false) {
  return RegionsOfChange(ChangeMask(s.top_before, s.top_after, kFaintChangeShare * s.opt.min_change,
                                    s.view.PxPerCameraPx(), nullptr, nullptr, shadows_count),
                         s.seen, s.mm, s.opt.ignore_area_mm2);
}

// A faint shell's match: the observation, a refusal (two match), or nothing; `unplaced` says
// why one that matched could not be placed (empty when none).
struct FaintShellMatch {
  std::variant<std::monostate, ProjectileObservation, Refusal> result;
  std::string unplaced;
};

// A shell matched by its whole shape in faint `regions` (from the lowered change threshold),
// only on the mat.
FaintShellMatch FaintShell(const ChangeScene& s, const std::vector<ChangeBlob>& regions) {
  const ProjectileOptions& opt = s.opt;
  const TopView& view = s.view;
  const double mm = s.mm;
  const std::string nothing = kNothingChanged;
  FaintShellMatch out;
  std::optional<ProjectileObservation> found;
  cv::Mat difference, before_f;
  s.top_before.convertTo(before_f, CV_32FC3);
  cv::subtract(s.lit.Float(), before_f, difference);
  for (const ChangeBlob& b : regions) {
    // About a shell's worth of faint change: its brightest part, not a speck.
    if (b.from_outside || b.cut_off ||
        b.area_mm2 < kFaintShellMinFill * opt.shell_side_mm * opt.shell_side_mm ||
        FitLine(b.pts, mm).length_mm > 2.5 * opt.shell_side_mm)
      continue;
    ShellTemplateOptions topt;
    topt.side_mm = opt.shell_side_mm;
    const ShellTemplateResult m = MatchShellTemplate(difference, b.pts, mm, topt);
    if (!m.found) continue;
    if (found) {
      out.result = Refusal{nothing + " plainly; two faint changes match a shell"};
      return out;
    }
    // The centroid is the slab's centre at half its thickness, like a silhouette's.
    std::vector<cv::Point> outline;
    const double r_px = 0.5 * opt.shell_side_mm / mm;
    for (int k = 0; k < 16; ++k) {
      const double t = k * CV_PI / 8.0;
      outline.emplace_back(static_cast<int>(std::lround(m.centre_px.x + r_px * std::cos(t))),
                           static_cast<int>(std::lround(m.centre_px.y + r_px * std::sin(t))));
    }
    const ShellSupport support = ShellRestHeight(m.centre_px, outline, view, s.top_before, s.stands,
                                                 ShellSupportOptionsOf(opt), s.flat_terrain);
    // Only on the mat: on a stand the figures under it may be of its colour (olive,
    // yellow), so the change shows only where the shell covers other colours and its
    // centroid leans that way (4 mm on a `hard` scene); its dot is blurred away.
    if (support.what != "mat") {
      out.unplaced =
          "a faint shell matched on " +
          (support.what == "unknown"
               ? (support.why.empty() ? std::string("something that is neither the mat nor a "
                                                    "stand found")
                                      : "what cannot be told (" + support.why + ")") +
                     ": its height is unknown"
               : support.stand_id +
                     ": where it covers figures of its own colour is not seen, "
                     "so neither is its centre") +
          ": not adjudicated";
      continue;
    }
    ProjectileObservation o;
    o.kind = "shell";
    o.point_px = o.other_end_px = m.centre_px;
    o.dot_seen = false;
    o.resting_on = support.stand_id;
    o.height_in = support.bottom_in + MmToInches(0.5 * opt.shell_thickness_mm);
    o.point = o.other_end = view.TableAtHeight(view.TableFromRectified(m.centre_px), o.height_in);
    o.change_area_mm2 = b.area_mm2;
    o.region_px = b.box;
    o.note = "a faint shell (its change under the plain threshold), matched by the whole model";
    found = o;
  }
  if (found) out.result = *found;
  return out;
}

// One Q-tip from shorter thin faint pieces (a head, a stretch of stick), each matched by the
// whole model (`piece_models`, of `piece_lengths_mm`): one piece when it is a head with a
// stretch of its stick, or at least two whose models agree. `seen` is for the note.
std::optional<ProjectileResult> QtipOfFaintPieces(
    const ChangeScene& s, const std::vector<const ChangeBlob*>& pieces,
    const std::vector<ProjectileObservation>& piece_models,
    const std::vector<double>& piece_lengths_mm, const std::string& seen) {
  const ProjectileOptions& opt = s.opt;
  const double mm = s.mm;
  const std::string nothing = kNothingChanged;
  // One piece: a head with a stretch of its stick gives the model its axis, and the model's
  // painted end must lie on it (a stretch of stick alone leaves the end a guess: `hard` 43
  // scene 10 and 19 scene 7 put it 17-23 mm past the piece and 2.9-5.9 mm off).
  const auto painted_end_on_piece = [&] {
    const cv::Point2d end = piece_models.front().point_px;
    return std::any_of(pieces.front()->pts.begin(), pieces.front()->pts.end(),
                       [&](const cv::Point& q) {
                         return cv::norm(cv::Point2d(q) - end) * mm <= opt.qtip_head_diameter_mm;
                       });
  };
  if (pieces.size() == 1 &&
      piece_lengths_mm.front() >= kFaintSinglePieceMinHeads * opt.qtip_head_length_mm &&
      painted_end_on_piece()) {
    ProjectileObservation o = piece_models.front();
    o.note = "a faint Q-tip seen as its head and part of its stick (" + seen +
             "), matched by the whole model";
    return o;
  }
  if (pieces.size() < 2) return std::nullopt;
  const double agree_px = opt.qtip_head_length_mm / mm;
  const ProjectileObservation& first = piece_models.front();
  const bool agree =
      std::all_of(piece_models.begin(), piece_models.end(), [&](const ProjectileObservation& m) {
        return cv::norm(m.point_px - first.point_px) <= agree_px &&
               cv::norm(m.other_end_px - first.other_end_px) <= agree_px;
      });
  if (!agree) return Refusal{nothing + " plainly; faint pieces match Q-tips that differ"};
  ChangeBlob joined{{}, 0.0, pieces.front()->box};
  for (const ChangeBlob* b : pieces) {
    joined.pts.insert(joined.pts.end(), b->pts.begin(), b->pts.end());
    joined.area_mm2 += b->area_mm2;
    joined.box |= b->box;
  }
  ProjectileResult r = ExplainRegion(s, joined, true, true);
  if (auto* o = std::get_if<ProjectileObservation>(&r)) {
    o->note = "a faint Q-tip seen in " + std::to_string(pieces.size()) + " pieces (" + seen +
              "), matched by the whole model";
    return r;
  }
  return std::nullopt;
}

// A Q-tip in faint `regions`, matched by the whole model (`seen` says how the change was
// looked at, for the note; `shell_found`: a faint shell matched too): nullopt when none is.
std::optional<ProjectileResult> FaintQtip(const ChangeScene& s,
                                          const std::vector<ChangeBlob>& regions,
                                          const std::string& seen, bool shell_found) {
  const ProjectileOptions& opt = s.opt;
  const double mm = s.mm;
  const std::string nothing = kNothingChanged;
  std::optional<ProjectileObservation> qtip;
  // Shorter thin pieces (a head, a stretch of stick) each matched by the whole model: one
  // Q-tip when at least two are and their models agree.
  std::vector<const ChangeBlob*> pieces;
  std::vector<ProjectileObservation> piece_models;
  std::vector<double> piece_lengths_mm;
  for (const ChangeBlob& b : regions) {
    if (b.from_outside || b.cut_off || b.area_mm2 > s.max_area) continue;
    // A stick's worth of faint change, not a speck the model could be stretched along (a
    // Q-tip lying in both frames leaves specks of re-sampling along its outline).
    const LineFit extent = FitLine(b.pts, mm);
    if (extent.length_mm < kFaintMinLengthShare * opt.qtip_length_mm ||
        b.area_mm2 < kFaintMinLengthShare * opt.qtip_length_mm * opt.qtip_head_diameter_mm * 0.5) {
      if (extent.length_mm >= kMinFragmentElongation * extent.width_mm &&
          extent.length_mm >= kFaintPieceMinLengthShare * opt.qtip_head_length_mm &&
          extent.width_mm <= 2.0 * opt.qtip_head_diameter_mm) {
        const ProjectileResult r = ExplainRegion(s, b, false, true);
        if (const auto* o = std::get_if<ProjectileObservation>(&r)) {
          pieces.push_back(&b);
          piece_models.push_back(*o);
          piece_lengths_mm.push_back(extent.length_mm);
        }
      }
      continue;
    }
    const ProjectileResult r = ExplainRegion(s, b, false, true);
    const auto* o = std::get_if<ProjectileObservation>(&r);
    if (!o) continue;
    if (qtip || shell_found) {
      return Refusal{nothing + (shell_found ? " plainly; faint changes match a shell and a Q-tip"
                                            : " plainly; two faint changes match a Q-tip")};
    }
    qtip = *o;
    qtip->note = "a faint Q-tip (" + seen + "), matched by the whole model";
  }
  if (qtip) return *qtip;
  if (shell_found) return std::nullopt;
  return QtipOfFaintPieces(s, pieces, piece_models, piece_lengths_mm, seen);
}

// Why no projectile was found, saying what was seen of the faint change (`faint`) or of the
// change darkening its ground as a shadow would (`dark`).
Refusal NothingPlaced(const ChangeScene& s, const std::vector<ChangeBlob>& faint,
                      const std::vector<ChangeBlob>& dark) {
  const ProjectileOptions& opt = s.opt;
  const double mm = s.mm;
  const std::string nothing = kNothingChanged;
  const double min_seen_mm2 = 0.5 * opt.qtip_head_diameter_mm * opt.qtip_head_diameter_mm;
  const auto largest_of = [&](const std::vector<ChangeBlob>& regions) -> const ChangeBlob* {
    const ChangeBlob* largest = nullptr;
    for (const ChangeBlob& b : regions) {
      if (!b.from_outside && b.area_mm2 >= min_seen_mm2 &&
          (!largest || b.area_mm2 > largest->area_mm2))
        largest = &b;
    }
    return largest;
  };
  const auto size_of = [&](const ChangeBlob& b) {
    const LineFit extent = FitLine(b.pts, mm);
    return MmText(extent.length_mm) + " x " + MmText(extent.width_mm) + " mm";
  };
  if (const ChangeBlob* b = largest_of(faint)) {
    return Refusal{"no projectile found: only a faint change (" + size_of(*b) +
                   ", under the plain threshold) that no projectile model places: not "
                   "adjudicated"};
  }
  if (const ChangeBlob* b = largest_of(dark)) {
    return Refusal{"no projectile found: only a darkening a shadow could make changed (" +
                   size_of(*b) + "), which no projectile model matches: not adjudicated"};
  }
  return Refusal{nothing};
}

}  // namespace

ProjectileResult LookFaint(const ChangeScene& s) {
  const ProjectileOptions& opt = s.opt;
  const std::string nothing = kNothingChanged;
  // Nothing cleared the plain change test. A white stick blurred on a mat of its brightness
  // may still be plain to a person: look again at a lower threshold, and take only a thin
  // change that the whole Q-tip model matches out of the noise, and only if it is the one.
  const std::vector<ChangeBlob> faint = FaintRegions(s);
  std::optional<ProjectileObservation> found;
  std::string faint_refusal;  // why a faint shell matched but could not be placed
  if (opt.expect != "qtip") {
    const FaintShellMatch shell = FaintShell(s, faint);
    faint_refusal = shell.unplaced;
    if (const auto* refusal = std::get_if<Refusal>(&shell.result)) return *refusal;
    if (const auto* o = std::get_if<ProjectileObservation>(&shell.result)) found = *o;
  }
  if (opt.expect == "shell") {
    if (found) return *found;
    return Refusal{faint_refusal.empty() ? nothing : faint_refusal};
  }
  const bool shell_found = found.has_value();
  if (auto r = FaintQtip(s, faint, "its change under the plain threshold", shell_found)) return *r;
  if (found) return *found;
  if (!faint_refusal.empty()) return Refusal{faint_refusal};
  // A black head and a grey stick over white paper or a grey mat darken every channel alike,
  // as a shadow does, and the change tests set them aside. A new shadow has a caster, and
  // nothing else changed: a thin change that the whole Q-tip model matches is taken.
  const std::vector<ChangeBlob> dark = FaintRegions(s, true);
  if (auto r = FaintQtip(s, dark, "darkening its ground as a shadow would", shell_found)) return *r;
  // Say what was seen: a player who sees a dark head lying there is not told nothing changed.
  return NothingPlaced(s, faint, dark);
}

ProjectileResult ExplainAroundCore(const ChangeScene& s, const std::vector<ChangeBlob>& blobs,
                                   ProjectileResult r) {
  const ProjectileOptions& opt = s.opt;
  const double mm = s.mm;
  // A shell of a colour near its ground's (yellow on a tan mat) under heavy blur clears the
  // plain change test only at its core, a few mm across, which neither model takes (`hard`
  // 109 scene 4: "a change of 8 x 5 mm"); so does a Q-tip's dark painted head whose white
  // stick blurs into a pale mat (109 scene 1: "10 x 7 mm"). The whole shape is looked for in
  // the faint change around that core, as when nothing clears the plain test.
  const auto* refusal = std::get_if<Refusal>(&r);
  const ChangeBlob& core = blobs[0];
  if (!refusal || core.from_outside || refusal->reason.find(kNeitherModel) == std::string::npos)
    return r;
  const double core_length_mm = FitLine(core.pts, mm).length_mm;
  const bool shell_core = opt.expect != "qtip" &&
                          core.area_mm2 < opt.shell_side_mm * opt.shell_side_mm &&
                          core_length_mm < kCoreMaxShellSideShare * opt.shell_side_mm;
  const bool head_core =
      opt.expect != "shell" && core_length_mm < kFaintSinglePieceMinHeads * opt.qtip_head_length_mm;
  if (!shell_core && !head_core) return r;
  std::vector<ChangeBlob> around;
  for (ChangeBlob& f : FaintRegions(s)) {
    // The core alone in it: other plain changes inside the faint region are no one
    // projectile's faint edges (glints around a square of figures with a dark spot in its
    // middle).
    const bool core_alone = std::none_of(blobs.begin() + 1, blobs.end(), [&](const ChangeBlob& o) {
      return (o.box & f.box).area() > 0;
    });
    if ((f.box & core.box) == core.box && core_alone) around.push_back(std::move(f));
  }
  std::string faint_refusal;
  if (shell_core) {
    std::vector<ChangeBlob> shell_sized;
    for (const ChangeBlob& f : around) {
      if (f.area_mm2 >= kCoreShellMinFaintFill * opt.shell_side_mm * opt.shell_side_mm)
        shell_sized.push_back(f);
    }
    const FaintShellMatch shell = FaintShell(s, shell_sized);
    faint_refusal = shell.unplaced;
    if (const auto* o = std::get_if<ProjectileObservation>(&shell.result)) {
      ProjectileObservation seen = *o;
      seen.note = "a shell seen plainly only at its core (" + MmText(core.area_mm2) +
                  " mm^2), matched by the whole model in the faint change around it";
      return seen;
    }
  }
  if (head_core) {
    const auto qtip =
        FaintQtip(s, around, "its head plain, the rest under the plain threshold", false);
    if (qtip && std::holds_alternative<ProjectileObservation>(*qtip)) return *qtip;
    ProjectileResult any = ExplainRegion(s, core, false, true, true);
    if (auto* o = std::get_if<ProjectileObservation>(&any)) {
      o->note = "a Q-tip seen plainly only at its head, the whole model matched around it";
      return any;
    }
  }
  if (!faint_refusal.empty()) return Refusal{faint_refusal};
  return r;
}

}  // namespace referee
