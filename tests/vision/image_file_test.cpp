// A camera image cut short (a copy interrupted, a file still being written) decodes with grey
// rows where its data ends: `referee adjudicate` ruled such an `after` a hand over the table.
// ReadImageFile names the file as cut short instead, and still reads whole files, whatever a
// phone appends after a JPEG's end.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "vision/image_file.hpp"

namespace referee {
namespace {

namespace fs = std::filesystem;

// A table-like picture: a mat, a grid and noise, so the JPEG has real entropy-coded data.
cv::Mat Picture() {
  cv::Mat img(480, 640, CV_8UC3, cv::Scalar(60, 110, 70));
  for (int x = 0; x < img.cols; x += 40) cv::line(img, {x, 0}, {x, img.rows}, {20, 30, 20}, 2);
  for (int y = 0; y < img.rows; y += 40) cv::line(img, {0, y}, {img.cols, y}, {20, 30, 20}, 2);
  cv::Mat noise(img.size(), CV_8UC3);
  cv::randn(noise, cv::Scalar::all(0), cv::Scalar::all(12));
  img += noise;
  return img;
}

std::vector<unsigned char> Encode(const std::string& ext) {
  std::vector<unsigned char> bytes;
  EXPECT_TRUE(cv::imencode(ext, Picture(), bytes));
  return bytes;
}

fs::path Write(const std::string& name, const std::vector<unsigned char>& bytes) {
  const fs::path dir = fs::path(REFEREE_TEST_TMP) / "image_file_test";
  fs::create_directories(dir);
  const fs::path p = dir / name;
  std::ofstream(p, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
  return p;
}

TEST(ImageFile, AWholeJpegIsReadAndOneCutShortIsNamed) {
  const std::vector<unsigned char> whole = Encode(".jpg");
  const ImageFile read = ReadImageFile(Write("whole.jpg", whole));
  EXPECT_EQ(read.problem, "");
  EXPECT_EQ(read.image.size(), cv::Size(640, 480));
  for (const double kept : {0.9, 0.5, 0.1}) {
    SCOPED_TRACE(kept);
    const std::vector<unsigned char> cut(
        whole.begin(), whole.begin() + static_cast<long>(kept * static_cast<double>(whole.size())));
    // Why the check exists: the decoder gives a picture anyway (warning only), grey where the
    // data ran out.
    if (kept >= 0.5) {
      EXPECT_FALSE(cv::imdecode(cut, cv::IMREAD_COLOR).empty());
    }
    const ImageFile r = ReadImageFile(Write("cut.jpg", cut));
    EXPECT_TRUE(r.image.empty());
    EXPECT_NE(r.problem.find("cut short"), std::string::npos) << r.problem;
  }
  // Only the end-of-image marker missing.
  const std::vector<unsigned char> no_end(whole.begin(), whole.end() - 2);
  EXPECT_NE(ImageCutShort(no_end).find("cut short"), std::string::npos);
}

TEST(ImageFile, DataAfterAJpegsEndIsNotTakenForACut) {
  // Some phones append kilobytes of their own data after the end-of-image marker, which may
  // hold any bytes, markers' among them.
  std::vector<unsigned char> bytes = Encode(".jpg");
  for (int i = 0; i < 4096; ++i) bytes.push_back(static_cast<unsigned char>((i * 37) % 256));
  bytes.insert(bytes.end(), {0xFF, 0xDA, 0x00, 0x08, 0x12, 0xFF, 0xD8});
  EXPECT_EQ(ImageCutShort(bytes), "");
  const ImageFile r = ReadImageFile(Write("trailer.jpg", bytes));
  EXPECT_EQ(r.problem, "");
  EXPECT_FALSE(r.image.empty());
}

TEST(ImageFile, APngCutShortIsNamed) {
  const std::vector<unsigned char> whole = Encode(".png");
  EXPECT_EQ(ReadImageFile(Write("whole.png", whole)).problem, "");
  const std::vector<unsigned char> cut(whole.begin(), whole.begin() + whole.size() * 3 / 4);
  const ImageFile r = ReadImageFile(Write("cut.png", cut));
  EXPECT_TRUE(r.image.empty());
  EXPECT_NE(r.problem.find("cut short"), std::string::npos) << r.problem;
}

TEST(ImageFile, MissingEmptyAndForeignFilesSayWhy) {
  EXPECT_EQ(ReadImageFile(fs::path(REFEREE_TEST_TMP) / "image_file_test" / "absent.jpg").problem,
            "cannot open the file");
  EXPECT_EQ(ReadImageFile(Write("empty.jpg", {})).problem, "the file is empty");
  const std::string text = "this is not an image\n";
  EXPECT_EQ(ReadImageFile(Write("text.jpg", {text.begin(), text.end()})).problem,
            "not an image OpenCV can decode");
}

}  // namespace
}  // namespace referee
