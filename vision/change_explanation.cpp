#include "vision/change_explanation.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

#include "vision/qtip_model.hpp"
#include "vision/qtip_support.hpp"
#include "vision/qtip_template.hpp"
#include "vision/shell_model.hpp"
#include "vision/taken_away.hpp"
#include "vision/white_change.hpp"

namespace referee {

std::string MmText(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f", v);
  return buf;
}

ShellSupportOptions ShellSupportOptionsOf(const ProjectileOptions& opt) {
  ShellSupportOptions s;
  s.base_height_mm = opt.base_height_mm;
  s.figure_height_mm = opt.figure_height_mm;
  s.side_mm = opt.shell_side_mm;
  s.thickness_mm = opt.shell_thickness_mm;
  return s;
}

namespace {

// The stand whose base a stick lying from `a` to `b` (seen on the mat plane, table inches) passes
// over, its axis `axis_in` above the mat; empty when it crosses none.
std::string StandUnderStick(Vec2 a, Vec2 b, const TopView& view,
                            const std::vector<DetectedStand>& stands, double axis_in) {
  constexpr int kSamples = 40;
  for (const auto& s : stands) {
    for (int i = 0; i <= kSamples; ++i) {
      const Vec2 p = a + (static_cast<double>(i) / kSamples) * (b - a);
      if (s.stand.footprint.Contains(view.TableAtHeight(p, axis_in))) return s.stand.id;
    }
  }
  return {};
}

// Whether the widest break between the changed pixels `pts` along the stick from `a` to `b`
// (top-view pixels) lies over the base of stand `id`, seen at `height_in` above the mat.
bool BreakOverStand(const std::vector<cv::Point>& pts, cv::Point2d a, cv::Point2d b,
                    double height_in, const TopView& view, const std::vector<DetectedStand>& stands,
                    const std::string& id) {
  const auto stand = std::find_if(stands.begin(), stands.end(),
                                  [&](const DetectedStand& s) { return s.stand.id == id; });
  const cv::Point2d ab = b - a;
  const double ab2 = ab.dot(ab);
  if (stand == stands.end() || pts.size() < 2 || ab2 < 1.0) return false;
  std::vector<double> t;
  t.reserve(pts.size());
  for (const cv::Point& p : pts) t.push_back((cv::Point2d(p) - a).dot(ab) / ab2);
  std::sort(t.begin(), t.end());
  size_t widest = 1;
  for (size_t i = 1; i < t.size(); ++i) {
    if (t[i] - t[i - 1] > t[widest] - t[widest - 1]) widest = i;
  }
  const cv::Point2d middle = a + 0.5 * (t[widest] + t[widest - 1]) * ab;
  return stand->stand.footprint.Contains(
      view.TableAtHeight(view.TableFromRectified(middle), height_in));
}

// How far the length between a Q-tip's two measured ends, with the height of what it rests on
// taken out, may differ from the model's when pieces across figures are taken as one stick,
// mm. Default 5 (a head's diameter): an end misread (a head's shadow cast on the mat by the
// raised stick and taken for the head) or a wrong height shows as a stick of the wrong length.
constexpr double kPiecesLengthToleranceMm = 5.0;

// Length of an observed Q-tip between the outer ends of its heads as seen from above, each end
// moved back to the height it rests at, mm. A stick tipped over figures' edge (20 mm over 75)
// is ~3 mm shorter so.
double StickLengthMm(const ProjectileObservation& o) {
  return InchesToMm(Distance(o.point, o.other_end));
}

// Share of the model's columns that must stand out when pieces at both ends are matched as one
// Q-tip (the whole-model match's own default is 0.6 for a single fragment). Default 0.5: its
// heads alone make about a third; the rest must come from the stick between them.
constexpr double kPiecesColumnShare = 0.5;

// Share of a head-sized change read as white cotton (WhiteChangeShare) from which it is taken
// for the plain head. Default 0.5.
constexpr double kMaxHeadWhiteShare = 0.5;

// A Q-tip placed from the changed pixels of a region, and what holds it up.
struct PlacedQtip {
  ProjectileResult result;
  std::string support_what;  // what it rests on: mat, base or figures
  std::string hidden_by;     // the stand whose figures it was seen to lie behind, if any
  bool plain_end_hidden = false;
};

// A Q-tip from the changed pixels of its region (its own, or its matched model's).
PlacedQtip QtipFrom(const ChangeScene& s, const ChangeBlob& blob,
                    const std::vector<cv::Point>& pixels, bool cut_off, bool matched_model) {
  const ProjectileOptions& opt = s.opt;
  const TopView& view = s.view;
  QtipModelOptions model;
  model.length_mm = opt.qtip_length_mm;
  model.head_diameter_mm = opt.qtip_head_diameter_mm;
  model.head_length_mm = opt.qtip_head_length_mm;
  model.size_tolerance = opt.size_tolerance;
  model.extent_from_pixels = matched_model;
  model.tall_terrain = s.tall_terrain;
  const auto fit =
      FitQtip(s.top_before, s.top_after, s.mag, s.object, pixels, s.mm, cut_off, model);
  if (const auto* refusal = std::get_if<QtipRefusal>(&fit))
    return {Refusal{refusal->reason}, {}, {}, false};
  const QtipFit& q = std::get<QtipFit>(fit);
  ProjectileObservation obs;
  obs.change_area_mm2 = blob.area_mm2;
  obs.region_px = blob.box;
  obs.kind = "qtip";
  obs.point_px = q.tip_px;
  obs.other_end_px = q.plain_end_px;
  obs.tip_from_edge = q.tip_from_edge;
  if (q.plain_end_hidden) {
    obs.note = q.plain_end_on_white
                   ? "its plain end lies on white paper, where white cotton is not seen: "
                     "placed at the model's length"
                   : "its plain end runs on under tall terrain: placed at the model's length";
  } else if (q.plain_end_cut) {
    obs.note = "its stick runs out of the view: placed from its painted head";
  }
  const Vec2 on_mat = view.TableFromRectified(obs.point_px);
  const Vec2 plain_on_mat = view.TableFromRectified(q.plain_end_px);
  QtipSupportOptions support_opt;
  support_opt.base_height_mm = opt.base_height_mm;
  support_opt.figure_height_mm = opt.figure_height_mm;
  support_opt.head_radius_mm = 0.5 * opt.qtip_head_diameter_mm;
  const cv::Mat& after_lit = s.lit.Bytes();
  const QtipSupport support =
      QtipRestHeights(on_mat, plain_on_mat, view, s.top_before, s.stands, support_opt, after_lit);
  obs.height_in = support.tip_height_in;
  obs.resting_on = support.stand_id;
  obs.point = view.TableAtHeight(on_mat, obs.height_in);
  obs.other_end = view.TableAtHeight(plain_on_mat, support.plain_height_in);
  return {obs, support.what, support.hidden_by, q.plain_end_hidden};
}

// A shell from a region of about its square's extent: its silhouette by colour, put at the
// height of what it rests on.
ProjectileResult ShellFrom(const ChangeScene& s, const ChangeBlob& blob) {
  const ProjectileOptions& opt = s.opt;
  const TopView& view = s.view;
  ProjectileObservation obs;
  obs.change_area_mm2 = blob.area_mm2;
  obs.region_px = blob.box;
  // Where a point of the shell's bottom and the point above it on its top are seen.
  const cv::Point2d c_px = cv::Point2d(blob.box.tl()) + 0.5 * cv::Point2d(blob.box.size());
  const Vec2 c_mat = view.TableFromRectified(c_px);
  const Vec2 raised = view.TableAtHeight(c_mat, MmToInches(opt.shell_thickness_mm));
  const cv::Point2d sweep_px = c_px - view.RectifiedFromTable(raised);
  ShellModelOptions model;
  model.side_mm = opt.shell_side_mm;
  model.thickness_mm = opt.shell_thickness_mm;
  model.dot_diameter_mm = opt.shell_dot_diameter_mm;
  model.min_dot_contrast = opt.min_dot_contrast;
  model.dot = opt.shell_dot;
  model.size_tolerance = opt.size_tolerance;
  // Its silhouette by colour, against `after` with the lighting change divided out: a
  // darker or brighter exposure otherwise moves the mat around it toward the shell's colour.
  const cv::Mat& after_corrected = s.lit.Bytes();
  const auto fit = FitShell(s.top_before, after_corrected, s.mask, blob.pts, s.mm, sweep_px, model);
  if (const auto* refusal = std::get_if<ShellRefusal>(&fit)) return Refusal{refusal->reason};
  const ShellFit& f = std::get<ShellFit>(fit);
  const ShellSupport support =
      ShellRestHeight(f.silhouette_px, f.outline, view, s.top_before, s.stands,
                      ShellSupportOptionsOf(opt), s.flat_terrain);
  if (support.what == "unknown") {
    return Refusal{"shell rests on " +
                   (support.why.empty()
                        ? std::string("something that is neither the mat nor a stand found "
                                      "(a base not detected? terrain?)")
                        : "what cannot be told (" + support.why + ")") +
                   ": its height, and so its place, is unknown: not adjudicated"};
  }
  obs.kind = "shell";
  obs.point_px = f.centre_px;
  obs.other_end_px = f.centre_px;
  obs.dot_seen = f.dot_seen;
  obs.resting_on = support.stand_id;
  obs.height_in = support.bottom_in + MmToInches(f.centre_height_mm);
  obs.point = view.TableAtHeight(view.TableFromRectified(obs.point_px), obs.height_in);
  obs.other_end = obs.point;
  return obs;
}

// A thin change shorter than a Q-tip (`extent` its line fit) matched by the whole model along
// it, taken only when the model stands out of the noise and its height can be told.
// `white_head`: where the change, a head alone, is white cotton, if it is; `neither`: the
// refusal text of a change neither model explains.
ProjectileResult WholeModelQtip(const ChangeScene& s, const ChangeBlob& blob, const LineFit& extent,
                                bool pieces, bool any_axis,
                                const std::optional<cv::Point2d>& white_head,
                                const std::string& neither) {
  const ProjectileOptions& opt = s.opt;
  const TopView& view = s.view;
  const double length_mm = extent.length_mm;
  const double width_mm = extent.width_mm;
  cv::Mat difference, before_f;
  s.top_before.convertTo(before_f, CV_32FC3);
  cv::subtract(s.lit.Float(), before_f, difference);
  QtipTemplateOptions topt;
  topt.length_mm = opt.qtip_length_mm;
  topt.head_diameter_mm = opt.qtip_head_diameter_mm;
  // Pieces at both ends already show the heads a Q-tip's length apart (a third of the
  // model's columns); the stick between them must still show along half the model.
  if (pieces) topt.min_column_share = kPiecesColumnShare;
  if (any_axis) topt.angle_search_deg = 90.0;
  const QtipTemplateResult m = MatchQtipTemplate(difference, blob.pts, s.mm, topt);
  if (!m.found) return Refusal{neither + " (" + m.reason + "): not adjudicated"};
  if (pieces && m.match.length_mm < length_mm - opt.qtip_head_diameter_mm) {
    return Refusal{"pieces along a line are not one Q-tip: the matched model covers " +
                   MmText(m.match.length_mm) + " of their " + MmText(length_mm) + " mm"};
  }
  const PlacedQtip placed = QtipFrom(s, blob, m.match.footprint, false, true);
  const ProjectileResult& r = placed.result;
  if (const auto* refusal = std::get_if<Refusal>(&r)) {
    return Refusal{"a faint Q-tip matched along a " + MmText(length_mm) + " x " + MmText(width_mm) +
                   " mm change: " + refusal->reason};
  }
  // Across a stand the faint change does not show what holds the stick up: where the
  // `before` view puts it on that stand's figures (seen there, or a top of its border's
  // colour, which is figures of the side colour over the interior), it is ruled there and
  // the ruling height's check flags a verdict a lower rest would change; its ends, put at
  // those heights, must lie a Q-tip's length apart within a head's length (`hard` 101
  // scene 2: its model slid 20 mm along a stick half unseen on white paper, 14 mm short).
  // Not a model matched in any direction from a head-sized change: figures' edges and a
  // ruler's around a stand change faintly too (`hard` 109 scene 5: a shell's core on a
  // stand, matched as a Q-tip along a ruler's edge, 53 mm off). Elsewhere its height, and
  // so its place, is a guess. Pieces are the exception when the stick breaks where the
  // stand's figures stand in front of it: they are seen not to hold it up.
  const auto& o = std::get<ProjectileObservation>(r);
  if (white_head && cv::norm(o.point_px - *white_head) < cv::norm(o.other_end_px - *white_head)) {
    return Refusal{"a faint Q-tip matched along a " + MmText(length_mm) + " x " + MmText(width_mm) +
                   " mm change of white cotton, its painted head put there: the painted "
                   "head is not seen: not adjudicated"};
  }
  const std::string id =
      StandUnderStick(view.TableFromRectified(o.point_px), view.TableFromRectified(o.other_end_px),
                      view, s.stands, MmToInches(0.5 * opt.qtip_head_diameter_mm));
  const double length_off_mm = std::abs(StickLengthMm(o) - opt.qtip_length_mm);
  const bool on_its_figures = !any_axis && placed.support_what == "figures" && o.resting_on == id &&
                              length_off_mm <= opt.qtip_head_length_mm;
  const bool broken_behind_them =
      !id.empty() && pieces && placed.support_what != "figures" && placed.hidden_by == id &&
      length_off_mm <= kPiecesLengthToleranceMm &&
      BreakOverStand(blob.pts, o.point_px, o.other_end_px, o.height_in, view, s.stands, id);
  if (!id.empty() && !on_its_figures && !broken_behind_them) {
    return Refusal{"a faint Q-tip matched along a " + MmText(length_mm) + " x " + MmText(width_mm) +
                   " mm change lies across " + id +
                   ": whether figures hold it up is not seen: not adjudicated"};
  }
  return r;
}

}  // namespace

ProjectileResult ExplainRegion(const ChangeScene& s, const ChangeBlob& blob, bool pieces,
                               bool faint, bool any_axis) {
  const ProjectileOptions& opt = s.opt;
  const double mm = s.mm;
  // Extent along and across the principal axis of the changed pixels.
  const LineFit extent = FitLine(blob.pts, mm);
  const double length_mm = extent.length_mm;
  const double width_mm = extent.width_mm;
  const double tol = opt.size_tolerance;
  // A Q-tip running out of the view only shows part of its length, and its painted head may
  // change nothing (black paint on a dark mat): FitQtip measures what is seen from the tip.
  const double min_seen_mm = QtipModelOptions{}.min_seen_share * opt.qtip_length_mm;
  const bool qtip_length_ok =
      blob.cut_off ? length_mm >= min_seen_mm - opt.qtip_head_length_mm &&
                         length_mm <= (1 + tol) * opt.qtip_length_mm
                   : std::abs(length_mm - opt.qtip_length_mm) <= tol * opt.qtip_length_mm;
  const bool qtip_shape = qtip_length_ok && width_mm <= 2.0 * opt.qtip_head_diameter_mm;
  // A shell's change: about its square (its top, the sides toward the camera and what the
  // shadow test keeps of its shadow); FitShell then judges its silhouette by colour.
  const bool shell_extent =
      !blob.cut_off &&
      blob.area_mm2 >= opt.shell_min_fill * opt.shell_side_mm * opt.shell_side_mm &&
      length_mm <= 2.5 * opt.shell_side_mm && width_mm >= (1 - tol) * opt.shell_side_mm;
  if (!pieces && !faint && qtip_shape && opt.expect != "shell")
    return QtipFrom(s, blob, blob.pts, blob.cut_off, false).result;
  // Thin and seen short: the rest of the stick may lie where the camera cannot see it (under
  // a crown or a roof, or white on white paper). FitQtip takes it whole only then; otherwise
  // the change is judged as below, as if this had not been tried.
  if (!pieces && !faint && !blob.cut_off && opt.expect != "shell" &&
      width_mm <= 2.0 * opt.qtip_head_diameter_mm && length_mm >= min_seen_mm &&
      length_mm < (1 - tol) * opt.qtip_length_mm) {
    PlacedQtip placed = QtipFrom(s, blob, blob.pts, false, false);
    if (placed.plain_end_hidden && std::holds_alternative<ProjectileObservation>(placed.result))
      return std::move(placed.result);
  }
  if (!pieces && !faint && shell_extent && opt.expect != "qtip") return ShellFrom(s, blob);
  const std::string neither =
      "a change of " + MmText(length_mm) + " x " + MmText(width_mm) + " mm " + kNeitherModel;
  // A thin change shorter than a Q-tip: the brightest piece of a faint, blurred one, or its
  // painted head alone (12 x 5 mm, blurred to 1.5-2 times as long as wide)? Matched by the
  // whole model along it, and taken only when the model stands out of the noise.
  const bool fragment = !blob.cut_off && opt.expect != "shell" &&
                        length_mm < (1 + tol) * opt.qtip_length_mm &&
                        width_mm <= 2.0 * opt.qtip_head_diameter_mm &&
                        (pieces || any_axis || length_mm >= kMinFragmentElongation * width_mm);
  // A head alone that is white cotton is the plain head (`hard` 17 scene 4: a plain head on a
  // grey mat, its painted one dark on white paper, the stick between unseen on the paper, was
  // ruled a Q-tip's length off with the painted end put on it).
  std::optional<cv::Point2d> white_head;
  if (fragment && !pieces && length_mm < kFaintSinglePieceMinHeads * opt.qtip_head_length_mm) {
    cv::Point2d centre(0, 0);
    for (const cv::Point& p : blob.pts) centre += cv::Point2d(p);
    centre *= 1.0 / static_cast<double>(blob.pts.size());
    if (WhiteChangeShare(s.top_before, s.lit.Bytes(), centre, opt.qtip_head_diameter_mm / mm) >=
        kMaxHeadWhiteShare)
      white_head = centre;
    // What shows it must be in `after`: a shell picked up leaves a head-sized change too
    // (`hard` 43 scene 6 played the other way round was ruled a Q-tip 50 mm from the shell).
    const double r_px = 0.5 * length_mm / mm;
    const ObjectContrast contrast = MeasureObjectContrast(
        s.top_before, s.lit.Bytes(), centre, centre, r_px, r_px + kTakenAwayRingGapMm / mm,
        r_px + (kTakenAwayRingGapMm + kTakenAwayRingWidthMm) / mm);
    if (TakenAway(contrast)) {
      return Refusal{"a change of a head's size (" + MmText(length_mm) + " x " + MmText(width_mm) +
                     " mm) that stands out in the before frame, not the after one: "
                     "not a head come to rest: not adjudicated"};
    }
  }
  if (fragment) return WholeModelQtip(s, blob, extent, pieces, any_axis, white_head, neither);
  return Refusal{neither + ": not adjudicated"};
}

}  // namespace referee
