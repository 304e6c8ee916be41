// `referee replay LOG`: a GLFW/ImGui window stepping through a logged game event by event, shot
// by shot and turn by turn (ReplayController). The game is drawn over the camera frame the log
// stored (camera view, or the rectified top view through the log's calibration): the stands
// where the log put them, the impact and its hit circle; where no frame (or no calibration)
// was stored it falls back to a schematic map of the table and says so. A side panel holds the
// event, the turn, the shot's verdict with its evidence picture and the corrections.
#pragma once

#include <string>

namespace referee::live {

struct ReplayOptions {
  std::string log;  // the game log (JSON lines) to replay
  // Run this many rendered frames then exit 0 (0 = until the window closes). With N > 0 the
  // replay steps by itself, one event every 2 frames, and also exits once the last event has
  // been shown; this is how tests run it headless under Xvfb.
  int frames = 0;
  // first.png, verdict.png (the first verdict's step), evidence.png, last.png +
  // screenshots.json (where the frame, stands and circle were drawn, and in which view)
  std::string screenshot_dir;
  int width_px = 1600;  // initial window size; fonts scale with the height
  int height_px = 900;
  float ui_scale = 0;           // font scale; 0 = from the window height and monitor DPI
  double autoplay_seconds = 0;  // step by itself every this many seconds (0 = keys only)
  bool top_view = false;        // start in the rectified top view (V switches)

  // Throws InputError on a bad option (before any window opens).
  void Check() const;
};

// Reads the log first (a bad log is one InputError line, exit 2), then opens the window.
int RunReplay(const ReplayOptions& options);

}  // namespace referee::live
