#include "calibration/line_coverage.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include <opencv2/calib3d.hpp>

#include "engine/order_statistics.hpp"

namespace referee {

namespace {

struct Count {
  int planned = 0, found = 0;
  double Fraction() const { return planned > 0 ? static_cast<double>(found) / planned : 0.0; }
};

// Samples the table line x = at_in (on_col) or y = at_in over `squares` squares from square
// `first` on.
Count SampleLine(const cv::Mat& gray, const CameraModel& camera, bool on_col, double at_in,
                 int first, int squares, double square_in, int per, double max_offset_px,
                 const RefineOptions& refine) {
  std::vector<cv::Point3d> obj;  // per sample: the point, +along, +across
  for (int j = first; j < first + squares; ++j) {
    for (int k = 0; k < per; ++k) {
      const double f = (j + 0.15 + 0.7 * k / (per - 1)) * square_in;
      const double q = 0.25 * square_in;
      if (on_col) {
        obj.emplace_back(at_in, f, 0.0);
        obj.emplace_back(at_in, f + q, 0.0);
        obj.emplace_back(at_in + q, f, 0.0);
      } else {
        obj.emplace_back(f, at_in, 0.0);
        obj.emplace_back(f + q, at_in, 0.0);
        obj.emplace_back(f, at_in + q, 0.0);
      }
    }
  }
  std::vector<cv::Point2d> img;
  cv::projectPoints(obj, camera.rvec_cam_from_table, camera.tvec_cam_from_table,
                    camera.camera_matrix, camera.distortion, img);
  Count c;
  for (size_t i = 0; i + 2 < img.size(); i += 3) {
    const cv::Point2d p = img[i], da = img[i + 1] - p, dc = img[i + 2] - p;
    const double spacing = 4.0 * std::min(cv::norm(da), cv::norm(dc));
    const double margin = std::clamp(0.18 * spacing, 5.0, 30.0) + 2;
    if (p.x < margin || p.y < margin || p.x >= gray.cols - margin || p.y >= gray.rows - margin) {
      continue;
    }
    const double len = cv::norm(da);
    if (len <= 0) continue;
    ++c.planned;
    const auto o = MeasureLineOffset(gray, p, {-da.y / len, da.x / len}, spacing, refine);
    if (o && std::abs(*o) <= max_offset_px) ++c.found;
  }
  return c;
}

}  // namespace

double TypicalLineCoverage(const LineCoverage& lc) {
  std::vector<double> all = lc.col_line;
  all.insert(all.end(), lc.row_line.begin(), lc.row_line.end());
  return all.empty() ? 0.0 : Median(all);
}

LineCoverage MeasureLineCoverage(const cv::Mat& gray, const Grid& board, const CameraModel& camera,
                                 int samples_per_square, double max_offset_px,
                                 const RefineOptions& refine) {
  const double s = board.square_size_in;
  const int per = std::max(2, samples_per_square);
  // Outside the border a mat whose edge runs about a square past the grid must not pass for a
  // line there; the board's own lines are measured as the fit measures them.
  RefineOptions outside = refine;
  outside.reject_steps = true;
  // A line beyond the border is always read with steps rejected; `steps_rejected` asks it of
  // one of the board's own.
  auto line = [&](bool on_col, int index, bool steps_rejected = false) {
    const bool beyond = index < 0 || index > (on_col ? board.cols : board.rows);
    return SampleLine(gray, camera, on_col, index * s, 0, on_col ? board.rows : board.cols, s, per,
                      max_offset_px, beyond || steps_rejected ? outside : refine);
  };
  LineCoverage out;
  Count all;
  for (int c = 0; c <= board.cols; ++c) {
    const Count n = line(true, c);
    out.col_line.push_back(n.Fraction());
    all.planned += n.planned;
    all.found += n.found;
  }
  for (int r = 0; r <= board.rows; ++r) {
    const Count n = line(false, r);
    out.row_line.push_back(n.Fraction());
    all.planned += n.planned;
    all.found += n.found;
  }
  out.board = all.Fraction();
  out.border_not_step[0] = line(true, 0, true).Fraction();
  out.border_not_step[1] = line(true, board.cols, true).Fraction();
  out.border_not_step[2] = line(false, 0, true).Fraction();
  out.border_not_step[3] = line(false, board.rows, true).Fraction();
  out.beyond[0] = line(true, -1).Fraction();
  out.beyond[1] = line(true, board.cols + 1).Fraction();
  out.beyond[2] = line(false, -1).Fraction();
  out.beyond[3] = line(false, board.rows + 1).Fraction();
  // The perpendicular lines over the square past each border: every row line from column -1 to
  // 0, from column cols to cols+1, every column line from row -1 to 0 and from rows to rows+1.
  auto strip = [&](bool on_col, int first, double out_of_view) {
    Count n;
    const int lines = on_col ? board.cols : board.rows;
    for (int index = 0; index <= lines; ++index) {
      const Count c =
          SampleLine(gray, camera, on_col, index * s, first, 1, s, per, max_offset_px, outside);
      n.planned += c.planned;
      n.found += c.found;
    }
    // A strip mostly out of view says nothing.
    return n.planned >= per * (lines + 1) / 2 ? n.Fraction() : out_of_view;
  };
  auto extension = [&](bool on_col, int first) { return strip(on_col, first, 0.0); };
  out.edge_strip[0] = strip(false, 0, -1.0);
  out.edge_strip[1] = strip(false, board.cols - 1, -1.0);
  out.edge_strip[2] = strip(true, 0, -1.0);
  out.edge_strip[3] = strip(true, board.rows - 1, -1.0);
  out.extension[0] = extension(false, -1);
  out.extension[1] = extension(false, board.cols);
  out.extension[2] = extension(true, -1);
  out.extension[3] = extension(true, board.rows);
  return out;
}

}  // namespace referee
