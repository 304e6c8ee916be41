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
  const int cols = s.board.grid.cols, rows = s.board.grid.rows;
  // Without markers the origin is the corner nearest the image's top-left (TABLE_KIT), which may
  // be the generator's opposite corner: the labels then agree up to a half turn of the board.
  auto truth_px = [&](int c, int r, bool turned) {
    if (turned) {
      c = cols - c;
      r = rows - r;
    }
    return s.grid_intersections_px[static_cast<size_t>(r) * static_cast<size_t>(cols + 1) +
                                   static_cast<size_t>(c)];
  };
  const auto& f0 = cal.intersections.front();
  const bool turned = !s.markers && cv::norm(truth_px(f0.col, f0.row, true) - f0.px) <
                                        cv::norm(truth_px(f0.col, f0.row, false) - f0.px);
  double sum = 0;
  for (const auto& f : cal.intersections) {
    const cv::Point2d t = truth_px(f.col, f.row, turned);
    const double d = cv::norm(t - f.px);
    EXPECT_LT(d, 1.0) << "scene " << s.index << " crossing " << f.col << "," << f.row;
    sum += d;
  }
  const double mean = sum / static_cast<double>(cal.intersections.size());
  std::cout << "scene " << s.index << (s.markers ? " (markers)" : "") << ": "
            << cal.intersections.size() << " crossings, mean " << mean << " px\n";
  EXPECT_LT(mean, 0.15) << "scene " << s.index;
  EXPECT_GT(cal.quality.coverage, 0.7) << "scene " << s.index;
  EXPECT_EQ(cal.markers_used, s.markers) << "scene " << s.index;
}

// The target: the grid is found in every scene, markers or not, and every found
// calibration is accurate.
TEST(SynthCalibration, NapoleonicScenesAreFoundAndAccurate) {
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
  EXPECT_EQ(found, 4);
}

}  // namespace
}  // namespace referee
