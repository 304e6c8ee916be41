// Empty `hard` tables (15-25 deg tilt, strong lens distortion, 30 % of the grid hidden by
// terrain, no markers) whose grid lines are detected in a few clusters only: the crossings are
// grown over the rest of the visible grid through the camera fitted so far, so the table
// calibrates, and it is placed right (checked against the generator's camera). A board one
// square narrower than the drawn grid must still be refused, not fitted one square off.
#include <gtest/gtest.h>

#include <algorithm>

#include "calibration/calibrate_table.hpp"
#include "datasets/synth_scene.hpp"
#include "engine/data_paths.hpp"
#include "generated_table.hpp"

namespace referee {
namespace {

using test::TableMaxErrorMm;

SynthScene HardScene(uint64_t seed, int index) {
  return test::GeneratedTable("hard.json", seed, index);
}

// Hard seed 5 scene 1: the lines are found in two clusters; the lower-left grid is plainly
// visible but was never measured, and the table was refused.
TEST(HardTableGrowth, ClusteredGridCalibratesAndIsPlacedRight) {
  const SynthScene s = HardScene(5, 1);
  const CalibrationResult res = CalibrateTable(s.empty, s.board.grid, std::nullopt);
  const auto* cal = std::get_if<TableCalibration>(&res);
  ASSERT_NE(cal, nullptr) << std::get<CalibrationRefusal>(res).message;
  EXPECT_GE(cal->quality.coverage, 0.3);
  EXPECT_LT(TableMaxErrorMm(s, *cal), 0.6);
}

// The same grid told to be one square narrower or shorter: whatever window of its lines is
// taken, the board's border lines cannot all show crossings while the lines beyond show none,
// so it is refused rather than fitted a square off.
TEST(HardTableGrowth, BoardOneSquareSmallerIsRefused) {
  test::ExpectOneSquareSmallerRefused(HardScene(5, 1));
}

}  // namespace
}  // namespace referee
