// The demo finder must play the recorded sequence, not a scene folder's stills that sort first.
#include "ui/live/demo_data.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace referee::live {
namespace {

namespace fs = std::filesystem;

void Touch(const fs::path& p) { std::ofstream(p) << "x"; }

TEST(DemoData, PrefersTheRecordedSequenceOverSceneStills) {
  const fs::path root = fs::path(REFEREE_TEST_TMP) / "demo_data_test";
  fs::remove_all(root);
  fs::create_directories(root / "scene_0001");
  fs::create_directories(root / "sequence_0001");
  for (const char* n : {"after.jpg", "after_hand.jpg", "before.jpg", "empty.jpg"}) {
    Touch(root / "scene_0001" / n);
  }
  for (const char* n : {"frame_0000.jpg", "frame_0001.jpg", "frame_0002.jpg", "frames.json"}) {
    Touch(root / "sequence_0001" / n);
  }
  Touch(root / "board.json");
  const DemoData d = FindDemoData(root);
  EXPECT_EQ(d.frames_dir.filename(), "sequence_0001");
  ASSERT_TRUE(d.board.has_value());
  EXPECT_EQ(d.board->filename(), "board.json");
}

TEST(DemoData, MissingFolderIsAnInputError) {
  EXPECT_ANY_THROW(FindDemoData(fs::path(REFEREE_TEST_TMP) / "no_such_demo_dir"));
}

}  // namespace
}  // namespace referee::live
