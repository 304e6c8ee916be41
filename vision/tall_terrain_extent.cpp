#include "vision/tall_terrain_extent.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace referee {

namespace {

bool At(const cv::Mat& m, cv::Point2d p) {
  const int x = cvRound(p.x), y = cvRound(p.y);
  return x >= 0 && y >= 0 && x < m.cols && y < m.rows && m.at<uchar>(y, x) != 0;
}

// One side of a rectangle: its outward normal, the direction along it, how far its edge lies
// from the centre and its half length, px.
struct Side {
  cv::Point2d normal, along;
  double half_depth = 0, half_len = 0;
};

Side SideOf(const PxRect& r, int k) {
  const cv::Point2d a = r.axis_a, b = r.AxisB();
  const cv::Point2d normals[4] = {-a, a, -b, b};
  Side s;
  s.normal = normals[k];
  s.along = k < 2 ? b : a;
  s.half_depth = 0.5 * (k < 2 ? r.len_a : r.len_b);
  s.half_len = 0.5 * (k < 2 ? r.len_b : r.len_a);
  return s;
}

// Points along side k of r, depth_px in from its edge (negative: outside), over the middle
// `middle` of its length, one per pixel.
std::vector<cv::Point2d> AlongSide(const PxRect& r, int k, double depth_px, double middle) {
  const Side s = SideOf(r, k);
  std::vector<cv::Point2d> pts;
  const double h = middle * s.half_len;
  for (double u = -h; u <= h; u += 1.0) {
    pts.push_back(r.center + (s.half_depth - depth_px) * s.normal + u * s.along);
  }
  return pts;
}

double Fraction(const std::vector<cv::Point2d>& pts, const auto& test) {
  if (pts.empty()) return 0.0;
  const auto n = std::count_if(pts.begin(), pts.end(), test);
  return static_cast<double>(n) / static_cast<double>(pts.size());
}

// Does side k run on under the terrain: no border just inside it, terrain just past it?
bool IsOpen(const PxRect& r, int k, const TallTerrainMasks& m, double mm,
            const TallTerrainExtentOptions& opt) {
  std::vector<cv::Point2d> inside, outside;
  for (double d = 0.5; d <= 2.5; d += 0.5) {
    for (const auto& p : AlongSide(r, k, d / mm, 0.7)) inside.push_back(p);
  }
  for (double d = 0.5; d <= 3.0; d += 0.5) {
    for (const auto& p : AlongSide(r, k, -d / mm, 0.7)) outside.push_back(p);
  }
  const double border = Fraction(inside, [&](cv::Point2d p) { return At(m.toward_side, p); });
  const double terrain =
      Fraction(outside, [&](cv::Point2d p) { return At(m.tall, p) && !At(m.mat, p); });
  return border <= opt.max_open_side_border && terrain >= opt.min_open_side_terrain;
}

// How far past open side k of r a flank's border is seen to run on (side colour or a white
// stripe within 0.5-2.5 mm of either flank's edge, at least 60 % of the last 2 mm), px; 0 when
// it stops at the side.
double FlankReachPx(const PxRect& r, int k, const TallTerrainMasks& m, double max_px, double mm) {
  const Side s = SideOf(r, k);
  const int run = std::max(2, static_cast<int>(std::lround(2.0 / mm)));
  double reach = 0;
  for (double sign : {-1.0, 1.0}) {
    std::vector<bool> hit;
    for (double w = 1.0; w <= max_px; w += 1.0) {
      bool any = false;
      for (double d = 0.5; d <= 2.5 && !any; d += 0.5) {
        const cv::Point2d p =
            r.center + (s.half_depth + w) * s.normal + sign * (s.half_len - d / mm) * s.along;
        any = At(m.side_colour, p) || At(m.white, p);
      }
      hit.push_back(any);
    }
    for (size_t i = 0; i < hit.size(); ++i) {
      if (!hit[i] || i + 1 < static_cast<size_t>(run)) continue;
      const auto n = std::count(hit.begin() + static_cast<std::ptrdiff_t>(i + 1 - run),
                                hit.begin() + static_cast<std::ptrdiff_t>(i + 1), true);
      if (10 * n >= 6 * static_cast<std::ptrdiff_t>(run))
        reach = std::max(reach, static_cast<double>(i + 1));
    }
  }
  return reach;
}

// r grown across side k to ext_px deep along that side's normal.
PxRect Grown(const PxRect& r, int k, double ext_px) {
  const Side s = SideOf(r, k);
  PxRect g = r;
  const double add = ext_px - 2.0 * s.half_depth;
  g.center += 0.5 * add * s.normal;
  (k < 2 ? g.len_a : g.len_b) = ext_px;
  return g;
}

// Would the image allow r grown across open side k to ext_px: no bare mat on the added
// border, the added area where the tall terrain may hide it, no other base there, and part of
// its far border seen?
bool ExtensionFits(const PxRect& r, int k, double ext_px, double flank_reach_px,
                   const TallTerrainMasks& m, const std::vector<PxRect>& others, double mm,
                   const TallTerrainExtentOptions& opt) {
  const PxRect g = Grown(r, k, ext_px);
  for (const PxRect& o : others) {
    if (OverlapAreaPx(g, o) > 0.05 * std::min(g.len_a * g.len_b, o.len_a * o.len_b)) return false;
  }
  const Side s = SideOf(r, k);
  const double depth_px = opt.border_depth_mm / mm;
  std::vector<cv::Point2d> far;  // the far border band, where a front stripe may be painted
  for (double d = 0.5; d <= 2.5; d += 0.5) {
    for (const auto& p : AlongSide(g, k, d / mm, 0.9)) far.push_back(p);
  }
  // The flanks' added length, and the added area, on a 1 px / 2 px lattice.
  std::vector<cv::Point2d> added_border = AlongSide(g, k, depth_px, 0.9), area;
  const double w0 = s.half_depth, w1 = ext_px - s.half_depth;
  for (double w = w0; w <= w1; w += 1.0) {
    for (double sign : {-1.0, 1.0}) {
      added_border.push_back(r.center + w * s.normal + sign * (s.half_len - depth_px) * s.along);
    }
  }
  for (double w = w0 + 1.0; w <= w1; w += 2.0) {
    for (double u = -s.half_len; u <= s.half_len; u += 2.0) {
      area.push_back(r.center + w * s.normal + u * s.along);
    }
  }
  const double bare =
      Fraction(added_border, [&](cv::Point2d p) { return !At(m.toward_side, p) && At(m.mat, p); });
  const double far_seen =
      Fraction(far, [&](cv::Point2d p) { return At(m.side_colour, p) || At(m.white, p); });
  const double in_hidden = Fraction(area, [&](cv::Point2d p) { return At(m.hidden, p); });
  // A flank's border seen on past the far edge: the base is longer. Seen up to the far
  // corner: that is where it ends.
  const double reach_depth_px = 2.0 * s.half_depth + flank_reach_px;
  const double slack_px = opt.flank_end_slack_mm / mm;
  if (reach_depth_px > ext_px + slack_px) return false;
  const bool flank_ends_here = reach_depth_px >= ext_px - opt.min_border_mm / mm - slack_px;
  return bare <= opt.max_mat_fraction && (far_seen >= opt.min_far_border_seen || flank_ends_here) &&
         in_hidden >= opt.min_extension_hidden;
}

}  // namespace

cv::Mat BareMatMask(const cv::Mat& chroma, const cv::Mat& valid, const cv::Vec2f& mat_chroma,
                    double max_distance) {
  cv::Mat mat(chroma.size(), CV_8U, cv::Scalar(0));
  const auto d2 = static_cast<float>(max_distance * max_distance);
  for (int y = 0; y < chroma.rows; ++y) {
    const auto* c = chroma.ptr<cv::Vec2f>(y);
    const uchar* v = valid.ptr<uchar>(y);
    uchar* m = mat.ptr<uchar>(y);
    for (int x = 0; x < chroma.cols; ++x) {
      const cv::Vec2f d = c[x] - mat_chroma;
      m[x] = v[x] && d.dot(d) < d2 ? 255 : 0;
    }
  }
  return mat;
}

TallTerrainExtent ExtendUnderTallTerrain(const PxRect& r, const TallTerrainMasks& masks,
                                         const std::vector<PxRect>& others, double mm_per_px,
                                         const std::vector<BaseSize>& sizes,
                                         const TallTerrainExtentOptions& options) {
  TallTerrainExtent out;
  out.rect = r;
  if (masks.tall.empty() || masks.side_colour.empty() || masks.toward_side.empty() ||
      masks.mat.empty() || masks.hidden.empty()) {
    return out;
  }
  const double mm = mm_per_px;
  std::vector<int> open;
  for (int k = 0; k < 4; ++k) {
    if (IsOpen(r, k, masks, mm, options)) open.push_back(k);
  }
  out.partly_hidden = !open.empty();
  // Two open sides leave both dimensions to the terrain: marked only.
  if (open.size() != 1) return out;
  const int k = open[0];
  out.open_side = k;
  const Side s = SideOf(r, k);
  const double len_mm = 2.0 * s.half_len * mm, seen_mm = 2.0 * s.half_depth * mm;
  double max_across_mm = 0;
  for (const BaseSize& sz : sizes)
    max_across_mm = std::max({max_across_mm, sz.width_mm, sz.depth_mm});
  const double reach_px = FlankReachPx(r, k, masks, (max_across_mm + 10.0 - seen_mm) / mm, mm);
  std::vector<double> fits_mm;  // catalogue depths across side k the image allows
  for (const BaseSize& sz : sizes) {
    for (const auto& [along, across] :
         {std::pair{sz.width_mm, sz.depth_mm}, std::pair{sz.depth_mm, sz.width_mm}}) {
      // The open side showed no border in the band 0.5-2.5 mm inside it: the far border lies
      // wholly past that band.
      const double shortest_mm = seen_mm + options.min_border_mm - 0.5;
      if (std::abs(len_mm - along) > options.size_tolerance_mm || across < shortest_mm) continue;
      const double across_mm = across;  // a structured binding cannot be captured before C++20
      const bool known = std::any_of(fits_mm.begin(), fits_mm.end(),
                                     [&](double f) { return std::abs(f - across_mm) < 1.0; });
      if (known) continue;
      if (ExtensionFits(r, k, across / mm, reach_px, masks, others, mm, options)) {
        fits_mm.push_back(across);
      }
    }
  }
  if (fits_mm.size() != 1) return out;
  out.completed = true;
  out.rect = Grown(r, k, fits_mm[0] / mm);
  return out;
}

}  // namespace referee
