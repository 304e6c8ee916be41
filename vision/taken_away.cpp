#include "vision/taken_away.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <vector>

#include "engine/order_statistics.hpp"
#include "vision/stand_surface.hpp"
#include "vision/stick_middle.hpp"

namespace referee {

namespace {

// Distance of a point from the segment a-b.
double SegmentDistance(cv::Point2d p, cv::Point2d a, cv::Point2d b) {
  const cv::Point2d ab = b - a;
  const double ab2 = ab.dot(ab);
  const double t = ab2 > 1e-9 ? std::clamp((p - a).dot(ab) / ab2, 0.0, 1.0) : 0.0;
  return cv::norm(p - (a + t * ab));
}

}  // namespace

ObjectContrast MeasureObjectContrast(const cv::Mat& before, const cv::Mat& after, cv::Point2d a,
                                     cv::Point2d b, double half_width_px, double ring_from_px,
                                     double ring_to_px) {
  ObjectContrast out;
  const int r = static_cast<int>(std::ceil(ring_to_px)) + 1;
  const cv::Rect box =
      cv::Rect(cv::Point(static_cast<int>(std::floor(std::min(a.x, b.x))) - r,
                         static_cast<int>(std::floor(std::min(a.y, b.y))) - r),
               cv::Point(static_cast<int>(std::ceil(std::max(a.x, b.x))) + r + 1,
                         static_cast<int>(std::ceil(std::max(a.y, b.y))) + r + 1)) &
      cv::Rect({0, 0}, before.size());
  std::array<std::array<std::vector<int>, 3>, 2> ring;  // per frame, per channel
  std::vector<cv::Point> footprint;
  for (int y = box.y; y < box.br().y; ++y) {
    for (int x = box.x; x < box.br().x; ++x) {
      const double d = SegmentDistance({static_cast<double>(x), static_cast<double>(y)}, a, b);
      if (d <= half_width_px) {
        footprint.emplace_back(x, y);
      } else if (d >= ring_from_px && d <= ring_to_px) {
        for (int c = 0; c < 3; ++c) {
          ring[0][static_cast<size_t>(c)].push_back(before.at<cv::Vec3b>(y, x)[c]);
          ring[1][static_cast<size_t>(c)].push_back(after.at<cv::Vec3b>(y, x)[c]);
        }
      }
    }
  }
  if (footprint.size() < 4 || ring[0][0].size() < 8) return out;
  const std::array<const cv::Mat*, 2> frames = {&before, &after};
  std::array<double, 2> contrast{};
  for (size_t f = 0; f < 2; ++f) {
    const cv::Vec3d around = ChannelMedian(ring[f]);
    std::vector<double> d;
    d.reserve(footprint.size());
    for (const cv::Point& p : footprint) {
      const cv::Vec3b& v = frames[f]->at<cv::Vec3b>(p);
      d.push_back(cv::norm(cv::Vec3d(v[0], v[1], v[2]) - around));
    }
    auto mid = d.begin() + static_cast<long>(d.size() / 2);
    std::nth_element(d.begin(), mid, d.end());
    contrast[f] = *mid;
  }
  out.before = contrast[0];
  out.after = contrast[1];
  out.measured = true;
  return out;
}

bool TakenAway(const ObjectContrast& c, const TakenAwayOptions& options) {
  return c.measured && c.after < options.max_after_contrast &&
         c.before > options.min_before_ratio * c.after;
}

bool StickTakenAway(const ObjectContrast& c, const TakenAwayOptions& options) {
  TakenAwayOptions stick = options;
  stick.max_after_contrast = options.max_after_contrast_stick;
  return TakenAway(c, stick);
}

bool TakenAway(const StickWhiteness& w, const TakenAwayOptions& options) {
  return w.measured && w.before - w.after > options.min_whiteness_lost &&
         w.before - w.around_before > options.min_whiteness_lost &&
         w.after - w.around_after <= 0.5 * (w.before - w.around_before);
}

bool TakenAway(const WhiteWayCounts& c, const TakenAwayOptions& options) {
  return c.into_before >= options.min_white_way_px &&
         c.into_before >= options.min_white_way_share * c.changed &&
         c.into_before >= options.min_white_way_ratio * c.into_after;
}

StickWhiteness MeasureStickWhiteness(const cv::Mat& before, const cv::Mat& after, cv::Point2d a,
                                     cv::Point2d b, double half_width_px, double ring_from_px,
                                     double ring_to_px, double min_change) {
  StickWhiteness out;
  std::vector<int> wb, wa, ring_b, ring_a;
  const auto darkest = [](const cv::Vec3b& v) { return std::min({v[0], v[1], v[2]}); };
  // Where the frames differ along the stick's middle, one of them shows the stick (a tree's
  // crown or a roof over part of it shows alike in both).
  ForEachStickMiddlePixel(before.size(), a, b, ring_to_px, 0.5, [&](cv::Point p, double v) {
    const bool core = std::abs(v) <= half_width_px;
    if (!core && std::abs(v) < ring_from_px) return;
    const int in_before = darkest(before.at<cv::Vec3b>(p));
    const int in_after = darkest(after.at<cv::Vec3b>(p));
    if (core) {
      if (std::abs(in_before - in_after) < min_change) return;
      wb.push_back(in_before);
      wa.push_back(in_after);
    } else {
      ring_b.push_back(in_before);
      ring_a.push_back(in_after);
    }
  });
  if (wb.size() < 8 || ring_b.size() < 8) return out;
  const auto median = [](std::vector<int>& v) {
    auto mid = v.begin() + static_cast<long>(v.size() / 2);
    std::nth_element(v.begin(), mid, v.end());
    return static_cast<double>(*mid);
  };
  out.before = median(wb);
  out.after = median(wa);
  out.around_before = median(ring_b);
  out.around_after = median(ring_a);
  out.measured = true;
  return out;
}

namespace {

// Calls visit(before pixel, after pixel) for each pixel within `radius_px` of `centre`;
// returns how many.
template <typename Visit>
int VisitWithin(const cv::Mat& before, const cv::Mat& after, cv::Point2d centre, double radius_px,
                const Visit& visit) {
  const int r = static_cast<int>(std::ceil(radius_px));
  int n = 0;
  for (int dy = -r; dy <= r; ++dy) {
    for (int dx = -r; dx <= r; ++dx) {
      if (dx * dx + dy * dy > radius_px * radius_px) continue;
      const cv::Point p(cvRound(centre.x) + dx, cvRound(centre.y) + dy);
      if (!cv::Rect({0, 0}, before.size()).contains(p)) continue;
      ++n;
      visit(before.at<cv::Vec3b>(p), after.at<cv::Vec3b>(p));
    }
  }
  return n;
}

// Share of the pixels within `radius_px` of `centre` that `like` takes, in each frame.
template <typename Like>
ShellColourShare ShareWithin(const cv::Mat& before, const cv::Mat& after, cv::Point2d centre,
                             double radius_px, const Like& like) {
  ShellColourShare out;
  int in_before = 0, in_after = 0;
  const int n =
      VisitWithin(before, after, centre, radius_px, [&](const cv::Vec3b& b, const cv::Vec3b& a) {
        in_before += like(b) ? 1 : 0;
        in_after += like(a) ? 1 : 0;
      });
  if (n < 4) return out;
  out.before = static_cast<double>(in_before) / n;
  out.after = static_cast<double>(in_after) / n;
  out.measured = true;
  return out;
}

// A colour's chromaticity (r, g shares of B+G+R) less that of grey; nullopt when the sum is
// under min_sum (a pixel too dark to have a colour).
template <typename Bgr>
std::optional<cv::Vec2d> ChromaOffGrey(const Bgr& v, double min_sum) {
  const double n = static_cast<double>(v[0]) + v[1] + v[2];
  if (n < min_sum || n <= 0) return std::nullopt;
  return cv::Vec2d(v[2] / n - 1.0 / 3.0, v[1] / n - 1.0 / 3.0);
}
constexpr double kMinPixelSum = 30.0;

// The line from grey to a shell colour's chromaticity: how far along it a pixel departs (1 = the
// colour), and how far off it (in the same unit).
struct HueLine {
  cv::Vec2d ref;
  double ref2 = 0;
  static std::optional<HueLine> Of(const cv::Vec3d& shell_bgr) {
    const std::optional<cv::Vec2d> ref = ChromaOffGrey(shell_bgr, 0.0);
    if (!ref || ref->dot(*ref) < 1e-6) return std::nullopt;
    return HueLine{*ref, ref->dot(*ref)};
  }
  double Along(const cv::Vec2d& c) const { return c.dot(ref) / ref2; }
  double Off(const cv::Vec2d& c) const { return std::abs(c[0] * ref[1] - c[1] * ref[0]) / ref2; }
};

}  // namespace

ShellColourShare MeasureShellColourShare(const cv::Mat& before, const cv::Mat& after,
                                         cv::Point2d centre, double radius_px,
                                         const cv::Vec3d& shell_bgr, double tolerance) {
  const std::optional<cv::Vec2d> ref = ChromaOffGrey(shell_bgr, 0.0);
  if (!ref) return {};
  return ShareWithin(before, after, centre, radius_px, [&](const cv::Vec3b& v) {
    const std::optional<cv::Vec2d> c = ChromaOffGrey(v, kMinPixelSum);
    return c && cv::norm(*c - *ref) <= tolerance;
  });
}

ShellColourShare MeasureShellHueShare(const cv::Mat& before, const cv::Mat& after,
                                      cv::Point2d centre, double radius_px,
                                      const cv::Vec3d& shell_bgr, double min_departure,
                                      double cone) {
  const std::optional<HueLine> line = HueLine::Of(shell_bgr);
  if (!line) return {};
  return ShareWithin(before, after, centre, radius_px, [&](const cv::Vec3b& v) {
    const std::optional<cv::Vec2d> c = ChromaOffGrey(v, kMinPixelSum);
    if (!c) return false;
    const double along = line->Along(*c);
    return along >= min_departure && line->Off(*c) <= cone * along;
  });
}

ShellHueDeparture MeasureShellHueDeparture(const cv::Mat& before, const cv::Mat& after,
                                           cv::Point2d centre, double radius_px,
                                           const cv::Vec3d& shell_bgr) {
  const std::optional<HueLine> line = HueLine::Of(shell_bgr);
  if (!line) return {};
  std::vector<double> along_before, along_after;
  const auto along = [&](const cv::Vec3b& v, std::vector<double>& out) {
    if (const std::optional<cv::Vec2d> c = ChromaOffGrey(v, kMinPixelSum)) {
      out.push_back(line->Along(*c));
    }
  };
  VisitWithin(before, after, centre, radius_px, [&](const cv::Vec3b& b, const cv::Vec3b& a) {
    along(b, along_before);
    along(a, along_after);
  });
  ShellHueDeparture out;
  if (along_before.size() < 4 || along_after.size() < 4) return out;
  out.before = Median(std::move(along_before));
  out.after = Median(std::move(along_after));
  out.measured = true;
  return out;
}

double ShellHueBar(const ShellHueDeparture& d, double kit_bar, const TakenAwayOptions& options) {
  if (!d.measured) return kit_bar;
  return std::min(kit_bar, std::max(options.min_shell_hue_bar,
                                    options.shell_hue_bar_share * std::max(d.before, d.after)));
}

bool HueTakenAway(const ShellColourShare& hue, const TakenAwayOptions& options) {
  return hue.measured && hue.before - hue.after >= options.min_shell_hue_loss;
}

bool TakenAway(const ShellColourShare& c, const TakenAwayOptions& options) {
  return c.measured && c.before >= options.min_shell_share_before &&
         c.after <= options.max_shell_share_after;
}

bool ShownInAfter(bool dot_seen, const ShellColourShare& share, const ObjectContrast& contrast,
                  const TakenAwayOptions& options) {
  return dot_seen ||
         (share.measured && share.after - share.before >= options.min_shell_share_gain) ||
         (contrast.measured && contrast.after >= contrast.before);
}

}  // namespace referee
