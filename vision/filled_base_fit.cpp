#include "vision/filled_base_fit.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include <opencv2/imgproc.hpp>

namespace referee {

namespace {

constexpr double kPiRad = 3.14159265358979323846;

// Sample offsets of one solid rectangle pose around its centre, px.
struct SolidTemplate {
  double len_a = 0, len_b = 0, angle = 0;
  std::vector<cv::Point> inside;               // deeper than the edge samples
  std::array<std::vector<cv::Point>, 4> edge;  // per side, just inside the edge
  std::vector<cv::Point> outside;              // the band beyond all four sides
};

SolidTemplate MakeSolidTemplate(double len_a, double len_b, double angle, double edge_px,
                                double gap_px, double round_px) {
  SolidTemplate t{len_a, len_b, angle, {}, {}, {}};
  const cv::Point2d a(std::cos(angle), std::sin(angle)), b(-a.y, a.x);
  const cv::Point2d normal[4] = {-a, a, -b, b};
  for (size_t s = 0; s < 4; ++s) {
    const double half_other = 0.5 * (s < 2 ? len_a : len_b);
    const double half_len = 0.5 * (s < 2 ? len_b : len_a);
    const cv::Point2d along = s < 2 ? b : a;
    // Blur rounds the corners: the edge samples keep that far from them.
    const double reach = std::max(0.5 * half_len, std::min(0.8 * half_len, half_len - round_px));
    for (double u = -reach; u <= reach; u += 1.0) {
      const cv::Point2d e = (half_other - edge_px) * normal[s] + u * along;
      t.edge[s].emplace_back(cvRound(e.x), cvRound(e.y));
    }
    for (double u = -0.9 * half_len; u <= 0.9 * half_len; u += 1.0) {
      const cv::Point2d o = (half_other + gap_px) * normal[s] + u * along;
      t.outside.emplace_back(cvRound(o.x), cvRound(o.y));
    }
  }
  const double ia = 0.5 * len_a - edge_px, ib = 0.5 * len_b - edge_px;
  for (double u = -ia; u <= ia; u += 1.0) {
    for (double v = -ib; v <= ib; v += 1.0) {
      const cv::Point2d p = u * a + v * b;
      t.inside.emplace_back(cvRound(p.x), cvRound(p.y));
    }
  }
  return t;
}

double Fraction(const cv::Mat& m, const std::vector<cv::Point>& pts, cv::Point c) {
  int n = 0;
  for (const cv::Point& q : pts) {
    const cv::Point p = q + c;
    n += p.x >= 0 && p.y >= 0 && p.x < m.cols && p.y < m.rows && m.at<uchar>(p) != 0;
  }
  return pts.empty() ? 0.0 : static_cast<double>(n) / static_cast<double>(pts.size());
}

struct SolidScore {
  bool ok = false;
  double value = -10;
};

SolidScore Evaluate(const cv::Mat& m, const SolidTemplate& t, cv::Point c,
                    const FilledFitOptions& opt) {
  SolidScore s;
  // Cheapest tests first: most placements fail on the outside band or an edge.
  const double outside = Fraction(m, t.outside, c);
  if (outside > opt.max_outside_fraction) return s;
  double weakest_edge = 1.0;
  for (const auto& e : t.edge) {
    weakest_edge = std::min(weakest_edge, Fraction(m, e, c));
    if (weakest_edge < opt.min_edge_fraction) return s;
  }
  const double inside = Fraction(m, t.inside, c);
  if (inside < opt.min_inside_fraction) return s;
  s.ok = true;
  s.value = inside + weakest_edge - 2.0 * outside;
  return s;
}

}  // namespace

std::vector<PxRect> FitFilledBases(const cv::Mat& evidence, double mm_per_px,
                                   const std::vector<BaseSize>& sizes, double blur_mm,
                                   const FilledFitOptions& options) {
  std::vector<PxRect> found;
  if (evidence.empty() || sizes.empty()) return found;
  double min_area_px = 1e18, max_area_px = 0, max_diag_px = 0;
  for (const auto& s : sizes) {
    const double area = s.width_mm * s.depth_mm / (mm_per_px * mm_per_px);
    min_area_px = std::min(min_area_px, area);
    max_area_px = std::max(max_area_px, area);
    max_diag_px = std::max(max_diag_px, std::hypot(s.width_mm, s.depth_mm) / mm_per_px);
  }
  // Pixel noise leaves pinholes in a solid patch; a 3x3 close fills them without joining
  // patches a border's width apart.
  cv::Mat work;
  cv::morphologyEx(evidence, work, cv::MORPH_CLOSE,
                   cv::getStructuringElement(cv::MORPH_RECT, {3, 3}));
  cv::Mat labels, stats, centroids;
  const int n = cv::connectedComponentsWithStats(work, labels, stats, centroids, 8, CV_32S);
  const double edge_px = options.edge_depth_mm / mm_per_px;
  // The blur spreads the colour past the edges, a little more than half its rise width.
  const double spread_mm = options.blur_spread * blur_mm;
  const double gap_px = (options.outside_gap_mm + spread_mm) / mm_per_px;
  const double round_px = spread_mm / mm_per_px;
  const int reach =
      std::max(1, static_cast<int>(std::lround(options.centre_search_mm / mm_per_px)));
  for (int l = 1; l < n; ++l) {
    const int area = stats.at<int>(l, cv::CC_STAT_AREA);
    const cv::Rect box(stats.at<int>(l, cv::CC_STAT_LEFT), stats.at<int>(l, cv::CC_STAT_TOP),
                       stats.at<int>(l, cv::CC_STAT_WIDTH), stats.at<int>(l, cv::CC_STAT_HEIGHT));
    // A patch the size of one base, give or take the blur: smaller is a figure or a speck,
    // larger a road, a roof or several bases (the colour-blob pass cuts those).
    if (area < 0.6 * min_area_px || area > 1.3 * max_area_px) continue;
    if (box.width > max_diag_px + 2 * gap_px || box.height > max_diag_px + 2 * gap_px) continue;
    std::vector<cv::Point> pts;
    cv::findNonZero(labels(box) == l, pts);
    if (pts.size() < 5) continue;
    const cv::RotatedRect rr = cv::minAreaRect(pts);
    const double theta = rr.angle * kPiRad / 180.0;
    const cv::Point centre(cvRound(centroids.at<double>(l, 0)),
                           cvRound(centroids.at<double>(l, 1)));
    // Only this patch: another patch nearby must not fill this one's outside band, nor be
    // taken for part of it.
    const int margin = static_cast<int>(std::ceil(gap_px)) + reach + 2;
    const cv::Rect roi = (box + cv::Size(2 * margin, 2 * margin) - cv::Point(margin, margin)) &
                         cv::Rect(0, 0, work.cols, work.rows);
    cv::Mat patch(work.size(), CV_8U, cv::Scalar(0));
    patch(roi).setTo(255, labels(roi) == l);
    SolidScore best;
    SolidTemplate best_t;
    cv::Point best_c;
    for (const auto& s : sizes) {
      const double la = s.width_mm / mm_per_px, lb = s.depth_mm / mm_per_px;
      if (la * lb < 0.7 * area || la * lb > 1.6 * area) continue;
      for (int turn = 0; turn < (std::abs(la - lb) < 1.0 ? 1 : 2); ++turn) {
        for (int k = -4; k <= 4; ++k) {
          const double ang = theta + turn * 0.5 * kPiRad + k * 1.5 * kPiRad / 180.0;
          const SolidTemplate t = MakeSolidTemplate(la, lb, ang, edge_px, gap_px, round_px);
          for (int dy = -reach; dy <= reach; ++dy) {
            for (int dx = -reach; dx <= reach; ++dx) {
              const cv::Point c = centre + cv::Point(dx, dy);
              const SolidScore sc = Evaluate(patch, t, c, options);
              // The outside band is judged on all the evidence: a patch running on into more
              // of the colour (a road split by a shadow) is no base.
              if (!sc.ok || sc.value <= best.value) continue;
              if (Fraction(work, t.outside, c) > options.max_outside_fraction) continue;
              best = sc;
              best_t = t;
              best_c = c;
            }
          }
        }
      }
    }
    if (!best.ok) continue;
    PxRect r;
    r.center = best_c;
    r.axis_a = {std::cos(best_t.angle), std::sin(best_t.angle)};
    r.len_a = best_t.len_a;
    r.len_b = best_t.len_b;
    found.push_back(r);
  }
  return found;
}

}  // namespace referee
