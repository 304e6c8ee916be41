#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "calibration/calibration_file.hpp"
#include "engine/input_error.hpp"

namespace referee {
namespace {

namespace fs = std::filesystem;

fs::path Tmp(const std::string& name) {
  fs::create_directories(REFEREE_TEST_TMP);
  return fs::path(REFEREE_TEST_TMP) / name;
}

TableCalibration Sample() {
  TableCalibration c;
  c.board = Grid{12, 8, 4.0};
  c.camera.image_size = {1920, 1080};
  c.camera.camera_matrix = cv::Matx33d(1500, 0, 961.5, 0, 1500, 538.25, 0, 0, 1);
  c.camera.distortion = cv::Vec<double, 5>(-0.11, 0.021, 0.0003, -0.0002, 0);
  c.camera.rvec_cam_from_table = {0.2, -0.01, 0.05};
  c.camera.tvec_cam_from_table = {-23.5, -10.25, 55.125};
  c.undistorted_from_table = cv::Matx33d(30, 1, 200, -1, 31, 100, 0.0001, 0.0002, 1);
  c.lens_from_file = true;
  c.markers_used = false;
  c.intersections = {{0, 0, {100.25, 200.5}, 0.05}, {12, 8, {1800.125, 950.75}, 0.11}};
  c.quality = {0.08, 0.05, 0.2, 0.95, 2, 117};
  c.reference_gray = cv::Mat(18, 32, CV_8UC1);
  cv::randu(c.reference_gray, 0, 255);
  c.created_utc = "2026-11-21T23:00:00Z";
  return c;
}

TEST(CalibrationFile, RoundTripKeepsEverything) {
  const TableCalibration a = Sample();
  const fs::path p = Tmp("roundtrip_cal.yml");
  SaveCalibration(a, p);
  const TableCalibration b = LoadCalibration(p);
  EXPECT_EQ(b.board.cols, 12);
  EXPECT_EQ(b.board.rows, 8);
  EXPECT_DOUBLE_EQ(b.board.square_size_in, 4.0);
  EXPECT_EQ(b.camera.image_size, a.camera.image_size);
  for (int i = 0; i < 9; ++i)
    EXPECT_DOUBLE_EQ(b.camera.camera_matrix.val[i], a.camera.camera_matrix.val[i]);
  for (int i = 0; i < 5; ++i) EXPECT_DOUBLE_EQ(b.camera.distortion[i], a.camera.distortion[i]);
  for (int i = 0; i < 3; ++i) {
    EXPECT_DOUBLE_EQ(b.camera.rvec_cam_from_table[i], a.camera.rvec_cam_from_table[i]);
    EXPECT_DOUBLE_EQ(b.camera.tvec_cam_from_table[i], a.camera.tvec_cam_from_table[i]);
  }
  for (int i = 0; i < 9; ++i)
    EXPECT_DOUBLE_EQ(b.undistorted_from_table.val[i], a.undistorted_from_table.val[i]);
  EXPECT_TRUE(b.lens_from_file);
  EXPECT_FALSE(b.markers_used);
  ASSERT_EQ(b.intersections.size(), 2u);
  EXPECT_EQ(b.intersections[1].col, 12);
  EXPECT_EQ(b.intersections[1].row, 8);
  EXPECT_DOUBLE_EQ(b.intersections[1].px.x, 1800.125);
  EXPECT_DOUBLE_EQ(b.intersections[1].residual_px, 0.11);
  EXPECT_DOUBLE_EQ(b.quality.max_mm, 0.2);
  EXPECT_EQ(b.quality.intersections_total, 117);
  EXPECT_EQ(cv::norm(b.reference_gray, a.reference_gray, cv::NORM_INF), 0);
  EXPECT_EQ(b.created_utc, a.created_utc);
  // The loaded camera maps exactly as the saved one.
  const cv::Point2d pa = a.ImageFromTable({10, 20}), pb = b.ImageFromTable({10, 20});
  EXPECT_DOUBLE_EQ(pa.x, pb.x);
}

TEST(CalibrationFile, LensRoundTrip) {
  LensModel l;
  l.image_size = {640, 480};
  l.camera_matrix = cv::Matx33d(532.5, 0, 342, 0, 532.4, 233, 0, 0, 1);
  l.distortion = cv::Vec<double, 5>(-0.3, 0.15, 0.001, 0.0003, -0.03);
  l.rms_px = 0.23;
  const fs::path p = Tmp("roundtrip_lens.yml");
  SaveLens(l, p);
  const LensModel m = LoadLens(p);
  EXPECT_EQ(m.image_size, l.image_size);
  EXPECT_DOUBLE_EQ(m.camera_matrix(1, 1), 532.4);
  EXPECT_DOUBLE_EQ(m.distortion[4], -0.03);
  EXPECT_DOUBLE_EQ(m.rms_px, 0.23);
}

std::string ErrorOf(const fs::path& p) {
  try {
    LoadCalibration(p);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(CalibrationFile, BadFilesNameFileAndField) {
  const fs::path missing = Tmp("does_not_exist.yml");
  EXPECT_NE(ErrorOf(missing).find("does_not_exist.yml: file not found"), std::string::npos);

  const fs::path garbage = Tmp("garbage.yml");
  std::ofstream(garbage) << "{{{ not yaml at all :::\n";
  EXPECT_NE(ErrorOf(garbage).find("garbage.yml"), std::string::npos);

  const fs::path lens = Tmp("a_lens_not_cal.yml");
  SaveLens(LensModel{{640, 480}, cv::Matx33d::eye(), {}, 0.1}, lens);
  EXPECT_NE(ErrorOf(lens).find("format: is 'referee-lens'"), std::string::npos);

  // Remove one field from a good file.
  const fs::path good = Tmp("good_cal.yml");
  SaveCalibration(Sample(), good);
  std::ifstream in(good);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto cut = [&](const std::string& key, const std::string& name) {
    std::string t = text;
    const size_t i = t.find(key + ":");
    t.replace(i, key.size(), "removed_" + key);
    const fs::path p = Tmp(name);
    std::ofstream(p) << t;
    return ErrorOf(p);
  };
  EXPECT_NE(cut("camera_matrix", "no_k.yml").find("no_k.yml: camera_matrix: missing"),
            std::string::npos);
  EXPECT_NE(cut("reference_gray", "no_ref.yml").find("reference_gray: missing"), std::string::npos);
  EXPECT_NE(cut("rms_mm", "no_rms.yml").find("quality.rms_mm: missing"), std::string::npos);
}

}  // namespace
}  // namespace referee
