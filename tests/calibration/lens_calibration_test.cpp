#include <gtest/gtest.h>

#include <filesystem>

#include "calibration/lens_calibration.hpp"
#include "engine/input_error.hpp"

namespace referee {
namespace {

namespace fs = std::filesystem;
const fs::path kData = "/usr/share/doc/opencv-doc/examples/data";

// Debian's opencv-doc ships the chessboard photos of OpenCV's calibration sample (9x6 inner
// corners); OpenCV's own sample reaches RMS 0.39 px on them.
TEST(LensCalibration, OpenCvSampleChessboardPhotos) {
  std::vector<fs::path> images;
  for (int i = 1; i <= 14; ++i) {
    const fs::path p = kData / ((i < 10 ? "left0" : "left") + std::to_string(i) + ".jpg");
    if (fs::exists(p)) images.push_back(p);
  }
  if (images.size() < 10) GTEST_SKIP() << "opencv-doc sample photos not installed";
  const LensCalibrationReport rep = CalibrateLensChessboard(images, {9, 6});
  EXPECT_GE(rep.used.size(), 12u);
  EXPECT_LE(rep.lens.rms_px, 0.39);
  EXPECT_NEAR(rep.lens.camera_matrix(0, 0), 533, 15);  // published fx of this camera ~532-537
  EXPECT_LT(rep.lens.distortion[0], -0.2);             // strong barrel distortion
}

TEST(LensCalibration, TooFewViewsIsAnInputError) {
  const fs::path p = kData / "left01.jpg";
  if (!fs::exists(p)) GTEST_SKIP() << "opencv-doc sample photos not installed";
  EXPECT_THROW(CalibrateLensChessboard({p}, {9, 6}), InputError);
  EXPECT_THROW(CalibrateLensChessboard({kData / "no_such.jpg"}, {9, 6}), InputError);
}

}  // namespace
}  // namespace referee
