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
  // Over the samples not hidden (or showing evidence): the ring fraction and each side's (-1
  // when less than a third of the side is seen).
  double seen_ring = 0;
  std::array<double, 4> seen_side{0, 0, 0, 0};
  bool partly_hidden = false;  // value, and the acceptance, come from the seen part
};

bool At(const cv::Mat& m, cv::Point p) {
  return p.x >= 0 && p.y >= 0 && p.x < m.cols && p.y < m.rows && m.at<uchar>(p) != 0;
}

int Hits(const cv::Mat& m, const std::vector<cv::Point>& pts, cv::Point c, int stride = 1) {
  int n = 0;
  for (size_t i = 0; i < pts.size(); i += static_cast<size_t>(stride)) {
    const cv::Point p = pts[i] + c;
    if (p.x >= 0 && p.y >= 0 && p.x < m.cols && p.y < m.rows && m.at<uchar>(p)) ++n;
  }
  return n;
}

// Samples of one side without evidence that lie in the hidden mask.
int HiddenMisses(const cv::Mat& m, const cv::Mat& hidden, const std::vector<cv::Point>& pts,
                 cv::Point c) {
  int n = 0;
  for (const cv::Point& q : pts) n += !At(m, q + c) && At(hidden, q + c);
  return n;
}

Score Evaluate(const cv::Mat& m, const Template& t, cv::Point c, const cv::Mat& hidden,
               const RingFitOptions& opt) {
  Score s;
  int in = 0, out = 0, total = 0, unseen = 0;
  for (size_t k = 0; k < 4; ++k) {
    const int h = Hits(m, t.inner[k], c);
    const int n = static_cast<int>(t.inner[k].size());
    s.side[k] = static_cast<double>(h) / std::max(1, n);
    const int u = hidden.empty() ? 0 : HiddenMisses(m, hidden, t.inner[k], c);
    s.seen_side[k] = 3 * (n - u) >= n ? static_cast<double>(h) / std::max(1, n - u) : -1.0;
    in += h;
    unseen += u;
    out += Hits(m, t.outer[k], c);
    total += n;
  }
  s.ring = static_cast<double>(in) / std::max(1, total);
  s.outside = static_cast<double>(out) / std::max(1, total);
  s.seen_ring = static_cast<double>(in) / std::max(1, total - unseen);
  // The outside counts double: a patch of the colour larger than the base is no ring.
  s.value = s.ring - 2.0 * s.outside;
  if (unseen > 0 && s.ring >= opt.min_hidden_ring_fraction && s.seen_ring > s.ring) {
    s.partly_hidden = true;
    s.value = s.seen_ring - 2.0 * s.outside;
  }
  return s;
}

// The ring fraction the placement is judged by: over the part seen when partly hidden.
double RingOf(const Score& s) { return s.partly_hidden ? s.seen_ring : s.ring; }

// A quick look (every 4th sample) to skip hopeless centres: too little ring, or an inside
// as full of the colour as a patch.
bool QuickReject(const cv::Mat& m, const Template& t, cv::Point c, const cv::Mat& hidden,
                 const RingFitOptions& opt) {
  int in = 0, total = 0;
  for (size_t k = 0; k < 4; ++k) {
    in += Hits(m, t.inner[k], c, 4);
    total += static_cast<int>((t.inner[k].size() + 3) / 4);
    if (hidden.empty()) continue;
    for (size_t i = 0; i < t.inner[k].size(); i += 4) {
      total -= !At(m, t.inner[k][i] + c) && At(hidden, t.inner[k][i] + c);
    }
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

// Over the inside's samples not hidden (a roof's corner beside a wood is the colour
// throughout the part seen).
double InteriorFraction(const cv::Mat& m, const Template& t, cv::Point c, const cv::Mat& hidden) {
  if (t.interior.empty()) return 0.0;
  const int n = static_cast<int>(t.interior.size());
  const int seen = hidden.empty() ? n : n - HiddenMisses(m, hidden, t.interior, c);
  return seen > 0 ? static_cast<double>(Hits(m, t.interior, c)) / seen : 0.0;
}

// A ring, not a patch: the inside shows the colour less than the ring does, and not mostly.
bool IsRing(const Score& s, double interior, const RingFitOptions& opt) {
  return interior <= opt.max_interior_fraction && RingOf(s) - interior >= opt.min_ring_contrast;
}

bool Acceptable(const Score& s, const RingFitOptions& opt) {
  if (s.outside > opt.max_outside_fraction) return false;
  // Sides: 0 (-a), 1 (+a), 2 (-b), 3 (+b); an a-side and a b-side meet at a corner.
  const auto corner = [&](const std::array<double, 4>& f, double need) {
    return std::max(f[0], f[1]) >= need && std::max(f[2], f[3]) >= need;
  };
  if (s.ring >= opt.min_ring_fraction && corner(s.side, opt.min_corner_sides)) return true;
  // Partly hidden: three sides seen, each strong, fix the base's size and place.
  if (!s.partly_hidden || s.seen_ring < opt.min_seen_ring_fraction) return false;
  const auto strong = std::count_if(s.seen_side.begin(), s.seen_side.end(),
                                    [&](double f) { return f >= opt.min_seen_ring_fraction; });
  return strong >= 3;
}

struct Placement {
  Score score;
  Template t;
  cv::Point c;
};

// The top view's scale, and the template's sample depths in px (RingFitOptions).
struct Depths {
  double mm_per_px = 1, inner = 0, outer = 0, interior = 0;
};

// The best ring placement over the cluster in `box`: every size, both ways round, angles near
// the edges' direction (theta), centres on a 2 mm grid; then 1 px steps and half-degree turns
// around the best. hidden: see Evaluate (empty: the whole ring counts).
Placement BestPlacement(const cv::Mat& work, const cv::Rect& box, double theta,
                        const std::vector<BaseSize>& sizes, const Depths& px, const cv::Mat& hidden,
                        const RingFitOptions& options) {
  const double mm_per_px = px.mm_per_px;
  const int step = std::max(1, static_cast<int>(std::lround(2.0 / mm_per_px)));
  Placement best;
  for (const auto& s : sizes) {
    const double la = s.width_mm / mm_per_px, lb = s.depth_mm / mm_per_px;
    for (int turn = 0; turn < (std::abs(la - lb) < 1.0 ? 1 : 2); ++turn) {
      for (int k = -1; k <= 1; ++k) {
        const double ang = theta + turn * 0.5 * kPiRad + k * 3.0 * kPiRad / 180.0;
        const Template t = MakeTemplate(la, lb, ang, px.inner, px.outer, px.interior);
        for (int y = box.y; y < box.y + box.height; y += step) {
          for (int x = box.x; x < box.x + box.width; x += step) {
            if (QuickReject(work, t, {x, y}, hidden, options)) continue;
            const Score sc = Evaluate(work, t, {x, y}, hidden, options);
            if (sc.value > best.score.value &&
                IsRing(sc, InteriorFraction(work, t, {x, y}, hidden), options)) {
              best = {sc, t, {x, y}};
            }
          }
        }
      }
    }
  }
  if (best.score.value < -5) return best;  // no placement passed the interior test
  Placement fine = best;
  for (int k = -3; k <= 3; ++k) {
    const Template t =
        MakeTemplate(best.t.len_a, best.t.len_b, best.t.angle + k * 0.5 * kPiRad / 180.0, px.inner,
                     px.outer, px.interior);
    for (int dy = -step; dy <= step; ++dy) {
      for (int dx = -step; dx <= step; ++dx) {
        const cv::Point c = best.c + cv::Point(dx, dy);
        const Score sc = Evaluate(work, t, c, hidden, options);
        if (sc.value > fine.score.value &&
            IsRing(sc, InteriorFraction(work, t, c, hidden), options)) {
          fine = {sc, t, c};
        }
      }
    }
  }
  return fine;
}

}  // namespace

std::vector<RingFit> FitBasesToBorderEvidence(const cv::Mat& evidence, double mm_per_px,
                                              const std::vector<BaseSize>& sizes,
                                              const RingFitOptions& options,
                                              const cv::Mat& hidden) {
  std::vector<RingFit> found;
  if (evidence.empty() || sizes.empty()) return found;
  const Depths px{mm_per_px, options.inner_depth_mm / mm_per_px, options.outer_gap_mm / mm_per_px,
                  options.interior_depth_mm / mm_per_px};
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
      // The placement the whole ring supports; only where none does, and a tall object may
      // hide part of this cluster, the one the ring seen beside it supports.
      Placement fine = BestPlacement(work, box, theta, sizes, px, cv::Mat(), options);
      if (!Acceptable(fine.score, options) && !hidden.empty() &&
          cv::countNonZero(hidden(box)) > 0) {
        fine = BestPlacement(work, box, theta, sizes, px, hidden, options);
      }
      const Template& fine_t = fine.t;
      const cv::Point fine_c = fine.c;
      if (!Acceptable(fine.score, options)) break;
      RingFit fit;
      fit.rect.center = fine_c;
      fit.rect.axis_a = {std::cos(fine_t.angle), std::sin(fine_t.angle)};
      fit.rect.len_a = fine_t.len_a;
      fit.rect.len_b = fine_t.len_b;
      fit.ring = fine.score.ring;
      fit.outside = fine.score.outside;
      fit.partly_hidden = fine.score.partly_hidden;
      found.push_back(fit);
      // Take this base's evidence away and look for another in the same cluster.
      cv::fillConvexPoly(work, GrownCorners(fit.rect, 1.0), cv::Scalar(0));
    }
  }
  return found;
}

}  // namespace referee
