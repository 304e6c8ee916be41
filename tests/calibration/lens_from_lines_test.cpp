// Radial distortion estimated from the straightness of the grid lines when no lens file is
// given: strong barrel distortion, a third of the crossings hidden, blur and noise, and the
// error measured against the true camera over the whole board.
#include <gtest/gtest.h>

#include <cmath>
#include <opencv2/imgproc.hpp>

#include "calibration/calibrate_table.hpp"
#include "datasets/synth_scene.hpp"
#include "engine/data_paths.hpp"
#include "tests/calibration/test_render.hpp"

namespace referee {
namespace {

// Largest table error over a 1" lattice of the board: true pixel mapped back through `cal`.
// `turned`: the labels are the truth's after a half turn of the board.
double MaxTableErrorMm(const TableCalibration& cal, const CameraModel& truth, bool turned) {
  const Grid& b = cal.board;
  double worst = 0;
  for (double y = 0; y <= b.Height() + 1e-9; y += 1.0) {
    for (double x = 0; x <= b.Width() + 1e-9; x += 1.0) {
      Vec2 back = cal.TableFromImage(truth.ImageFromTable({x, y}));
      if (turned) back = {b.Width() - back.x, b.Height() - back.y};
      worst = std::max(worst, InchesToMm(std::hypot(back.x - x, back.y - y)));
    }
  }
  return worst;
}

bool LabelsTurned(const TableCalibration& cal, const CameraModel& truth) {
  const Grid& b = cal.board;
  const auto& f = cal.intersections.front();
  const double s = b.square_size_in;
  const cv::Point2d same = truth.ImageFromTable({f.col * s, f.row * s});
  const cv::Point2d turned = truth.ImageFromTable({(b.cols - f.col) * s, (b.rows - f.row) * s});
  return cv::norm(turned - f.px) < cv::norm(same - f.px);
}

TEST(LensFromLines, StrongBarrelDistortionWithoutLensFile) {
  test::RenderSpec spec;
  spec.board = Grid{12, 8, 4.0};
  spec.occluders = 40;  // large pieces hiding about a third of the crossings
  spec.occluder_in = 4.0;
  spec.noise_sigma = 5.0;
  spec.seed = 21;
  const CameraModel truth = test::TestCamera({1920, 1080}, 18.0, -0.35, 6.0, 46.0, spec.board);
  cv::Mat img = test::RenderGrid(truth, spec);
  cv::GaussianBlur(img, img, {0, 0}, 1.2);  // a soft webcam lens
  const CalibrationResult res = CalibrateTable(img, spec.board, std::nullopt);
  ASSERT_TRUE(std::holds_alternative<TableCalibration>(res))
      << std::get<CalibrationRefusal>(res).message;
  const auto& cal = std::get<TableCalibration>(res);
  const double err_mm = MaxTableErrorMm(cal, truth, LabelsTurned(cal, truth));
  std::cout << "k1 " << cal.camera.distortion[0] << " (true -0.35), " << cal.intersections.size()
            << " crossings, table max " << err_mm << " mm\n";
  EXPECT_FALSE(cal.lens_from_file);
  EXPECT_NEAR(cal.camera.distortion[0], -0.35, 0.05);
  EXPECT_LT(err_mm, 0.5);
}

// The generator's hardest kind of scene (strong tilt and distortion, defocus and motion blur,
// noise, uneven light, 30 % of the grid hidden): seed 12 scene 3, where the crossings alone
// left 2.6 mm of error at the board's corners.
TEST(LensFromLines, HardGeneratedSceneWithinHalfAMillimetre) {
  const Scenario sc = LoadScenario(DatasetsDir() / "scenarios" / "hard.json");
  SynthOptions o;
  o.seed = 12;
  o.with_hand_frame = false;
  const SynthScene s = GenerateScene(sc, o, 3);
  const CalibrationResult res = CalibrateTable(s.before, s.board.grid, std::nullopt);
  ASSERT_TRUE(std::holds_alternative<TableCalibration>(res))
      << std::get<CalibrationRefusal>(res).message;
  const auto& cal = std::get<TableCalibration>(res);
  const bool turned = LabelsTurned(cal, s.camera);
  const double err_mm = MaxTableErrorMm(cal, s.camera, turned);
  double sum_px = 0;
  const int cols = s.board.grid.cols, rows = s.board.grid.rows;
  for (const auto& f : cal.intersections) {
    const int c = turned ? cols - f.col : f.col, r = turned ? rows - f.row : f.row;
    sum_px +=
        cv::norm(s.grid_intersections_px[static_cast<size_t>(r) * static_cast<size_t>(cols + 1) +
                                         static_cast<size_t>(c)] -
                 f.px);
  }
  const double mean_px = sum_px / static_cast<double>(cal.intersections.size());
  std::cout << cal.intersections.size() << " crossings, mean " << mean_px << " px, table max "
            << err_mm << " mm\n";
  EXPECT_LT(mean_px, 0.15);
  EXPECT_LT(err_mm, 0.5);

  // The same image with the crossings alone: what the line samples add.
  CalibrateOptions crossings_only;
  crossings_only.use_line_samples = false;
  const CalibrationResult old =
      CalibrateTable(s.before, s.board.grid, std::nullopt, crossings_only);
  ASSERT_TRUE(std::holds_alternative<TableCalibration>(old));
  const auto& old_cal = std::get<TableCalibration>(old);
  const double old_mm = MaxTableErrorMm(old_cal, s.camera, LabelsTurned(old_cal, s.camera));
  std::cout << "crossings only: table max " << old_mm << " mm\n";
  EXPECT_LT(err_mm, old_mm);
}

}  // namespace
}  // namespace referee
