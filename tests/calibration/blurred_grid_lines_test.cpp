// A blurred, noisy picture of a small board (`hard` seed 5 scene 8: ~57 px squares, lines blurred
// to 6-8 px and 8-10 grey levels deep, a third of the grid under terrain) loses whole crossings,
// since all four arms must measure, where the lines between them still show. The table is taken
// when the board's lines show where the fitted camera puts them and none beyond its border, and
// it is placed right; a board one square smaller than the drawn grid is still refused.
#include <gtest/gtest.h>

#include <opencv2/calib3d.hpp>

#include "calibration/calibrate_table.hpp"
#include "calibration/intersection_refine.hpp"
#include "calibration/line_coverage.hpp"
#include "datasets/synth_scene.hpp"
#include "generated_table.hpp"

namespace referee {
namespace {

using test::TableMaxErrorMm;

SynthScene BlurredSmallBoard() { return test::GeneratedTable("hard.json", 5, 8); }

// Was refused: "only 35 of 117 grid crossings were found (need 40%)".
TEST(BlurredGridLines, TableWithFewCrossingsButVisibleLinesCalibratesRight) {
  const SynthScene s = BlurredSmallBoard();
  const CalibrationResult res = CalibrateTable(s.empty, s.board.grid, std::nullopt);
  const auto* cal = std::get_if<TableCalibration>(&res);
  ASSERT_NE(cal, nullptr) << std::get<CalibrationRefusal>(res).message;
  EXPECT_LT(cal->quality.coverage, 0.4);
  // A label a square off would put the table 101.6 mm out.
  EXPECT_LT(TableMaxErrorMm(s, *cal), 0.5);
}

TEST(BlurredGridLines, BoardOneSquareSmallerIsRefused) {
  test::ExpectOneSquareSmallerRefused(BlurredSmallBoard());
}

// Through the true camera the border lines show and the lines beyond them do not; through the
// camera moved one square along the columns, the true border shows as a line beyond.
TEST(BlurredGridLines, LineCoverageSeesTheBorderAndNothingBeyond) {
  const SynthScene s = BlurredSmallBoard();
  const cv::Mat gray = RefineImage(s.empty);
  const LineCoverage truth = MeasureLineCoverage(gray, s.board.grid, s.camera, 12, 2.0, {});
  EXPECT_GT(truth.board, 0.3);
  EXPECT_GT(truth.col_line.front(), 0.2);
  EXPECT_GT(truth.col_line.back(), 0.2);
  EXPECT_GT(truth.row_line.front(), 0.2);
  EXPECT_GT(truth.row_line.back(), 0.2);
  for (double b : truth.beyond) EXPECT_LT(b, 0.2);

  CameraModel shifted = s.camera;
  cv::Matx33d r;
  cv::Rodrigues(shifted.rvec_cam_from_table, r);
  shifted.tvec_cam_from_table += r * cv::Vec3d(s.board.grid.square_size_in, 0, 0);
  const LineCoverage off = MeasureLineCoverage(gray, s.board.grid, shifted, 12, 2.0, {});
  EXPECT_GT(off.beyond[0], 0.3);
  EXPECT_LT(off.col_line.back(), 0.2);
}

}  // namespace
}  // namespace referee
