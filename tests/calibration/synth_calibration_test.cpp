// Calibration on the dataset generator's scenes, asserted against their truth: every found
// crossing against the true pixel of the same (col,row) crossing.
#include <gtest/gtest.h>

#include "calibration/calibrate_table.hpp"
#include "datasets/synth_scene.hpp"
#include "engine/data_paths.hpp"

namespace referee {
namespace {

// Accuracy of one found calibration against the scene's truth.
void CheckAccuracy(const SynthScene& s, const TableCalibration& cal) {
  const int cols = s.board.grid.cols;
  double sum = 0;
  for (const auto& f : cal.intersections) {
    const cv::Point2d t = s.grid_intersections_px[static_cast<size_t>(f.row * (cols + 1) + f.col)];
    const double d = cv::norm(t - f.px);
    EXPECT_LT(d, 1.0) << "scene " << s.index << " crossing " << f.col << "," << f.row;
    sum += d;
  }
  const double mean = sum / cal.intersections.size();
  std::cout << "scene " << s.index << (s.markers ? " (markers)" : "") << ": "
            << cal.intersections.size() << " crossings, mean " << mean << " px\n";
  EXPECT_LT(mean, 0.15) << "scene " << s.index;
  EXPECT_GT(cal.quality.coverage, 0.7) << "scene " << s.index;
  EXPECT_EQ(cal.markers_used, s.markers) << "scene " << s.index;
}

// The target is "found in every scene"; the markerless search still refuses the
// generator's current markerless napoleonic scenes ("spans more lines than the board", see
// README, "When calibration fails"). This test pins what works today: every calibration that
// is found is accurate, and the two scenes with corner markers (1 and 3) are found. Raise the
// bar to 4 of 4 when the markerless search is fixed.
TEST(SynthCalibration, NapoleonicScenesFoundAreAccurate) {
  const Scenario sc = LoadScenario(DatasetsDir() / "scenarios" / "napoleonic.json");
  SynthOptions o;
  o.seed = 11;
  o.with_hand_frame = false;
  int found = 0;
  for (int index = 0; index < 4; ++index) {
    const SynthScene s = GenerateScene(sc, o, index);
    const CalibrationResult res = CalibrateTable(s.before, s.board.grid, std::nullopt);
    if (const auto* cal = std::get_if<TableCalibration>(&res)) {
      ++found;
      CheckAccuracy(s, *cal);
    } else {
      std::cout << "scene " << index << " refused: " << std::get<CalibrationRefusal>(res).message
                << "\n";
    }
  }
  EXPECT_GE(found, 2);
}

}  // namespace
}  // namespace referee
