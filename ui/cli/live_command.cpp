// `referee live [--camera N | --video FILE | --images DIR | --demo] [--calibration CAL.yml]
// [--board BOARD] [--log LOG] [--resume LOG] [--frames N] [--screenshot-dir DIR]`: the live
// overlay. Options are bound here; everything else is in ui/live/.
#include <boost/program_options.hpp>
#include <iostream>

#include "engine/input_error.hpp"
#include "ui/cli/command_line.hpp"
#include "ui/cli/commands.hpp"
#include "ui/live/live_options.hpp"

namespace referee::cli {

namespace po = boost::program_options;

int RunLive(const std::vector<std::string>& args) {
  live::LiveOptions opt;
  int camera = -1;
  po::options_description desc(
      "usage: referee live [--camera N | --video FILE | --images DIR | --demo] [options]");
  desc.add_options()("help,h", "show this help")(
      "camera", po::value(&camera),
      "webcam index N (/dev/videoN); exposure, white balance and "
      "focus are locked where the device allows")("video", po::value(&opt.video),
                                                  "play a video file")(
      "images", po::value(&opt.images), "play a folder of numbered images in number order")(
      "demo", po::bool_switch(&opt.demo), "play the bundled recorded game (datasets/sample)")(
      "camera-width", po::value(&opt.camera_width_px)->default_value(1280),
      "webcam frame width, px (0 = device default)")(
      "camera-height", po::value(&opt.camera_height_px)->default_value(720),
      "webcam frame height, px (0 = device default)")(
      "camera-fps", po::value(&opt.camera_fps)->default_value(30.0),
      "webcam frame rate (0 = device default)")(
      "exposure", po::value(&opt.exposure)->default_value(-1.0),
      "manual exposure in device units (default: lock the current value)")(
      "camera-auto", po::bool_switch(&opt.camera_auto),
      "leave exposure, white balance and focus automatic (not recommended)")(
      "dice-seed", po::value(&opt.dice_seed)->default_value(0),
      "seed of the referee's dice (0 = from the clock)")(
      "physical-dice", po::bool_switch(&opt.physical_dice),
      "players roll real dice and type each value")(
      "calibration", po::value(&opt.calibration),
      "calibration file (default: calibrate on screen from the grid)")(
      "lens", po::value(&opt.lens), "lens file (intrinsics + distortion), optional")(
      "empty", po::value(&opt.empty),
      "camera frame of the table with its terrain and no stands, taken before the armies were "
      "deployed: a base found where nothing changed since (paper, a roof) is dropped")(
      "board", po::value(&opt.board),
      "board JSON (grid, terrain, side colours); default 12x8 of 4\"")(
      "ruleset", po::value(&opt.ruleset)->default_value("napoleonic"),
      "shot rules: napoleonic | ancient")("log", po::value(&opt.log),
                                          "write a new game log (JSON lines) here")(
      "resume", po::value(&opt.resume), "continue an existing game log")(
      "frames", po::value(&opt.frames)->default_value(0),
      "run N frames then exit 0 (0 = until the window closes); implies --autoplay")(
      "screenshot-dir", po::value(&opt.screenshot_dir),
      "save calibration.png, stands.png, verdict.png and screenshots.json here")(
      "width", po::value(&opt.width_px)->default_value(1600), "window width, px")(
      "height", po::value(&opt.height_px)->default_value(900), "window height, px")(
      "ui-scale", po::value(&opt.ui_scale)->default_value(0.0f),
      "font scale (default: from the window height and the monitor)")(
      "autoplay", po::bool_switch(&opt.autoplay),
      "accept the grid, arm and confirm by itself (on for --demo and --frames)")(
      "input-script", po::value(&opt.input_script),
      "play keys and clicks from FILE (key NAME, click WIDGET, click-stand ID, wait N, "
      "wait-phase P, wait-grid, wait-stands, screenshot NAME); turns autoplay off; the run "
      "ends with the script (--frames caps a stuck one)");
  po::variables_map vm;
  if (!ParseCommandLine(args, desc, vm)) return 0;  // --help was printed
  if (vm.count("camera")) opt.camera = camera;
  return live::RunLive(opt);
}

}  // namespace referee::cli
