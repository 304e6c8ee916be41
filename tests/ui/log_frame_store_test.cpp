// The frame store beside a game log: content-addressed JPEGs, stored once, damage detected.
#include <gtest/gtest.h>

#include <fstream>

#include <opencv2/imgproc.hpp>

#include "log_sample_game.hpp"
#include "vision/frame_store.hpp"

namespace referee {
namespace {

TEST(FrameStore, Fnv1a64MatchesPublishedVectors) {
  EXPECT_EQ(Fnv1a64Hex({}), "cbf29ce484222325");
  const unsigned char a[] = {'a'};
  EXPECT_EQ(Fnv1a64Hex(a), "af63dc4c8601ec8c");
  const std::string foobar = "foobar";
  EXPECT_EQ(Fnv1a64Hex({reinterpret_cast<const unsigned char*>(foobar.data()), foobar.size()}),
            "85944171f73967e8");
}

TEST(FrameStore, SameFrameStoredOnceUnderItsHashAndReadBack) {
  const auto dir = testing::FreshTestDir("frame_store");
  const auto log = dir / "game.jsonl";
  const FrameStore store = FrameStore::ForLog(log);
  EXPECT_EQ(store.dir(), dir / "frames");
  const cv::Mat frame = testing::SampleFrame({testing::SampleStand("r1", "red", 10, 10)}, nullptr);
  const std::string name = store.PutJpeg(frame);
  EXPECT_EQ(name.size(), 16u + 4u);
  EXPECT_EQ(name.substr(16), ".jpg");
  EXPECT_EQ(store.PutJpeg(frame), name);  // same bytes, same name, one file
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(store.dir()), {}), 1);
  const cv::Mat back = store.Load(name);
  ASSERT_EQ(back.size(), frame.size());
  // JPEG is lossy; the table and the stand must still be there.
  cv::Mat diff;
  cv::absdiff(back, frame, diff);
  EXPECT_LT(cv::mean(diff)[0] + cv::mean(diff)[1] + cv::mean(diff)[2], 6.0);

  const Vec2 tip{20, 20};
  EXPECT_NE(store.PutJpeg(testing::SampleFrame({}, &tip)), name);
}

TEST(FrameStore, DamagedOrMissingFrameIsNotReturned) {
  const auto dir = testing::FreshTestDir("frame_store");
  const FrameStore store(dir / "frames");
  const std::string name = store.PutJpeg(testing::SampleFrame({}, nullptr));
  {
    std::fstream f(store.PathOf(name), std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(200);
    const char byte = static_cast<char>(f.get());
    f.seekp(200);
    f.put(static_cast<char>(~byte));  // flip one byte in the middle of the JPEG
  }
  EXPECT_FALSE(store.ReadVerified(name).has_value());
  EXPECT_TRUE(store.Load(name).empty());
  EXPECT_FALSE(store.ReadVerified("0000000000000000.jpg").has_value());
  // Storing the frame again repairs the damaged file.
  EXPECT_EQ(store.PutJpeg(testing::SampleFrame({}, nullptr)), name);
  EXPECT_TRUE(store.ReadVerified(name).has_value());
}

}  // namespace
}  // namespace referee
