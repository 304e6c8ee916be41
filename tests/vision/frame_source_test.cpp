// Frame sources on real files: numbered image folders in number order, a real video file
// written and read back through cv::VideoCapture, and clear errors for what cannot be opened.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>

#include "engine/input_error.hpp"
#include "vision/frame_source.hpp"

namespace referee {
namespace {

namespace fs = std::filesystem;

fs::path FreshDir(const std::string& name) {
  fs::path dir = fs::path(REFEREE_TEST_TMP) / "frame_source" / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// A frame whose brightness encodes its number, so order can be checked from pixels.
cv::Mat NumberedFrame(int n) { return cv::Mat(48, 64, CV_8UC3, cv::Scalar::all(20 * n + 10)); }

TEST(FrameSource, ImagesPlayInNumberOrderNotNameOrder) {
  const fs::path dir = FreshDir("images");
  for (int n : {1, 2, 10, 3}) {
    cv::imwrite((dir / ("frame_" + std::to_string(n) + ".png")).string(), NumberedFrame(n));
  }
  cv::imwrite((dir / "notes.txt").string() + ".png", NumberedFrame(11));  // no number: last
  std::ofstream(dir / "readme.txt") << "not an image";
  auto src = FrameSource::OpenImages(dir);
  EXPECT_EQ(src.frame_count(), 5);
  std::vector<int> seen;
  cv::Mat frame;
  while (src.Read(frame)) seen.push_back(frame.at<cv::Vec3b>(0, 0)[0]);
  EXPECT_EQ(seen, (std::vector<int>{30, 50, 70, 210, 230}));
  EXPECT_EQ(src.image_files()[3].filename(), "frame_10.png");
  src.Rewind();
  ASSERT_TRUE(src.Read(frame));
  EXPECT_EQ(frame.at<cv::Vec3b>(0, 0)[0], 30);
}

TEST(FrameSource, VideoFileIsReadFrameByFrame) {
  const fs::path dir = FreshDir("video");
  const fs::path file = dir / "clip.avi";
  {
    cv::VideoWriter writer(file.string(), cv::VideoWriter::fourcc('M', 'J', 'P', 'G'), 15.0,
                           cv::Size(64, 48));
    ASSERT_TRUE(writer.isOpened());
    for (int n = 0; n < 6; ++n) writer.write(NumberedFrame(n));
  }
  auto src = FrameSource::OpenVideo(file);
  EXPECT_FALSE(src.live());
  EXPECT_NEAR(src.fps(), 15.0, 0.01);
  int count = 0;
  cv::Mat frame;
  int last_level = -1;
  while (src.Read(frame)) {
    EXPECT_EQ(frame.size(), cv::Size(64, 48));
    const int level = frame.at<cv::Vec3b>(24, 32)[1];
    EXPECT_GT(level, last_level);  // frames come in order
    last_level = level;
    ++count;
  }
  EXPECT_EQ(count, 6);
  src.Rewind();
  ASSERT_TRUE(src.Read(frame));
  EXPECT_NEAR(frame.at<cv::Vec3b>(24, 32)[1], 10, 4);
}

// A frame file cut short in a folder (a copy interrupted) decoded with grey rows and played as
// a frame; it is now an InputError naming the file, and the frames after it still play.
TEST(FrameSource, AFrameFileCutShortIsNamedAndTheNextOnePlays) {
  const fs::path dir = FreshDir("cut");
  std::vector<unsigned char> jpeg;
  cv::Mat noisy(240, 320, CV_8UC3);
  cv::randu(noisy, cv::Scalar::all(0), cv::Scalar::all(255));
  ASSERT_TRUE(cv::imencode(".jpg", noisy, jpeg));
  std::ofstream(dir / "frame_1.jpg", std::ios::binary)
      .write(reinterpret_cast<const char*>(jpeg.data()),
             static_cast<std::streamsize>(jpeg.size() / 2));
  cv::imwrite((dir / "frame_2.png").string(), NumberedFrame(2));
  auto src = FrameSource::OpenImages(dir);
  cv::Mat frame;
  try {
    src.Read(frame);
    ADD_FAILURE() << "the cut frame was read";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("frame_1.jpg"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("cut short"), std::string::npos) << e.what();
  }
  ASSERT_TRUE(src.Read(frame));
  EXPECT_EQ(frame.at<cv::Vec3b>(0, 0)[0], 50);
  EXPECT_FALSE(src.Read(frame));
}

TEST(FrameSource, WhatCannotBeOpenedIsAnInputError) {
  const fs::path dir = FreshDir("errors");
  EXPECT_THROW(FrameSource::OpenVideo(dir / "missing.mp4"), InputError);
  std::ofstream(dir / "garbage.avi") << "not a video at all";
  EXPECT_THROW(FrameSource::OpenVideo(dir / "garbage.avi"), InputError);
  EXPECT_THROW(FrameSource::OpenImages(dir / "nowhere"), InputError);
  const fs::path empty = FreshDir("empty");
  EXPECT_THROW(FrameSource::OpenImages(empty), InputError);
  // A device index no machine has.
  EXPECT_THROW(FrameSource::OpenCamera(63), InputError);
}

}  // namespace
}  // namespace referee
