#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "calibration/calibrate_table.hpp"
#include "tests/calibration/test_render.hpp"

namespace referee {
namespace {

struct Errors {
  double mean_px = 0, max_px = 0, max_mm = 0;
  int n = 0;
};

Errors Compare(const TableCalibration& cal, const CameraModel& truth) {
  Errors e;
  const double s = cal.board.square_size_in;
  for (const auto& f : cal.intersections) {
    const cv::Point2d t = truth.ImageFromTable({f.col * s, f.row * s});
    const double d = cv::norm(t - f.px);
    e.mean_px += d;
    e.max_px = std::max(e.max_px, d);
    ++e.n;
  }
  if (e.n) e.mean_px /= e.n;
  // Every table point: map a dense set of true pixels back through the calibration.
  for (double y = 0; y <= cal.board.Height(); y += 1.0) {
    for (double x = 0; x <= cal.board.Width(); x += 1.0) {
      const Vec2 back = cal.TableFromImage(truth.ImageFromTable({x, y}));
      e.max_mm = std::max(e.max_mm, InchesToMm(std::hypot(back.x - x, back.y - y)));
    }
  }
  return e;
}

TEST(GridCalibration, RenderedBoardIsFoundAndAccurate) {
  test::RenderSpec spec;
  spec.board = Grid{12, 8, 4.0};
  spec.occluders = 12;
  const CameraModel truth = test::TestCamera({1920, 1080}, 12.0, -0.12, 4.0, 50.0, spec.board);
  const cv::Mat img = test::RenderGrid(truth, spec);
  std::filesystem::create_directories(REFEREE_TEST_TMP);
  cv::imwrite(std::string(REFEREE_TEST_TMP) + "/grid_render.png", img);
  const CalibrationResult res = CalibrateTable(img, spec.board, std::nullopt);
  cv::imwrite(std::string(REFEREE_TEST_TMP) + "/grid_render_debug.png",
              DrawCalibrationDebug(img, res));
  ASSERT_TRUE(std::holds_alternative<TableCalibration>(res))
      << std::get<CalibrationRefusal>(res).message;
  const auto& cal = std::get<TableCalibration>(res);
  const Errors e = Compare(cal, truth);
  std::cout << "found " << cal.quality.intersections_found << "/" << cal.quality.intersections_total
            << " mean " << e.mean_px << " px max " << e.max_px << " px table max " << e.max_mm
            << " mm rms " << cal.quality.rms_px << " px\n";
  EXPECT_GT(cal.quality.coverage, 0.7);
  EXPECT_LT(e.mean_px, 0.2);
  EXPECT_LT(e.max_mm, 0.5);
}

}  // namespace
}  // namespace referee

namespace referee {
namespace {

TEST(GridCalibration, WrongBoardSizeIsRefused) {
  test::RenderSpec spec;
  spec.board = Grid{12, 8, 4.0};
  const CameraModel truth = test::TestCamera({1280, 720}, 8.0, -0.08, 2.0, 50.0, spec.board);
  const cv::Mat img = test::RenderGrid(truth, spec);
  for (const Grid& wrong : {Grid{10, 8, 4.0}, Grid{12, 9, 4.0}, Grid{14, 8, 4.0}}) {
    const CalibrationResult res = CalibrateTable(img, wrong, std::nullopt);
    ASSERT_TRUE(std::holds_alternative<CalibrationRefusal>(res)) << wrong.cols << "x" << wrong.rows;
    EXPECT_EQ(std::get<CalibrationRefusal>(res).code, "wrong_size");
  }
  // The right size on the same picture calibrates, and the debug picture is drawn.
  const CalibrationResult ok = CalibrateTable(img, spec.board, std::nullopt);
  ASSERT_TRUE(std::holds_alternative<TableCalibration>(ok));
  EXPECT_EQ(DrawCalibrationDebug(img, ok).size(), img.size());
}

TEST(GridCalibration, NoGridIsRefused) {
  // A real photo without a grid of lines (OpenCV's sample data), and plain noise.
  const cv::Mat photo = cv::imread("/usr/share/doc/opencv-doc/examples/data/fruits.jpg");
  cv::Mat noise(720, 1280, CV_8UC3);
  cv::randu(noise, 0, 255);
  for (const cv::Mat& img : {photo, noise}) {
    if (img.empty()) continue;
    const CalibrationResult res = CalibrateTable(img, Grid{12, 8, 4.0}, std::nullopt);
    ASSERT_TRUE(std::holds_alternative<CalibrationRefusal>(res));
    EXPECT_EQ(std::get<CalibrationRefusal>(res).code, "grid_not_found");
    EXPECT_FALSE(DrawCalibrationDebug(img, res).empty());
  }
}

TEST(GridCalibration, ThirtyPercentHiddenStillFound) {
  test::RenderSpec spec;
  spec.board = Grid{12, 8, 4.0};
  spec.occluders = 40;  // terrain pieces over the board hide about a third of the crossings
  spec.occluder_in = 4.0;
  spec.seed = 5;
  const CameraModel truth = test::TestCamera({1280, 720}, 14.0, -0.15, -5.0, 52.0, spec.board);
  const cv::Mat img = test::RenderGrid(truth, spec);
  const CalibrationResult res = CalibrateTable(img, spec.board, std::nullopt);
  ASSERT_TRUE(std::holds_alternative<TableCalibration>(res))
      << std::get<CalibrationRefusal>(res).message;
  const auto& cal = std::get<TableCalibration>(res);
  const Errors e = Compare(cal, truth);
  std::cout << "hidden: found " << cal.quality.intersections_found << "/"
            << cal.quality.intersections_total << " mean " << e.mean_px << " px, table max "
            << e.max_mm << " mm\n";
  EXPECT_LT(cal.quality.coverage, 0.8);
  EXPECT_LT(e.mean_px, 0.2);
  EXPECT_LT(e.max_mm, 1.0);
}

}  // namespace
}  // namespace referee
