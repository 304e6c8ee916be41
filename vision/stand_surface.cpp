#include "vision/stand_surface.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <optional>

#include <opencv2/imgproc.hpp>

namespace referee {

namespace {

std::vector<cv::Point> PolygonPx(const OrientedRect& rect, const TopView& view) {
  std::vector<cv::Point> out;
  for (const Vec2 c : rect.Corners()) {
    const cv::Point2d p = view.RectifiedFromTable(c);
    out.emplace_back(static_cast<int>(std::lround(p.x)), static_cast<int>(std::lround(p.y)));
  }
  return out;
}

// Share of a thin ring just inside the border that must be of the border's colour for the
// border to run on through it. Default 0.5: figures of the side colour standing against the
// border cover less of a ring than that; the border itself covers nearly all of it.
constexpr double kBorderRingShare = 0.5;
// Widest border looked for, in nominal border widths: TABLE_KIT gives only a minimum (3 mm);
// painted borders run 3-5 mm and the camera's blur adds up to a couple of mm inward.
constexpr double kMaxBorderWidths = 3.0;

// Share of the deep top's pixels, and of each of its corners', that must be of one colour not
// the border's for the top past the cap to be read as bare. Default 0.9 and 0.6: flock is one
// colour throughout; a figure filling the middle leaves other colours in the corners.
constexpr double kBareTopShare = 0.9;
constexpr double kBareCornerShare = 0.6;
// How near the deep top's median colour a pixel of a bare top lies: flock is one colour under
// one light, without the shading allowance `LikeColour` gives figures' shadows. Default 12
// levels or 12 % of the colour's norm.
constexpr double kBareFloorLevels = 12.0;
constexpr double kBareTolerance = 0.12;
// How far inside the cap the bare top is read, mm: clear of the border's blurred edge where the
// stand's outline was found a millimetre or so wide. Default 2.
constexpr double kBareMarginMm = 2.0;

// The colour of the top inside `deep` (the box-local corners of a rectangle) when it is bare:
// one colour, not the border's, over nearly all of it and over most of each of its corners.
// Empty optional when it is not (figures, the side colour, too few pixels).
std::optional<cv::Vec3d> BareTopColour(const cv::Mat& patch, const std::vector<cv::Point>& deep,
                                       const cv::Vec3d& border) {
  cv::Mat mask(patch.size(), CV_8U, cv::Scalar(0));
  cv::fillConvexPoly(mask, deep, cv::Scalar(255));
  std::vector<cv::Point> at;
  cv::findNonZero(mask, at);
  if (at.size() < 16) return std::nullopt;
  std::array<std::vector<int>, 3> ch;
  for (const cv::Point& p : at) {
    const cv::Vec3b& v = patch.at<cv::Vec3b>(p);
    for (int c = 0; c < 3; ++c) ch[c].push_back(v[c]);
  }
  const cv::Vec3d top = ChannelMedian(ch);
  if (LikeColour(cv::Vec3b(top), border) || LikeColour(cv::Vec3b(border), top)) return std::nullopt;
  // Each corner: the deep top's pixels nearer that corner than a third of its shorter side.
  const double reach_px = std::min(cv::norm(deep[1] - deep[0]), cv::norm(deep[2] - deep[1])) / 3;
  const double near_top = std::max(kBareFloorLevels, kBareTolerance * cv::norm(top));
  std::array<int, 4> corner_n{}, corner_top{};
  size_t like = 0;
  for (const cv::Point& p : at) {
    const cv::Vec3b& v = patch.at<cv::Vec3b>(p);
    const bool is_top = cv::norm(cv::Vec3d(v[0], v[1], v[2]) - top) <= near_top;
    like += is_top ? 1 : 0;
    for (size_t k = 0; k < corner_n.size(); ++k) {
      if (cv::norm(p - deep[k]) > reach_px) continue;
      ++corner_n[k];
      corner_top[k] += is_top ? 1 : 0;
    }
  }
  if (static_cast<double>(like) < kBareTopShare * static_cast<double>(at.size())) {
    return std::nullopt;
  }
  for (size_t k = 0; k < corner_n.size(); ++k) {
    if (corner_n[k] == 0 || corner_top[k] < kBareCornerShare * corner_n[k]) return std::nullopt;
  }
  return top;
}

// Colour bins tried as the bare top, most common first.
constexpr int kBareTopCandidates = 4;
// Share of a corner's non-border band pixels a colour must hold to show there. Default 0.1.
constexpr double kCornerShowShare = 0.1;

// A pixel of the band just inside the border that is not of the border's colour.
struct BandPixel {
  cv::Point at;  // box-local
  cv::Vec3b bgr;
};

// The centre of the colour bin taken as the bare top's: of the `kBareTopCandidates` most common
// bins of the band's pixels not of the border's colour (`others`), the most common that shows
// next to at least three of the band's four corners (`corners`, box-local), else the most common
// (the first of equals).
cv::Vec3d BareTopBin(const std::vector<BandPixel>& others, const std::vector<cv::Point>& corners) {
  std::vector<int> bins(kColourBins, 0);
  for (const BandPixel& p : others) ++bins[ColourBin(p.bgr)];
  std::vector<int> order(bins.size());
  std::iota(order.begin(), order.end(), 0);
  std::partial_sort(order.begin(), order.begin() + kBareTopCandidates, order.end(),
                    [&](int a, int b) { return bins[a] != bins[b] ? bins[a] > bins[b] : a < b; });
  std::array<cv::Vec3d, kBareTopCandidates> centre;
  for (size_t i = 0; i < centre.size(); ++i) centre[i] = BinCentre(order[i]);
  std::array<std::array<int, kBareTopCandidates>, 4> near{};
  std::array<int, 4> other{};
  for (const BandPixel& p : others) {
    size_t k = 0;
    for (size_t c = 1; c < corners.size(); ++c) {
      if (cv::norm(p.at - corners[c]) < cv::norm(p.at - corners[k])) k = c;
    }
    ++other[k];
    const cv::Vec3d v(p.bgr[0], p.bgr[1], p.bgr[2]);
    for (size_t i = 0; i < centre.size(); ++i) {
      near[k][i] += cv::norm(v - centre[i]) <= kBinReach ? 1 : 0;
    }
  }
  for (size_t i = 0; i < centre.size() && bins[order[i]] > 0; ++i) {
    int shown = 0;
    for (size_t k = 0; k < 4; ++k) shown += near[k][i] > kCornerShowShare * other[k] ? 1 : 0;
    if (shown >= 3) return centre[i];
  }
  return centre[0];
}

}  // namespace

bool LikeColour(const cv::Vec3b& bgr, const cv::Vec3d& reference, double max_gain, double tolerance,
                double floor_levels) {
  const cv::Vec3d p(bgr[0], bgr[1], bgr[2]);
  const double rr = reference.dot(reference);
  if (rr < 1.0) return cv::norm(p) < floor_levels;
  // Shadows keep the colour and lose brightness: compare with the reference at the same light.
  const double k = std::clamp(p.dot(reference) / rr, 0.5, max_gain);
  const cv::Vec3d lit = k * reference;
  return cv::norm(p - lit) < std::max(floor_levels, tolerance * cv::norm(lit));
}

StandSurface MeasureStandSurface(const DetectedStand& stand, const TopView& view,
                                 const cv::Mat& top_before, double border_mm) {
  StandSurface out;
  if (top_before.empty()) return out;
  const double border_in = MmToInches(border_mm);
  const OrientedRect& fp = stand.stand.footprint;
  const std::vector<cv::Point> outer = PolygonPx(Grown(fp, MmToInches(1.0)), view);
  const cv::Rect box = cv::boundingRect(outer) & cv::Rect({0, 0}, top_before.size());
  if (box.area() < 16) return out;
  const auto local = [&](const OrientedRect& r) {
    std::vector<cv::Point> poly = PolygonPx(r, view);
    for (auto& p : poly) p -= box.tl();
    return poly;
  };
  cv::Mat ring(box.size(), CV_8U, cv::Scalar(0)), band(box.size(), CV_8U, cv::Scalar(0));
  cv::Mat inner(box.size(), CV_8U, cv::Scalar(0));
  cv::fillConvexPoly(ring, local(Grown(fp, -0.25 * border_in)), cv::Scalar(255));
  cv::fillConvexPoly(ring, local(Grown(fp, -0.85 * border_in)), cv::Scalar(0));
  if (cv::countNonZero(ring) < 8) return out;
  // Sensor noise would scatter a flat colour over several bins of the histogram below.
  cv::Mat patch;
  cv::blur(top_before(box), patch, {3, 3});
  std::array<std::vector<int>, 3> border_ch;
  for (int y = 0; y < box.height; ++y) {
    for (int x = 0; x < box.width; ++x) {
      const cv::Vec3b& v = patch.at<cv::Vec3b>(y, x);
      if (ring.at<uchar>(y, x)) {
        for (int c = 0; c < 3; ++c) border_ch[c].push_back(v[c]);
      }
    }
  }
  out.border = ChannelMedian(border_ch);
  // TABLE_KIT's border is "at least" border_mm wide: where it runs wider, the side colour just
  // inside the assumed border is still border, not figures wearing that colour. Its width is
  // where thin rings walking inward stop being mostly of the border's colour (figures against
  // the border cover only part of a ring); a ring of border colour all the way to the cap is a
  // top painted in the side colour, whose border cannot be told from it: the nominal width.
  const double step_in = std::max(MmToInches(0.5), MmToInches(view.MmPerPx()));
  const double cap_in =
      std::min(kMaxBorderWidths * border_in, 0.25 * std::min(fp.width_in, fp.depth_in));
  double measured_in = border_in;
  bool ended = false;
  for (double d = border_in; d + step_in <= cap_in + 1e-9; d += step_in) {
    cv::Mat thin(box.size(), CV_8U, cv::Scalar(0));
    cv::fillConvexPoly(thin, local(Grown(fp, -d)), cv::Scalar(255));
    cv::fillConvexPoly(thin, local(Grown(fp, -d - step_in)), cv::Scalar(0));
    int thin_n = 0, thin_border = 0;
    for (int y = 0; y < box.height; ++y) {
      for (int x = 0; x < box.width; ++x) {
        if (!thin.at<uchar>(y, x)) continue;
        ++thin_n;
        thin_border += LikeColour(patch.at<cv::Vec3b>(y, x), out.border) ? 1 : 0;
      }
    }
    if (thin_n == 0 || thin_border < kBorderRingShare * thin_n) {
      ended = true;
      break;
    }
    measured_in = d + step_in;
  }
  // Reaching the cap in the border's colour is a top painted in the side colour, unless the top
  // a little inside the cap is bare, one other colour from its corners to its middle: heavy
  // blur spread a wide border's colour past the cap (`hard` 347 scene 11: a flocked howitzer
  // base without figures read as covered in figures, a Q-tip on it put 20 mm up, 16 mm off).
  const double deep_in = cap_in + MmToInches(kBareMarginMm);
  const std::optional<cv::Vec3d> bare_past_cap =
      ended ? std::nullopt : BareTopColour(patch, local(Grown(fp, -deep_in)), out.border);
  if (bare_past_cap) {
    measured_in = deep_in;
  } else if (!ended) {
    measured_in = border_in;
  }
  out.border_width_mm = InchesToMm(measured_in);
  // Figures stand inside the border, leaving the bare top showing next to it (most in the
  // corners, around rounded figures): its colour is read there.
  // Kept 1.5 borders in: the camera's blur spreads the border's colour inward.
  const double inset_in = border_in + 0.5 * measured_in;
  cv::fillConvexPoly(band, local(Grown(fp, -inset_in)), cv::Scalar(255));
  cv::fillConvexPoly(band, local(Grown(fp, -inset_in - MmToInches(2.5))), cv::Scalar(0));
  const double interior_in = measured_in + 0.15 * border_in;
  cv::fillConvexPoly(inner, local(Grown(fp, -interior_in)), cv::Scalar(255));
  if (cv::countNonZero(band) < 8) return out;
  // The band may still hold some border (borders are 3 mm or wider): the bare top is what is
  // not of the border's colour there, when enough of it is.
  int band_n = 0;
  std::vector<BandPixel> band_others;
  for (int y = 0; y < box.height; ++y) {
    for (int x = 0; x < box.width; ++x) {
      if (!band.at<uchar>(y, x)) continue;
      const cv::Vec3b& v = patch.at<cv::Vec3b>(y, x);
      ++band_n;
      if (!LikeColour(v, out.border)) band_others.push_back({{x, y}, v});
    }
  }
  // The bare top: the most common colour bin of the band that shows next to at least three of
  // its four corners (a tall figure's side, seen over the band through parallax, covers one or
  // two), else the most common; refined to the median of the pixels near it.
  const std::vector<cv::Point> band_corners = local(Grown(fp, -inset_in));
  const cv::Vec3d centre = BareTopBin(band_others, band_corners);
  std::array<std::vector<int>, 3> interior_ch;
  int n = 0, not_border = 0;
  for (int y = 0; y < box.height; ++y) {
    for (int x = 0; x < box.width; ++x) {
      const cv::Vec3b& v = patch.at<cv::Vec3b>(y, x);
      if (inner.at<uchar>(y, x)) {
        ++n;
        not_border += LikeColour(v, out.border) ? 0 : 1;
      }
      if (!band.at<uchar>(y, x) || cv::norm(cv::Vec3d(v[0], v[1], v[2]) - centre) > kBinReach)
        continue;
      for (int c = 0; c < 3; ++c) interior_ch[c].push_back(v[c]);
    }
  }
  if (n == 0) return out;
  if (interior_ch[0].empty()) {  // the band is all border colour: so is the bare top
    for (int c = 0; c < 3; ++c) interior_ch[c].push_back(static_cast<int>(out.border[c]));
  }
  out.interior = bare_past_cap ? *bare_past_cap : ChannelMedian(interior_ch);
  out.interior_distinct = bare_past_cap || static_cast<double>(band_others.size()) >= 0.3 * band_n;
  out.figure_cover = static_cast<double>(not_border) / n;
  out.interior_px = PolygonPx(Grown(fp, -interior_in), view);
  out.valid = true;
  return out;
}

double FigureShare(const StandSurface& surface, const cv::Mat& top_before,
                   const std::vector<cv::Point>& polygon_px, double min_cover) {
  if (!surface.valid || polygon_px.size() < 3) return -1;
  const cv::Rect box = cv::boundingRect(polygon_px) & cv::Rect({0, 0}, top_before.size());
  if (box.empty()) return -1;
  cv::Mat mask(box.size(), CV_8U, cv::Scalar(0)), interior(box.size(), CV_8U, cv::Scalar(0));
  std::vector<cv::Point> local;
  local.reserve(polygon_px.size());
  for (const auto& p : polygon_px) local.push_back(p - box.tl());
  cv::fillConvexPoly(mask, local, cv::Scalar(255));
  // The outline's own pixels mix in what is around it (blur): judge what is inside it.
  cv::Mat eroded;
  cv::erode(mask, eroded, cv::getStructuringElement(cv::MORPH_RECT, {3, 3}));
  if (cv::countNonZero(eroded) >= 9) mask = eroded;
  local.clear();
  for (const auto& p : surface.interior_px) local.push_back(p - box.tl());
  cv::fillConvexPoly(interior, local, cv::Scalar(255));
  cv::Mat patch;
  cv::blur(top_before(box), patch, {3, 3});
  const bool painted_alike = !surface.interior_distinct;
  int n = 0, figures = 0;
  for (int y = 0; y < box.height; ++y) {
    for (int x = 0; x < box.width; ++x) {
      if (!mask.at<uchar>(y, x)) continue;
      ++n;
      const cv::Vec3b& v = patch.at<cv::Vec3b>(y, x);
      bool figure = !LikeColour(v, surface.interior) && !LikeColour(v, surface.border);
      if (interior.at<uchar>(y, x)) {
        // Inside the border: a figure may wear the side colour.
        figure = painted_alike ? surface.figure_cover >= min_cover || figure
                               : !LikeColour(v, surface.interior);
      }
      figures += figure ? 1 : 0;
    }
  }
  return n ? static_cast<double>(figures) / n : -1;
}

int ColourBin(const cv::Vec3b& bgr) {
  return ((bgr[0] >> 5) * 64) + ((bgr[1] >> 5) * 8) + (bgr[2] >> 5);
}

cv::Vec3d BinCentre(int bin) {
  const int b = bin / 64, g = (bin / 8) % 8, r = bin % 8;
  return {32.0 * b + 16, 32.0 * g + 16, 32.0 * r + 16};
}

cv::Vec3d ChannelMedian(std::array<std::vector<int>, 3>& ch) {
  cv::Vec3d out;
  for (int c = 0; c < 3; ++c) {
    auto mid = ch[c].begin() + static_cast<long>(ch[c].size() / 2);
    std::nth_element(ch[c].begin(), mid, ch[c].end());
    out[c] = *mid;
  }
  return out;
}

bool TopOfBordersColour(const StandSurface& surface, double min_cover) {
  return surface.valid && !surface.interior_distinct && surface.figure_cover < min_cover;
}

}  // namespace referee
