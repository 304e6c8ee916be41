// `referee synth --seed N --scenario FILE --out DIR [--count K] [--size 1920x1080]`: renders
// K synthetic scenes (DIR/scene_0000 ...) with their truth.json, deterministically per seed.
// `--sequence` also writes one shot sequence (DIR/sequence_0000: numbered frames + frames.json).
#include <algorithm>
#include <atomic>
#include <boost/program_options.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <regex>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "datasets/scenario.hpp"
#include "datasets/shot_sequence.hpp"
#include "datasets/synth_scene.hpp"
#include "engine/data_paths.hpp"
#include "engine/input_error.hpp"
#include "ui/cli/command_line.hpp"
#include "ui/cli/commands.hpp"

namespace referee::cli {

namespace {

namespace po = boost::program_options;

struct SynthCommandOptions {
  uint64_t seed = 1;
  std::string scenario = (DatasetsDir() / "scenarios" / "napoleonic.json").string();
  std::string out;
  int count = 1;
  int first_index = 0;  // scene indices first_index .. first_index + count - 1
  std::string size = "1920x1080";
  cv::Size image_size{1920, 1080};
  int supersample = 2;  // antialiasing factor; 1 is faster and jaggier
  int sequences = 0;    // shot sequences to write besides the stills
  bool video = false;   // also write each sequence as an MJPG .avi
  bool jpeg = false;    // empty/before as JPEG (small samples) instead of PNG

  void Check() {
    if (out.empty()) throw InputError("command line", "--out", "missing output directory");
    if (count < 1 || count > 100000)
      throw InputError("command line", "--count", "must be 1..100000");
    if (first_index < 0) throw InputError("command line", "--first-index", "must be >= 0");
    if (supersample < 1 || supersample > 4) {
      throw InputError("command line", "--supersample", "must be 1..4");
    }
    if (sequences < 0 || sequences > 1000) {
      throw InputError("command line", "--sequences", "must be 0..1000");
    }
    const std::regex re("([0-9]{2,5})x([0-9]{2,5})");
    std::smatch m;
    if (!std::regex_match(size, m, re)) {
      throw InputError("command line", "--size", "expected WIDTHxHEIGHT, e.g. 1920x1080");
    }
    image_size = {std::stoi(m[1]), std::stoi(m[2])};
    if (image_size.width < 320 || image_size.height < 240 || image_size.width > 7680 ||
        image_size.height > 4320) {
      throw InputError("command line", "--size", "must be between 320x240 and 7680x4320");
    }
  }
};

// One line on stderr, redrawn in place: [#####.....] 42/100 scenes  3.1 s
class ProgressBar {
 public:
  ProgressBar(int total, std::string what) : total_(total), what_(std::move(what)) { Draw(); }
  void Step() {
    std::lock_guard<std::mutex> lock(mu_);
    ++done_;
    Draw();
  }
  void Finish() { std::fprintf(stderr, "\n"); }

 private:
  void Draw() const {
    constexpr int kWidth = 30;
    const int filled = total_ ? done_ * kWidth / total_ : kWidth;
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    std::fprintf(stderr, "\r[%s%s] %d/%d %s  %.1f s", std::string(filled, '#').c_str(),
                 std::string(kWidth - filled, '.').c_str(), done_, total_, what_.c_str(), s);
    std::fflush(stderr);
  }
  int total_;
  int done_ = 0;
  std::string what_;
  std::mutex mu_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

std::string Numbered(const char* prefix, int i) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%s_%04d", prefix, i);
  return buf;
}

}  // namespace

int RunSynth(const std::vector<std::string>& args) {
  SynthCommandOptions opt;
  po::options_description desc(
      "usage: referee synth --seed N --scenario FILE --out DIR [--count K] [--size 1920x1080]");
  desc.add_options()("help,h", "show this help")("seed", po::value(&opt.seed),
                                                 "random seed (default 1); same seed, same bytes")(
      "scenario", po::value(&opt.scenario),
      "scenario JSON (default datasets/scenarios/napoleonic.json)")(
      "out", po::value(&opt.out), "output directory (scene_NNNN sub-directories)")(
      "count", po::value(&opt.count), "number of scenes (default 1)")(
      "first-index", po::value(&opt.first_index), "index of the first scene (default 0)")(
      "size", po::value(&opt.size), "image size WIDTHxHEIGHT (default 1920x1080)")(
      "supersample", po::value(&opt.supersample), "antialiasing factor 1-4 (default 2)")(
      "sequences", po::value(&opt.sequences), "also write N shot sequences (default 0)")(
      "video", po::bool_switch(&opt.video), "also write each sequence as sequence.avi (MJPG)")(
      "jpeg", po::bool_switch(&opt.jpeg), "write empty/before as JPEG instead of PNG (smaller)");
  po::variables_map vm;
  if (!ParseCommandLine(args, desc, vm)) return 0;  // --help was printed
  opt.Check();
  const Scenario scenario = LoadScenario(opt.scenario);
  const std::filesystem::path out(opt.out);
  std::filesystem::create_directories(out);

  SynthOptions so;
  so.seed = opt.seed;
  so.size = opt.image_size;
  so.supersample = opt.supersample;
  // Validate once up front so a bad scenario fails before any thread starts.
  (void)GenerateScene(scenario, SynthOptions{so.seed, cv::Size(320, 240), 1, false}, 0);

  ProgressBar bar(opt.count, "scenes");
  std::mutex err_mu;
  std::string first_error;
  // Scenes are independent (each has its own random stream), so the order they are rendered in
  // does not change a byte of the output.
  cv::parallel_for_(cv::Range(0, opt.count), [&](const cv::Range& r) {
    for (int i = r.start; i < r.end; ++i) {
      try {
        const int index = opt.first_index + i;
        const SynthScene scene = GenerateScene(scenario, so, index);
        WriteScene(scene, out / Numbered("scene", index), !opt.jpeg);
      } catch (const std::exception& e) {
        std::lock_guard<std::mutex> lock(err_mu);
        if (first_error.empty()) first_error = e.what();
      }
      bar.Step();
    }
  });
  bar.Finish();
  if (!first_error.empty()) throw std::runtime_error(first_error);

  for (int k = 0; k < opt.sequences; ++k) {
    const int index = opt.first_index + k;
    SequenceOptions seq;
    seq.video = opt.video;
    const auto dir = out / Numbered("sequence", index);
    const int frames = WriteShotSequence(scenario, so, index, seq, dir);
    std::cerr << "sequence " << dir.string() << ": " << frames << " frames\n";
  }
  std::cout << "wrote " << opt.count << " scenes" << (opt.sequences ? " and sequences" : "")
            << " to " << out.string() << " (seed " << opt.seed << ", scenario " << scenario.name
            << ", " << opt.image_size.width << "x" << opt.image_size.height << ")\n";
  return 0;
}

}  // namespace referee::cli
