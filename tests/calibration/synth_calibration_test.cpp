// Calibration on the dataset generator's scenes, asserted against their truth: every found
// crossing against the true pixel of the same (col,row) crossing.
#include <gtest/gtest.h>

#include "calibration/calibrate_table.hpp"
#include "datasets/synth_scene.hpp"
#include "engine/data_paths.hpp"

namespace referee {
namespace {

void CheckScene(const SynthScene& s, bool expect_markers) {
  ASSERT_EQ(s.markers, expect_markers) << "the generator changed; pick another index";
  const CalibrationResult res = CalibrateTable(s.before, s.board.grid, std::nullopt);
  ASSERT_TRUE(std::holds_alternative<TableCalibration>(res))
      << std::get<CalibrationRefusal>(res).message;
  const auto& cal = std::get<TableCalibration>(res);
  EXPECT_EQ(cal.markers_used, expect_markers);
  const int cols = s.board.grid.cols;
  double sum = 0;
  for (const auto& f : cal.intersections) {
    const cv::Point2d t = s.grid_intersections_px[static_cast<size_t>(f.row * (cols + 1) + f.col)];
    const double d = cv::norm(t - f.px);
    EXPECT_LT(d, 1.0) << "crossing " << f.col << "," << f.row;
    sum += d;
  }
  const double mean = sum / cal.intersections.size();
  std::cout << "scene " << s.index << ": " << cal.intersections.size() << " crossings, mean "
            << mean << " px\n";
  EXPECT_LT(mean, 0.15);
  EXPECT_GT(cal.quality.coverage, 0.7);
}

TEST(SynthCalibration, NapoleonicSceneWithAndWithoutMarkers) {
  const Scenario sc = LoadScenario(DatasetsDir() / "scenarios" / "napoleonic.json");
  SynthOptions o;
  o.seed = 11;
  o.with_hand_frame = false;
  CheckScene(GenerateScene(sc, o, 0), false);
  CheckScene(GenerateScene(sc, o, 1), true);
}

}  // namespace
}  // namespace referee
