#include "vision/qtip_model.hpp"
#include "engine/order_statistics.hpp"
#include "vision/stand_surface.hpp"
#include "vision/white_change.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

#include <opencv2/imgproc.hpp>

namespace referee {

namespace {

// Profiles sampled along the fitted axis: column i is at u = u0 + i * step (px along the axis
// from the centre), row j at v = v0 + j * step across it.
struct Strip {
  cv::Point2d centre, axis, across;
  double u0 = 0, v0 = 0, step = 0.5;
  cv::Mat before, after, change, raw;  // CV_32FC3, CV_32FC3, CV_32F, CV_32F; rows v, cols u
  int Col(double u) const {
    return std::clamp(static_cast<int>(std::lround((u - u0) / step)), 0, change.cols - 1);
  }
  double U(double col) const { return u0 + col * step; }
  double V(int row) const { return v0 + row * step; }
  cv::Point2d At(double u) const { return centre + u * axis; }
};

Strip SampleStrip(const cv::Mat& before, const cv::Mat& after, const cv::Mat& change,
                  const cv::Mat& raw, cv::Point2d centre, cv::Point2d axis, double u_lo,
                  double u_hi, double half_v) {
  Strip s;
  s.centre = centre;
  s.axis = axis;
  s.across = {-axis.y, axis.x};
  s.u0 = u_lo;
  s.v0 = -half_v;
  const int nu = static_cast<int>(std::ceil((u_hi - u_lo) / s.step)) + 1;
  const int nv = static_cast<int>(std::ceil(2 * half_v / s.step)) + 1;
  cv::Mat map(nv, nu, CV_32FC2);
  for (int j = 0; j < nv; ++j) {
    for (int i = 0; i < nu; ++i) {
      const cv::Point2d p = centre + s.U(i) * axis + s.V(j) * s.across;
      map.at<cv::Vec2f>(j, i) = {static_cast<float>(p.x), static_cast<float>(p.y)};
    }
  }
  cv::Mat b, a;
  before.convertTo(b, CV_32FC3);
  after.convertTo(a, CV_32FC3);
  cv::remap(b, s.before, map, cv::Mat(), cv::INTER_LINEAR, cv::BORDER_REPLICATE);
  cv::remap(a, s.after, map, cv::Mat(), cv::INTER_LINEAR, cv::BORDER_REPLICATE);
  cv::remap(change, s.change, map, cv::Mat(), cv::INTER_LINEAR, cv::BORDER_CONSTANT);
  cv::remap(raw, s.raw, map, cv::Mat(), cv::INTER_LINEAR, cv::BORDER_CONSTANT);
  return s;
}

// The column range [lo, hi] (inclusive) of the run of `on` columns that contains `seed`,
// bridging gaps up to `max_gap` columns.
std::pair<int, int> RunAround(const std::vector<bool>& on, int seed, int max_gap) {
  int lo = seed, hi = seed, gap = 0;
  for (int i = seed; i >= 0; --i) {
    if (on[static_cast<size_t>(i)]) {
      lo = i;
      gap = 0;
    } else if (++gap > max_gap) {
      break;
    }
  }
  gap = 0;
  for (int i = seed; i < static_cast<int>(on.size()); ++i) {
    if (on[static_cast<size_t>(i)]) {
      hi = i;
      gap = 0;
    } else if (++gap > max_gap) {
      break;
    }
  }
  return {lo, hi};
}

// Where `profile` falls from `high` to below `level`, walking from column `from` in direction
// `dir` (+1/-1) for at most `max_cols`; linear interpolation between columns.
std::optional<double> Crossing(const std::vector<double>& profile, int from, int dir, double level,
                               int max_cols) {
  for (int k = 0; k < max_cols; ++k) {
    const int i = from + dir * k, n = i + dir;
    if (i < 0 || n < 0 || i >= static_cast<int>(profile.size()) ||
        n >= static_cast<int>(profile.size()))
      return std::nullopt;
    const double a = profile[static_cast<size_t>(i)], b = profile[static_cast<size_t>(n)];
    if (a >= level && b < level) return i + dir * (a - level) / std::max(1e-9, a - b);
  }
  return std::nullopt;
}

double MeanOver(const std::vector<double>& p, int a, int b) {
  if (a > b) std::swap(a, b);
  a = std::max(a, 0);
  b = std::min(b, static_cast<int>(p.size()) - 1);
  double s = 0;
  int n = 0;
  for (int i = a; i <= b; ++i, ++n) s += p[static_cast<size_t>(i)];
  return n ? s / n : 0.0;
}

std::vector<double> Slice(const std::vector<double>& p, int a, int b) {
  if (a > b) std::swap(a, b);
  a = std::max(a, 0);
  b = std::min(b, static_cast<int>(p.size()) - 1);
  return a <= b ? std::vector<double>(p.begin() + a, p.begin() + b + 1) : std::vector<double>{};
}

// How far a painted head's measured end may lie from one head length past the white stick,
// share of the head's length. Default 0.4 (as for a head placed past the stick): heads are cut
// and dipped by hand, and the stick's end blurs into a dark head.
constexpr double kHeadLengthTolerance = 0.4;

// Where the white material stops on the painted side, columns (sub-pixel): walking in from the
// painted end `end` toward `mid` to the first column whose white is over `level`, then out to
// where it falls under it within `max_cols`. The matched model's end (a faint Q-tip) may lie
// past the white, in the head's shadow.
double WhiteStops(const std::vector<double>& white, int end, int mid, int dir, double level,
                  int max_cols) {
  int i = end;
  while (i != mid && white[static_cast<size_t>(i)] < level) i -= dir;
  return Crossing(white, i, dir, level, max_cols).value_or(i);
}

// The outer end of a painted head whose object change was cut short inside it, on the plain
// change `raw` (shadows kept): from the head's strongest change within half a head (`head_cols`)
// inside the cut `end`, out to where it falls half way to the mat's level `mat`. A dark head a
// few camera pixels wide blurs into the mat, and its outer half then darkens every channel
// nearly alike, as a shadow does, so the shadow test drops it while its plain change goes on
// falling to the mat. Empty when the change does not go on past the cut (`beyond_cols` further
// out it is already under that half level) or the head stands less than `min_contrast` over
// the mat.
std::optional<double> CutHeadEnd(const std::vector<double>& raw, int end, int dir, double head_cols,
                                 double beyond_cols, double mat, double min_contrast) {
  const int n = static_cast<int>(raw.size());
  int peak = std::clamp(end, 0, n - 1);
  for (int k = 0; k <= static_cast<int>(0.5 * head_cols); ++k) {
    const int i = end - dir * k;
    if (i < 0 || i >= n) break;
    if (raw[static_cast<size_t>(i)] > raw[static_cast<size_t>(peak)]) peak = i;
  }
  const double top = raw[static_cast<size_t>(peak)];
  const double level = 0.5 * (top + mat);
  const int beyond = end + dir * static_cast<int>(std::lround(beyond_cols));
  if (top - mat < min_contrast || beyond < 0 || beyond >= n ||
      raw[static_cast<size_t>(beyond)] < level)
    return std::nullopt;
  return Crossing(raw, peak, dir, level, static_cast<int>(std::lround(head_cols)));
}

// The outer of two steps down at a head's end: `first` is where the change fell to half its
// plateau; past it (1-3 mm out) it may hold a lower level, the head over a background that
// changes less, before falling to the mat's level (measured past the head's farthest expected
// end, `expected_end` + `tolerance_mm`, on 2 mm). Taken when that lower level stands
// `min_contrast` over the mat's in the plain change `raw` and in the change with shadows
// removed `object`: where the plain change falls half way from it to the mat.
std::optional<double> OuterStep(const std::vector<double>& raw, const std::vector<double>& object,
                                double first, double expected_end, int dir, double col_mm,
                                double tolerance_mm, double min_contrast) {
  const auto col = [&](double from, double mm) {
    return static_cast<int>(std::lround(from + dir * mm / col_mm));
  };
  const int tail_a = col(first, 1.0), tail_b = col(first, 3.0);
  const int far_a = col(expected_end, tolerance_mm + 1.0);
  const int far_b = col(expected_end, tolerance_mm + 3.0);
  const int n = static_cast<int>(raw.size());
  if (std::min({tail_a, tail_b, far_a, far_b}) < 0 || std::max({tail_a, tail_b, far_a, far_b}) >= n)
    return std::nullopt;
  const double tail = Median(Slice(raw, tail_a, tail_b)), far = Median(Slice(raw, far_a, far_b));
  const double tail_object = Median(Slice(object, tail_a, tail_b));
  const double far_object = Median(Slice(object, far_a, far_b));
  if (tail - far < min_contrast || tail_object - far_object < min_contrast) return std::nullopt;
  return Crossing(raw, tail_a, dir, 0.5 * (tail + far), std::abs(far_a - tail_a));
}

// The outer end of a painted head measured from its middle, one head length past where the
// white stick stops (`white_stops`), on the plain change `raw` (shadows kept): where it falls
// half way from the head's level to the mat's (`mat`). A head darker than the mat by about as
// much as the stick is brighter leaves the plain change near nothing where paint meets stick,
// and the shadow test drops the dark head from the object change (it darkens every channel
// alike), so an end found walking out from the object's end lands on the stick. Empty when the
// head does not stand `min_contrast` over the mat there.
std::optional<double> HeadEndPastWhite(const std::vector<double>& raw, double white_stops, int dir,
                                       double head_cols, double mat, double min_contrast) {
  const auto at = [&](double k) {
    return static_cast<int>(std::lround(white_stops + dir * k * head_cols));
  };
  const int n = static_cast<int>(raw.size());
  const int far = at(1.0 + kHeadLengthTolerance);
  if (std::min({at(0.25), at(0.75), far}) < 0 || std::max({at(0.25), at(0.75), far}) >= n)
    return std::nullopt;
  const double top = Median(Slice(raw, at(0.25), at(0.75)));
  if (top - mat < min_contrast) return std::nullopt;
  return Crossing(raw, at(0.5), dir, 0.5 * (top + mat), std::abs(far - at(0.5)));
}

// How much longer than the model a Q-tip measured from its painted head's outer step to its
// plain end may be before an inner step is looked for, mm. Default 3: the heads' blur and a raised
// stick's larger scale in the mat plane (about 1 % at 20 mm up) stay well under it.
constexpr double kLengthSlackMm = 3.0;

// An inner step at a painted head's outer end on the plain change `raw` (shadows kept): from the
// head's strongest change between where its white stops (`white_stops`) and the measured end
// `tip`, out to where the change falls half way to the lower level held just inside `tip` (1-3
// mm). A raised dark head casts its shadow on the mat beyond itself; the shadow darkens the mat
// less than the paint does, and joins the head's end as a lower level before the mat's. Empty
// when there is no such lower level (`min_contrast` under the head and over the mat's level
// `mat`) or the step lies within `min_inside_mm` of `tip`.
std::optional<double> InnerHeadStep(const std::vector<double>& raw, double white_stops, double tip,
                                    int dir, double col_mm, double mat, double min_contrast,
                                    double min_inside_mm) {
  const int n = static_cast<int>(raw.size());
  const int from = static_cast<int>(std::lround(white_stops));
  const int to = static_cast<int>(std::lround(tip - dir * 1.0 / col_mm));
  if (dir * (to - from) <= 0 || std::min(from, to) < 0 || std::max(from, to) >= n)
    return std::nullopt;
  int peak = from;
  for (int i = from; i != to; i += dir) {
    if (raw[static_cast<size_t>(i)] > raw[static_cast<size_t>(peak)]) peak = i;
  }
  const double top = raw[static_cast<size_t>(peak)];
  const double shelf = Median(Slice(raw, static_cast<int>(std::lround(tip - dir * 3.0 / col_mm)),
                                    static_cast<int>(std::lround(tip - dir * 1.0 / col_mm))));
  if (top - shelf < min_contrast || shelf - mat < min_contrast) return std::nullopt;
  const auto inner = Crossing(raw, peak, dir, 0.5 * (top + shelf), std::abs(to - peak) + 1);
  if (!inner || dir * (tip - *inner) * col_mm < min_inside_mm) return std::nullopt;
  return inner;
}

// Least gain of a pixel's three channels, share of its mean gain, for it to count as white
// material. Default 0.25: white cotton over a yellow mat gains little in red and green, but
// still gains; a bright paint over the mat loses in one channel.
constexpr double kWhiteLeastChannelShare = 0.25;

// A plain head is white cotton twice the stick's width (5 over 2.5 mm); the painted head's white
// stops with the stick. The white material summed across the axis keeps that ratio under any
// blur. Where the end taken for the painted head carries the widest white within a head's
// length of its end, at least this many times the stick's in the middle and the other end's,
// the heads contradict the colour. Default 1.75 (most of the way from a stick's 1 to a head's
// 2): the colour of a blurred end is mostly what lies under it, and a plain head over another
// ground than the stick's middle differs from the stick as paint does. At 1.5 a dark-dipped
// head lying along a grid line at 720p, re-exposed by a tenth, read 1.5 times the plain end's
// white (the line gains less than the mat) and its strongly painted Q-tip was refused.
constexpr double kContradictingHeadRatio = 1.75;
// ... and at most this many times: further apart, the stick's middle or the other end is not
// seen (white cotton over a ground as bright as itself changes nothing), so the widths say
// nothing against the colour. Default 4 (twice a head's 2).
constexpr double kMaxComparableHeadRatio = 4.0;
// The other end's widest white must also read as the stick's, within this factor either way:
// only then is the white measured alike along the whole Q-tip, and not a ground that lets white
// cotton gain more at one end (a grey mat) than at the other (a yellow one). Default 1.5.
constexpr double kSameWhiteRatio = 1.5;
// Where the two readings of paint name different heads, one decides only when its margin
// between the heads is at least this many times the other's. Default 1.5.
constexpr double kClearlyMore = 1.5;
// Least white material in the stick's middle, levels x mm summed across it, for paint to be
// read against the ground. Default 20 (a 2.5 mm stick 8 levels brighter than what it covers).
constexpr double kMinStickWhiteForPaint = 20.0;
// White ground (paper): the spread of its channels at most this share of its brightest. 0.25
// takes cream paper (BGR 180, 210, 232 in `hard` 37 scene 4), not a yellow ruler (0.8).
constexpr double kWhiteGroundMaxSpread = 0.25;

// The widest white material within `cols` columns inside the white's end `end` (dir: +1 at
// the high end, -1 at the low end).
double WidestWhiteInside(const std::vector<double>& white, int end, int dir, int cols) {
  double widest = 0;
  for (int k = 0; k <= cols; ++k) {
    const int i = end - dir * k;
    if (i < 0 || i >= static_cast<int>(white.size())) break;
    widest = std::max(widest, white[static_cast<size_t>(i)]);
  }
  return widest;
}

// Whether every point from `a` to `b` (top-view px) lies in `mask` (CV_8U, non-zero): a
// stretch of stick there may be hidden from the camera. False when the mask is empty or the
// stretch leaves the view.
bool HiddenAlong(const cv::Mat& mask, cv::Point2d a, cv::Point2d b) {
  if (mask.empty()) return false;
  const int n = std::max(1, static_cast<int>(std::ceil(cv::norm(b - a))));
  for (int k = 0; k <= n; ++k) {
    const cv::Point2d q = a + (static_cast<double>(k) / n) * (b - a);
    const cv::Point p(cvRound(q.x), cvRound(q.y));
    if (!cv::Rect({0, 0}, mask.size()).contains(p) || !mask.at<uchar>(p)) return false;
  }
  return true;
}

// The mat's colour in the `before` view beside the seen stick (columns `lo`..`hi` of the
// strip) from `clear_px` off its axis (past its heads): the median per channel.
cv::Vec3d MatColourBeside(const Strip& s, int lo, int hi, double clear_px) {
  std::array<std::vector<int>, 3> ch;
  for (int j = 0; j < s.before.rows; ++j) {
    if (std::abs(s.V(j)) < clear_px) continue;
    for (int i = std::max(0, lo); i <= std::min(hi, s.before.cols - 1); ++i) {
      const cv::Vec3f b = s.before.at<cv::Vec3f>(j, i);
      for (int c = 0; c < 3; ++c) ch[static_cast<size_t>(c)].push_back(cvRound(b[c]));
    }
  }
  if (ch[0].empty()) return {0, 0, 0};
  return ChannelMedian(ch);
}

// Share of the `before` view along the part of a stick the camera does not see, from `a` to `b`
// (top-view px), whose pixels pass `test`: sampled on the axis and `side_px` to either side,
// from `skip_px` past `a` (the blur at the seen end); -1 when no sample lies in the view.
template <typename Test>
double ShareAlong(const cv::Mat& top_before, cv::Point2d a, cv::Point2d b, double side_px,
                  double skip_px, const Test& test) {
  const double len = cv::norm(b - a);
  if (len <= skip_px) return -1;
  const cv::Point2d along = (b - a) * (1.0 / len);
  const cv::Point2d across(-along.y, along.x);
  const cv::Rect view({0, 0}, top_before.size());
  int n = 0, passed = 0;
  for (double t = skip_px; t <= len; t += 1.0) {
    for (const double v : {-side_px, 0.0, side_px}) {
      const cv::Point2d q = a + t * along + v * across;
      const cv::Point p(cvRound(q.x), cvRound(q.y));
      if (!view.contains(p)) continue;
      ++n;
      passed += test(top_before.at<cv::Vec3b>(p)) ? 1 : 0;
    }
  }
  return n ? static_cast<double>(passed) / n : -1;
}

// ... that shows the mat (`mat`, BGR): where the mat was in view before the shot, a stick lying
// there would be seen too, so the part is not hidden.
double MatShareAlong(const cv::Mat& top_before, cv::Point2d a, cv::Point2d b, const cv::Vec3d& mat,
                     double side_px, double skip_px) {
  return ShareAlong(top_before, a, b, side_px, skip_px,
                    [&](const cv::Vec3b& g) { return LikeColour(g, mat); });
}

// ... that is white ground: colourless and brighter than the mat beside the stick (`mat`) in
// every channel by `min_lift` levels, as paper is. White cotton lying there changes the view by
// too little to be seen.
double WhiteGroundShareAlong(const cv::Mat& top_before, cv::Point2d a, cv::Point2d b,
                             const cv::Vec3d& mat, double side_px, double skip_px,
                             double min_lift) {
  const double mat_hi = std::max({mat[0], mat[1], mat[2]});
  return ShareAlong(top_before, a, b, side_px, skip_px, [&](const cv::Vec3b& g) {
    const double lo = std::min({g[0], g[1], g[2]}), hi = std::max({g[0], g[1], g[2]});
    return lo >= mat_hi + min_lift && hi - lo <= kWhiteGroundMaxSpread * hi;
  });
}

}  // namespace

std::variant<QtipFit, QtipRefusal> FitQtip(const cv::Mat& top_before, const cv::Mat& top_after,
                                           const cv::Mat& change, const cv::Mat& object_change,
                                           const std::vector<cv::Point>& pixels, double mm_per_px,
                                           bool cut_off, const QtipModelOptions& opt) {
  if (pixels.size() < 5) return QtipRefusal{"change too small for a Q-tip"};
  // Axis: a robust line through the changed pixels.
  std::vector<cv::Point2f> pts(pixels.begin(), pixels.end());
  cv::Vec4f line;
  cv::fitLine(pts, line, cv::DIST_HUBER, 0, 0.01, 0.01);
  const cv::Point2d axis(line[0], line[1]);
  cv::Point2d centre(line[2], line[3]);
  double tmin = 1e18, tmax = -1e18;
  for (const auto& p : pixels) {
    const double t = (cv::Point2d(p) - centre).dot(axis);
    tmin = std::min(tmin, t);
    tmax = std::max(tmax, t);
  }
  centre += 0.5 * (tmin + tmax) * axis;
  const double half_len = 0.5 * (tmax - tmin);
  const double px = 1.0 / mm_per_px;  // px per mm
  const double head = opt.head_length_mm * px;
  const double reach = 2.2 * head;  // room past each end for a head the change mask missed
  const Strip s =
      SampleStrip(top_before, top_after, object_change, change, centre, axis, -half_len - reach,
                  half_len + reach, (0.5 * opt.head_diameter_mm + 2.0) * px);
  const int nu = s.change.cols, nv = s.change.rows;
  const double col_mm = s.step * mm_per_px;

  // Per column: object change near the axis, white material (brightness gained over the mat,
  // summed across), and the core colour.
  std::vector<double> object(static_cast<size_t>(nu)), white(static_cast<size_t>(nu));
  std::vector<double> raw(static_cast<size_t>(nu));
  // White material only: the gain of pixels that every channel gained, as white cotton does (a
  // head dipped in a bright paint brightens the view too, but leaves one channel low).
  std::vector<double> white_only(static_cast<size_t>(nu));
  // Columns whose axis point lies off the top view: their change reads 0, not the mat's.
  std::vector<bool> off_view(static_cast<size_t>(nu));
  std::vector<cv::Vec3d> core(static_cast<size_t>(nu));
  std::vector<cv::Vec3d> core_before(static_cast<size_t>(nu));
  std::vector<double> gains;
  for (int j = 0; j < nv; ++j) {
    for (int i = 0; i < nu; i += 4) {
      const cv::Vec3f a = s.after.at<cv::Vec3f>(j, i), b = s.before.at<cv::Vec3f>(j, i);
      gains.push_back((a[0] + a[1] + a[2] - b[0] - b[1] - b[2]) / 3.0);
    }
  }
  const double gain0 = Median(gains);  // the mat's own change (exposure): not material
  // The same as a factor: an exposure change scales the ground, so a dark grid line gains less
  // than the mat beside it, and white material is what gained beyond that scaling.
  std::vector<double> ratios;
  for (int j = 0; j < nv; ++j) {
    for (int i = 0; i < nu; i += 4) {
      const cv::Vec3f a = s.after.at<cv::Vec3f>(j, i), b = s.before.at<cv::Vec3f>(j, i);
      const double bs = b[0] + b[1] + b[2];
      if (bs > 30.0) ratios.push_back((a[0] + a[1] + a[2]) / bs);
    }
  }
  const double exposure = ratios.empty() ? 1.0 : Median(ratios);
  const double core_v = 0.5 * opt.stick_diameter_mm * px;
  const double object_v = (0.5 * opt.head_diameter_mm - 0.5) * px;
  // The end is measured on the plain change (shadows kept) in a narrow band on the axis: the
  // shadow test is unreliable on the blurred pixels right at the end.
  const double edge_v = 0.3 * opt.head_diameter_mm * px;
  for (int i = 0; i < nu; ++i) {
    double best = 0, w = 0, w_only = 0, r = 0;
    int nr = 0;
    cv::Vec3d c(0, 0, 0), cb(0, 0, 0);
    int nc = 0;
    for (int j = 0; j < nv; ++j) {
      const double v = std::abs(s.V(j));
      const cv::Vec3f a = s.after.at<cv::Vec3f>(j, i), b = s.before.at<cv::Vec3f>(j, i);
      const double gained = (a[0] + a[1] + a[2] - b[0] - b[1] - b[2]) / 3.0 - gain0;
      w += std::max(0.0, gained);
      const double scaled =
          (a[0] + a[1] + a[2] - exposure * (b[0] + b[1] + b[2])) / 3.0;  // beyond the exposure
      const double least =
          std::min({a[0] - exposure * b[0], a[1] - exposure * b[1], a[2] - exposure * b[2]});
      if (scaled > 0 && least >= kWhiteLeastChannelShare * scaled) w_only += scaled;
      if (v <= object_v) best = std::max(best, static_cast<double>(s.change.at<float>(j, i)));
      if (v <= edge_v) {
        r += s.raw.at<float>(j, i);
        ++nr;
      }
      if (v <= core_v) {
        c += cv::Vec3d(a);
        cb += cv::Vec3d(b);
        ++nc;
      }
    }
    object[static_cast<size_t>(i)] = best;
    const cv::Point2d on_axis = s.At(s.U(i));
    off_view[static_cast<size_t>(i)] = on_axis.x < 0 || on_axis.y < 0 ||
                                       on_axis.x > top_before.cols - 1 ||
                                       on_axis.y > top_before.rows - 1;
    raw[static_cast<size_t>(i)] = nr ? r / nr : 0.0;
    white[static_cast<size_t>(i)] = w * s.step * mm_per_px;  // level x mm
    white_only[static_cast<size_t>(i)] = w_only * s.step * mm_per_px;
    core[static_cast<size_t>(i)] = nc ? c * (1.0 / nc) : c;
    core_before[static_cast<size_t>(i)] = nc ? cb * (1.0 / nc) : cb;
  }

  // Extents: the object (anything but shadow) and the white material, around the middle.
  const int mid = s.Col(0.0);
  const int mid_half = std::max(1, static_cast<int>(0.2 * half_len / s.step));
  const double object_mid = Median(Slice(object, mid - mid_half, mid + mid_half));
  const double white_mid = Median(Slice(white, mid - mid_half, mid + mid_half));
  if (white_mid <= 1e-6) return QtipRefusal{"a long thin change that is not white: not a Q-tip"};
  // The mat's level and noise beyond the ends, where they lie on the top view. Past its edge
  // the change reads 0: counted, those zeros would split the sample in two, and the spread of
  // the split (several times the noise) would hide the stick itself.
  const auto beyond_ends = [&](const std::vector<double>& p) {
    std::vector<double> out;
    for (int i = 0; i < nu; ++i) {
      const bool beyond = i <= s.Col(-half_len - 0.6 * reach) || i >= s.Col(half_len + 0.6 * reach);
      if (beyond && !off_view[static_cast<size_t>(i)]) out.push_back(p[static_cast<size_t>(i)]);
    }
    return out;
  };
  const std::vector<double> outside = beyond_ends(object);
  const double bg = Median(outside);
  std::vector<double> dev;
  dev.reserve(outside.size());
  for (double v : outside) dev.push_back(std::abs(v - bg));
  const double noise = std::max(1.0, 1.4826 * Median(dev));
  // The mat's plain change around the stick (shadows kept), where a head's edge falls to.
  const std::vector<double> raw_outside = beyond_ends(raw);
  const double mat_raw = Median(raw_outside);
  // The noise threshold is capped at half the stick's own change: a base's border changing
  // under an exposure drift beyond one end swells the pooled noise to the stick's own level.
  std::vector<bool> is_object(static_cast<size_t>(nu)), is_white(static_cast<size_t>(nu));
  for (int i = 0; i < nu; ++i) {
    is_object[static_cast<size_t>(i)] =
        object[static_cast<size_t>(i)] >
        std::max(bg + 0.25 * (object_mid - bg),
                 std::min(bg + 3 * noise, bg + 0.5 * (object_mid - bg)));
    is_white[static_cast<size_t>(i)] = white[static_cast<size_t>(i)] > 0.5 * white_mid;
  }
  const int gap = static_cast<int>(4.0 / col_mm);
  auto [o_lo, o_hi] = RunAround(is_object, mid, gap);
  auto [w_lo, w_hi] = RunAround(is_white, mid, gap);
  if (opt.extent_from_pixels) {
    o_lo = w_lo = s.Col(-half_len);
    o_hi = w_hi = s.Col(half_len);
  }

  // Which head is painted. Colour: the end of the object whose colour differs from the stick.
  cv::Vec3d stick(0, 0, 0);
  for (int i = mid - mid_half; i <= mid + mid_half; ++i) stick += core[static_cast<size_t>(i)];
  stick *= 1.0 / (2 * mid_half + 1);
  // Paint evidence of an end: its colour change from the stick, not counting an even gain in
  // brightness (the plain head is more white cotton than the thin stick, not paint). Hue and
  // darkening count: a head dipped in any colour but white shows as one or both.
  const auto end_colour = [&](int end, int dir) {
    cv::Vec3d c(0, 0, 0);
    int n = 0;
    for (double d = 2.0; d <= 0.75 * opt.head_length_mm; d += col_mm, ++n)
      c += core[static_cast<size_t>(
          std::clamp(end - dir * static_cast<int>(d / col_mm), 0, nu - 1))];
    const cv::Vec3d diff = c * (1.0 / std::max(1, n)) - stick;
    const double grey = (diff[0] + diff[1] + diff[2]) / 3.0;
    const cv::Vec3d hue = diff - cv::Vec3d(grey, grey, grey);
    return std::hypot(cv::norm(hue), std::sqrt(3.0) * std::max(0.0, -grey));
  };
  const double colour_lo = end_colour(o_lo, -1), colour_hi = end_colour(o_hi, +1);
  // Paint evidence of an end judged against what lies under it in `before` (OffWhiteWay).
  const auto end_paint = [&](int end, int dir) {
    cv::Vec3d a(0, 0, 0), b(0, 0, 0);
    int n = 0;
    for (double d = 2.0; d <= 0.75 * opt.head_length_mm; d += col_mm, ++n) {
      const auto k =
          static_cast<size_t>(std::clamp(end - dir * static_cast<int>(d / col_mm), 0, nu - 1));
      a += core[k];
      b += core_before[k];
    }
    const double inv = 1.0 / std::max(1, n);
    return OffWhiteWay(a * inv, exposure * (b * inv));
  };
  const double paint_lo = end_paint(o_lo, -1), paint_hi = end_paint(o_hi, +1);
  // Width: white material ends wide at the plain head, thin where the stick meets the paint.
  const auto end_width = [&](int end, int dir) {
    return MeanOver(white, end - dir * static_cast<int>(2.0 / col_mm),
                    end - dir * static_cast<int>(7.0 / col_mm)) /
           white_mid;
  };
  const double width_lo = end_width(w_lo, -1), width_hi = end_width(w_hi, +1);
  const double by_colour = colour_hi - colour_lo;  // > 0: the hi end is painted
  const double by_paint = paint_hi - paint_lo;     // > 0: the hi end is painted
  const double by_width = width_lo - width_hi;     // > 0: the hi end is thin, so painted
  // Two readings of paint. Against the stick: an end's colour once blurred is mostly what lies
  // under it, so a plain head over a yellow ruler differs from a stick over a brown mat as
  // paint would (`hard` 47 scene 4: that head taken for the painted one, the tip 76 mm off).
  // Against its own ground: a dark head over white paper is paint though the stick there is as
  // white as the paper; over a ground of its own colour it barely changes the view. Where the
  // two name different ends, the one that names its end by clearly more decides, else neither.
  // The ground reading holds only for white cotton seen in `after`: where the stick's middle
  // gained next to no white, `after` may be the frame without the Q-tip (one picked up), whose
  // revealed ground reads as paint at either end (`hard` 17 scene 10 played the other way
  // round: 0.04 level mm, ruled; Q-tips at rest read 95-383).
  const bool paint_says =
      white_mid >= kMinStickWhiteForPaint && std::abs(by_paint) >= opt.min_paint_contrast;
  const bool stick_says = std::abs(by_colour) >= opt.min_paint_contrast;
  if (paint_says && stick_says && (by_paint > 0) != (by_colour > 0) &&
      std::abs(by_paint) < kClearlyMore * std::abs(by_colour) &&
      std::abs(by_colour) < kClearlyMore * std::abs(by_paint)) {
    return QtipRefusal{
        "the painted head cannot be told: its colour against the stick and "
        "against what it lies on name different heads"};
  }
  const bool paint_decides =
      paint_says && (!stick_says || std::abs(by_paint) >= std::abs(by_colour));
  const bool colour_says = paint_says || stick_says;
  // Width is the weaker cue (a dipped head may keep a white band next to the stick): it only
  // decides when the paint does not show.
  const bool width_says = std::abs(by_width) >= 0.4;
  // Neither cue: refuse rather than guess an end (a wrong end moves the impact by a whole
  // Q-tip length).
  if (!colour_says && !width_says) {
    return QtipRefusal{"the painted head cannot be told: no paint shows and both heads look alike"};
  }
  const bool hi_painted = paint_decides ? by_paint > 0 : colour_says ? by_colour > 0 : by_width > 0;
  const int dir = hi_painted ? +1 : -1;
  {
    // The head taken for the painted one must not be the one white head as wide as a plain
    // head: then the cues disagree, and a wrong head moves the impact by a Q-tip's length.
    const int head_cols = static_cast<int>(std::lround((opt.head_length_mm + 2.0) / col_mm));
    const double stick_only = Median(Slice(white_only, mid - mid_half, mid + mid_half));
    const double painted_white =
        WidestWhiteInside(white_only, hi_painted ? w_hi : w_lo, dir, head_cols);
    const double plain_white =
        WidestWhiteInside(white_only, hi_painted ? w_lo : w_hi, -dir, head_cols);
    const auto between = [](double wide, double thin) {
      return wide >= kContradictingHeadRatio * thin && wide <= kMaxComparableHeadRatio * thin;
    };
    const bool plain_is_stick =
        plain_white <= kSameWhiteRatio * stick_only && stick_only <= kSameWhiteRatio * plain_white;
    if (between(painted_white, stick_only) && between(painted_white, plain_white) &&
        plain_is_stick) {
      return QtipRefusal{std::string("the painted head cannot be told: the head its ") +
                         (colour_says ? "colour" : "width") +
                         " calls painted is white cotton as wide as a plain head, the other is "
                         "not"};
    }
  }

  QtipFit fit;
  fit.painted_by = colour_says ? "colour" : "width";
  // An object end at sub-pixel precision: where the change falls to half way between the
  // head's plateau and the mat, walking outward.
  const auto edge = [&](int end, int d) -> std::optional<double> {
    // The plateau just inside the end: a dipped head is often painted only near its end.
    const double plateau = Median(Slice(raw, end - d * static_cast<int>(1.5 / col_mm),
                                        end - d * static_cast<int>(5.0 / col_mm)));
    const double far = Median(Slice(raw, end + d * static_cast<int>(4.0 / col_mm),
                                    end + d * static_cast<int>(5.0 / col_mm)));
    if (plateau - far < opt.min_edge_snr * noise) return std::nullopt;
    return Crossing(raw, end - d * static_cast<int>(3.0 / col_mm), d, 0.5 * (plateau + far),
                    static_cast<int>(7.0 / col_mm));
  };
  const int painted_end = hi_painted ? o_hi : o_lo;
  const int white_end = hi_painted ? w_hi : w_lo;
  std::optional<double> tip_col;
  // A painted head ends about one head length past the white stick.
  const double head_cols = head / s.step;
  const double white_stops =
      WhiteStops(white, painted_end, mid, dir, 0.5 * white_mid, static_cast<int>(6.0 / col_mm));
  const auto near_head_end = [&](double col) {
    return std::abs(col - (white_stops + dir * head_cols)) * col_mm <=
           kHeadLengthTolerance * opt.head_length_mm;
  };
  if (colour_says) {
    tip_col = edge(painted_end, dir);
    if (!tip_col) {
      // The object may end inside a dark head (see CutHeadEnd); its end on the plain change is
      // taken only there (a shadow cast beyond the head would carry it further out).
      const auto cut = CutHeadEnd(raw, painted_end, dir, head_cols, 2.0 / col_mm, mat_raw,
                                  opt.min_edge_snr * noise);
      if (cut && near_head_end(*cut)) tip_col = cut;
    }
    // Ended well short of one head length past the stick: the head's outer part may lie over
    // something as dark as its paint (a grid line), where it changes the view less. The
    // object goes on when the change holds a lower level past that first step, shadows
    // removed too (a raised head's shadow beyond it is no object); it ends at the outer step.
    if (tip_col && dir * (white_stops + dir * head_cols - *tip_col) * col_mm >
                       kHeadLengthTolerance * opt.head_length_mm) {
      const auto outer =
          OuterStep(raw, object, *tip_col, white_stops + dir * head_cols, dir, col_mm,
                    kHeadLengthTolerance * opt.head_length_mm, opt.min_edge_snr * noise);
      if (outer && near_head_end(*outer)) tip_col = outer;
    }
    // Still not about one head length past the white stick, or no end found walking out from
    // the object's (a dark head as much under the mat as the stick is over it, its plain
    // change level from stick to head): measure the head itself there.
    if (!tip_col || !near_head_end(*tip_col)) {
      const auto past =
          HeadEndPastWhite(raw, white_stops, dir, head_cols, mat_raw, opt.min_edge_snr * noise);
      if (past && near_head_end(*past)) tip_col = past;
    }
  } else {
    // The paint hides against the mat: look for the head's outer edge one head length past
    // the white stick, else place it there. A matched model as long as a whole Q-tip (within
    // half a head) took in the painted head: its end is the whole object's, not the white's,
    // and the white's own end is found walking in from it. A shorter one ends with the white
    // (the head changed the view too little to be matched).
    const bool model_took_head =
        opt.extent_from_pixels &&
        2.0 * half_len * mm_per_px >= opt.length_mm - 0.5 * opt.head_length_mm;
    const double junction = model_took_head
                                ? WhiteStops(white, white_end, mid, dir, 0.5 * white_mid,
                                             static_cast<int>(6.0 / col_mm))
                                : Crossing(white, white_end - dir * static_cast<int>(3.0 / col_mm),
                                           dir, 0.5 * white_mid, static_cast<int>(6.0 / col_mm))
                                      .value_or(white_end);
    const int expected = static_cast<int>(std::lround(junction + dir * head / s.step));
    tip_col = edge(expected, dir);
    if (tip_col && std::abs(*tip_col - expected) * col_mm > 0.4 * opt.head_length_mm)
      tip_col.reset();
    if (!tip_col) {
      tip_col = expected;
      fit.tip_from_edge = false;
    }
  }
  if (!tip_col && opt.extent_from_pixels) {
    tip_col = painted_end;  // the matched model's end
    fit.tip_from_edge = false;
  }
  if (colour_says && tip_col) {
    // A head ends one head length past the white stick. A change running on further out is
    // not the head (the shadow a raised head casts on the mat beyond it, dark in every
    // channel alike): the head ends where its object change, shadows removed, falls off
    // about there.
    if (dir * (*tip_col - white_stops) * col_mm >
        (1.0 + kHeadLengthTolerance) * opt.head_length_mm) {
      const auto at = [&](double k) {
        return static_cast<int>(std::lround(white_stops + dir * k * head_cols));
      };
      const double top = Median(Slice(object, at(0.25), at(0.75)));
      const auto end = top - bg >= opt.min_edge_snr * noise
                           ? Crossing(object, at(0.5), dir, 0.5 * (top + bg),
                                      std::abs(at(1.0 + kHeadLengthTolerance) - at(0.5)))
                           : std::nullopt;
      // Without such an end the measured one stands (a pale stick fading early into the mat
      // also leaves its white short of the head).
      if (end && near_head_end(*end)) {
        tip_col = end;
        fit.tip_from_edge = true;
      }
    }
  }
  if (!tip_col) {
    return QtipRefusal{"Q-tip found but the outer end of its painted head cannot be measured"};
  }
  const int plain_end = hi_painted ? o_lo : o_hi;
  const std::optional<double> plain_edge = edge(plain_end, -dir);
  const double plain_col = plain_edge.value_or(plain_end);
  // A raised dark head's shadow on the mat beyond it joins the head: its end, measured to where
  // the change falls to the mat, is then the shadow's, and the Q-tip comes out longer than it
  // is. When it is too long by more than the blur and the head's change holds a lower level
  // before its end, the head ends at the inner step if the Q-tip's known length says so. The
  // plain end must be measured (not cut off, its edge found): the shadow lies beyond one end
  // only, the one the lamp is behind.
  if (colour_says && !cut_off && plain_edge &&
      std::abs(*tip_col - plain_col) * col_mm > opt.length_mm + kLengthSlackMm) {
    const auto inner = InnerHeadStep(raw, white_stops, *tip_col, dir, col_mm, mat_raw,
                                     opt.min_edge_snr * noise, 2.0);
    if (inner &&
        std::abs(std::abs(*inner - plain_col) * col_mm - opt.length_mm) <= kLengthSlackMm) {
      tip_col = inner;
    }
  }
  fit.tip_px = s.At(s.U(*tip_col));
  fit.plain_end_px = s.At(s.U(plain_col));
  // The plain end is where the stick leaves the view: the strip runs out, or off the view,
  // within a few columns past it.
  bool plain_cut = false;
  for (int k = 1; k <= 3 && cut_off && !plain_cut; ++k) {
    const int past = plain_end + (hi_painted ? -k : k);
    plain_cut = past < 0 || past >= nu || off_view[static_cast<size_t>(past)];
  }
  const double seen_mm = cv::norm(fit.tip_px - fit.plain_end_px) * mm_per_px;
  const double min_seen_mm = opt.min_seen_share * opt.length_mm;
  if (plain_cut && seen_mm < min_seen_mm) {
    return QtipRefusal{"a Q-tip running out of the view with " +
                       std::to_string(static_cast<int>(std::lround(seen_mm))) +
                       " mm seen: too little to give its axis: not adjudicated"};
  }
  fit.length_mm = plain_cut ? 0.0 : seen_mm;
  fit.plain_end_cut = plain_cut;
  // A part of the stick the camera does not see, from `a` to `b`, lies under terrain that hid it
  // when what the camera saw there before the shot is not the mat (a tree's crown or a roof
  // stood there: a stick on the mat there would have been seen); `mat`: the mat beside the
  // seen stick in `before`.
  const double side_px = 0.5 * opt.stick_diameter_mm * px;
  const double skip_px = opt.hidden_end_skip_mm * px;
  const auto mat_beside = [&, lo = o_lo, hi = o_hi] {
    return MatColourBeside(s, lo, hi, (0.5 * opt.head_diameter_mm + 1.0) * px);
  };
  const auto not_mat_before = [&](cv::Point2d a, cv::Point2d b, const cv::Vec3d& mat) {
    const double share = MatShareAlong(top_before, a, b, mat, side_px, skip_px);
    return share >= 0 && share <= opt.max_mat_share_hidden;
  };
  // Seen short with its painted head measured by its paint and no head at the other end: the
  // stick may run on under a tree crown or a house, which hides it from the camera.
  const double plain_width = hi_painted ? width_lo : width_hi;
  if (!cut_off && colour_says && fit.tip_from_edge &&
      fit.length_mm < (1.0 - opt.size_tolerance) * opt.length_mm && fit.length_mm >= min_seen_mm) {
    const cv::Point2d model_end =
        fit.tip_px + (opt.length_mm / fit.length_mm) * (fit.plain_end_px - fit.tip_px);
    // The seen end is the stick going on unseen, not its plain head, when it is thin, or when
    // the camera saw no mat along the missing part before the shot. Blur widens a stick cut off
    // at a crown's edge as much as a head.
    const cv::Vec3d mat = mat_beside();
    const bool hidden_end = HiddenAlong(opt.tall_terrain, fit.plain_end_px, model_end) &&
                            (plain_width <= opt.max_hidden_end_width ||
                             not_mat_before(fit.plain_end_px, model_end, mat));
    // ... or it lies on white paper there: white cotton on white changes nothing (`hard` 37
    // scene 4: the painted head and 37 mm of stick on the mat, the rest on a sheet of paper).
    const double white_share =
        hidden_end ? -1
                   : WhiteGroundShareAlong(top_before, fit.plain_end_px, model_end, mat, side_px,
                                           skip_px, opt.min_white_ground_lift);
    const bool on_white = white_share >= opt.min_white_ground_share;
    if (hidden_end || on_white) {
      fit.plain_end_px = model_end;
      fit.length_mm = 0.0;
      fit.plain_end_hidden = true;
      fit.plain_end_on_white = on_white;
      return fit;
    }
  }
  // Seen short with its painted head ending where tall terrain that hid the mat before the shot
  // begins: the head may run on under a crown or a roof, its tip unseen (`hard` 331 scene 11,
  // calibrated: 69 of 75 mm seen, the tip ruled at the crowns' edge 6.36 mm short).
  if (!cut_off && fit.length_mm > 0 && fit.length_mm < opt.length_mm - kLengthSlackMm) {
    const cv::Point2d past_tip = fit.tip_px + ((opt.length_mm - fit.length_mm) / fit.length_mm) *
                                                  (fit.tip_px - fit.plain_end_px);
    if (HiddenAlong(opt.tall_terrain, fit.tip_px, past_tip) &&
        not_mat_before(fit.tip_px, past_tip, mat_beside())) {
      return QtipRefusal{"the Q-tip's painted head runs on under tall terrain (" +
                         std::to_string(static_cast<int>(std::lround(fit.length_mm))) + " of " +
                         std::to_string(static_cast<int>(std::lround(opt.length_mm))) +
                         " mm seen): its tip is hidden from the camera: not adjudicated"};
    }
  }
  if (!cut_off && std::abs(fit.length_mm - opt.length_mm) > opt.size_tolerance * opt.length_mm) {
    return QtipRefusal{"Q-tip-like change of the wrong length (" +
                       std::to_string(static_cast<int>(std::lround(fit.length_mm))) +
                       " mm): not adjudicated"};
  }
  return fit;
}

}  // namespace referee
