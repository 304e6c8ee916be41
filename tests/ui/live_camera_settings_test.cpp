// Camera settings changed at run time go to the source on the vision worker's thread and the
// report of what the device accepted comes back to the panel. Without a webcam here, a recorded
// folder stands in: it must take the request, change nothing and say so, and keep playing.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/data_paths.hpp"
#include "ui/live/vision_worker.hpp"
#include "vision/frame_source.hpp"

namespace referee::live {
namespace {

TEST(LiveCameraSettings, ARecordingTakesTheRequestChangesNothingAndSaysSo) {
  const auto dir = DatasetsDir() / "sample" / "sequence_0001";
  FrameSource direct = FrameSource::OpenImages(dir);
  CameraSettings wanted;
  wanted.lock_exposure = false;
  wanted.width_px = 640;
  wanted.height_px = 480;
  const auto& report = direct.ApplySettings(wanted);
  ASSERT_EQ(report.size(), 1u);
  EXPECT_NE(report[0].find("not a camera"), std::string::npos) << report[0];
  EXPECT_TRUE(direct.settings().lock_exposure) << "a recording keeps the defaults";

  PipelineConfig pipeline;
  VisionWorker worker(FrameSource::OpenImages(dir), pipeline, /*lockstep=*/true);
  EXPECT_TRUE(worker.camera_report().empty()) << "a recording reports no settings at start";
  ASSERT_TRUE(worker.WaitNext());
  worker.RequestCameraSettings(wanted);
  // Applied on the worker's thread before it processes a frame: the one being read now, or the
  // next.
  for (int i = 0; i < 2 && worker.camera_settings_applied() == 0; ++i) {
    const auto next = worker.WaitNext();
    ASSERT_TRUE(next);
    EXPECT_EQ(next->frame.cols, 1280) << "the picture is untouched";
  }
  EXPECT_EQ(worker.camera_settings_applied(), 1);
  const std::vector<std::string> back = worker.camera_report();
  ASSERT_EQ(back.size(), 1u);
  EXPECT_NE(back[0].find("not a camera"), std::string::npos) << back[0];
}

}  // namespace
}  // namespace referee::live
