// A freed camera-sized map stays in the process for the next frame: it is neither given a
// mapping of its own nor handed back to the kernel when freed.
#include <gtest/gtest.h>
#include <malloc.h>

#include <opencv2/core.hpp>

#include "calibration/frame_memory.hpp"

namespace referee {
namespace {

TEST(FrameMemory, AFreedFrameSizedMapIsKeptForTheNextFrame) {
  KeepFreedFrameMemory();
  constexpr size_t kMapBytes = size_t{1920} * 1080 * 3 * sizeof(float);  // 25 MB
  const size_t mapped_before = mallinfo2().hblks;
  {
    cv::Mat map(1080, 1920, CV_32FC3);
    map.setTo(cv::Scalar::all(1));
    EXPECT_EQ(mallinfo2().hblks, mapped_before) << "the map was given a mapping of its own";
  }
  EXPECT_GE(mallinfo2().fordblks, kMapBytes) << "the freed map went back to the kernel";
  // The next frame's map reuses it: the heap does not grow.
  const size_t heap_before = mallinfo2().arena;
  cv::Mat next(1080, 1920, CV_32FC3);
  next.setTo(cv::Scalar::all(2));
  EXPECT_EQ(mallinfo2().arena, heap_before);
}

}  // namespace
}  // namespace referee
