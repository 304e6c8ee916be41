#include "calibration/grid_lines.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <opencv2/imgproc.hpp>

namespace referee {

namespace {

constexpr double kPi = 3.14159265358979323846;

struct HoughLine {
  double rho = 0, theta = 0, votes = 0;
};

// Angle difference of two undirected line normals, in [0, pi/2].
double AngleDiff(double a, double b) {
  double d = std::fmod(std::abs(a - b), kPi);
  return std::min(d, kPi - d);
}

// Signed distance of the line from point c (same line, normal flipped to theta mod pi).
double RhoAbout(const HoughLine& l, cv::Point2d c) {
  return l.rho - (c.x * std::cos(l.theta) + c.y * std::sin(l.theta));
}

// Two Hough peaks are one drawn line when they are nearly parallel and cross inside the image
// (distinct grid lines of one direction meet only at a vanishing point far outside it). Curved
// (lens-distorted) lines give several such chords; the strongest is kept.
std::vector<HoughLine> SuppressDuplicates(const std::vector<HoughLine>& lines, cv::Size size,
                                          double rho_tol, double theta_tol, size_t keep) {
  const cv::Point2d c(size.width / 2.0, size.height / 2.0);
  const double reach = 0.6 * std::hypot(size.width, size.height);
  std::vector<HoughLine> kept;
  for (const auto& l : lines) {
    bool dup = false;
    for (const auto& k : kept) {
      if (AngleDiff(l.theta, k.theta) > theta_tol) continue;
      double r1 = RhoAbout(l, c), r2 = RhoAbout(k, c);
      if (std::abs(l.theta - k.theta) > kPi / 2) r2 = -r2;
      if (std::abs(r1 - r2) < rho_tol) {
        dup = true;
        break;
      }
      // Where do they cross? Distance from the centre along the lines ~ drho / dtheta.
      const double dth = std::max(1e-6, AngleDiff(l.theta, k.theta));
      if (std::abs(r1 - r2) / std::sin(dth) < reach) {
        dup = true;
        break;
      }
    }
    if (!dup) kept.push_back(l);
    if (kept.size() >= keep) break;
  }
  return kept;
}

// How much of a Hough line is an isolated thin line: evidence on the line (within 1 px) with
// none at several offsets on both sides. Hough votes alone also rank lines through dense dark
// texture (woods, rough mats, shadows) high, especially at 45 degrees where a digital line
// collects the most pixels of any blob; those pass through evidence with evidence beside it.
double ThinSupport(const cv::Mat& evidence, double rho, double theta, double scale) {
  const cv::Point2d n(std::cos(theta), std::sin(theta)), d(-n.y, n.x);
  const cv::Point2d p0 = rho * n;
  const double reach = std::hypot(evidence.cols, evidence.rows);
  auto on = [&](cv::Point2d p) {
    const int x = static_cast<int>(std::lround(p.x)), y = static_cast<int>(std::lround(p.y));
    return x >= 0 && y >= 0 && x < evidence.cols && y < evidence.rows &&
           evidence.at<uchar>(y, x) != 0;
  };
  auto inside = [&](cv::Point2d p) {
    return p.x >= 0 && p.y >= 0 && p.x < evidence.cols && p.y < evidence.rows;
  };
  const double offsets[3] = {6.0 * scale, 8.5 * scale, 11.0 * scale};
  double count = 0;
  for (double s = -reach; s <= reach; s += 1.0) {
    const cv::Point2d p = p0 + s * d;
    if (!inside(p)) continue;
    if (!on(p) && !on(p + n) && !on(p - n)) continue;
    bool clear = true;
    for (double o : offsets) {
      if (on(p + o * n) || on(p - o * n)) {
        clear = false;
        break;
      }
    }
    if (clear) count += 1;
  }
  return count;
}

// A 1-D progression along the transversal: positions t(k) for integer k.
struct Progression {
  std::map<int, int> line_of_index;  // index -> line number in the family's list
  double score = -1e9;
};

// t(k) = (a k + b) / (c k + 1) through (0,t0), (m1,t1), (m2,t2).
bool SolveProjective(double t0, double t1, double t2, int m1, int m2, double& a, double& b,
                     double& c) {
  b = t0;
  // a m - t m c = t - b
  const double a11 = m1, a12 = -t1 * m1, r1 = t1 - b;
  const double a21 = m2, a22 = -t2 * m2, r2 = t2 - b;
  const double det = a11 * a22 - a12 * a21;
  if (std::abs(det) < 1e-9) return false;
  a = (r1 * a22 - a12 * r2) / det;
  c = (a11 * r2 - r1 * a21) / det;
  return true;
}

// Chooses, among the matched indices, the window of at most max_span+1 consecutive indices
// holding the most lines; returns its score (lines minus a penalty for holes inside).
double WindowScore(const std::map<int, int>& matched, int max_span, std::map<int, int>& best) {
  double best_score = -1e9;
  for (auto it = matched.begin(); it != matched.end(); ++it) {
    std::map<int, int> w;
    for (auto jt = it; jt != matched.end() && jt->first - it->first <= max_span; ++jt) {
      w.insert(*jt);
    }
    const int span = w.rbegin()->first - w.begin()->first + 1;
    const int holes = span - static_cast<int>(w.size());
    const double score = static_cast<double>(w.size()) - 0.4 * holes;
    if (score > best_score) {
      best_score = score;
      best = w;
    }
  }
  return best_score;
}

Progression FindProgression(const std::vector<double>& t_sorted, int max_span, double tolerance,
                            double min_spacing_px) {
  const int n = static_cast<int>(t_sorted.size());
  Progression best;
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < std::min(n, i + 4); ++j) {
      for (int l = j + 1; l < std::min(n, j + 4); ++l) {
        for (int m1 = 1; m1 <= 2; ++m1) {
          for (int m2 = m1 + 1; m2 <= m1 + 2; ++m2) {
            double a, b, c;
            if (!SolveProjective(t_sorted[i], t_sorted[j], t_sorted[l], m1, m2, a, b, c)) {
              continue;
            }
            // The progression must stay monotone and plausible across a whole board.
            if (std::abs(c) * (max_span + 1) > 0.8) continue;
            const double spacing0 = std::abs(a - b * c);
            if (spacing0 < min_spacing_px) continue;
            std::map<int, std::pair<int, double>> matched;  // index -> (line, frac)
            for (int q = 0; q < n; ++q) {
              const double den = a - c * t_sorted[q];
              if (std::abs(den) < 1e-12) continue;
              const double k = (t_sorted[q] - b) / den;
              if (std::abs(k) > 3 * max_span) continue;
              const int r = static_cast<int>(std::lround(k));
              const double frac = std::abs(k - r);
              if (frac > tolerance) continue;
              auto it = matched.find(r);
              if (it == matched.end() || frac < it->second.second) matched[r] = {q, frac};
            }
            std::map<int, int> m;
            for (const auto& [r, qf] : matched) m[r] = qf.first;
            std::map<int, int> window;
            const double score = WindowScore(m, max_span, window);
            if (score > best.score) {
              best.score = score;
              best.line_of_index = window;
            }
          }
        }
      }
    }
  }
  return best;
}

// Grows a progression one index at a time with a cubic fit (perspective + lens distortion).
void GrowProgression(const std::vector<double>& t_sorted, int max_span, double tolerance,
                     Progression& p) {
  for (int iter = 0; iter < 2 * max_span + 4; ++iter) {
    const int count = static_cast<int>(p.line_of_index.size());
    if (count < 3) return;
    const int deg = std::min(3, count - 2);
    cv::Mat A(count, deg + 1, CV_64F), y(count, 1, CV_64F);
    int row = 0;
    for (const auto& [k, q] : p.line_of_index) {
      for (int d = 0; d <= deg; ++d) A.at<double>(row, d) = std::pow(k, d);
      y.at<double>(row) = t_sorted[q];
      ++row;
    }
    cv::Mat coef;
    cv::solve(A, y, coef, cv::DECOMP_SVD);
    auto eval = [&](double k) {
      double v = 0;
      for (int d = 0; d <= deg; ++d) v += coef.at<double>(d) * std::pow(k, d);
      return v;
    };
    const int kmin = p.line_of_index.begin()->first;
    const int kmax = p.line_of_index.rbegin()->first;
    std::map<int, int> next;
    for (int k = kmin - 1; k <= kmax + 1; ++k) {
      const double tk = eval(k);
      const double spacing = 0.5 * std::abs(eval(k + 1) - eval(k - 1));
      int best_q = -1;
      double best_frac = tolerance;
      for (int q = 0; q < static_cast<int>(t_sorted.size()); ++q) {
        const double frac = std::abs(t_sorted[q] - tk) / std::max(spacing, 1e-6);
        if (frac < best_frac) {
          best_frac = frac;
          best_q = q;
        }
      }
      if (best_q >= 0) next[k] = best_q;
    }
    std::map<int, int> window;
    WindowScore(next, max_span, window);
    if (window == p.line_of_index) return;
    if (window.size() < p.line_of_index.size()) return;
    p.line_of_index = window;
  }
}

// A unit-sum kernel along a straight stretch of `length` px through its centre at `angle`,
// each point of it spread bilinearly over its four nearest pixels.
cv::Mat StretchKernel(double length, double angle) {
  const int half = static_cast<int>(std::ceil(length / 2)) + 1;
  cv::Mat k = cv::Mat::zeros(2 * half + 1, 2 * half + 1, CV_32F);
  const cv::Point2d d(std::cos(angle), std::sin(angle));
  for (double t = -length / 2; t <= length / 2 + 1e-9; t += 0.25) {
    const double x = half + t * d.x, y = half + t * d.y;
    const int x0 = static_cast<int>(std::floor(x)), y0 = static_cast<int>(std::floor(y));
    const double fx = x - x0, fy = y - y0;
    k.at<float>(y0, x0) += static_cast<float>((1 - fx) * (1 - fy));
    k.at<float>(y0, x0 + 1) += static_cast<float>(fx * (1 - fy));
    k.at<float>(y0 + 1, x0) += static_cast<float>((1 - fx) * fy);
    k.at<float>(y0 + 1, x0 + 1) += static_cast<float>(fx * fy);
  }
  return k / cv::sum(k)[0];
}

// Each pixel's darkness as its mean over a `length_px` stretch through it, in the direction where
// that mean is darkest (see GridLineOptions::along_line_mean_px), and the ridge of it: the pixels
// darker in that mean than both neighbours across the stretch, so that the evidence stays as thin
// as the line (the mean widens it by the stretch's slight turn from the line and by noise).
// Computed at half size: the blurred lines it is for are several pixels wide, and the directions
// then number half as many.
struct SummedDarkness {
  cv::Mat mean;   // CV_32F, grey levels, the image's size
  cv::Mat ridge;  // CV_8U, 255 on the ridge
};

SummedDarkness DarkestMeanAlongLines(const cv::Mat& darkness, double length_px) {
  cv::Mat small;
  cv::resize(darkness, small, {}, 0.5, 0.5, cv::INTER_AREA);
  const double length = std::max(3.0, length_px / 2);
  // Directions close enough that a line between two of them strays under a pixel from the
  // nearer one over half the stretch.
  const int directions = static_cast<int>(std::ceil(kPi / std::atan(2.0 / length)));
  cv::Mat best(small.size(), CV_32F, cv::Scalar(0)), mean;
  cv::Mat best_dir(small.size(), CV_8U, cv::Scalar(0));
  for (int k = 0; k < directions; ++k) {
    cv::filter2D(small, mean, CV_32F, StretchKernel(length, k * kPi / directions), {-1, -1}, 0,
                 cv::BORDER_REPLICATE);
    best_dir.setTo(k, mean > best);
    cv::max(best, mean, best);
  }
  cv::Mat ridge(small.size(), CV_8U, cv::Scalar(0));
  for (int y = 1; y + 1 < small.rows; ++y) {
    for (int x = 1; x + 1 < small.cols; ++x) {
      const double a = best_dir.at<uchar>(y, x) * kPi / directions;
      const int nx = static_cast<int>(std::lround(-std::sin(a)));
      const int ny = static_cast<int>(std::lround(std::cos(a)));
      const float v = best.at<float>(y, x);
      if (v >= best.at<float>(y + ny, x + nx) && v >= best.at<float>(y - ny, x - nx)) {
        ridge.at<uchar>(y, x) = 255;
      }
    }
  }
  SummedDarkness out;
  cv::resize(best, out.mean, darkness.size(), 0, 0, cv::INTER_LINEAR);
  cv::resize(ridge, out.ridge, darkness.size(), 0, 0, cv::INTER_NEAREST);
  return out;
}

}  // namespace

cv::Mat LineEvidence(const cv::Mat& gray, const GridLineOptions& options) {
  const double scale = gray.rows / 1080.0;
  int k = std::max(5, static_cast<int>(std::lround(options.blackhat_kernel_px * scale)));
  k |= 1;
  const cv::Mat kernel = cv::getStructuringElement(cv::MORPH_ELLIPSE, {k, k});
  // A light blur first: sensor noise and mat grain must not pass as thin dark lines.
  cv::Mat smooth;
  cv::GaussianBlur(gray, smooth, {0, 0}, std::max(0.8, scale));
  cv::Mat closed;
  cv::morphologyEx(smooth, closed, cv::MORPH_CLOSE, kernel);
  cv::Mat bh, closed_f, rel;
  cv::subtract(closed, smooth, bh, cv::noArray(), CV_32F);
  cv::Mat ridge;
  if (options.along_line_mean_px > 0) {
    SummedDarkness summed = DarkestMeanAlongLines(bh, options.along_line_mean_px * scale);
    bh = summed.mean;
    ridge = summed.ridge;
  }
  closed.convertTo(closed_f, CV_32F);
  cv::max(closed_f, 20.0, closed_f);
  cv::divide(bh, closed_f, rel);
  cv::Mat evidence = (rel > options.min_relative_darkness) & (bh > options.min_darkness_grey);
  // Keep only long connected structures: the grid is one large network of lines.
  cv::Mat labels, stats, centroids;
  const int n = cv::connectedComponentsWithStats(evidence, labels, stats, centroids, 8, CV_32S);
  const int min_extent = static_cast<int>(0.04 * std::max(gray.cols, gray.rows));
  std::vector<uchar> keep(static_cast<size_t>(n), 0);
  for (int i = 1; i < n; ++i) {
    keep[static_cast<size_t>(i)] = std::max(stats.at<int>(i, cv::CC_STAT_WIDTH),
                                            stats.at<int>(i, cv::CC_STAT_HEIGHT)) >= min_extent;
  }
  for (int y = 0; y < evidence.rows; ++y) {
    uchar* e = evidence.ptr<uchar>(y);
    const int* l = labels.ptr<int>(y);
    for (int x = 0; x < evidence.cols; ++x) {
      if (e[x] && !keep[static_cast<size_t>(l[x])]) e[x] = 0;
    }
  }
  // Thinned after the long structures are kept: the ridge alone breaks at every crossing.
  if (!ridge.empty()) evidence &= ridge;
  return evidence;
}

std::optional<cv::Point2d> IntersectLines(double rho1, double theta1, double rho2, double theta2) {
  const double a = std::cos(theta1), b = std::sin(theta1);
  const double c = std::cos(theta2), d = std::sin(theta2);
  const double det = a * d - b * c;
  if (std::abs(det) < 1e-6) return std::nullopt;
  return cv::Point2d((rho1 * d - b * rho2) / det, (a * rho2 - rho1 * c) / det);
}

std::optional<GridLineFamilies> FindGridLines(const cv::Mat& gray, const GridLineOptions& options) {
  GridLineFamilies out;
  out.evidence = LineEvidence(gray, options);
  const double scale = gray.rows / 1080.0;
  const int votes = std::max(
      30, static_cast<int>(options.min_line_votes_fraction * std::min(gray.cols, gray.rows)));
  std::vector<cv::Vec3f> raw;
  cv::HoughLines(out.evidence, raw, 1, kPi / 360, votes);
  std::vector<HoughLine> lines;
  // Rank by thin-line support rather than raw votes (see ThinSupport).
  for (const auto& v : raw) {
    const double thin = ThinSupport(out.evidence, v[0], v[1], std::max(0.5, scale));
    if (thin >= 0.5 * votes) lines.push_back({v[0], v[1], thin});
  }
  std::sort(lines.begin(), lines.end(),
            [](const HoughLine& x, const HoughLine& y) { return x.votes > y.votes; });
  const cv::Point2d centre(gray.cols / 2.0, gray.rows / 2.0);
  lines = SuppressDuplicates(lines, gray.size(), 8.0 * scale, 5.0 * kPi / 180, 120);
  if (lines.size() < 6) return std::nullopt;

  // The two grid directions: the strongest angle, then the strongest 50-90 degrees from it.
  std::array<double, 180> hist{};
  for (const auto& l : lines) {
    const int bin = static_cast<int>(std::fmod(l.theta * 180 / kPi, 180.0));
    for (int d = -4; d <= 4; ++d) hist[(bin + d + 180) % 180] += l.votes * (5 - std::abs(d));
  }
  const int p1 = static_cast<int>(std::max_element(hist.begin(), hist.end()) - hist.begin());
  int p2 = -1;
  for (int i = 0; i < 180; ++i) {
    const int d = std::min(std::abs(i - p1), 180 - std::abs(i - p1));
    if (d >= 50 && (p2 < 0 || hist[i] > hist[p2])) p2 = i;
  }
  const double half = options.family_half_width_deg * kPi / 180;
  const double phi1 = p1 * kPi / 180, phi2 = p2 * kPi / 180;
  std::vector<HoughLine> fam1, fam2;
  for (const auto& l : lines) {
    const double d1 = AngleDiff(l.theta, phi1), d2 = AngleDiff(l.theta, phi2);
    if (d1 <= half && d1 <= d2) fam1.push_back(l);
    if (d2 <= half && d2 < d1) fam2.push_back(l);
  }
  // Chords across several lines gather a fraction of a real line's votes: drop lines far
  // weaker than the family's strong ones (a line 70% hidden still passes).
  auto drop_weak = [](std::vector<HoughLine>& fam) {
    if (fam.size() < 3) return;
    std::vector<double> v;
    v.reserve(fam.size());
    for (const auto& l : fam) v.push_back(l.votes);
    std::sort(v.rbegin(), v.rend());
    const double ref = v[std::min<size_t>(2, v.size() - 1)];
    std::erase_if(fam, [&](const HoughLine& l) { return l.votes < 0.3 * ref; });
  };
  drop_weak(fam1);
  drop_weak(fam2);
  // A grid line crosses many lines of the other direction where both show evidence; floor
  // boards, table edges and room clutter do not (the grid lines end at the board's border).
  const int probe = std::max(3, static_cast<int>(std::lround(5 * scale)));
  auto has_evidence = [&](cv::Point2d p) {
    const int x = static_cast<int>(std::lround(p.x)), y = static_cast<int>(std::lround(p.y));
    if (x < 1 || y < 1 || x >= gray.cols - 1 || y >= gray.rows - 1) return false;
    for (int dy = -1; dy <= 1; ++dy) {
      for (int dx = -1; dx <= 1; ++dx) {
        if (out.evidence.at<uchar>(y + dy, x + dx)) return true;
      }
    }
    return false;
  };
  auto support = [&](const HoughLine& l, const std::vector<HoughLine>& other) {
    const cv::Point2d d1(-std::sin(l.theta), std::cos(l.theta));
    int n = 0;
    for (const auto& o : other) {
      auto p = IntersectLines(l.rho, l.theta, o.rho, o.theta);
      if (!p) continue;
      const cv::Point2d d2(-std::sin(o.theta), std::cos(o.theta));
      int arms = 0;
      for (int sgn : {-1, 1}) {
        if (has_evidence(*p + sgn * probe * d1)) ++arms;
        if (has_evidence(*p + sgn * probe * d2)) ++arms;
      }
      if (arms >= 3) ++n;  // a + or a T (border) crossing
    }
    return n;
  };
  for (int pass = 0; pass < 2; ++pass) {
    for (auto* fam : {&fam1, &fam2}) {
      const auto& other = fam == &fam1 ? fam2 : fam1;
      std::vector<int> sup;
      for (const auto& l : *fam) sup.push_back(support(l, other));
      const int best = sup.empty() ? 0 : *std::max_element(sup.begin(), sup.end());
      std::vector<HoughLine> keep;
      for (size_t i = 0; i < fam->size(); ++i) {
        if (sup[i] >= 2 && sup[i] >= 0.25 * best) keep.push_back((*fam)[i]);
      }
      *fam = keep;
    }
  }
  if (fam1.size() < 3 || fam2.size() < 3) return std::nullopt;

  // Transversal through the centre of the strongest crossings.
  cv::Point2d c(0, 0);
  int nc = 0;
  for (size_t i = 0; i < std::min<size_t>(fam1.size(), 15); ++i) {
    for (size_t j = 0; j < std::min<size_t>(fam2.size(), 15); ++j) {
      auto p = IntersectLines(fam1[i].rho, fam1[i].theta, fam2[j].rho, fam2[j].theta);
      if (p && p->x >= 0 && p->y >= 0 && p->x < gray.cols && p->y < gray.rows) {
        c += *p;
        ++nc;
      }
    }
  }
  c = nc > 0 ? c * (1.0 / nc) : centre;

  // Both directions are indexed allowing the longer side of any board.
  const int max_span = 40;
  auto index_family = [&](const std::vector<HoughLine>& fam, double phi,
                          std::vector<IndexedLine>& dst) {
    const cv::Point2d n(std::cos(phi), std::sin(phi));
    std::vector<std::pair<double, int>> tq;
    for (size_t i = 0; i < fam.size(); ++i) {
      const cv::Point2d u(std::cos(fam[i].theta), std::sin(fam[i].theta));
      const double nu = n.dot(u);
      if (std::abs(nu) < 0.3) continue;
      tq.push_back({(fam[i].rho - c.dot(u)) / nu, static_cast<int>(i)});
    }
    std::sort(tq.begin(), tq.end());
    std::vector<double> t;
    t.reserve(tq.size());
    for (const auto& x : tq) t.push_back(x.first);
    Progression p = FindProgression(t, max_span, options.index_tolerance, 6.0 * scale);
    GrowProgression(t, max_span, options.index_tolerance, p);
    for (const auto& [k, q] : p.line_of_index) {
      const HoughLine& l = fam[tq[q].second];
      dst.push_back({l.rho, l.theta, k});
    }
    return dst.size() >= 3;
  };
  if (!index_family(fam1, phi1, out.a) || !index_family(fam2, phi2, out.b)) return std::nullopt;
  return out;
}

}  // namespace referee
