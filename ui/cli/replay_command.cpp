// `referee replay LOG [--frames N] [--screenshot-dir DIR]`: step through a logged game in a
// window. Options are bound here; the window is ui/live/replay_window.cpp.
#include <boost/program_options.hpp>

#include "ui/cli/command_line.hpp"
#include "ui/cli/commands.hpp"
#include "ui/live/replay_window.hpp"

namespace referee::cli {

namespace po = boost::program_options;

int RunReplay(const std::vector<std::string>& args) {
  live::ReplayOptions opt;
  po::options_description desc("usage: referee replay LOG.jsonl [options]");
  desc.add_options()("help,h", "show this help")("log", po::value(&opt.log), "LOG.jsonl")(
      "frames", po::value(&opt.frames)->default_value(0),
      "render N frames then exit 0, stepping one event every 2 frames (0 = until closed)")(
      "screenshot-dir", po::value(&opt.screenshot_dir),
      "save first.png, verdict.png, evidence.png, last.png and screenshots.json here")(
      "autoplay", po::value(&opt.autoplay_seconds)->default_value(0.0),
      "step to the next event every this many seconds (0 = by keys only)")(
      "top-view", po::bool_switch(&opt.top_view),
      "start in the rectified top view instead of the camera view (V switches)")(
      "width", po::value(&opt.width_px)->default_value(1600), "window width, px")(
      "height", po::value(&opt.height_px)->default_value(900), "window height, px")(
      "ui-scale", po::value(&opt.ui_scale)->default_value(0.0f),
      "font scale (default: from the window height and the monitor)");
  po::positional_options_description pos;
  pos.add("log", 1);
  po::variables_map vm;
  if (!ParseCommandLine(args, desc, pos, vm)) return 0;  // --help was printed
  return live::RunReplay(opt);
}

}  // namespace referee::cli
