// A refused table says why each attempt refused it (the refusal returned is the first
// attempt's): `referee bench calibration --verbose` prints them, so a refusal can be told to
// be the lines not found, too few crossings or a border line not shown without a debugger.
#include <gtest/gtest.h>

#include <opencv2/imgproc.hpp>

#include "calibration/calibrate_table.hpp"

namespace referee {
namespace {

TEST(RefusalAttempts, EveryAttemptsReasonIsKept) {
  // A bare mat: no grid at any darkness.
  cv::Mat mat(1080, 1920, CV_8UC3, cv::Scalar(70, 90, 80));
  cv::randn(mat, cv::Scalar(70, 90, 80), cv::Scalar(2, 2, 2));
  const CalibrationResult res = CalibrateTable(mat, Grid{12, 8, 4.0}, std::nullopt);
  const auto* ref = std::get_if<CalibrationRefusal>(&res);
  ASSERT_NE(ref, nullptr);
  ASSERT_EQ(ref->attempts.size(), 5u);
  const char* names[5] = {"lines: ", "growing: ", "faint: ", "faintest: ", "summed: "};
  for (size_t k = 0; k < 5; ++k) {
    EXPECT_EQ(ref->attempts[k].rfind(names[k], 0), 0u) << ref->attempts[k];
    EXPECT_NE(ref->attempts[k].find("grid_not_found"), std::string::npos) << ref->attempts[k];
  }
}

}  // namespace
}  // namespace referee
