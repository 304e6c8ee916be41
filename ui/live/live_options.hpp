// Options of `referee live` and `referee replay`, bound to the command line in one place
// (ui/cli/live_command.cpp) and checked before any window opens.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace referee::live {

struct LiveOptions {
  // Frame source: exactly one of camera / video / images / demo.
  std::optional<int> camera;  // webcam index (/dev/videoN)
  std::string video;          // video file
  std::string images;         // folder of numbered images
  bool demo = false;          // the bundled recorded game (datasets/sample)

  // Webcam settings (vision/frame_source.hpp CameraSettings): automatic exposure, white
  // balance and focus are locked unless camera_auto, since they ruin change detection.
  int camera_width_px = 1280;  // requested frame size; 0 = the device's default
  int camera_height_px = 720;
  double camera_fps = 30;    // requested rate; 0 = the device's default
  double exposure = -1;      // manual exposure in device units; <0 keeps the current value
  bool camera_auto = false;  // leave exposure, white balance and focus automatic

  // Turn flow dice: the referee rolls with this seed (0 = from the clock), or the players type
  // what their physical dice show.
  std::uint64_t dice_seed = 0;
  bool physical_dice = false;

  std::string calibration;  // CAL.yml from `referee calibrate`; empty = calibrate on screen
  std::string lens;         // optional lens file (intrinsics + distortion)
  // Optional camera frame of the table with its terrain and no stands, taken before the armies
  // were deployed (the stand search drops a base where nothing changed since).
  std::string empty;
  std::string board;  // board JSON (engine/board_file.hpp); empty = the 12x8x4" default
  std::string ruleset = "napoleonic";  // shot rules (engine/rulesets/shot_rules.json)
  std::string log;                     // new game log (JSONL) to write
  std::string resume;                  // existing game log to continue

  int frames = 0;              // run this many frames then exit 0 (0 = until closed)
  std::string screenshot_dir;  // save PNGs at key states + screenshots.json
  int width_px = 1600;         // initial window size; the UI scales its fonts to it
  int height_px = 900;
  float ui_scale = 0;     // font scale; 0 = from the window height and monitor DPI
  bool autoplay = false;  // accept/arm/confirm by itself (always on for --demo, --frames)
  // Keys and clicks played into the window (ui/live/input_script.hpp); turns autoplay off.
  std::string input_script;

  // Throws InputError on a contradiction (two sources, --log with --resume, ...).
  void Check() const;
};

int RunLive(const LiveOptions& options);

}  // namespace referee::live
