#include "calibration/calibrate_table.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <ctime>
#include <map>
#include <opencv2/calib3d.hpp>
#include <opencv2/imgproc.hpp>
#include <set>
#include <sstream>

#include "calibration/border_line_evidence.hpp"
#include "calibration/lattice_growth.hpp"
#include "calibration/line_coverage.hpp"
#include "calibration/marker_detection.hpp"
#include "calibration/predicted_crossing.hpp"
#include "engine/order_statistics.hpp"

namespace referee {

namespace {

struct Labelled {
  int i = 0, j = 0;
  cv::Point2d px;
};

CalibrationRefusal Refuse(std::string code, std::string message) {
  CalibrationRefusal r;
  r.code = std::move(code);
  r.message = std::move(message);
  return r;
}

std::vector<cv::Point2d> ProjectAll(const CameraModel& cam, const std::vector<cv::Point2d>& t) {
  std::vector<cv::Point3d> obj;
  obj.reserve(t.size());
  for (const auto& p : t) obj.emplace_back(p.x, p.y, 0.0);
  std::vector<cv::Point2d> px;
  if (obj.empty()) return px;
  cv::projectPoints(obj, cam.rvec_cam_from_table, cam.tvec_cam_from_table, cam.camera_matrix,
                    cam.distortion, px);
  return px;
}

bool Inside(cv::Point2d p, cv::Size s, double margin) {
  return p.x >= margin && p.y >= margin && p.x < s.width - margin && p.y < s.height - margin;
}

// Half the median line coverage of the board's lines: a line covered less is taken as absent,
// at least this much as present (see CalibrateOptions::min_line_coverage).
double HalfTypicalLine(const LineCoverage& lc) { return 0.5 * TypicalLineCoverage(lc); }

// No line one square beyond the board's border shows, nor do the board's lines run on past it
// (see CalibrateOptions::max_line_extension).
bool NothingBeyondBorder(const LineCoverage& lc, double max_line_extension) {
  const double half_typical = HalfTypicalLine(lc);
  const double typical = 2 * half_typical;
  return std::all_of(std::begin(lc.beyond), std::end(lc.beyond),
                     [&](double b) { return b < half_typical; }) &&
         std::all_of(std::begin(lc.extension), std::end(lc.extension), [&](double e) {
           return max_line_extension <= 0 || e < max_line_extension * typical;
         });
}

// Every border line shows in at least this fraction of the median line's coverage.
bool BorderLinesShow(const LineCoverage& lc, double min_of_typical) {
  if (lc.col_line.empty() || lc.row_line.empty()) return false;
  const double typical = 2 * HalfTypicalLine(lc);
  const double border[4] = {lc.col_line.front(), lc.col_line.back(), lc.row_line.front(),
                            lc.row_line.back()};
  return std::all_of(std::begin(border), std::end(border),
                     [&](double b) { return b >= min_of_typical * typical; });
}

// The window of the board's lines among the detected ones needs each border line to show in at
// least this fraction of a typical line's evidence (a border line under terrain along most of
// its length still shows as much).
constexpr double kMinBorderOfTypical = 0.15;

// A border line without crossings shows as a line (not a step) in at least this fraction of
// what the lines beside it show (see BorderLinesNotBareMat).
constexpr double kMinBorderNotStepOfNeighbours = 0.25;

// ... and the lines across the square inside it show in at least this fraction of the whole
// board's coverage (see BorderLinesNotBareMat): on `hard` tables 0.25-1.2 where the border is
// true, 0.00 on a board taken a square larger.
constexpr double kMinEdgeStripOfBoard = 0.1;

// ... and the board's lines show where the camera puts them, its border lines included: each
// at least half as much as the median line or the lines beside it, whichever show less (see
// border_line_evidence.hpp).
bool LinesShowBoard(const LineCoverage& lc, double min_fraction, double max_line_extension) {
  if (lc.col_line.empty() || lc.row_line.empty() || lc.board < min_fraction) return false;
  return NothingBeyondBorder(lc, max_line_extension) &&
         BorderLinesShowBesideNeighbours(lc, 0.5, kMinBorderOfTypical);
}

std::string NowUtc() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

// The window of the board's lines among the detected ones, and how it maps to (col,row).
struct Labelling {
  int na = 0, nb = 0, a0 = 0, b0 = 0;
  double score = -1;
};

// Label extents of the found lattice and how far the window search looks around them.
struct WindowBounds {
  int imin = 0, imax = 0, jmin = 0, jmax = 0, ilo = 0, ihi = 0, jlo = 0, jhi = 0;
};

// The one window of the board's size (either way round) holding the whole lattice whose lines,
// sampled to sub-pixel where `lattice_cam` (in lattice inches) puts them, show the board: border
// lines seen, none beyond (see LinesShowBoard). nullopt when no window or several do.
std::optional<Labelling> WindowShownByLines(const cv::Mat& grayf, const CameraModel& lattice_cam,
                                            double square_in,
                                            const std::vector<std::pair<int, int>>& sizes,
                                            const WindowBounds& w,
                                            const CalibrateOptions& options) {
  std::optional<Labelling> shown;
  cv::Matx33d rot;
  cv::Rodrigues(lattice_cam.rvec_cam_from_table, rot);
  for (auto [na, nb] : sizes) {
    for (int a0 = std::max(w.ilo, w.imax - na); a0 <= std::min(w.imin, w.ihi - na); ++a0) {
      for (int b0 = std::max(w.jlo, w.jmax - nb); b0 <= std::min(w.jmin, w.jhi - nb); ++b0) {
        // The same camera with the window's first crossing as the table origin.
        CameraModel cam = lattice_cam;
        cam.tvec_cam_from_table += rot * cv::Vec3d(a0 * square_in, b0 * square_in, 0.0);
        Grid window;
        window.cols = na;
        window.rows = nb;
        window.square_size_in = square_in;
        const LineCoverage lc =
            MeasureLineCoverage(grayf, window, cam, options.line_fit.samples_per_square,
                                options.line_fit.max_offset_px, options.refine);
        if (!BorderLinesShow(lc, kMinBorderOfTypical) ||
            !NothingBeyondBorder(lc, options.max_line_extension)) {
          continue;
        }
        if (shown) return std::nullopt;  // two windows fit: the lines cannot tell
        shown = Labelling{na, nb, a0, b0, lc.board};
      }
    }
  }
  return shown;
}

// First guess of the camera from the grid lines alone, in table inches, with the crossings'
// labels resolved (window of cols x rows, origin per TABLE_KIT). Returns a refusal on failure.
std::variant<CameraModel, CalibrationRefusal> InitialFromLines(const cv::Mat& gray8,
                                                               const cv::Mat& grayf,
                                                               const Grid& board,
                                                               const std::optional<LensModel>& lens,
                                                               const CalibrateOptions& options) {
  const double det_scale = gray8.rows > 1500 ? 0.5 : 1.0;
  cv::Mat det = gray8;
  if (det_scale != 1.0) cv::resize(gray8, det, {}, det_scale, det_scale, cv::INTER_AREA);
  auto fam = FindGridLines(det, options.lines);
  if (!fam) return Refuse("grid_not_found", "no grid of dark lines found in the image");

  // Seeds: crossings of the indexed lines, refined to sub-pixel.
  std::map<std::pair<int, int>, cv::Point2d> raw;
  for (const auto& a : fam->a) {
    for (const auto& b : fam->b) {
      auto p = IntersectLines(a.rho / det_scale, a.theta, b.rho / det_scale, b.theta);
      if (p && Inside(*p, gray8.size(), 3)) raw[{a.index, b.index}] = *p;
    }
  }
  std::map<int, double> theta_a, theta_b;
  for (const auto& a : fam->a) theta_a[a.index] = a.theta;
  for (const auto& b : fam->b) theta_b[b.index] = b.theta;
  std::vector<Labelled> seeds;
  std::vector<double> spacings;
  for (const auto& [ij, p] : raw) {
    double spacing = 1e9;
    for (auto d : {std::pair{1, 0}, {-1, 0}, {0, 1}, {0, -1}}) {
      auto it = raw.find({ij.first + d.first, ij.second + d.second});
      if (it != raw.end()) spacing = std::min(spacing, cv::norm(it->second - p));
    }
    if (spacing > 1e8) continue;
    const double ta = theta_a[ij.first], tb = theta_b[ij.second];
    auto r = RefineCrossing(grayf, p, {-std::sin(ta), std::cos(ta)}, {-std::sin(tb), std::cos(tb)},
                            spacing, options.refine);
    if (!r) continue;
    seeds.push_back({ij.first, ij.second, r->px});
    spacings.push_back(spacing);
  }
  if (seeds.size() < 8) {
    return Refuse("grid_not_found", "too few grid crossings could be measured (" +
                                        std::to_string(seeds.size()) + ")");
  }
  const double spacing_px = Median(spacings);
  const double s = board.square_size_in;
  std::vector<cv::Point2d> rel_in, px;
  for (const auto& sd : seeds) {
    rel_in.emplace_back(sd.i * s, sd.j * s);
    px.push_back(sd.px);
  }
  std::vector<uchar> inlier;
  cv::findHomography(rel_in, px, cv::RANSAC, std::max(2.0, 0.08 * spacing_px), inlier);
  std::vector<cv::Point2d> rel2, px2;
  for (size_t k = 0; k < inlier.size(); ++k) {
    if (!inlier[k]) continue;
    rel2.push_back(rel_in[k]);
    px2.push_back(px[k]);
  }
  auto fit = FitCamera(rel2, px2, gray8.size(), lens, options.fit);
  if (!fit) return Refuse("grid_not_found", "the grid crossings found do not fit a camera");
  CameraModel rel_cam = fit->camera;

  // Which cols+1 x rows+1 lines are the board: the window with the most line evidence.
  int imin = 1 << 20, imax = -(1 << 20), jmin = 1 << 20, jmax = -(1 << 20);
  auto extent = [&] {
    imin = jmin = 1 << 20;
    imax = jmax = -(1 << 20);
    for (size_t k = 0; k < rel2.size(); ++k) {
      const int i = static_cast<int>(std::lround(rel2[k].x / s));
      const int j = static_cast<int>(std::lround(rel2[k].y / s));
      imin = std::min(imin, i);
      imax = std::max(imax, i);
      jmin = std::min(jmin, j);
      jmax = std::max(jmax, j);
    }
  };
  extent();
  const int nmax = std::max(board.cols, board.rows);
  if (options.grow_lattice) {
    // The seeds may sit in a few clusters (lines the Hough transform missed, much of the grid
    // hidden): grow them over the rest of the visible grid so that the board's window below is
    // judged through a camera fitted to the whole of it. Bounds: as far as the window search
    // below looks, so that a grid larger than the board shows as such.
    std::vector<LatticeCrossing> lattice;
    for (size_t k = 0; k < rel2.size(); ++k) {
      lattice.push_back({static_cast<int>(std::lround(rel2[k].x / s)),
                         static_cast<int>(std::lround(rel2[k].y / s)), px2[k]});
    }
    const cv::Rect bounds(imin - nmax - 1, jmin - nmax - 1, imax - imin + 2 * nmax + 3,
                          jmax - jmin + 2 * nmax + 3);
    auto grown = GrowLattice(grayf, lattice, s, bounds, gray8.size(), lens, options.fit,
                             options.refine, options.growth);
    // Lines indexed at a fraction of their spacing: grown again with consecutive labels.
    if (grown && CloseSkippedLines(grown->crossings)) {
      grown = GrowLattice(grayf, grown->crossings, s, bounds, gray8.size(), lens, options.fit,
                          options.refine, options.growth);
    }
    if (grown) {
      rel2.clear();
      px2.clear();
      for (const auto& c : grown->crossings) {
        rel2.emplace_back(c.i * s, c.j * s);
        px2.push_back(c.px);
      }
      rel_cam = grown->camera;
      extent();
    }
  }
  // A refusal from here on shows the crossings that were found, counted from the found grid's
  // corner, so the debug picture tells how many lines were seen.
  auto refuse_found = [&](std::string code, std::string message) {
    CalibrationRefusal ref = Refuse(std::move(code), std::move(message));
    for (size_t k = 0; k < rel2.size(); ++k) {
      const int i = static_cast<int>(std::lround(rel2[k].x / s)) - imin;
      const int j = static_cast<int>(std::lround(rel2[k].y / s)) - jmin;
      ref.intersections.push_back({i, j, px2[k], 0.0});
    }
    return ref;
  };
  const std::string found_text = " (found " + std::to_string(imax - imin + 1) + " x " +
                                 std::to_string(jmax - jmin + 1) + " lines with crossings)";
  const int ilo = imin - nmax - 1, ihi = imax + nmax + 1, jlo = jmin - nmax - 1,
            jhi = jmax + nmax + 1;
  cv::Mat ev;
  const int r = std::max(1, static_cast<int>(std::lround(0.05 * spacing_px * det_scale)));
  cv::dilate(fam->evidence, ev,
             cv::getStructuringElement(cv::MORPH_ELLIPSE, {2 * r + 1, 2 * r + 1}));
  constexpr int kSamples = 8;
  std::set<std::pair<int, int>> crossing_at;
  for (const auto& p : rel2) {
    crossing_at.insert(
        {static_cast<int>(std::lround(p.x / s)), static_cast<int>(std::lround(p.y / s))});
  }
  auto segment_evidence = [&](bool along_j) {
    // e[i][j]: evidence on the a-line i between b-lines j and j+1 (along_j), or on b-line j
    // between a-lines i and i+1.
    std::vector<cv::Point2d> pts;
    for (int i = ilo; i <= ihi; ++i) {
      for (int j = jlo; j <= jhi; ++j) {
        for (int k = 0; k < kSamples; ++k) {
          const double f = 0.15 + 0.7 * k / (kSamples - 1);
          pts.push_back(along_j ? cv::Point2d(i * s, (j + f) * s)
                                : cv::Point2d((i + f) * s, j * s));
        }
      }
    }
    const auto img = ProjectAll(rel_cam, pts);
    std::map<std::pair<int, int>, double> e;
    size_t idx = 0;
    for (int i = ilo; i <= ihi; ++i) {
      for (int j = jlo; j <= jhi; ++j) {
        int hits = 0;
        for (int k = 0; k < kSamples; ++k, ++idx) {
          const cv::Point2d q = img[idx] * det_scale;
          if (Inside(q, ev.size(), 0) &&
              ev.at<uchar>(static_cast<int>(q.y), static_cast<int>(q.x))) {
            ++hits;
          }
        }
        // A segment ending at measured crossings is on a grid line, also where the evidence
        // image lost the line (short pieces between terrain are dropped as clutter there).
        const int ends = static_cast<int>(crossing_at.count({i, j})) +
                         static_cast<int>(crossing_at.count(along_j ? std::pair{i, j + 1}
                                                                    : std::pair{i + 1, j}));
        e[{i, j}] =
            std::max(static_cast<double>(hits) / kSamples, options.grow_lattice ? 0.5 * ends : 0.0);
      }
    }
    return e;
  };
  const auto ea = segment_evidence(true);   // a-lines (constant i)
  const auto eb = segment_evidence(false);  // b-lines (constant j)
  auto line_a = [&](int i, int j0, int nb) {
    double sum = 0;
    for (int j = j0; j < j0 + nb; ++j) sum += ea.at({i, j});
    return sum / nb;
  };
  auto line_b = [&](int j, int i0, int na) {
    double sum = 0;
    for (int i = i0; i < i0 + na; ++i) sum += eb.at({i, j});
    return sum / na;
  };
  Labelling best;
  std::vector<std::pair<int, int>> sizes{{board.cols, board.rows}};
  if (board.cols != board.rows) sizes.push_back({board.rows, board.cols});
  for (auto [na, nb] : sizes) {
    for (int a0 = std::max(ilo, imax - na); a0 <= std::min(imin, ihi - na); ++a0) {
      for (int b0 = std::max(jlo, jmax - nb); b0 <= std::min(jmin, jhi - nb); ++b0) {
        double score = 0;
        for (int i = a0; i <= a0 + na; ++i) score += line_a(i, b0, nb) * nb;
        for (int j = b0; j <= b0 + nb; ++j) score += line_b(j, a0, na) * na;
        if (score > best.score) best = {na, nb, a0, b0, score};
      }
    }
  }
  if (best.score < 0) {
    return refuse_found("wrong_size", "the grid found spans more lines than the board's " +
                                          std::to_string(board.cols) + " x " +
                                          std::to_string(board.rows) + " squares" + found_text);
  }
  // Size check: the border lines must show, the lines beyond must not.
  std::vector<double> interior;
  for (int i = best.a0 + 1; i < best.a0 + best.na; ++i)
    interior.push_back(line_a(i, best.b0, best.nb));
  for (int j = best.b0 + 1; j < best.b0 + best.nb; ++j)
    interior.push_back(line_b(j, best.a0, best.na));
  const double typical = std::max(0.05, Median(interior));
  const double border[4] = {
      line_a(best.a0, best.b0, best.nb), line_a(best.a0 + best.na, best.b0, best.nb),
      line_b(best.b0, best.a0, best.na), line_b(best.b0 + best.nb, best.a0, best.na)};
  const double beyond[4] = {
      line_a(best.a0 - 1, best.b0, best.nb), line_a(best.a0 + best.na + 1, best.b0, best.nb),
      line_b(best.b0 - 1, best.a0, best.na), line_b(best.b0 + best.nb + 1, best.a0, best.na)};
  std::string size_text = std::to_string(board.cols);
  size_text += " x " + std::to_string(board.rows) + " squares";
  size_text += found_text;
  // The coarse evidence loses a blurred border line under terrain along much of its length (no
  // crossing measured on it), or shows one beyond it: in the growing attempt the lines' own
  // profiles, sampled where the camera puts each window's lines, then pick the window whose
  // border lines all show and nothing beyond them; with none or several such, it is refused.
  const bool coarse_fits =
      std::all_of(std::begin(border), std::end(border),
                  [&](double b) { return b >= kMinBorderOfTypical * typical; }) &&
      std::all_of(std::begin(beyond), std::end(beyond),
                  [&](double b) { return b <= 0.85 * typical; });
  std::optional<Labelling> by_lines;
  if (!coarse_fits && options.grow_lattice && options.min_line_coverage > 0) {
    by_lines = WindowShownByLines(grayf, rel_cam, s, sizes,
                                  {imin, imax, jmin, jmax, ilo, ihi, jlo, jhi}, options);
  }
  if (by_lines) {
    best = *by_lines;
  } else {
    for (int k = 0; k < 4; ++k) {
      if (border[k] < kMinBorderOfTypical * typical) {
        return refuse_found("wrong_size",
                            "the grid found has fewer lines than the board's " + size_text);
      }
      if (beyond[k] > 0.85 * typical) {
        return refuse_found("wrong_size",
                            "the grid found has more lines than the board's " + size_text);
      }
    }
  }

  // Origin per TABLE_KIT: of the corners whose proper-handed x edge has `cols` squares, the one
  // nearest the image's top-left (x then goes toward the image's top-right side).
  const int ci[4] = {best.a0, best.a0 + best.na, best.a0 + best.na, best.a0};
  const int cj[4] = {best.b0, best.b0, best.b0 + best.nb, best.b0 + best.nb};
  std::vector<cv::Point2d> corner_rel;
  corner_rel.reserve(4);
  for (int k = 0; k < 4; ++k) corner_rel.emplace_back(ci[k] * s, cj[k] * s);
  const auto corner_px = ProjectAll(rel_cam, corner_rel);
  int best_origin = -1, best_x = -1;
  double best_dist = 1e18;
  for (int o = 0; o < 4; ++o) {
    for (int dx : {1, 3}) {
      const int xk = (o + dx) % 4, yk = (o + 4 - dx) % 4;
      const int squares = std::abs(ci[xk] - ci[o]) + std::abs(cj[xk] - cj[o]);
      if (squares != board.cols) continue;
      const cv::Point2d vx = corner_px[xk] - corner_px[o], vy = corner_px[yk] - corner_px[o];
      if (vx.x * vy.y - vx.y * vy.x <= 0) continue;  // mirrored: z would point at the camera
      const double d = cv::norm(corner_px[o]);
      if (d < best_dist) {
        best_dist = d;
        best_origin = o;
        best_x = xk;
      }
    }
  }
  if (best_origin < 0) return refuse_found("grid_not_found", "could not orient the grid");
  const int oi = ci[best_origin], oj = cj[best_origin];
  const bool x_along_i = ci[best_x] != oi;
  const int sx = x_along_i ? (ci[best_x] > oi ? 1 : -1) : (cj[best_x] > oj ? 1 : -1);
  const int yk = (best_origin + (best_x == (best_origin + 1) % 4 ? 3 : 1)) % 4;
  const int sy = x_along_i ? (cj[yk] > oj ? 1 : -1) : (ci[yk] > oi ? 1 : -1);
  std::vector<cv::Point2d> table_in, px3;
  for (size_t k = 0; k < rel2.size(); ++k) {
    const int i = static_cast<int>(std::lround(rel2[k].x / s));
    const int j = static_cast<int>(std::lround(rel2[k].y / s));
    const int col = x_along_i ? sx * (i - oi) : sx * (j - oj);
    const int row = x_along_i ? sy * (j - oj) : sy * (i - oi);
    if (col < 0 || row < 0 || col > board.cols || row > board.rows) continue;
    table_in.emplace_back(col * s, row * s);
    px3.push_back(px2[k]);
  }
  auto fit2 = FitCamera(table_in, px3, gray8.size(), lens, options.fit);
  if (!fit2) return Refuse("grid_not_found", "the grid crossings found do not fit a camera");
  return fit2->camera;
}

std::variant<CameraModel, CalibrationRefusal> InitialFromMarkers(
    const MarkerCorners& m, cv::Size size, const std::optional<LensModel>& lens,
    const CalibrateOptions& options) {
  CameraFitOptions fo = options.fit;
  fo.estimate_distortion = false;
  auto fit = FitCamera(m.table_in, m.px, size, lens, fo);
  if (!fit) return Refuse("grid_not_found", "the corner markers found do not fit a camera");
  return fit->camera;
}

}  // namespace

cv::Mat ReferenceThumbnail(const cv::Mat& image) {
  cv::Mat gray = image;
  if (image.channels() == 3) cv::cvtColor(image, gray, cv::COLOR_BGR2GRAY);
  cv::Mat thumb;
  const double f = 320.0 / gray.cols;
  cv::resize(gray, thumb, {}, f, f, cv::INTER_AREA);
  return thumb;
}

namespace {

// One calibration; `options.grow_lattice` selects the second, growing attempt.
CalibrationResult CalibrateAttempt(const cv::Mat& image, const Grid& board,
                                   const std::optional<LensModel>& lens,
                                   const CalibrateOptions& options) {
  if (image.empty()) return Refuse("grid_not_found", "empty image");
  cv::Mat gray8 = image;
  if (image.channels() == 3) cv::cvtColor(image, gray8, cv::COLOR_BGR2GRAY);
  const cv::Mat grayf = RefineImage(gray8);
  const cv::Size size = gray8.size();

  const MarkerCorners markers = DetectCornerMarkers(gray8, board);
  const bool use_markers = static_cast<int>(markers.ids.size()) >= options.min_markers;
  auto initial = use_markers ? InitialFromMarkers(markers, size, lens, options)
                             : InitialFromLines(gray8, grayf, board, lens, options);
  if (auto* refusal = std::get_if<CalibrationRefusal>(&initial)) return *refusal;
  CameraModel cam = std::get<CameraModel>(initial);

  const double s = board.square_size_in;
  const int total = (board.cols + 1) * (board.rows + 1);
  std::vector<IntersectionFix> fixes;
  CameraFit fit;
  int measured = 0;
  for (int pass = 0; pass < 3; ++pass) {
    std::vector<std::pair<int, int>> labels;
    for (int r = 0; r <= board.rows; ++r) {
      for (int c = 0; c <= board.cols; ++c) labels.emplace_back(c, r);
    }
    const auto measured_px = MeasurePredictedCrossings(grayf, cam, labels, s, options.refine);
    std::vector<IntersectionFix> found;
    for (size_t k = 0; k < labels.size(); ++k) {
      if (measured_px[k]) found.push_back({labels[k].first, labels[k].second, *measured_px[k], 0});
    }
    measured = static_cast<int>(found.size());
    // The lens model is chosen on the crossings measured, not on those left after dropping: a
    // stiffer model (k2 fixed) misfits the board's far crossings by more than outlier_px and
    // would drop them, which keeps the count under the threshold.
    CameraFitOptions loop_fit = options.fit;
    if (options.grow_lattice && measured >= options.fit.min_points_for_k2) {
      loop_fit.min_points_for_k2 = 0;
    }
    // Fit, dropping crossings the model cannot explain (a stand edge mistaken for a line).
    for (int round = 0; round < 6; ++round) {
      std::vector<cv::Point2d> tin, px;
      for (const auto& f : found) {
        tin.emplace_back(f.col * s, f.row * s);
        px.push_back(f.px);
      }
      auto fr = FitCamera(tin, px, size, lens, loop_fit);
      if (!fr) {
        CalibrationRefusal ref =
            Refuse("grid_not_found", "the grid crossings found (" + std::to_string(found.size()) +
                                         ") do not fit a camera");
        ref.intersections = found;
        return ref;
      }
      fit = *fr;
      const double worst = *std::max_element(fit.residual_px.begin(), fit.residual_px.end());
      for (size_t k = 0; k < found.size(); ++k) found[k].residual_px = fit.residual_px[k];
      if (worst <= options.outlier_px) break;
      const double cut = std::max(options.outlier_px, 0.5 * worst);
      std::vector<IntersectionFix> keep;
      for (const auto& f : found) {
        if (f.residual_px <= cut) keep.push_back(f);
      }
      found = keep;
    }
    fixes = found;
    cam = fit.camera;
  }
  // The quality reports how far the measured crossings sit from the fitted camera, so it is
  // computed from them even after the line fit replaces each crossing by its fitted position.
  std::vector<cv::Point2d> measured_fix_px;
  measured_fix_px.reserve(fixes.size());
  for (const auto& f : fixes) measured_fix_px.push_back(f.px);
  bool line_fit_ran = false;
  if (options.use_line_samples && !fixes.empty()) {
    // The crossings alone leave the lens poorly determined toward the board's edges when many
    // are hidden or the image is blurred and noisy: add the lines between them.
    std::vector<cv::Point2d> tin, px;
    for (const auto& f : fixes) {
      tin.emplace_back(f.col * s, f.row * s);
      px.push_back(f.px);
    }
    // The lines are sampled near where the camera puts them; where few crossings were measured
    // (a corner under terrain, a faint grid) the crossings' camera misses them by more than
    // max_offset_px, so each further round samples them again through the refined camera.
    std::optional<CameraFit> lf;
    for (int round = 0; round < std::max(1, options.line_sample_rounds); ++round) {
      const std::vector<LineSample> samples =
          SampleGridLines(grayf, board, lf ? lf->camera : cam, options.line_fit);
      auto next = RefineCameraOnLines(lf ? lf->camera : cam, tin, px, samples, lens.has_value(),
                                      options.line_fit);
      if (!next) break;
      lf = next;
    }
    if (lf) {
      cam = lf->camera;
      line_fit_ran = true;
      // Each found crossing's position becomes the fitted one: it rests on all the line evidence
      // around it rather than on one noisy measurement, which stays residual_px away.
      const auto fitted = ProjectAll(cam, tin);
      for (size_t k = 0; k < fixes.size(); ++k) {
        fixes[k].px = fitted[k];
        fixes[k].residual_px = lf->residual_px[k];
      }
    }
  }

  TableCalibration cal;
  cal.board = board;
  cal.camera = cam;
  cal.camera.image_size = size;
  cal.lens_from_file = lens.has_value();
  cal.markers_used = use_markers;
  cal.intersections = fixes;
  cal.reference_gray = ReferenceThumbnail(gray8);
  cal.created_utc = NowUtc();
  {
    cv::Matx33d r;
    cv::Rodrigues(cam.rvec_cam_from_table, r);
    const cv::Vec3d t = cam.tvec_cam_from_table;
    const cv::Matx33d rt(r(0, 0), r(0, 1), t[0], r(1, 0), r(1, 1), t[1], r(2, 0), r(2, 1), t[2]);
    cv::Matx33d h = cam.camera_matrix * rt;
    cal.undistorted_from_table = h * (1.0 / h(2, 2));
  }
  CalibrationQuality& q = cal.quality;
  q.intersections_total = total;
  q.intersections_found = static_cast<int>(fixes.size());
  q.coverage = static_cast<double>(fixes.size()) / total;
  double ss_px = 0, ss_mm = 0;
  for (size_t k = 0; k < fixes.size(); ++k) {
    const IntersectionFix& f = fixes[k];
    ss_px += f.residual_px * f.residual_px;
    const Vec2 back = cam.TableFromImage(measured_fix_px[k]);
    const double err_mm = InchesToMm(std::hypot(back.x - f.col * s, back.y - f.row * s));
    ss_mm += err_mm * err_mm;
    q.max_mm = std::max(q.max_mm, err_mm);
  }
  const auto n_fixes = static_cast<double>(fixes.size());
  q.rms_px = fixes.empty() ? 0 : std::sqrt(ss_px / n_fixes);
  q.rms_mm = fixes.empty() ? 0 : std::sqrt(ss_mm / n_fixes);

  auto refuse = [&](std::string code, std::string msg) {
    CalibrationRefusal ref = Refuse(std::move(code), std::move(msg));
    ref.quality = q;
    ref.intersections = fixes;
    return ref;
  };
  std::ostringstream why;
  // Crossings measured on all four border lines fix the labels: the measured lattice spans
  // exactly the board, so it cannot be the board shifted by a square. Such a table may show
  // fewer crossings (much of it under terrain); the line samples then carry the fit between.
  std::array<bool, 4> border_seen = {false, false, false, false};
  for (const auto& f : fixes) {
    border_seen[0] = border_seen[0] || f.col == 0;
    border_seen[1] = border_seen[1] || f.col == board.cols;
    border_seen[2] = border_seen[2] || f.row == 0;
    border_seen[3] = border_seen[3] || f.row == board.rows;
  }
  const bool spans_board =
      options.grow_lattice && border_seen[0] && border_seen[1] && border_seen[2] && border_seen[3];
  const double min_coverage =
      spans_board ? std::min(options.min_coverage, options.min_coverage_spanning_board)
                  : options.min_coverage;
  if (spans_board) {
    // ... and none beyond them: a crossing measured where the camera puts a line past the
    // border means the grid is larger than the board (or these labels are a square off).
    const int cols = board.cols, rows = board.rows;
    std::vector<std::pair<int, int>> beyond;
    for (int c = -1; c <= cols + 1; ++c) {
      for (int r = -1; r <= rows + 1; ++r) {
        if (c >= 0 && c <= cols && r >= 0 && r <= rows) continue;
        beyond.emplace_back(c, r);
      }
    }
    const auto measured_px = MeasurePredictedCrossings(grayf, cam, beyond, s, options.refine);
    std::vector<cv::Point2d> t;
    t.reserve(beyond.size());
    for (const auto& [c, r] : beyond) t.emplace_back(c * s, r * s);
    const auto predicted = ProjectAll(cam, t);
    for (size_t k = 0; k < beyond.size(); ++k) {
      if (measured_px[k] && cv::norm(*measured_px[k] - predicted[k]) <= options.outlier_px) {
        return refuse("wrong_size", "grid crossings were found beyond the border of the board's " +
                                        std::to_string(cols) + " x " + std::to_string(rows) +
                                        " squares");
      }
    }
  }
  // Without markers the lines also check the labels: a line one square beyond the border means a
  // grid larger than the board or labels a square off, and a blurred picture rarely measures a
  // crossing there even where a grid line runs. Under the usual coverage the lines also tell more
  // than the crossings, which a blurred picture loses whole where the lines between them still
  // show (see CalibrateOptions::min_line_coverage).
  std::optional<LineCoverage> lines;
  if (!use_markers && line_fit_ran && options.min_line_coverage > 0) {
    lines = MeasureLineCoverage(grayf, board, cam, options.line_fit.samples_per_square,
                                options.line_fit.max_offset_px, options.refine);
    if (!NothingBeyondBorder(*lines, options.max_line_extension)) {
      return refuse("wrong_size", "grid lines were found beyond the border of the board's " +
                                      std::to_string(board.cols) + " x " +
                                      std::to_string(board.rows) + " squares");
    }
    // A board a square larger than the drawn grid: a border line with no crossing on it that
    // is no line (see BorderLinesNotBareMat). On the `hard` tables a true border line without
    // crossings (under terrain, or on the blurred far side) showed as a line in 0.35-0.67 of
    // what its neighbours show, a border line on bare mat or the mat's edge in 0-0.18.
    if (!BorderLinesNotBareMat(*lines, kMinBorderNotStepOfNeighbours, kMinEdgeStripOfBoard,
                               border_seen)) {
      return refuse("wrong_size", "a border line of the board's " + std::to_string(board.cols) +
                                      " x " + std::to_string(board.rows) +
                                      " squares shows neither crossings nor a line where the "
                                      "fitted camera puts it");
    }
  }
  const bool lines_show_board =
      options.grow_lattice && q.coverage < options.min_coverage && lines &&
      q.intersections_found >= options.min_crossings_on_lines &&
      LinesShowBoard(*lines, options.min_line_coverage, options.max_line_extension);
  if (q.coverage < min_coverage && !lines_show_board) {
    why << "only " << q.intersections_found << " of " << total
        << " grid crossings were found (need " << min_coverage * 100 << "%"
        << (spans_board || !options.grow_lattice
                ? ""
                : ", or " +
                      std::to_string(static_cast<int>(
                          std::lround(options.min_coverage_spanning_board * 100))) +
                      "% with crossings on all four border lines")
        << ")";
    if (options.grow_lattice && lines) {
      // What the lines showed instead: the whole board, and each border line (columns 0 and
      // cols, rows 0 and rows) against the median line.
      why << "; the lines show " << std::lround(100 * lines->board) << "% of the board (need "
          << std::lround(100 * options.min_line_coverage) << "%), border lines "
          << std::lround(100 * lines->col_line.front()) << "/"
          << std::lround(100 * lines->col_line.back()) << "/"
          << std::lround(100 * lines->row_line.front()) << "/"
          << std::lround(100 * lines->row_line.back()) << "% against a median line's "
          << std::lround(200 * HalfTypicalLine(*lines)) << "%";
    }
    return refuse("grid_not_found", why.str());
  }
  if (q.rms_px > options.max_rms_px) {
    why << "poor fit: RMS " << q.rms_px << " px (limit " << options.max_rms_px << ")";
    return refuse("poor_fit", why.str());
  }
  const double rejected = measured > 0 ? 1.0 - static_cast<double>(fixes.size()) / measured : 1.0;
  if (rejected > options.max_rejected_fraction) {
    why << "poor fit: " << measured - q.intersections_found << " of " << measured
        << " measured crossings disagree with the fitted camera";
    return refuse("poor_fit", why.str());
  }
  return cal;
}

}  // namespace

CalibrationResult CalibrateTable(const cv::Mat& image, const Grid& board,
                                 const std::optional<LensModel>& lens,
                                 const CalibrateOptions& options) {
  // The tables that calibrate from the lines' own crossings keep exactly that calibration; a
  // refused one is tried again growing the lattice (see CalibrateOptions::grow_lattice), then
  // with fainter lines (CalibrateOptions::faint_line_darkness_grey).
  std::vector<std::string> attempts;
  auto note = [&](const char* name, const CalibrationResult& r) {
    if (const auto* ref = std::get_if<CalibrationRefusal>(&r)) {
      attempts.push_back(std::string(name) + ": " + ref->code + ": " + ref->message);
    }
  };
  // The first attempt's refusal, with every attempt's reason.
  auto refused = [&](CalibrationResult r) {
    std::get<CalibrationRefusal>(r).attempts = attempts;
    return r;
  };
  CalibrateOptions first = options;
  first.grow_lattice = false;
  CalibrationResult res = CalibrateAttempt(image, board, lens, first);
  if (!options.grow_lattice || std::holds_alternative<TableCalibration>(res)) return res;
  note("lines", res);
  CalibrationResult grown = CalibrateAttempt(image, board, lens, options);
  if (std::holds_alternative<TableCalibration>(grown)) return grown;
  note("growing", grown);
  // Faint lines only where the lines were not found at all: a refusal for a poor fit or a
  // wrong size stands.
  const bool lines_missed = std::get<CalibrationRefusal>(grown).code == "grid_not_found";
  if (!lines_missed || options.faint_line_darkness_grey <= 0 ||
      options.faint_line_darkness_grey >= options.lines.min_darkness_grey) {
    return refused(res);
  }
  CalibrateOptions faint = options;
  faint.lines.min_darkness_grey = options.faint_line_darkness_grey;
  // The relative bound asks for as many grey levels as the grey bound on a mat of 75 grey; on a
  // brighter mat it would still ask for more than the faint lines have, so it is lowered alike.
  faint.lines.min_relative_darkness *=
      options.faint_line_darkness_grey / options.lines.min_darkness_grey;
  faint.line_sample_rounds = std::max(options.line_sample_rounds, options.faint_line_sample_rounds);
  CalibrationResult faint_res = CalibrateAttempt(image, board, lens, faint);
  if (std::holds_alternative<TableCalibration>(faint_res)) return faint_res;
  note("faint", faint_res);
  // Lines found but too few crossings and line samples measured on them: each profile across a
  // line is then averaged along it, and taken down to the faint lines' darkness.
  CalibrateOptions faintest = faint;
  for (RefineOptions* r : {&faintest.refine, &faintest.line_fit.refine}) {
    r->along_line_px = options.faint_profile_along_line_px * std::max(1.0, image.rows / 1080.0);
    r->min_contrast = std::min(r->min_contrast, options.faint_line_darkness_grey);
  }
  if (std::get<CalibrationRefusal>(faint_res).code == "grid_not_found" &&
      options.faint_profile_along_line_px > 0) {
    CalibrationResult faintest_res = CalibrateAttempt(image, board, lens, faintest);
    if (std::holds_alternative<TableCalibration>(faintest_res)) return faintest_res;
    note("faintest", faintest_res);
  }
  // Still refused: the lines' darkness summed along them finds lines the pixels alone do not
  // show, or show only in fragments among clutter (wood grain, paper edges) that the pixel-wise
  // evidence took for lines and so numbered wrongly or measured crossings on.
  if (options.summed_line_length_px <= 0) return refused(res);
  CalibrateOptions summed = faintest;
  summed.lines.along_line_mean_px = options.summed_line_length_px;
  CalibrationResult summed_res = CalibrateAttempt(image, board, lens, summed);
  if (std::holds_alternative<TableCalibration>(summed_res)) return summed_res;
  note("summed", summed_res);
  return refused(res);
}

cv::Mat DrawCalibrationDebug(const cv::Mat& image, const CalibrationResult& result) {
  cv::Mat out;
  if (image.channels() == 1) {
    cv::cvtColor(image, out, cv::COLOR_GRAY2BGR);
  } else {
    out = image.clone();
  }
  const double lw = std::max(1.0, image.rows / 540.0);
  const int thick = static_cast<int>(lw);
  std::string text;
  const std::vector<IntersectionFix>* fixes = nullptr;
  if (const auto* cal = std::get_if<TableCalibration>(&result)) {
    fixes = &cal->intersections;
    const Grid& b = cal->board;
    // Every grid line as the model sees it (curved by the lens).
    for (int c = 0; c <= b.cols; ++c) {
      std::vector<cv::Point2d> t;
      for (int k = 0; k <= 40; ++k) t.emplace_back(c * b.square_size_in, b.Height() * k / 40);
      const auto p = ProjectAll(cal->camera, t);
      for (size_t k = 1; k < p.size(); ++k) cv::line(out, p[k - 1], p[k], {255, 200, 0}, thick);
    }
    for (int r = 0; r <= b.rows; ++r) {
      std::vector<cv::Point2d> t;
      for (int k = 0; k <= 40; ++k) t.emplace_back(b.Width() * k / 40, r * b.square_size_in);
      const auto p = ProjectAll(cal->camera, t);
      for (size_t k = 1; k < p.size(); ++k) cv::line(out, p[k - 1], p[k], {255, 200, 0}, thick);
    }
    const cv::Point2d o = cal->ImageFromTable({0, 0});
    cv::circle(out, o, static_cast<int>(8 * lw), {0, 255, 255}, thick + 1);
    cv::putText(out, "origin", o + cv::Point2d(10 * lw, -10 * lw), cv::FONT_HERSHEY_SIMPLEX,
                0.6 * lw, {0, 255, 255}, thick);
    std::ostringstream ss;
    ss.precision(3);
    ss << "calibrated: " << cal->quality.intersections_found << "/"
       << cal->quality.intersections_total << " crossings, rms " << cal->quality.rms_px
       << " px, max " << cal->quality.max_mm << " mm";
    text = ss.str();
  } else {
    const auto& ref = std::get<CalibrationRefusal>(result);
    fixes = &ref.intersections;
    text = "REFUSED (" + ref.code + "): " + ref.message;
    // The grid as found: neighbouring found crossings joined, so its lines can be counted.
    std::map<std::pair<int, int>, cv::Point2d> at;
    for (const auto& f : ref.intersections) at[{f.col, f.row}] = f.px;
    for (const auto& [cr, p] : at) {
      for (const auto& n : {std::pair{cr.first + 1, cr.second}, {cr.first, cr.second + 1}}) {
        if (auto it = at.find(n); it != at.end()) {
          cv::line(out, p, it->second, {0, 165, 255}, thick);
        }
      }
    }
  }
  for (const auto& f : *fixes) {
    const cv::Scalar colour = f.residual_px < 0.5 ? cv::Scalar(0, 220, 0) : cv::Scalar(0, 0, 255);
    cv::circle(out, f.px, static_cast<int>(4 * lw), colour, thick);
  }
  cv::putText(out, text, {static_cast<int>(10 * lw), static_cast<int>(25 * lw)},
              cv::FONT_HERSHEY_SIMPLEX, 0.6 * lw, {0, 0, 0}, thick + 2);
  cv::putText(out, text, {static_cast<int>(10 * lw), static_cast<int>(25 * lw)},
              cv::FONT_HERSHEY_SIMPLEX, 0.6 * lw, {255, 255, 255}, thick);
  return out;
}

}  // namespace referee
