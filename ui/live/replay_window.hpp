// `referee replay LOG`: a GLFW/ImGui window stepping through a logged game event by event, shot
// by shot and turn by turn (ReplayController), showing the stored frame or evidence picture,
// the unit positions on a map of the table, the verdict and the corrections so far.
#pragma once

#include <string>

namespace referee::live {

struct ReplayOptions {
  std::string log;  // the game log (JSON lines) to replay
  // Run this many rendered frames then exit 0 (0 = until the window closes). With N > 0 the
  // replay steps by itself, one event every 2 frames, and also exits once the last event has
  // been shown; this is how tests run it headless under Xvfb.
  int frames = 0;
  std::string screenshot_dir;  // first.png, evidence.png, last.png + screenshots.json
  int width_px = 1600;         // initial window size; fonts scale with the height
  int height_px = 900;
  float ui_scale = 0;           // font scale; 0 = from the window height and monitor DPI
  double autoplay_seconds = 0;  // step by itself every this many seconds (0 = keys only)

  // Throws InputError on a bad option (before any window opens).
  void Check() const;
};

// Reads the log first (a bad log is one InputError line, exit 2), then opens the window.
int RunReplay(const ReplayOptions& options);

}  // namespace referee::live
