// The quality a calibration reports (what `referee calibrate` prints and the overlay judges)
// must describe the measured crossings: a fit that replaced them by its own projections would
// report a perfect table whatever the image.
#include <gtest/gtest.h>

#include <cmath>

#include "calibration/calibrate_table.hpp"
#include "datasets/synth_scene.hpp"
#include "generated_table.hpp"

namespace referee {
namespace {

TEST(CalibrationQuality, ResidualInMillimetresAgreesWithResidualInPixels) {
  const SynthScene s = test::GeneratedTable("napoleonic.json", 5, 0);
  const CalibrationResult res = CalibrateTable(s.empty, s.board.grid, std::nullopt);
  const auto* cal = std::get_if<TableCalibration>(&res);
  ASSERT_NE(cal, nullptr) << std::get<CalibrationRefusal>(res).message;
  const CalibrationQuality& q = cal->quality;

  // Table millimetres per image pixel at the board's centre, from the generator's camera.
  const Grid& g = s.board.grid;
  const Vec2 mid{g.Width() / 2, g.Height() / 2};
  const cv::Point2d a = s.camera.ImageFromTable(mid);
  const cv::Point2d b = s.camera.ImageFromTable({mid.x + 1.0, mid.y});
  const double mm_per_px = InchesToMm(1.0) / cv::norm(b - a);

  // A rendered grid is measured to some hundredths of a pixel, never exactly.
  std::cout << "rms " << q.rms_px << " px, " << q.rms_mm << " mm at " << mm_per_px << " mm/px\n";
  ASSERT_GT(q.rms_px, 0.005);
  EXPECT_GT(q.rms_mm, 0.5 * q.rms_px * mm_per_px) << "rms " << q.rms_px << " px";
  EXPECT_LT(q.rms_mm, 2.0 * q.rms_px * mm_per_px) << "rms " << q.rms_px << " px";
  EXPECT_GE(q.max_mm, q.rms_mm);
}

}  // namespace
}  // namespace referee
