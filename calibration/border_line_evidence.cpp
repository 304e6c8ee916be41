#include "calibration/border_line_evidence.hpp"

#include <algorithm>
#include <vector>

namespace referee {

namespace {

// Mean coverage of the two lines next to the border line at `front` (else at the back).
double InnerNeighbours(const std::vector<double>& lines, bool front) {
  const size_t n = lines.size();
  if (n < 3) return 0.0;
  const double a = front ? lines[1] : lines[n - 2];
  const double b = n >= 4 ? (front ? lines[2] : lines[n - 3]) : a;
  return 0.5 * (a + b);
}

// The median line's coverage, and per border line the lesser of it and the two inner
// neighbours' mean.
struct BorderReference {
  double typical = 0;
  std::array<double, 4> reference{};
};

BorderReference ReferenceOf(const LineCoverage& lc) {
  BorderReference r;
  r.typical = TypicalLineCoverage(lc);
  const double beside[4] = {InnerNeighbours(lc.col_line, true), InnerNeighbours(lc.col_line, false),
                            InnerNeighbours(lc.row_line, true),
                            InnerNeighbours(lc.row_line, false)};
  for (size_t k = 0; k < 4; ++k) r.reference[k] = std::min(r.typical, beside[k]);
  return r;
}

}  // namespace

bool BorderLinesShowBesideNeighbours(const LineCoverage& lc, double min_of_reference,
                                     double min_of_typical) {
  if (lc.col_line.size() < 3 || lc.row_line.size() < 3) return false;
  const BorderReference ref = ReferenceOf(lc);
  const double typical = ref.typical;
  const double border[4] = {lc.col_line.front(), lc.col_line.back(), lc.row_line.front(),
                            lc.row_line.back()};
  for (size_t k = 0; k < 4; ++k) {
    const double reference = ref.reference[k];
    if (border[k] < min_of_reference * reference || border[k] < min_of_typical * typical) {
      return false;
    }
  }
  return true;
}

bool BorderLinesNotBareMat(const LineCoverage& lc, double min_of_reference,
                           double min_strip_of_board,
                           const std::array<bool, 4>& shown_by_crossings) {
  if (lc.col_line.size() < 3 || lc.row_line.size() < 3) return false;
  const BorderReference ref = ReferenceOf(lc);
  for (size_t k = 0; k < 4; ++k) {
    if (shown_by_crossings[k]) continue;
    if (lc.border_not_step[k] < min_of_reference * ref.reference[k]) return false;
    if (lc.edge_strip[k] >= 0 && lc.edge_strip[k] < min_strip_of_board * lc.board) return false;
  }
  return true;
}

}  // namespace referee
