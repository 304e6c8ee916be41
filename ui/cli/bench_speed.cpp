// `referee bench speed [--frames N]`: how fast the live vision pipeline runs on generated
// 720p, 1080p and 2160p scenes, on one core (cv::setNumThreads(1)) and on all cores. Per frame
// the live pipeline runs the rest detector and rectifies the frame for the overlay; when the
// shot comes to rest it runs the full analysis (stands, projectile) and the engine's ruling:
// that is the rest-to-verdict latency. Peak memory from getrusage. Last line: summary.
#include <sys/resource.h>

#include <boost/program_options.hpp>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "datasets/synth_scene.hpp"
#include "engine/board_file.hpp"
#include "engine/data_paths.hpp"
#include "engine/input_error.hpp"
#include "engine/shot_adjudication.hpp"
#include "engine/stand_kind_catalog_loader.hpp"
#include "ui/cli/command_line.hpp"
#include "ui/cli/commands.hpp"
#include "vision/rest_detector.hpp"
#include "vision/shot_analysis.hpp"

namespace referee::cli {

namespace {
namespace po = boost::program_options;
using Clock = std::chrono::steady_clock;

double Seconds(Clock::time_point a) {
  return std::chrono::duration<double>(Clock::now() - a).count();
}
}  // namespace

int RunBenchSpeed(const std::vector<std::string>& args) {
  int frames = 60;
  po::options_description desc("usage: referee bench speed [--frames N]");
  desc.add_options()("help,h", "show this help")(
      "frames", po::value(&frames), "frames timed per resolution and core count (default 60)");
  po::variables_map vm;
  if (!ParseCommandLine(args, desc, vm)) return 0;  // --help was printed
  if (frames < 2) throw InputError("command line", "--frames", "must be at least 2");
  const Scenario scenario = LoadScenario(DatasetsDir() / "scenarios" / "napoleonic.json");
  const StandKindCatalog catalog = LoadStandKinds();
  const ShotOptions shot_options = LoadShotOptions("napoleonic");
  SideColorModel colors;
  for (const auto& [name, rgb] : DefaultSideColors()) {
    colors.AddSideFromSrgb(name, cv::Vec3b(static_cast<uchar>(rgb[0]), static_cast<uchar>(rgb[1]),
                                           static_cast<uchar>(rgb[2])));
  }
  const int all_cores = cv::getNumberOfCPUs();
  std::string summary;
  for (const cv::Size size : {cv::Size(1280, 720), cv::Size(1920, 1080), cv::Size(3840, 2160)}) {
    const SynthScene s =
        GenerateScene(scenario, SynthOptions{.seed = 3, .size = size, .with_hand_frame = false}, 0);
    TableCalibration cal;
    cal.board = s.board.grid;
    cal.camera = s.camera;
    const TopView view(cal);
    for (const int threads : {1, all_cores}) {
      cv::setNumThreads(threads);
      RestDetector rest;
      // Alternate before/after so the rest detector sees motion, then stillness.
      const auto t0 = Clock::now();
      for (int i = 0; i < frames; ++i) {
        const cv::Mat& f = (i < frames / 2 && i % 2) ? s.after : s.before;
        rest.Push(f, i / 30.0);
        const cv::Mat top = view.Rectify(f);
        (void)top;
      }
      const double fps = frames / Seconds(t0);
      // Rest to verdict: full analysis plus the ruling.
      const int reps = 3;
      double latency = 1e9;
      for (int r = 0; r < reps; ++r) {
        const auto t1 = Clock::now();
        const ShotAnalysis a = AnalyseShot(view, s.before, s.after, colors, catalog, &s.board);
        if (a.projectile) {
          Shot shot;
          shot.kind = a.projectile->kind == "qtip" ? ShotKind::kField : ShotKind::kHowitzer;
          shot.point = a.projectile->point;
          (void)AdjudicateShot(s.board, StandsOf(a.stands), shot, catalog, shot_options);
        }
        latency = std::min(latency, Seconds(t1));
      }
      std::printf("%4dp %2d core%s: live %.1f fps, rest-to-verdict %.0f ms (top view %dx%d)\n",
                  size.height, threads, threads > 1 ? "s" : " ", fps, 1000 * latency,
                  view.size().width, view.size().height);
      char part[96];
      std::snprintf(part, sizeof part, " %dp/%dc %.1ffps %.0fms", size.height, threads, fps,
                    1000 * latency);
      summary += part;
    }
  }
  cv::setNumThreads(all_cores);
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  std::printf("peak memory %.0f MB\n", ru.ru_maxrss / 1024.0);
  std::printf("SUMMARY speed:%s | peak %.0f MB\n", summary.c_str(), ru.ru_maxrss / 1024.0);
  return 0;
}

}  // namespace referee::cli
