// A tilted camera sees the board's far side smaller, more blurred and dimmer, so the grid lines'
// evidence fades steadily across the board. On `hard` seed 53 scene 4 (never tuned on before
// s23) the far column line shows in 0.16 of its samples, beside lines showing 0.18-0.25, while
// the median line shows 0.42: the table was refused because its border line was judged against
// the median line. The border is now judged against the lines beside it as well; a board
// taken a square larger than the drawn grid, whose border line is not there, is still refused.
#include <gtest/gtest.h>

#include "calibration/border_line_evidence.hpp"
#include "calibration/calibrate_table.hpp"
#include "generated_table.hpp"

namespace referee {
namespace {

LineCoverage Coverage(std::vector<double> cols, std::vector<double> rows) {
  LineCoverage lc;
  lc.col_line = std::move(cols);
  lc.row_line = std::move(rows);
  return lc;
}

TEST(FadedBorderLine, BorderAsFaintAsItsNeighboursShows) {
  // hard 53/4's growing attempt: the last column line 0.16 beside 0.23 and 0.25.
  const LineCoverage lc =
      Coverage({0.78, 0.64, 0.60, 0.42, 0.31, 0.53, 0.52, 0.29, 0.29, 0.18, 0.25, 0.23, 0.16},
               {0.68, 0.51, 0.56, 0.55, 0.35, 0.30, 0.39, 0.40, 0.49});
  EXPECT_TRUE(BorderLinesShowBesideNeighbours(lc, 0.5, 0.15));
}

TEST(FadedBorderLine, MissingBorderBesideFaintLinesDoesNotShow) {
  // The same board taken a column larger: its last "line" is bare mat.
  const LineCoverage lc =
      Coverage({0.78, 0.64, 0.60, 0.42, 0.31, 0.53, 0.52, 0.29, 0.29, 0.18, 0.25, 0.23, 0.16, 0.02},
               {0.68, 0.51, 0.56, 0.55, 0.35, 0.30, 0.39, 0.40, 0.49});
  EXPECT_FALSE(BorderLinesShowBesideNeighbours(lc, 0.5, 0.15));
  // A whole side fading to nothing does not vouch for its border either.
  const LineCoverage gone =
      Coverage({0.78, 0.64, 0.60, 0.42, 0.31, 0.53, 0.52, 0.29, 0.29, 0.18, 0.10, 0.06, 0.05},
               {0.68, 0.51, 0.56, 0.55, 0.35, 0.30, 0.39, 0.40, 0.49});
  EXPECT_FALSE(BorderLinesShowBesideNeighbours(gone, 0.5, 0.15));
}

TEST(FadedBorderLine, FadingFarSideCalibratesAndIsPlacedRight) {
  test::ExpectCalibratesWithinMm(test::GeneratedTable("hard.json", 53, 4), 0.5);
}

TEST(FadedBorderLine, BoardOneSquareLargerOrSmallerIsRefused) {
  const SynthScene s = test::GeneratedTable("hard.json", 53, 4);
  test::ExpectOneSquareSmallerRefused(s);
  const Grid& g = s.board.grid;
  for (const Grid& wrong :
       {Grid{g.cols + 1, g.rows, g.square_size_in}, Grid{g.cols, g.rows + 1, g.square_size_in}}) {
    const CalibrationResult res = CalibrateTable(s.empty, wrong, std::nullopt);
    EXPECT_TRUE(std::holds_alternative<CalibrationRefusal>(res))
        << wrong.cols << " x " << wrong.rows << " board accepted";
  }
}

}  // namespace
}  // namespace referee
