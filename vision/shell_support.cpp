#include "vision/shell_support.hpp"

#include <algorithm>
#include <cmath>

#include <opencv2/imgproc.hpp>

#include "vision/floor_colours.hpp"
#include "vision/stand_surface.hpp"

namespace referee {

namespace {

// Least brightness, as a share of the mat's around it, of the `before` pixels under a shell that
// count as the mat where the shell could also rest on a stand's figures: a grey or dark figure's
// top is the mat's colour in shadow. 0.9: the mat's own noise and uneven light stay within a
// tenth of its median over a ring two shell sides wide.
constexpr double kLitMatShare = 0.9;
// Share of a painted-alike interior (its bare top of the border's colour) not of the border's
// colour above which something other than a bare top is seen there (figures of the side colour
// may cover the rest); below it, sensor noise: only the border's colour is seen. Either way a
// shell on it cannot be put on the bare top; this only words the refusal.
constexpr double kSomeFigureCover = 0.02;
// Share of a ring's pixels on flat terrain that a colour of that terrain must cover to count as
// the floor: a road or a river crossing the ring covers a third of it or more; the bare top of a
// base the stand search missed, at most a sixth (so a shell on it is still not put on the mat).
constexpr double kFlatArtMinShare = 0.2;
// Flat terrain colours read around a shell: a road and water beside it.
constexpr int kFlatArtMaxColours = 2;
// Fewest ring pixels on flat terrain to read its colours from.
constexpr int kFlatArtMinPixels = 20;

// Share of the `before` pixels under `outline` that show the mat's colour, taken as the median
// of a ring around the shell outside every stand found, wide enough (two shell sides) that the
// mat outweighs a base the detector missed; -1 when too little mat is seen around it. Where
// `flat_terrain` (top view, CV_8U; may be empty) says the board lays flat terrain, its colours
// read in the ring there, and blends of them with the mat, are the floor too.
double MatShare(const std::vector<cv::Point>& outline, const TopView& view, const cv::Mat& before,
                const std::vector<DetectedStand>& stands, double ring_px,
                const cv::Mat& flat_terrain = cv::Mat(), double min_light = 0.0) {
  const cv::Rect all({0, 0}, before.size());
  const cv::Rect hull = cv::boundingRect(outline);
  const int r = static_cast<int>(std::ceil(ring_px));
  const cv::Rect box = (hull + cv::Size(2 * r, 2 * r) - cv::Point(r, r)) & all;
  if (box.empty()) return -1;
  cv::Mat under(box.size(), CV_8U, cv::Scalar(0)), ring;
  std::vector<cv::Point> local;
  local.reserve(outline.size());
  for (const cv::Point& p : outline) local.push_back(p - box.tl());
  cv::fillConvexPoly(under, local, cv::Scalar(255));
  cv::dilate(under, ring, cv::getStructuringElement(cv::MORPH_ELLIPSE, {2 * r + 1, 2 * r + 1}));
  ring &= ~under;
  for (const auto& s : stands) {  // bases (grown 2 mm for their blurred edges) are not mat
    OrientedRect fp = s.stand.footprint;
    fp.width_in += 2 * MmToInches(2.0);
    fp.depth_in += 2 * MmToInches(2.0);
    std::vector<cv::Point> poly;
    for (const Vec2 c : fp.Corners())
      poly.emplace_back(view.RectifiedFromTable(c) - cv::Point2d(box.tl()));
    cv::fillConvexPoly(ring, poly, cv::Scalar(0));
  }
  std::vector<float> ch[3];
  for (int y = 0; y < box.height; ++y) {
    for (int x = 0; x < box.width; ++x) {
      if (!ring.at<uchar>(y, x)) continue;
      const cv::Vec3b& v = before.at<cv::Vec3b>(y + box.y, x + box.x);
      for (int c = 0; c < 3; ++c) ch[c].push_back(v[c]);
    }
  }
  if (ch[0].size() < 20) return -1;
  cv::Vec3d mat;
  for (int c = 0; c < 3; ++c) {
    auto mid = ch[c].begin() + static_cast<long>(ch[c].size() / 2);
    std::nth_element(ch[c].begin(), mid, ch[c].end());
    mat[c] = *mid;
  }
  std::vector<cv::Vec3d> floor;  // the mat and the flat terrain's colours around the shell
  cv::Mat flat;
  if (!flat_terrain.empty()) {
    flat = flat_terrain(box);
    const cv::Mat flat_ring = ring & flat;
    if (cv::countNonZero(flat_ring) >= kFlatArtMinPixels) {
      floor = FlatArtColours(before(box), flat_ring, mat, kFlatArtMinShare, kFlatArtMaxColours);
      if (!floor.empty()) floor.insert(floor.begin(), mat);
    }
  }
  // The mat in a shadow (of a house, a tree, a figure) is still the mat.
  int n = 0, like = 0;
  for (int y = 0; y < box.height; ++y) {
    for (int x = 0; x < box.width; ++x) {
      if (!under.at<uchar>(y, x)) continue;
      ++n;
      const cv::Vec3b& v = before.at<cv::Vec3b>(y + box.y, x + box.x);
      if (min_light > 0 && cv::Vec3d(v[0], v[1], v[2]).dot(mat) < min_light * mat.dot(mat))
        continue;
      like += LikeColour(v, mat, 1.0, 0.15, 25.0) ||
                      (!floor.empty() && flat.at<uchar>(y, x) && LikeFloor(v, floor))
                  ? 1
                  : 0;
    }
  }
  return n ? static_cast<double>(like) / n : -1;
}

// A stand whose interior is of its border's colour; `something_else`: other colours are seen
// on it too, too few to be figures throughout.
struct UnsureTop {
  const DetectedStand* stand = nullptr;
  bool something_else = false;
};

ShellSupport UnsureBareTop(const UnsureTop& top) {
  ShellSupport out;
  out.what = "unknown";
  out.why = "it lies on " + top.stand->stand.id +
            (top.something_else
                 ? ", whose bare top is of its border's colour with something else seen on it"
                 : ", whose top shows nothing but its border's colour") +
            ": figures of the side colour there cannot be told from the bare top";
  return out;
}

}  // namespace

ShellSupport ShellRestHeight(cv::Point2d silhouette_px, const std::vector<cv::Point>& outline_px,
                             const TopView& view, const cv::Mat& top_before,
                             const std::vector<DetectedStand>& stands,
                             const ShellSupportOptions& opt, const cv::Mat& flat_terrain) {
  const Vec2 seen = view.TableFromRectified(silhouette_px);
  const double half_thick = MmToInches(0.5 * opt.thickness_mm);
  const double base_in = MmToInches(opt.base_height_mm);
  const double figures_in = base_in + MmToInches(opt.figure_height_mm);
  ShellSupport out;
  out.what = "mat";
  const Vec2 on_mat = view.TableAtHeight(seen, half_thick);
  const double ring_px = 2.0 * opt.side_mm / view.MmPerPx();
  // Every stand it could rest on; it rests on the highest thing under it, so figures seen
  // under it win over a neighbour's bare top.
  double best_share = -1;
  // When no hypothesis below holds and the shell would overlap a base if it lay on the mat, the
  // stand whose figures could hold it up (its centre over the interior at their height).
  bool mat_blocked = false;
  const DetectedStand* held_by_figures = nullptr;
  int figure_holders = 0;
  const DetectedStand* edge_of = nullptr;  // else the base whose edge it straddles
  double edge_gap_in = 1e9;
  // The stand whose figures could hold it up where the mat's colour under it could also be a
  // figure's top in shadow; empty when none.
  std::string mat_or_dark_figures;
  // The stands whose interior is of the border's colour without figures seen throughout:
  // figures of the side colour may stand anywhere on them (`hard` 101 scene 1: a shell 32 mm up
  // on red figures of a red-bordered base, put on its bare top, 14.7 mm off). Every stand
  // carries figures over its interior; a top of nothing but its border's colour is figures of
  // that colour.
  std::vector<UnsureTop> unsure_bare;
  for (const auto& s : stands) {
    const OrientedRect& fp = s.stand.footprint;
    // On the figures when the `before` view showed figures (not the bare top) where the shell
    // is seen now: a figure's top is seen where a shell resting on it is.
    const StandSurface surface = MeasureStandSurface(s, view, top_before, opt.border_mm);
    const double figure_share =
        surface.valid && surface.figure_cover >= opt.min_figure_cover
            ? FigureShare(surface, top_before, outline_px, opt.min_figure_cover)
            : 0.0;
    const bool figures = figure_share >= opt.min_figure_share;
    if (TopOfBordersColour(surface, opt.min_figure_cover))
      unsure_bare.push_back({&s, surface.figure_cover > kSomeFigureCover});
    // Outside this base when it would lie on the mat: the mat cannot hold it (that is the
    // shell's half side less a tenth, so a shell beside a base at any turn is not taken for it).
    const bool overlaps_on_mat = DistanceToRect(on_mat, fp) <= MmToInches(0.4 * opt.side_mm);
    if (overlaps_on_mat) {
      mat_blocked = true;
      if (const double gap = DistanceToRect(view.TableAtHeight(seen, base_in + half_thick), fp);
          gap < edge_gap_in) {
        edge_gap_in = gap;
        edge_of = &s;
      }
      // A shell on figures may overhang them: its silhouette need not show them (a figure's top
      // under one corner holds it up), but its centre must be over the figures' interior.
      OrientedRect interior = fp;
      interior.width_in -= 2 * MmToInches(opt.border_mm);
      interior.depth_in -= 2 * MmToInches(opt.border_mm);
      if (surface.valid && surface.figure_cover >= opt.min_figure_cover &&
          interior.Contains(view.TableAtHeight(seen, figures_in + half_thick))) {
        held_by_figures = &s;
        ++figure_holders;
      }
    }
    const double bottom = figures ? figures_in : base_in;
    if (!fp.Contains(view.TableAtHeight(seen, bottom + half_thick))) continue;
    // On the mat its centre would be within 0.4 side of the base: it would overlap the base.
    const bool mat_possible = DistanceToRect(on_mat, fp) > MmToInches(0.4 * opt.side_mm);
    if (mat_possible) {
      const double share = MatShare(outline_px, view, top_before, stands, ring_px);
      if (share >= opt.min_mat_share) {
        // The mat's colour under it, where its figures could hold it up: only the mat in full
        // light tells the mat from a grey or dark figure's top (or the mat in its shadow).
        if (figures && MatShare(outline_px, view, top_before, stands, ring_px, cv::Mat(),
                                kLitMatShare) < opt.min_mat_share)
          mat_or_dark_figures = s.stand.id;
        continue;
      }
    }
    const double rank = figures ? 1.0 + figure_share : 0.0;
    if (rank <= best_share) continue;
    best_share = rank;
    out.bottom_in = bottom;
    out.stand_id = s.stand.id;
    out.what = figures ? "figures" : "base";
  }
  // On a bare top of the border's colour where figures of that colour may stand: TABLE_KIT's
  // figures cover a base's interior, so where its centre is over the interior at their height
  // it lies on them (the ruling height's check flags a verdict a lower rest would change);
  // elsewhere on it, unknown.
  const auto settle_unsure_top = [&](ShellSupport o) {
    if (o.what != "base") return o;
    const auto u = std::find_if(unsure_bare.begin(), unsure_bare.end(), [&](const UnsureTop& t) {
      return t.stand->stand.id == o.stand_id;
    });
    if (u == unsure_bare.end()) return o;
    const OrientedRect interior = Grown(u->stand->stand.footprint, -MmToInches(opt.border_mm));
    if (!opt.own_colour_top_holds_figures ||
        !interior.Contains(view.TableAtHeight(seen, figures_in + half_thick)))
      return UnsureBareTop(*u);
    o.bottom_in = figures_in;
    o.what = "figures";
    return o;
  };
  if (!out.stand_id.empty()) return settle_unsure_top(out);
  // It would overlap a base on the mat and its centre is off every bare base top it could lie
  // on: figures hold it up where it is seen (one stand's), else it lies across the edge of the
  // nearest base, its centre overhanging (a ~1 mm question between the mat and the base top).
  if (mat_blocked) {
    if (figure_holders > 1) {  // on the figures of one of two stands: cannot tell which
      out.what = "unknown";
      return out;
    }
    const DetectedStand* on = figure_holders == 1 ? held_by_figures : edge_of;
    out.bottom_in = figure_holders == 1 ? figures_in : base_in;
    out.stand_id = on->stand.id;
    out.what = figure_holders == 1 ? "figures" : "base";
    return settle_unsure_top(out);
  }
  if (!mat_or_dark_figures.empty()) {  // the mat, or a stand's figures of the mat's colour
    out.what = "unknown";
    out.why = "it could lie on the mat or on " + mat_or_dark_figures +
              "'s figures: what shows under it is the mat's colour in shadow or a figure's top "
              "of that colour";
    return out;
  }
  // On no stand that was found: it must lie on the mat, and the mat must show under it (a
  // grid line may take a quarter of it); else it rests on something of unknown height (a base
  // the stand detector missed, a terrain piece) and its height cannot be guessed. Flat terrain
  // (a road, water felt) lies at the mat's height: where the board lays it, its colours show
  // the floor as well as the mat's.
  const double share = MatShare(outline_px, view, top_before, stands, ring_px);
  if (share >= 0 && share < opt.min_mat_share_alone &&
      (flat_terrain.empty() || MatShare(outline_px, view, top_before, stands, ring_px,
                                        flat_terrain) < opt.min_mat_share_alone)) {
    out.what = "unknown";
  }
  return out;
}

}  // namespace referee
