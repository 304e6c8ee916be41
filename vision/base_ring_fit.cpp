#include "vision/base_ring_fit.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include <opencv2/imgproc.hpp>

namespace referee {

namespace {

constexpr double kPiRad = 3.14159265358979323846;

// Sample offsets of one rectangle pose around its centre, px: per side, points on the ring
// (inner) and just outside it (outer), along the middle 90% of the side.
struct Template {
  double len_a = 0, len_b = 0, angle = 0;
  std::array<std::vector<cv::Point>, 4> inner, outer;
  std::vector<cv::Point> interior;  // the inside, deeper than any border
};

Template MakeTemplate(double len_a, double len_b, double angle, double inner_px, double outer_px,
                      double interior_px) {
  Template t;
  t.len_a = len_a;
  t.len_b = len_b;
  t.angle = angle;
  const cv::Point2d a(std::cos(angle), std::sin(angle)), b(-a.y, a.x);
  const cv::Point2d normal[4] = {-a, a, -b, b};
  for (int s = 0; s < 4; ++s) {
    const double half_other = 0.5 * (s < 2 ? len_a : len_b);
    const double half_len = 0.5 * (s < 2 ? len_b : len_a);
    const cv::Point2d along = s < 2 ? b : a;
    const int n = std::max(2, static_cast<int>(0.9 * 2 * half_len));
    for (int k = 0; k < n; ++k) {
      const double u = -0.9 * half_len + 1.8 * half_len * (k + 0.5) / n;
      const cv::Point2d edge = half_other * normal[s] + u * along;
      const cv::Point2d pi = edge - inner_px * normal[s], po = edge + outer_px * normal[s];
      t.inner[static_cast<size_t>(s)].emplace_back(cvRound(pi.x), cvRound(pi.y));
      t.outer[static_cast<size_t>(s)].emplace_back(cvRound(po.x), cvRound(po.y));
    }
  }
  const double ia = 0.5 * len_a - interior_px, ib = 0.5 * len_b - interior_px;
  for (double u = -ia; u <= ia; u += 2.0) {
    for (double v = -ib; v <= ib; v += 2.0) {
      const cv::Point2d p = u * a + v * b;
      t.interior.emplace_back(cvRound(p.x), cvRound(p.y));
    }
  }
  return t;
}

struct Score {
  double ring = 0, outside = 0, value = -10;
  std::array<double, 4> side{0, 0, 0, 0};
};

int Hits(const cv::Mat& m, const std::vector<cv::Point>& pts, cv::Point c, int stride = 1) {
  int n = 0;
  for (size_t i = 0; i < pts.size(); i += static_cast<size_t>(stride)) {
    const cv::Point p = pts[i] + c;
    if (p.x >= 0 && p.y >= 0 && p.x < m.cols && p.y < m.rows && m.at<uchar>(p)) ++n;
  }
  return n;
}

Score Evaluate(const cv::Mat& m, const Template& t, cv::Point c) {
  Score s;
  int in = 0, out = 0, total = 0;
  for (size_t k = 0; k < 4; ++k) {
    const int h = Hits(m, t.inner[k], c);
    s.side[k] =
        static_cast<double>(h) / static_cast<double>(std::max<size_t>(1, t.inner[k].size()));
    in += h;
    out += Hits(m, t.outer[k], c);
    total += static_cast<int>(t.inner[k].size());
  }
  s.ring = static_cast<double>(in) / std::max(1, total);
  s.outside = static_cast<double>(out) / std::max(1, total);
  // The outside counts double: a patch of the colour larger than the base is no ring.
  s.value = s.ring - 2.0 * s.outside;
  return s;
}

// A quick look (every 4th sample) to skip hopeless centres: too little ring, or an inside
// as full of the colour as a patch.
bool QuickReject(const cv::Mat& m, const Template& t, cv::Point c, const RingFitOptions& opt) {
  int in = 0, total = 0;
  for (size_t k = 0; k < 4; ++k) {
    in += Hits(m, t.inner[k], c, 4);
    total += static_cast<int>((t.inner[k].size() + 3) / 4);
  }
  const double ring = static_cast<double>(in) / std::max(1, total);
  if (ring < 0.6 * opt.min_ring_fraction) return true;
  const size_t n_inside = (t.interior.size() + 3) / 4;
  return n_inside > 0 &&
         static_cast<double>(Hits(m, t.interior, c, 4)) / static_cast<double>(n_inside) >
             ring - 0.5 * opt.min_ring_contrast;
}

// Rectangle axis direction (mod 90 degrees) from the evidence's edges: the mask's gradient
// orientations, with the angle quadrupled so that all four sides vote alike.
double DominantAngle(const cv::Mat& m, const cv::Rect& box) {
  const cv::Rect grown = (box + cv::Size(4, 4) - cv::Point(2, 2)) & cv::Rect(0, 0, m.cols, m.rows);
  cv::Mat f, gx, gy;
  m(grown).convertTo(f, CV_32F, 1.0 / 255.0);
  cv::GaussianBlur(f, f, {5, 5}, 1.0);
  cv::Sobel(f, gx, CV_32F, 1, 0);
  cv::Sobel(f, gy, CV_32F, 0, 1);
  double sx = 0, sy = 0;
  for (int y = 0; y < f.rows; ++y) {
    for (int x = 0; x < f.cols; ++x) {
      const double dx = gx.at<float>(y, x), dy = gy.at<float>(y, x);
      const double w2 = dx * dx + dy * dy;
      if (w2 < 1e-6) continue;
      const double phi = std::atan2(dy, dx);
      const double w = std::sqrt(w2);
      sx += w * std::cos(4 * phi);
      sy += w * std::sin(4 * phi);
    }
  }
  return 0.25 * std::atan2(sy, sx);
}

double InteriorFraction(const cv::Mat& m, const Template& t, cv::Point c) {
  if (t.interior.empty()) return 0.0;
  return static_cast<double>(Hits(m, t.interior, c)) / static_cast<double>(t.interior.size());
}

// A ring, not a patch: the inside shows the colour less than the ring does, and not mostly.
bool IsRing(const Score& s, double interior, const RingFitOptions& opt) {
  return interior <= opt.max_interior_fraction && s.ring - interior >= opt.min_ring_contrast;
}

bool Acceptable(const Score& s, const RingFitOptions& opt) {
  if (s.ring < opt.min_ring_fraction || s.outside > opt.max_outside_fraction) return false;
  // Sides: 0 (-a), 1 (+a), 2 (-b), 3 (+b); an a-side and a b-side meet at a corner.
  const double a_best = std::max(s.side[0], s.side[1]), b_best = std::max(s.side[2], s.side[3]);
  return a_best >= opt.min_corner_sides && b_best >= opt.min_corner_sides;
}

}  // namespace

std::vector<RingFit> FitBasesToBorderEvidence(const cv::Mat& evidence, double mm_per_px,
                                              const std::vector<BaseSize>& sizes,
                                              const RingFitOptions& options) {
  std::vector<RingFit> found;
  if (evidence.empty() || sizes.empty()) return found;
  const double inner_px = options.inner_depth_mm / mm_per_px;
  const double outer_px = options.outer_gap_mm / mm_per_px;
  const double interior_px = options.interior_depth_mm / mm_per_px;
  double min_ring_area_px = 1e18, max_diag_px = 0, max_area_px = 0;
  for (const auto& s : sizes) {
    // Ring evidence a base must show at least: its fraction of a 2 mm wide ring.
    const double ring_mm2 = 2.0 * (s.width_mm + s.depth_mm) * 2.0 * options.min_ring_fraction;
    min_ring_area_px = std::min(min_ring_area_px, ring_mm2 / (mm_per_px * mm_per_px));
    max_diag_px = std::max(max_diag_px, std::hypot(s.width_mm, s.depth_mm) / mm_per_px);
    max_area_px = std::max(max_area_px, s.width_mm * s.depth_mm / (mm_per_px * mm_per_px));
  }
  // A border is at least 3 mm wide: thinner evidence is a blur halo around some other
  // coloured patch (a pond's edge mixing with the mat) or noise.
  cv::Mat work;
  const int w =
      std::max(1, static_cast<int>(std::lround(options.min_evidence_width_mm / mm_per_px)));
  cv::morphologyEx(evidence, work, cv::MORPH_OPEN,
                   cv::getStructuringElement(cv::MORPH_ELLIPSE, {w, w}));
  // Pieces of one border separated by an occluder join into one cluster.
  cv::Mat joined;
  const int r = std::max(1, static_cast<int>(0.5 * options.join_gap_mm / mm_per_px));
  cv::dilate(work, joined, cv::getStructuringElement(cv::MORPH_RECT, {2 * r + 1, 2 * r + 1}));
  cv::Mat labels, stats, centroids;
  const int n = cv::connectedComponentsWithStats(joined, labels, stats, centroids, 8, CV_32S);
  for (int l = 1; l < n; ++l) {
    const cv::Rect box(stats.at<int>(l, cv::CC_STAT_LEFT), stats.at<int>(l, cv::CC_STAT_TOP),
                       stats.at<int>(l, cv::CC_STAT_WIDTH), stats.at<int>(l, cv::CC_STAT_HEIGHT));
    // A cluster much larger than any base (a road, a river bank) is not searched whole.
    if (box.width > 2 * max_diag_px || box.height > 2 * max_diag_px) continue;
    // Less than one base's ring, or more than two whole bases' worth of colour.
    const int area = stats.at<int>(l, cv::CC_STAT_AREA);
    if (area < min_ring_area_px || area > 2 * max_area_px) continue;
    for (int round = 0; round < 4; ++round) {
      cv::Mat piece = work(box) & (labels(box) == l);
      if (cv::countNonZero(piece) < min_ring_area_px) break;
      const double theta = DominantAngle(work, box);
      // Coarse search: every size, both ways round, angles near the edges' direction,
      // centres on a 2 mm grid over the cluster.
      const int step = std::max(1, static_cast<int>(std::lround(2.0 / mm_per_px)));
      Score best;
      Template best_t;
      cv::Point best_c;
      for (const auto& s : sizes) {
        const double la = s.width_mm / mm_per_px, lb = s.depth_mm / mm_per_px;
        for (int turn = 0; turn < (std::abs(la - lb) < 1.0 ? 1 : 2); ++turn) {
          for (int k = -1; k <= 1; ++k) {
            const double ang = theta + turn * 0.5 * kPiRad + k * 3.0 * kPiRad / 180.0;
            const Template t = MakeTemplate(la, lb, ang, inner_px, outer_px, interior_px);
            for (int y = box.y; y < box.y + box.height; y += step) {
              for (int x = box.x; x < box.x + box.width; x += step) {
                if (QuickReject(work, t, {x, y}, options)) continue;
                const Score sc = Evaluate(work, t, {x, y});
                if (sc.value > best.value &&
                    IsRing(sc, InteriorFraction(work, t, {x, y}), options)) {
                  best = sc, best_t = t, best_c = {x, y};
                }
              }
            }
          }
        }
      }
      if (best.value < -5) break;  // no placement passed the interior test
      // Fine search around the best: 1 px steps, half-degree turns.
      Template fine_t = best_t;
      cv::Point fine_c = best_c;
      Score fine = best;
      for (int k = -3; k <= 3; ++k) {
        const Template t =
            MakeTemplate(best_t.len_a, best_t.len_b, best_t.angle + k * 0.5 * kPiRad / 180.0,
                         inner_px, outer_px, interior_px);
        for (int dy = -step; dy <= step; ++dy) {
          for (int dx = -step; dx <= step; ++dx) {
            const Score sc = Evaluate(work, t, best_c + cv::Point(dx, dy));
            const cv::Point c = best_c + cv::Point(dx, dy);
            if (sc.value > fine.value && IsRing(sc, InteriorFraction(work, t, c), options)) {
              fine = sc, fine_t = t, fine_c = c;
            }
          }
        }
      }
      if (!Acceptable(fine, options)) break;
      RingFit fit;
      fit.rect.center = fine_c;
      fit.rect.axis_a = {std::cos(fine_t.angle), std::sin(fine_t.angle)};
      fit.rect.len_a = fine_t.len_a;
      fit.rect.len_b = fine_t.len_b;
      fit.ring = fine.ring;
      fit.outside = fine.outside;
      found.push_back(fit);
      // Take this base's evidence away and look for another in the same cluster.
      std::vector<cv::Point> poly;
      const cv::Point2d a = fit.rect.axis_a, b = fit.rect.AxisB();
      for (const auto& [sa, sb] : {std::pair{-1, -1}, {1, -1}, {1, 1}, {-1, 1}}) {
        const cv::Point2d p = fit.rect.center + sa * (0.5 * fit.rect.len_a + 1) * a +
                              sb * (0.5 * fit.rect.len_b + 1) * b;
        poly.emplace_back(cvRound(p.x), cvRound(p.y));
      }
      cv::fillConvexPoly(work, poly, cv::Scalar(0));
    }
  }
  return found;
}

}  // namespace referee
