// The main of every test that handles camera frames: the process keeps freed frame memory as
// the referee's own main does (calibration/frame_memory.hpp), then GoogleTest runs.
#include <gtest/gtest.h>

#include "calibration/frame_memory.hpp"

int main(int argc, char** argv) {
  referee::KeepFreedFrameMemory();
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
