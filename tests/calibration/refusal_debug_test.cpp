// `referee calibrate ... --debug DEBUG.png` on a refused image: the picture is written, is a
// readable PNG of the image's size, and shows what was found (the crossings seen, joined into
// the grid that was found) besides the reason.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <opencv2/imgcodecs.hpp>

#include "calibration/calibrate_table.hpp"
#include "tests/calibration/test_render.hpp"

namespace referee {
namespace {

namespace fs = std::filesystem;

// Pixels where the debug picture differs from the image in a given BGR colour.
int CountColour(const cv::Mat& debug, const cv::Mat& image, const cv::Vec3b& bgr) {
  int n = 0;
  for (int y = 0; y < debug.rows; ++y) {
    for (int x = 0; x < debug.cols; ++x) {
      if (debug.at<cv::Vec3b>(y, x) == bgr && image.at<cv::Vec3b>(y, x) != bgr) ++n;
    }
  }
  return n;
}

TEST(RefusalDebug, WrongBoardSizeWritesAPictureOfWhatWasFound) {
  test::RenderSpec spec;
  spec.board = Grid{12, 8, 4.0};
  const CameraModel truth = test::TestCamera({1280, 720}, 8.0, -0.08, 2.0, 50.0, spec.board);
  const cv::Mat img = test::RenderGrid(truth, spec);
  const fs::path dir = fs::path(REFEREE_TEST_TMP) / "refusal_debug";
  fs::create_directories(dir);
  const fs::path image = dir / "table.png", board = dir / "board_10x8.json",
                 debug = dir / "debug.png", out = dir / "cal.yml";
  fs::remove(debug);
  fs::remove(out);
  ASSERT_TRUE(cv::imwrite(image.string(), img));
  std::ofstream(board) << R"({"board": {"cols": 10, "rows": 8, "square_size": 4.0}})";

  const std::string cmd = std::string(REFEREE_BINARY) + " calibrate --board " + board.string() +
                          " --image " + image.string() + " --out " + out.string() + " --debug " +
                          debug.string() + " > " + (dir / "stdout.txt").string() + " 2> " +
                          (dir / "stderr.txt").string();
  const int rc = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(rc));
  EXPECT_EQ(WEXITSTATUS(rc), 1);  // refused, not a usage error
  EXPECT_FALSE(fs::exists(out));
  std::ifstream err(dir / "stderr.txt");
  const std::string line((std::istreambuf_iterator<char>(err)), {});
  EXPECT_NE(line.find("wrong_size"), std::string::npos) << line;

  const cv::Mat pic = cv::imread(debug.string(), cv::IMREAD_COLOR);
  ASSERT_FALSE(pic.empty()) << "no readable debug picture at " << debug;
  EXPECT_EQ(pic.size(), img.size());
  // The crossings found (green circles) and the grid they make (orange lines) are drawn.
  EXPECT_GT(CountColour(pic, img, {0, 220, 0}), 500);
  EXPECT_GT(CountColour(pic, img, {0, 165, 255}), 2000);

  // In the library: the refusal carries the crossings found, spanning more than the 11 column
  // lines of a 10-square board (the board has 13 x 9 lines; the outermost may not seed).
  const CalibrationResult res = CalibrateTable(img, Grid{10, 8, 4.0}, std::nullopt);
  ASSERT_TRUE(std::holds_alternative<CalibrationRefusal>(res));
  const auto& ref = std::get<CalibrationRefusal>(res);
  EXPECT_EQ(ref.code, "wrong_size");
  EXPECT_GT(ref.intersections.size(), 13u * 9u / 2);
  int max_col = 0, max_row = 0;
  for (const auto& f : ref.intersections) {
    max_col = std::max(max_col, f.col);
    max_row = std::max(max_row, f.row);
  }
  EXPECT_GE(std::max(max_col, max_row), 11);
  EXPECT_GE(std::min(max_col, max_row), 7);
}

}  // namespace
}  // namespace referee
