#include "vision/projectile_detector.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <opencv2/imgproc.hpp>

#include "engine/order_statistics.hpp"
#include "vision/principal_axis.hpp"
#include "vision/qtip_model.hpp"
#include "vision/qtip_support.hpp"
#include "vision/qtip_template.hpp"
#include "vision/shadow_change.hpp"
#include "vision/shell_model.hpp"
#include "vision/shell_support.hpp"
#include "vision/shell_template.hpp"
#include "vision/taken_away.hpp"
#include "vision/white_change.hpp"

namespace referee {

namespace {

std::string Mm(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f", v);
  return buf;
}

// Per-channel lighting change between the frames, measured at a scale far larger than any
// projectile (so the projectile itself does not bias it): after * gain ~ before.
cv::Mat GainCorrected(const cv::Mat& before, const cv::Mat& after) {
  cv::Mat b, a;
  const cv::Size small(std::max(1, before.cols / 32), std::max(1, before.rows / 32));
  cv::resize(before, b, small, 0, 0, cv::INTER_AREA);
  cv::resize(after, a, small, 0, 0, cv::INTER_AREA);
  b.convertTo(b, CV_32FC3, 1.0, 1.0);
  a.convertTo(a, CV_32FC3, 1.0, 1.0);
  cv::Mat gain;
  cv::divide(b, a, gain);
  cv::medianBlur(gain, gain, 5);
  cv::min(gain, 2.0, gain);
  cv::max(gain, 0.5, gain);
  cv::Mat gain_full, out;
  cv::resize(gain, gain_full, before.size(), 0, 0, cv::INTER_LINEAR);
  after.convertTo(out, CV_32FC3);
  cv::multiply(out, gain_full, out);
  return out;
}

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

// Share of the model's columns that must stand out when pieces at both ends are matched as one
// Q-tip (the whole-model match's own default is 0.6 for a single fragment). Default 0.5: its
// heads alone make about a third; the rest must come from the stick between them.
constexpr double kPiecesColumnShare = 0.5;

// How many times as long as wide a thin change shorter than a Q-tip must be to be matched by
// the whole model along its axis. Default 1.5: a painted head alone (12 x 5 mm) blurs to 11 x 6
// mm on `hard`; a round fleck has no axis to match along.
constexpr double kMinFragmentElongation = 1.5;

// Shortest faint piece matched on its own, share of a head's length. Default 0.75: a head
// blurred into the mat shows 9-12 mm; shorter specks have no axis to match along.
constexpr double kFaintPieceMinLengthShare = 0.75;
// Shortest faint piece taken alone, head lengths. Default 1.5: a head and a stretch of stick
// as long as half a head; a head alone says nothing of which way its stick runs.
constexpr double kFaintSinglePieceMinHeads = 1.5;
// Share of a head-sized change read as white cotton (WhiteChangeShare) from which it is taken
// for the plain head. Default 0.5.
constexpr double kMaxHeadWhiteShare = 0.5;

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
// Ends the refusal of a change that neither model explains, which a faint shell's core may be.
constexpr const char* kNeitherModel = "is neither a Q-tip nor a shell";

// Gap between a projectile's footprint edge and the band its surroundings are read in, mm,
// past the blur; and that band's width, mm.
constexpr double kTakenAwayRingGapMm = 1.5;
constexpr double kTakenAwayRingWidthMm = 3.0;
// How far a pixel's chromaticity (r, g shares) may lie from the shells' colour to show it.
// 0.05: `hard` shells at rest under its exposure, white balance and blur read 0.57-1.0 of their
// middle within it, the surface they were picked up from 0.
constexpr double kShellChromaTolerance = 0.05;
// Below this saturation ((max - min) / max of the channels) a shell colour is taken as white
// or grey.
constexpr double kColourlessSaturation = 0.25;

double Saturation(const cv::Vec3d& bgr) {
  const double hi = std::max({bgr[0], bgr[1], bgr[2]}), lo = std::min({bgr[0], bgr[1], bgr[2]});
  return hi > 0 ? (hi - lo) / hi : 0.0;
}

// A region of change in the top view.
struct Blob {
  std::vector<cv::Point> pts;
  double area_mm2;
  cv::Rect box;
  bool from_outside = false;  // touches the border of the camera's field
  bool cut_off = false;       // runs out of the top view
};

// Extent along and across the principal axis of `pts`, mm, and that axis.
struct LineFit {
  double length_mm = 0, width_mm = 0;
  cv::Point2d a, b;  // ends along the axis, top-view px
};

LineFit FitLine(const std::vector<cv::Point>& pts, double mm_per_px) {
  const PrincipalAxis fit = FitPrincipalAxis(pts);
  const cv::Point2d c = fit.centre;
  const cv::Point2d axis = fit.axis;
  const cv::Point2d perp(-axis.y, axis.x);
  std::vector<double> across;
  double tmin = 1e9, tmax = -1e9;
  for (const auto& p : pts) {
    const cv::Point2d d = cv::Point2d(p) - c;
    tmin = std::min(tmin, d.dot(axis));
    tmax = std::max(tmax, d.dot(axis));
    across.push_back(std::abs(d.dot(perp)));
  }
  return {(tmax - tmin + 1.0) * mm_per_px, 2.0 * Percentile(across, 0.97) * mm_per_px + mm_per_px,
          c + tmin * axis, c + tmax * axis};
}

// Several regions that may be one Q-tip broken up by blur and noise (its white stick fading
// into a pale mat, its heads still showing): regions lying along one line no wider than a head,
// together about a Q-tip long. Their indices in `blobs`, the most regions first; empty when no
// two regions line up so. Whether they are one Q-tip is for the whole-model match to say.
std::vector<size_t> PiecesAlongAQtip(const std::vector<Blob>& blobs, const ProjectileOptions& opt,
                                     double mm_per_px) {
  constexpr size_t kMaxRegions = 8;  // more pieces than that is not one broken stick
  const size_t n = blobs.size();
  if (n < 2 || n > kMaxRegions) return {};
  std::vector<size_t> best;
  double best_area = 0;
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = i + 1; j < n; ++j) {
      if (blobs[i].cut_off || blobs[j].cut_off) continue;
      std::vector<cv::Point> both = blobs[i].pts;
      both.insert(both.end(), blobs[j].pts.begin(), blobs[j].pts.end());
      const LineFit line = FitLine(both, mm_per_px);
      const bool fits = line.width_mm <= 2.0 * opt.qtip_head_diameter_mm &&
                        line.length_mm >= 0.6 * opt.qtip_length_mm &&
                        line.length_mm <= (1 + opt.size_tolerance) * opt.qtip_length_mm;
      if (!fits) continue;
      // Other regions on the segment between them belong to it too.
      const cv::Point2d ab = line.b - line.a;
      const double ab2 = std::max(1e-9, ab.dot(ab));
      const double reach_px = opt.qtip_head_diameter_mm / mm_per_px;
      std::vector<size_t> on{i, j};
      double area = blobs[i].area_mm2 + blobs[j].area_mm2;
      for (size_t k = 0; k < n; ++k) {
        if (k == i || k == j || blobs[k].cut_off) continue;
        int near = 0;
        for (const cv::Point& p : blobs[k].pts) {
          const double t = (cv::Point2d(p) - line.a).dot(ab) / ab2;
          near += t >= 0 && t <= 1 && cv::norm(cv::Point2d(p) - (line.a + t * ab)) <= reach_px;
        }
        if (near >= 0.8 * static_cast<double>(blobs[k].pts.size())) {
          on.push_back(k);
          area += blobs[k].area_mm2;
        }
      }
      if (on.size() > best.size() || (on.size() == best.size() && area > best_area)) {
        best = on;
        best_area = area;
      }
    }
  }
  std::sort(best.begin(), best.end());
  return best;
}

// What may hold a shell up, from the detector's options (plain and faint shells alike).
ShellSupportOptions ShellSupportOptionsOf(const ProjectileOptions& opt) {
  ShellSupportOptions s;
  s.base_height_mm = opt.base_height_mm;
  s.figure_height_mm = opt.figure_height_mm;
  s.side_mm = opt.shell_side_mm;
  s.thickness_mm = opt.shell_thickness_mm;
  return s;
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

cv::Mat ChangeMask(const cv::Mat& top_before, const cv::Mat& top_after, double min_change,
                   double px_per_camera_px, cv::Mat* magnitude, cv::Mat* object_change,
                   bool shadows_count) {
  const cv::Mat after = GainCorrected(top_before, top_after);
  cv::Mat before;
  top_before.convertTo(before, CV_32FC3);
  // The range of `before` within a pixel of each pixel, per channel. Only what leaves it is
  // counted: at a sharp edge (a base border, a grid line) a resampling shift, a little more
  // blur or JPEG's halved colour resolution mixes the two sides, which stays inside that
  // range, while a new object brings a colour that was not there. Real webcams send JPEG or
  // MJPEG, and `before` and `after` need not be compressed alike.
  // Both are smoothed a little first: sensor noise would widen that range as much as an edge.
  cv::Mat lo, hi, before_s, after_s;
  cv::GaussianBlur(before, before_s, {3, 3}, 0);
  cv::GaussianBlur(after, after_s, {3, 3}, 0);
  const cv::Mat k3 = cv::getStructuringElement(cv::MORPH_RECT, {3, 3});
  cv::erode(before_s, lo, k3);
  cv::dilate(before_s, hi, k3);
  // Webcams send colour at half their resolution (JPEG and MJPEG 4:2:0, YUYV 4:2:2) and
  // decoders interpolate it back: a colour edge comes back spread about one camera pixel either
  // side while brightness stays sharp. A base's 3 mm border is one or two camera pixels wide at
  // 720p, so its colour fades in `after` alone when only `after` went through that (`before`
  // kept losslessly, or compressed at another phase). A change within the range of `before`
  // with its colour so spread, and within its range of brightness, is that and no object.
  cv::Mat spread_lo, spread_hi, luma_lo, luma_hi, luma_after;
  {
    cv::Mat ycc;
    cv::cvtColor(before_s, ycc, cv::COLOR_BGR2YCrCb);
    std::vector<cv::Mat> planes;
    cv::split(ycc, planes);
    cv::erode(planes[0], luma_lo, k3);
    cv::dilate(planes[0], luma_hi, k3);
    const double sigma = std::max(0.5, px_per_camera_px);
    for (int c = 1; c < 3; ++c) cv::GaussianBlur(planes[c], planes[c], {0, 0}, sigma);
    cv::merge(planes, ycc);
    cv::Mat spread;
    cv::cvtColor(ycc, spread, cv::COLOR_YCrCb2BGR);
    cv::erode(spread, spread_lo, k3);
    cv::dilate(spread, spread_hi, k3);
    cv::min(lo, spread_lo, spread_lo);
    cv::max(hi, spread_hi, spread_hi);
    cv::cvtColor(after_s, ycc, cv::COLOR_BGR2YCrCb);
    cv::extractChannel(ycc, luma_after, 0);
  }
  cv::Mat mag(before.size(), CV_32F), mask(before.size(), CV_8U, cv::Scalar(0));
  cv::Mat object(before.size(), CV_32F);
  for (int y = 0; y < before.rows; ++y) {
    const auto* b = before.ptr<cv::Vec3f>(y);
    const auto* a = after.ptr<cv::Vec3f>(y);
    const auto* as = after_s.ptr<cv::Vec3f>(y);
    const auto* bl = lo.ptr<cv::Vec3f>(y);
    const auto* bh = hi.ptr<cv::Vec3f>(y);
    const auto* sl = spread_lo.ptr<cv::Vec3f>(y);
    const auto* sh = spread_hi.ptr<cv::Vec3f>(y);
    const auto* yl = luma_lo.ptr<float>(y);
    const auto* yh = luma_hi.ptr<float>(y);
    const auto* ya = luma_after.ptr<float>(y);
    auto* m = mag.ptr<float>(y);
    auto* o = object.ptr<float>(y);
    auto* k = mask.ptr<uchar>(y);
    for (int x = 0; x < before.cols; ++x) {
      const cv::Vec3f d = a[x] - b[x];
      const float v = std::max({std::abs(d[0]), std::abs(d[1]), std::abs(d[2])});
      float outside = 0.0f, outside_spread = 0.0f;
      for (int c = 0; c < 3; ++c) {
        outside = std::max({outside, as[x][c] - bh[x][c], bl[x][c] - as[x][c]});
        outside_spread = std::max({outside_spread, as[x][c] - sh[x][c], sl[x][c] - as[x][c]});
      }
      const float outside_luma = std::max(ya[x] - yh[x], yl[x] - ya[x]);
      m[x] = v;
      o[x] = v;
      // A shadow darkens all channels by about the same ratio: not an object.
      float r[3];
      for (int c = 0; c < 3; ++c) r[c] = (a[x][c] + 4.0f) / (b[x][c] + 4.0f);
      const float rmax = std::max({r[0], r[1], r[2]}), rmin = std::min({r[0], r[1], r[2]});
      const bool shadow = !shadows_count && rmax < 0.92f && rmin > 0.3f && rmax / rmin < 1.15f;
      if (shadow) o[x] = 0.0f;
      const bool colour_spread = outside_spread < min_change && outside_luma < min_change;
      if (outside >= min_change && !shadow && !colour_spread) k[x] = 255;
    }
  }
  if (object_change) *object_change = object;
  cv::morphologyEx(mask, mask, cv::MORPH_OPEN, k3);
  if (magnitude) *magnitude = mag;
  return mask;
}

namespace {

// `after` with the lighting change divided out (GainCorrected), computed at most once per frame
// pair: the shadow test, every model fit and the taken-away test read it. Read-only.
class LitAfter {
 public:
  LitAfter(const cv::Mat& before, const cv::Mat& after) : before_(before), after_(after) {}
  const cv::Mat& Float() {
    if (float_.empty()) float_ = GainCorrected(before_, after_);
    return float_;
  }
  const cv::Mat& Bytes() {
    if (bytes_.empty()) Float().convertTo(bytes_, CV_8UC3);
    return bytes_;
  }

 private:
  const cv::Mat& before_;
  const cv::Mat& after_;
  cv::Mat float_, bytes_;
};

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
  // What the camera sees of the top view: a change touching the border of the camera's field
  // came in from outside it (an arm), while the top view's own border only cuts the picture.
  cv::Mat seen;
  cv::erode(view.Rectify(cv::Mat(view.calibration().camera.image_size, CV_8U, cv::Scalar(255))),
            seen, cv::getStructuringElement(cv::MORPH_RECT, {5, 5}));
  // Group nearby changed pixels (a thin stick may break up): dilate by ~2 mm for labelling.
  const auto regions_of = [&](const cv::Mat& changed) {
    cv::Mat grouped, labels;
    const int r = std::max(1, static_cast<int>(std::lround(2.0 / mm)));
    cv::dilate(changed, grouped,
               cv::getStructuringElement(cv::MORPH_ELLIPSE, {2 * r + 1, 2 * r + 1}));
    const int n = cv::connectedComponents(grouped, labels, 8, CV_32S);
    std::vector<std::vector<cv::Point>> groups(static_cast<size_t>(n));
    for (int y = 0; y < changed.rows; ++y) {
      for (int x = 0; x < changed.cols; ++x) {
        if (changed.at<uchar>(y, x))
          groups[static_cast<size_t>(labels.at<int>(y, x))].emplace_back(x, y);
      }
    }
    std::vector<Blob> out;
    const cv::Rect inner(2, 2, changed.cols - 4, changed.rows - 4);
    for (int i = 1; i < n; ++i) {
      auto& g = groups[static_cast<size_t>(i)];
      const double area = static_cast<double>(g.size()) * mm * mm;
      if (area < opt.ignore_area_mm2) continue;
      Blob b{g, area, cv::boundingRect(g)};
      for (const auto& p : g) {
        b.from_outside |= seen.at<uchar>(p) < 255;
        b.cut_off |= !inner.contains(p);
      }
      out.push_back(std::move(b));
    }
    return out;
  };
  std::vector<Blob> blobs = regions_of(mask);
  const std::string nothing = "no projectile found: nothing changed between before and after";
  std::sort(blobs.begin(), blobs.end(),
            [](const Blob& a, const Blob& b) { return a.area_mm2 > b.area_mm2; });
  const double max_area = MaxProjectileChangeMm2(opt, mm);
  for (const auto& b : blobs) {
    if (b.from_outside) {
      return Refusal{
          "something entered from the edge of the camera's view (hand or arm?): frame refused"};
    }
    if (b.area_mm2 > max_area) {
      return Refusal{"large change of " + Mm(b.area_mm2) +
                     " mm^2 (hand, arm or moved stand?): not a projectile, frame refused"};
    }
  }
  // One region of change explained by a projectile model.
  // `pieces`: the blob is several regions joined along one line (a Q-tip seen in pieces): only
  // the whole-model match may explain it.
  // `faint`: the blob is from the lowered change threshold (nothing cleared the plain one): only
  // the whole Q-tip model's strict match may explain it.
  // `any_axis`: the blob is a head with no axis of its own: the model is matched in every
  // direction from it.
  const auto explain = [&](const Blob& blob, bool pieces = false, bool faint = false,
                           bool any_axis = false) -> ProjectileResult {
    // Extent along and across the principal axis of the changed pixels.
    const LineFit extent = FitLine(blob.pts, mm);
    const double length_mm = extent.length_mm;
    const double width_mm = extent.width_mm;
    const double tol = opt.size_tolerance;
    // A Q-tip running out of the view only shows part of its length.
    const bool qtip_length_ok =
        blob.cut_off
            ? length_mm >= 0.4 * opt.qtip_length_mm && length_mm <= (1 + tol) * opt.qtip_length_mm
            : std::abs(length_mm - opt.qtip_length_mm) <= tol * opt.qtip_length_mm;
    const bool qtip_shape = qtip_length_ok && width_mm <= 2.0 * opt.qtip_head_diameter_mm;
    // A shell's change: about its square (its top, the sides toward the camera and what the
    // shadow test keeps of its shadow); FitShell then judges its silhouette by colour.
    const bool shell_extent =
        !blob.cut_off &&
        blob.area_mm2 >= opt.shell_min_fill * opt.shell_side_mm * opt.shell_side_mm &&
        length_mm <= 2.5 * opt.shell_side_mm && width_mm >= (1 - tol) * opt.shell_side_mm;
    ProjectileObservation obs;
    std::string support_what;  // what the Q-tip from qtip_from rests on: mat, base or figures
    std::string hidden_by;     // the stand whose figures it was seen to lie behind, if any
    obs.change_area_mm2 = blob.area_mm2;
    obs.region_px = blob.box;
    // A Q-tip from the changed pixels of its region (its own, or its matched model's).
    const auto qtip_from = [&](const std::vector<cv::Point>& pixels, bool cut_off,
                               bool matched_model,
                               bool* plain_end_hidden = nullptr) -> ProjectileResult {
      QtipModelOptions model;
      model.length_mm = opt.qtip_length_mm;
      model.head_diameter_mm = opt.qtip_head_diameter_mm;
      model.head_length_mm = opt.qtip_head_length_mm;
      model.size_tolerance = tol;
      model.extent_from_pixels = matched_model;
      model.tall_terrain = tall_terrain;
      const auto fit = FitQtip(top_before, top_after, mag, object, pixels, mm, cut_off, model);
      if (const auto* refusal = std::get_if<QtipRefusal>(&fit)) return Refusal{refusal->reason};
      const QtipFit& q = std::get<QtipFit>(fit);
      obs.kind = "qtip";
      obs.point_px = q.tip_px;
      obs.other_end_px = q.plain_end_px;
      obs.tip_from_edge = q.tip_from_edge;
      if (q.plain_end_hidden) {
        obs.note = q.plain_end_on_white
                       ? "its plain end lies on white paper, where white cotton is not seen: "
                         "placed at the model's length"
                       : "its plain end runs on under tall terrain: placed at the model's length";
      }
      if (plain_end_hidden) *plain_end_hidden = q.plain_end_hidden;
      const Vec2 on_mat = view.TableFromRectified(obs.point_px);
      const Vec2 plain_on_mat = view.TableFromRectified(q.plain_end_px);
      QtipSupportOptions support_opt;
      support_opt.base_height_mm = opt.base_height_mm;
      support_opt.figure_height_mm = opt.figure_height_mm;
      support_opt.head_radius_mm = 0.5 * opt.qtip_head_diameter_mm;
      const cv::Mat& after_lit = lit.Bytes();
      const QtipSupport support =
          QtipRestHeights(on_mat, plain_on_mat, view, top_before, stands, support_opt, after_lit);
      obs.height_in = support.tip_height_in;
      obs.resting_on = support.stand_id;
      support_what = support.what;
      hidden_by = support.hidden_by;
      obs.point = view.TableAtHeight(on_mat, obs.height_in);
      obs.other_end = view.TableAtHeight(plain_on_mat, support.plain_height_in);
      return obs;
    };
    if (!pieces && !faint && qtip_shape && opt.expect != "shell")
      return qtip_from(blob.pts, blob.cut_off, false);
    // Thin and seen short: the rest of the stick may lie where the camera cannot see it (under
    // a crown or a roof, or white on white paper). FitQtip takes it whole only then; otherwise
    // the change is judged as below, as if this had not been tried.
    if (!pieces && !faint && !blob.cut_off && opt.expect != "shell" &&
        width_mm <= 2.0 * opt.qtip_head_diameter_mm &&
        length_mm >= QtipModelOptions{}.min_seen_share_hidden * opt.qtip_length_mm &&
        length_mm < (1 - tol) * opt.qtip_length_mm) {
      const ProjectileObservation kept = obs;
      const std::string kept_what = support_what, kept_hidden_by = hidden_by;
      bool plain_end_hidden = false;
      ProjectileResult r = qtip_from(blob.pts, false, false, &plain_end_hidden);
      if (plain_end_hidden && std::holds_alternative<ProjectileObservation>(r)) return r;
      obs = kept;
      support_what = kept_what;
      hidden_by = kept_hidden_by;
    }
    if (!pieces && !faint && shell_extent && opt.expect != "qtip") {
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
      model.size_tolerance = tol;
      // Its silhouette by colour, against `after` with the lighting change divided out: a
      // darker or brighter exposure otherwise moves the mat around it toward the shell's colour.
      const cv::Mat& after_corrected = lit.Bytes();
      const auto fit = FitShell(top_before, after_corrected, mask, blob.pts, mm, sweep_px, model);
      if (const auto* refusal = std::get_if<ShellRefusal>(&fit)) return Refusal{refusal->reason};
      const ShellFit& f = std::get<ShellFit>(fit);
      const ShellSupport support =
          ShellRestHeight(f.silhouette_px, f.outline, view, top_before, stands,
                          ShellSupportOptionsOf(opt), flat_terrain);
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
    const std::string neither =
        "a change of " + Mm(length_mm) + " x " + Mm(width_mm) + " mm " + kNeitherModel;
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
      if (WhiteChangeShare(top_before, lit.Bytes(), centre, opt.qtip_head_diameter_mm / mm) >=
          kMaxHeadWhiteShare)
        white_head = centre;
      // What shows it must be in `after`: a shell picked up leaves a head-sized change too
      // (`hard` 43 scene 6 played the other way round was ruled a Q-tip 50 mm from the shell).
      const double r_px = 0.5 * length_mm / mm;
      const ObjectContrast contrast = MeasureObjectContrast(
          top_before, lit.Bytes(), centre, centre, r_px, r_px + kTakenAwayRingGapMm / mm,
          r_px + (kTakenAwayRingGapMm + kTakenAwayRingWidthMm) / mm);
      if (TakenAway(contrast)) {
        return Refusal{"a change of a head's size (" + Mm(length_mm) + " x " + Mm(width_mm) +
                       " mm) that stands out in the before frame, not the after one: "
                       "not a head come to rest: not adjudicated"};
      }
    }
    if (fragment) {
      cv::Mat difference, before_f;
      top_before.convertTo(before_f, CV_32FC3);
      cv::subtract(lit.Float(), before_f, difference);
      QtipTemplateOptions topt;
      topt.length_mm = opt.qtip_length_mm;
      topt.head_diameter_mm = opt.qtip_head_diameter_mm;
      // Pieces at both ends already show the heads a Q-tip's length apart (a third of the
      // model's columns); the stick between them must still show along half the model.
      if (pieces) topt.min_column_share = kPiecesColumnShare;
      if (any_axis) topt.angle_search_deg = 90.0;
      const QtipTemplateResult m = MatchQtipTemplate(difference, blob.pts, mm, topt);
      if (!m.found) return Refusal{neither + " (" + m.reason + "): not adjudicated"};
      if (pieces && m.match.length_mm < length_mm - opt.qtip_head_diameter_mm) {
        return Refusal{"pieces along a line are not one Q-tip: the matched model covers " +
                       Mm(m.match.length_mm) + " of their " + Mm(length_mm) + " mm"};
      }
      ProjectileResult r = qtip_from(m.match.footprint, false, true);
      if (const auto* refusal = std::get_if<Refusal>(&r)) {
        return Refusal{"a faint Q-tip matched along a " + Mm(length_mm) + " x " + Mm(width_mm) +
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
      if (white_head &&
          cv::norm(o.point_px - *white_head) < cv::norm(o.other_end_px - *white_head)) {
        return Refusal{"a faint Q-tip matched along a " + Mm(length_mm) + " x " + Mm(width_mm) +
                       " mm change of white cotton, its painted head put there: the painted "
                       "head is not seen: not adjudicated"};
      }
      const std::string id = StandUnderStick(view.TableFromRectified(o.point_px),
                                             view.TableFromRectified(o.other_end_px), view, stands,
                                             MmToInches(0.5 * opt.qtip_head_diameter_mm));
      const double length_off_mm = std::abs(StickLengthMm(o) - opt.qtip_length_mm);
      const bool on_its_figures = !any_axis && support_what == "figures" && o.resting_on == id &&
                                  length_off_mm <= opt.qtip_head_length_mm;
      const bool broken_behind_them =
          !id.empty() && pieces && support_what != "figures" && hidden_by == id &&
          length_off_mm <= kPiecesLengthToleranceMm &&
          BreakOverStand(blob.pts, o.point_px, o.other_end_px, o.height_in, view, stands, id);
      if (!id.empty() && !on_its_figures && !broken_behind_them) {
        return Refusal{"a faint Q-tip matched along a " + Mm(length_mm) + " x " + Mm(width_mm) +
                       " mm change lies across " + id +
                       ": whether figures hold it up is not seen: not adjudicated"};
      }
      return r;
    }
    return Refusal{neither + ": not adjudicated"};
  };
  // A shell matched by its whole shape in faint `regions` (from the lowered change threshold),
  // only on the mat: the observation, a refusal (two match), or nothing; `faint_refusal` says
  // why one that matched could not be placed.
  const auto faint_shell = [&](const std::vector<Blob>& regions, std::string& faint_refusal)
      -> std::variant<std::monostate, ProjectileObservation, Refusal> {
    std::optional<ProjectileObservation> found;
    cv::Mat difference, before_f;
    top_before.convertTo(before_f, CV_32FC3);
    cv::subtract(lit.Float(), before_f, difference);
    for (const Blob& b : regions) {
      // About a shell's worth of faint change: its brightest part, not a speck.
      if (b.from_outside || b.cut_off ||
          b.area_mm2 < kFaintShellMinFill * opt.shell_side_mm * opt.shell_side_mm ||
          FitLine(b.pts, mm).length_mm > 2.5 * opt.shell_side_mm)
        continue;
      ShellTemplateOptions topt;
      topt.side_mm = opt.shell_side_mm;
      const ShellTemplateResult m = MatchShellTemplate(difference, b.pts, mm, topt);
      if (!m.found) continue;
      if (found) return Refusal{nothing + " plainly; two faint changes match a shell"};
      // The centroid is the slab's centre at half its thickness, like a silhouette's.
      std::vector<cv::Point> outline;
      const double r_px = 0.5 * opt.shell_side_mm / mm;
      for (int k = 0; k < 16; ++k) {
        const double t = k * CV_PI / 8.0;
        outline.emplace_back(static_cast<int>(std::lround(m.centre_px.x + r_px * std::cos(t))),
                             static_cast<int>(std::lround(m.centre_px.y + r_px * std::sin(t))));
      }
      const ShellSupport support = ShellRestHeight(m.centre_px, outline, view, top_before, stands,
                                                   ShellSupportOptionsOf(opt), flat_terrain);
      // Only on the mat: on a stand the figures under it may be of its colour (olive,
      // yellow), so the change shows only where the shell covers other colours and its
      // centroid leans that way (4 mm on a `hard` scene); its dot is blurred away.
      if (support.what != "mat") {
        faint_refusal =
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
    if (found) return *found;
    return std::monostate{};
  };
  // A Q-tip in faint `regions`, matched by the whole model (`seen` says how the change was
  // looked at, for the note; `shell_found`: a faint shell matched too): nullopt when none is.
  const auto faint_qtip = [&](const std::vector<Blob>& regions, const std::string& seen,
                              bool shell_found) -> std::optional<ProjectileResult> {
    std::optional<ProjectileObservation> qtip;
    // Shorter thin pieces (a head, a stretch of stick) each matched by the whole model: one
    // Q-tip when at least two are and their models agree.
    std::vector<const Blob*> pieces;
    std::vector<ProjectileObservation> piece_models;
    std::vector<double> piece_lengths_mm;
    for (const Blob& b : regions) {
      if (b.from_outside || b.cut_off || b.area_mm2 > max_area) continue;
      // A stick's worth of faint change, not a speck the model could be stretched along (a
      // Q-tip lying in both frames leaves specks of re-sampling along its outline).
      const LineFit extent = FitLine(b.pts, mm);
      if (extent.length_mm < kFaintMinLengthShare * opt.qtip_length_mm ||
          b.area_mm2 <
              kFaintMinLengthShare * opt.qtip_length_mm * opt.qtip_head_diameter_mm * 0.5) {
        if (extent.length_mm >= kMinFragmentElongation * extent.width_mm &&
            extent.length_mm >= kFaintPieceMinLengthShare * opt.qtip_head_length_mm &&
            extent.width_mm <= 2.0 * opt.qtip_head_diameter_mm) {
          const ProjectileResult r = explain(b, false, true);
          if (const auto* o = std::get_if<ProjectileObservation>(&r)) {
            pieces.push_back(&b);
            piece_models.push_back(*o);
            piece_lengths_mm.push_back(extent.length_mm);
          }
        }
        continue;
      }
      const ProjectileResult r = explain(b, false, true);
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
    Blob joined{{}, 0.0, pieces.front()->box};
    for (const Blob* b : pieces) {
      joined.pts.insert(joined.pts.end(), b->pts.begin(), b->pts.end());
      joined.area_mm2 += b->area_mm2;
      joined.box |= b->box;
    }
    ProjectileResult r = explain(joined, true, true);
    if (auto* o = std::get_if<ProjectileObservation>(&r)) {
      o->note = "a faint Q-tip seen in " + std::to_string(pieces.size()) + " pieces (" + seen +
                "), matched by the whole model";
      return r;
    }
    return std::nullopt;
  };
  // Nothing (or only specks, see below) cleared the plain change test.
  const auto look_faint = [&]() -> ProjectileResult {
    // Nothing cleared the plain change test. A white stick blurred on a mat of its brightness
    // may still be plain to a person: look again at a lower threshold, and take only a thin
    // change that the whole Q-tip model matches out of the noise, and only if it is the one.
    const std::vector<Blob> faint = regions_of(ChangeMask(
        top_before, top_after, kFaintChangeShare * opt.min_change, view.PxPerCameraPx()));
    std::optional<ProjectileObservation> found;
    std::string faint_refusal;  // why a faint shell matched but could not be placed
    if (opt.expect != "qtip") {
      const auto shell = faint_shell(faint, faint_refusal);
      if (const auto* refusal = std::get_if<Refusal>(&shell)) return *refusal;
      if (const auto* o = std::get_if<ProjectileObservation>(&shell)) found = *o;
    }
    if (opt.expect == "shell") {
      if (found) return *found;
      return Refusal{faint_refusal.empty() ? nothing : faint_refusal};
    }
    const bool shell_found = found.has_value();
    if (auto r = faint_qtip(faint, "its change under the plain threshold", shell_found)) return *r;
    if (found) return *found;
    if (!faint_refusal.empty()) return Refusal{faint_refusal};
    // A black head and a grey stick over white paper or a grey mat darken every channel alike,
    // as a shadow does, and the change tests set them aside. A new shadow has a caster, and
    // nothing else changed: a thin change that the whole Q-tip model matches is taken.
    const std::vector<Blob> dark =
        regions_of(ChangeMask(top_before, top_after, kFaintChangeShare * opt.min_change,
                              view.PxPerCameraPx(), nullptr, nullptr, true));
    if (auto r = faint_qtip(dark, "darkening its ground as a shadow would", shell_found)) return *r;
    // Say what was seen: a player who sees a dark head lying there is not told nothing changed.
    const double min_seen_mm2 = 0.5 * opt.qtip_head_diameter_mm * opt.qtip_head_diameter_mm;
    const auto largest_of = [&](const std::vector<Blob>& regions) -> const Blob* {
      const Blob* largest = nullptr;
      for (const Blob& b : regions) {
        if (!b.from_outside && b.area_mm2 >= min_seen_mm2 &&
            (!largest || b.area_mm2 > largest->area_mm2))
          largest = &b;
      }
      return largest;
    };
    const auto size_of = [&](const Blob& b) {
      const LineFit extent = FitLine(b.pts, mm);
      return Mm(extent.length_mm) + " x " + Mm(extent.width_mm) + " mm";
    };
    if (const Blob* b = largest_of(faint)) {
      return Refusal{"no projectile found: only a faint change (" + size_of(*b) +
                     ", under the plain threshold) that no projectile model places: not "
                     "adjudicated"};
    }
    if (const Blob* b = largest_of(dark)) {
      return Refusal{"no projectile found: only a darkening a shadow could make changed (" +
                     size_of(*b) + "), which no projectile model matches: not adjudicated"};
    }
    return Refusal{nothing};
  };
  if (blobs.empty()) return look_faint();
  if (blobs.size() == 1 || blobs[1].area_mm2 <= 0.25 * blobs[0].area_mm2) {
    ProjectileResult r = explain(blobs[0]);
    // A shell of a colour near its ground's (yellow on a tan mat) under heavy blur clears the
    // plain change test only at its core, a few mm across, which neither model takes (`hard`
    // 109 scene 4: "a change of 8 x 5 mm"); so does a Q-tip's dark painted head whose white
    // stick blurs into a pale mat (109 scene 1: "10 x 7 mm"). The whole shape is looked for in
    // the faint change around that core, as when nothing clears the plain test.
    const auto* refusal = std::get_if<Refusal>(&r);
    const Blob& core = blobs[0];
    if (!refusal || core.from_outside || refusal->reason.find(kNeitherModel) == std::string::npos)
      return r;
    const double core_length_mm = FitLine(core.pts, mm).length_mm;
    const bool shell_core = opt.expect != "qtip" &&
                            core.area_mm2 < opt.shell_side_mm * opt.shell_side_mm &&
                            core_length_mm < kCoreMaxShellSideShare * opt.shell_side_mm;
    const bool head_core = opt.expect != "shell" &&
                           core_length_mm < kFaintSinglePieceMinHeads * opt.qtip_head_length_mm;
    if (!shell_core && !head_core) return r;
    std::vector<Blob> around;
    for (Blob& f : regions_of(ChangeMask(top_before, top_after, kFaintChangeShare * opt.min_change,
                                         view.PxPerCameraPx()))) {
      // The core alone in it: other plain changes inside the faint region are no one
      // projectile's faint edges (glints around a square of figures with a dark spot in its
      // middle).
      const bool core_alone = std::none_of(blobs.begin() + 1, blobs.end(), [&](const Blob& o) {
        return (o.box & f.box).area() > 0;
      });
      if ((f.box & core.box) == core.box && core_alone) around.push_back(std::move(f));
    }
    std::string faint_refusal;
    if (shell_core) {
      std::vector<Blob> shell_sized;
      for (const Blob& f : around) {
        if (f.area_mm2 >= kCoreShellMinFaintFill * opt.shell_side_mm * opt.shell_side_mm)
          shell_sized.push_back(f);
      }
      const auto shell = faint_shell(shell_sized, faint_refusal);
      if (const auto* o = std::get_if<ProjectileObservation>(&shell)) {
        ProjectileObservation seen = *o;
        seen.note = "a shell seen plainly only at its core (" + Mm(core.area_mm2) +
                    " mm^2), matched by the whole model in the faint change around it";
        return seen;
      }
    }
    if (head_core) {
      const auto qtip =
          faint_qtip(around, "its head plain, the rest under the plain threshold", false);
      if (qtip && std::holds_alternative<ProjectileObservation>(*qtip)) return *qtip;
      ProjectileResult any = explain(core, false, true, true);
      if (auto* o = std::get_if<ProjectileObservation>(&any)) {
        o->note = "a Q-tip seen plainly only at its head, the whole model matched around it";
        return any;
      }
    }
    if (!faint_refusal.empty()) return Refusal{faint_refusal};
    return r;
  }
  // Several regions of similar size changed. Adjudicated only when exactly one is a projectile
  // and every other is small beside it, away from it and explained by no model (noise, a
  // figure's shadow).
  const std::string several = "more than one thing changed (" + std::to_string(blobs.size()) +
                              " regions): cannot tell which is the projectile, frame refused";
  const auto explain_several = [&]() -> ProjectileResult {
    std::optional<ProjectileObservation> found;
    size_t found_at = 0;
    std::vector<bool> joined(blobs.size(), false);
    if (const std::vector<size_t> line = PiecesAlongAQtip(blobs, opt, mm); !line.empty()) {
      Blob merged{{}, 0.0, blobs[line[0]].box};
      for (const size_t i : line) {
        merged.pts.insert(merged.pts.end(), blobs[i].pts.begin(), blobs[i].pts.end());
        merged.area_mm2 += blobs[i].area_mm2;
        merged.box |= blobs[i].box;
      }
      ProjectileResult r = explain(merged, true);
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
      const ProjectileResult r = explain(blobs[i]);
      const auto* o = std::get_if<ProjectileObservation>(&r);
      if (!o) continue;
      if (found && cv::norm(found->point_px - o->point_px) * mm > opt.qtip_head_length_mm)
        return Refusal{several};  // two projectiles
      if (!found) found = *o, found_at = i;
    }
    if (!found) return Refusal{several};
    const Blob& chosen = blobs[found_at];
    const auto along_projectile = [&](const Blob& other) {
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
  };
  ProjectileResult r = explain_several();
  // Only specks cleared the plain test (a white stick under heavy blur on a pale mat: its
  // brightest bits, `hard` 103 scene 3), and they are no one projectile: it is looked for in
  // the faint change as when nothing cleared the plain test, and taken only when every speck
  // lies along what it finds.
  const double speck_mm2 = opt.qtip_head_length_mm * opt.qtip_head_diameter_mm;
  const auto* refusal = std::get_if<Refusal>(&r);
  if (refusal && refusal->reason == several &&
      std::all_of(blobs.begin(), blobs.end(),
                  [&](const Blob& b) { return b.area_mm2 < speck_mm2 && !b.from_outside; })) {
    ProjectileResult faint = look_faint();
    if (auto* o = std::get_if<ProjectileObservation>(&faint);
        o && std::all_of(blobs.begin(), blobs.end(),
                         [&](const Blob& b) { return AlongProjectile(*o, b.pts, opt, mm); })) {
      o->note = (o->note.empty() ? "" : o->note + "; ") + "the plain change only " +
                std::to_string(blobs.size()) + " specks along it";
      return faint;
    }
  }
  return r;
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
  // ground; a shell by its colour, or, for shells of another colour, by how much it stands out
  // of its surroundings in each frame. Not a Q-tip so: one lying across a stand covers figures
  // and borders that stand out of the stand around them more than the thin stick does (`hard`
  // 89 scene 9: 148 levels in `before`, 42 in `after`).
  bool taken = false, shell_unseen_in_after = false;
  if (qtip) {
    taken =
        TakenAway(MeasureStickWhiteness(top_before, after_lit, o->point_px, o->other_end_px,
                                        half_width_mm / mm, ring_from_mm / mm, ring_to_mm / mm)) ||
        TakenAway(
            CountWhiteWay(top_before, after_lit, o->point_px, o->other_end_px, half_width_mm / mm));
  } else {
    const ShellColourShare share =
        MeasureShellColourShare(top_before, after_lit, o->point_px, half_width_mm / mm,
                                opt.shell_bgr, kShellChromaTolerance);
    const ObjectContrast contrast =
        MeasureObjectContrast(top_before, after_lit, o->point_px, o->other_end_px,
                              half_width_mm / mm, ring_from_mm / mm, ring_to_mm / mm);
    taken = TakenAway(share) || TakenAway(contrast);
    shell_unseen_in_after = !ShownInAfter(o->dot_seen, share, contrast);
  }
  if (!qtip && Saturation(opt.shell_bgr) >= kColourlessSaturation &&
      WhiteChangeShare(top_before, after_lit, o->point_px, half_width_mm / mm) >=
          opt.max_white_share_shell) {
    return Refusal{
        "a change of a shell's size that is white like a Q-tip's cotton, not the "
        "shells' colour (a Q-tip's head, the rest of it hidden?): not adjudicated"};
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
