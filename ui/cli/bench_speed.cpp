// `referee bench speed [--frames N]`: how fast the live referee runs, on generated 720p, 1080p
// and 2160p scenes, on one core (cv::setNumThreads(1)) and on all cores. It drives the live
// pipeline itself (ui/live/live_pipeline, what VisionWorker runs per frame) through a scripted
// shot: a still table (the stands are found), the shot armed, the projectile flying in
// (frames alternating), the projectile at rest (adjudicated on the frame rest is declared), a
// hand over the table, and the table still again. Bump checks run on their schedule.
//
// Figures per resolution and core count: frames per second over the whole stream (the mean,
// so the occasional stand detection and bump check are paid for), median and worst frame,
// rest-to-verdict (the rest frame's pipeline time plus the engine's ruling), and, for
// comparison, what session 1's worker did per frame (rectify + full stand detection) and its
// rest-to-verdict (full AnalyseShot). One-core figures are per-thread CPU time, so other
// processes on the machine do not inflate them; all-core figures are wall time. MJPEG decode
// (what a webcam frame costs before the pipeline) is printed separately. Peak memory is the
// process's peak resident size during the pipeline runs (Linux VmHWM, reset per run).
#include <sys/resource.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <string>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include "calibration/calibrate_table.hpp"
#include "datasets/synth_scene.hpp"
#include "engine/board_file.hpp"
#include "engine/data_paths.hpp"
#include "engine/input_error.hpp"
#include "engine/order_statistics.hpp"
#include "engine/shot_adjudication.hpp"
#include "engine/stand_kind_catalog_loader.hpp"
#include "ui/cli/bench_scene_set.hpp"
#include "ui/cli/command_line.hpp"
#include "ui/cli/commands.hpp"
#include "ui/live/live_pipeline.hpp"
#include "vision/close_call_check.hpp"
#include "vision/rest_height_check.hpp"
#include "vision/shot_analysis.hpp"

namespace referee::cli {

namespace {
namespace po = boost::program_options;
using Clock = std::chrono::steady_clock;

double WallMs(Clock::time_point a) {
  return std::chrono::duration<double, std::milli>(Clock::now() - a).count();
}

// CPU time of the calling thread, ms: with one OpenCV thread, all the work is on this thread.
double ThreadCpuMs() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) * 1e-6;
}

// Times one call: thread CPU ms on one core, wall ms otherwise.
template <typename F>
double TimeMs(bool one_core, F&& f) {
  const double c0 = ThreadCpuMs();
  const auto w0 = Clock::now();
  f();
  return one_core ? ThreadCpuMs() - c0 : WallMs(w0);
}

// Linux: reset the peak resident size (VmHWM) of this process (ignored where unsupported).
void ResetPeakMemory() {
  std::ofstream f("/proc/self/clear_refs");
  f << "5";
}

// Peak resident size, MB (VmHWM since the last reset; getrusage's lifetime peak otherwise).
double PeakMemoryMb() {
  std::ifstream f("/proc/self/status");
  std::string line;
  while (std::getline(f, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stod(line.substr(6)) / 1024.0;
  }
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<double>(ru.ru_maxrss) / 1024.0;
}

// The calibration the pipeline works with: the generator's exact camera, with every grid
// crossing and the reference thumbnail a real calibration would hold (the bump check's cost
// depends on them).
TableCalibration CalibrationOf(const SynthScene& s) {
  TableCalibration cal;
  cal.board = s.board.grid;
  cal.camera = s.camera;
  const int cols = cal.board.cols;
  for (size_t i = 0; i < s.grid_intersections_px.size(); ++i) {
    IntersectionFix f;
    f.col = static_cast<int>(i) % (cols + 1);
    f.row = static_cast<int>(i) / (cols + 1);
    f.px = s.grid_intersections_px[i];
    cal.intersections.push_back(f);
  }
  cal.reference_gray = ReferenceThumbnail(s.before);
  return cal;
}

// One scripted stream through the live pipeline.
struct StreamFigures {
  int frames = 0;
  double total_ms = 0;
  std::vector<double> frame_ms;
  live::StageTimes stage_sum;
  int stand_runs = 0, bump_checks = 0, hand_frames = 0, hand_flagged = 0;
  int other_frames = 0, false_hands = 0;  // frames without a hand, and those flagged anyway
  bool rest_on_hand = false;  // a rest declared or a new scene taken with a hand in frame
  double rest_frame_ms = -1, projectile_ms = -1, ruling_ms = 0;
  // The live ruling's height check (vision/rest_height_check) on the shot as it came to rest,
  // and on the same point taken as lying on the figures of the stand nearest it (every height
  // from the bare top to the tallest figures ruled by the engine unless one changes the hits).
  double height_check_ms = 0, height_check_on_stand_ms = -1;
  double close_call_ms = 0, close_call_near_edge_ms = -1;
  std::string outcome;  // what the pipeline said at rest
  double setup_ms = 0;  // SetCalibration: the top-view maps
};

StreamFigures RunStream(const SynthScene& s, const TableCalibration& cal,
                        const live::PipelineConfig& config, int frames, bool one_core,
                        const StandKindCatalog& catalog, const ShotOptions& shot_options) {
  StreamFigures f;
  live::LivePipeline pipeline(config);
  f.setup_ms = TimeMs(one_core, [&] { pipeline.SetCalibration(cal); });
  const double fps = 30.0;
  // Script, in frames at 30 fps: still table, armed, flight, rest, hand, still again.
  const int lead = 30, flight = 9, rest_wait = static_cast<int>(config.rest_seconds * fps) + 6;
  const int hand = s.after_hand.empty() ? 0 : 15;
  const int tail = std::max(20, frames - lead - flight - rest_wait - hand);
  std::vector<const cv::Mat*> script;
  script.reserve(static_cast<size_t>(lead) + flight + rest_wait + hand + tail);
  for (int i = 0; i < lead; ++i) script.push_back(&s.before);
  for (int i = 0; i < flight; ++i) script.push_back(i % 2 ? &s.before : &s.after);
  for (int i = 0; i < rest_wait; ++i) script.push_back(&s.after);
  for (int i = 0; i < hand; ++i) script.push_back(&s.after_hand);
  for (int i = 0; i < tail; ++i) script.push_back(&s.after);
  std::vector<Stand> stands;
  double blur_mm = 0.0;  // the frame's blur as that stand search read it
  for (size_t i = 0; i < script.size(); ++i) {
    const int index = static_cast<int>(i);
    // Armed on the still table a few frames before the projectile arrives.
    if (index == lead - 5) pipeline.Arm("any");
    live::FrameResult r;
    // The frame is copied outside the timing, as a capture would deliver a new buffer.
    cv::Mat frame = script[i]->clone();
    const double ms =
        TimeMs(one_core, [&] { r = pipeline.Process(std::move(frame), index, index / fps); });
    f.frame_ms.push_back(ms);
    f.total_ms += ms;
    f.stage_sum.rectify_ms += r.stage_ms.rectify_ms;
    f.stage_sum.change_ms += r.stage_ms.change_ms;
    f.stage_sum.hand_ms += r.stage_ms.hand_ms;
    f.stage_sum.stands_ms += r.stage_ms.stands_ms;
    f.stage_sum.bump_ms += r.stage_ms.bump_ms;
    f.stage_sum.projectile_ms += r.stage_ms.projectile_ms;
    f.stand_runs += r.stands_fresh;
    f.bump_checks += r.bump.has_value();
    if (script[i] == &s.after_hand) {
      ++f.hand_frames;
      f.hand_flagged += r.hand_in_frame;
      f.rest_on_hand = f.rest_on_hand || r.shot.rest.has_value() || r.stands_fresh;
    } else {
      ++f.other_frames;
      f.false_hands += r.hand_in_frame;
    }
    if (index == lead - 5) {
      for (const auto& d : r.stands) stands.push_back(d.stand);
      if (r.stand_search) blur_mm = r.stand_search->blur_mm;
    }
    if (r.shot.rest || (f.rest_frame_ms < 0 && r.stage_ms.projectile_ms > 0)) {
      f.rest_frame_ms = ms;
      f.projectile_ms = r.stage_ms.projectile_ms;
      if (r.shot.rest) {
        char buf[96];
        std::snprintf(buf, sizeof buf, "%s at (%.2f, %.2f) in", r.shot.rest->kind.c_str(),
                      r.shot.rest->point.x, r.shot.rest->point.y);
        f.outcome = buf;
        Shot shot;
        shot.kind = r.shot.rest->kind == "qtip" ? ShotKind::kField : ShotKind::kHowitzer;
        shot.point = r.shot.rest->point;
        f.ruling_ms = TimeMs(
            one_core, [&] { (void)AdjudicateShot(s.board, stands, shot, catalog, shot_options); });
        const TopView view(cal);
        const RestHeightCheckOptions heights = RestHeightCheckOptionsFor(ProjectileOptions{});
        const auto height_check = [&](const ProjectileObservation& p) {
          return TimeMs(one_core, [&] {
            (void)CheckRulingHeight(p, view, s.board, stands, shot, catalog, shot_options, heights);
          });
        };
        f.height_check_ms = height_check(*r.shot.rest);
        f.close_call_ms = TimeMs(one_core, [&] {
          (void)CheckRulingCloseCall(*r.shot.rest, view, s.board, stands, shot, catalog,
                                     shot_options, blur_mm);
        });
        const Stand* nearest = nullptr;
        for (const Stand& st : stands) {
          if (!nearest || DistanceToRect(shot.point, st.footprint) <
                              DistanceToRect(shot.point, nearest->footprint))
            nearest = &st;
        }
        if (nearest) {
          ProjectileObservation on_stand = *r.shot.rest;
          on_stand.resting_on = nearest->id;
          on_stand.height_in = MmToInches(heights.base_height_mm + 20.0 +
                                          (on_stand.kind == "shell" ? heights.shell_thickness_mm
                                                                    : heights.qtip_head_radius_mm));
          f.height_check_on_stand_ms = height_check(on_stand);
          // Half a millimetre inside the circle behind the nearest stand: a close call found.
          Shot near_edge = shot;
          const OrientedRect& fp = nearest->footprint;
          near_edge.point = fp.center + fp.AxisY() * (fp.depth_in / 2 + shot_options.hit_radius_in -
                                                      MmToInches(0.5));
          ProjectileObservation at_edge = *r.shot.rest;
          at_edge.point = near_edge.point;
          f.close_call_near_edge_ms = TimeMs(one_core, [&] {
            (void)CheckRulingCloseCall(at_edge, view, s.board, stands, near_edge, catalog,
                                       shot_options, blur_mm);
          });
        }
      } else {
        f.outcome = "refused: " + r.shot.refusal;
      }
    }
  }
  f.frames = static_cast<int>(script.size());
  return f;
}

}  // namespace

int RunBenchSpeed(const std::vector<std::string>& args) {
  int frames = 120;
  po::options_description desc("usage: referee bench speed [--frames N]");
  desc.add_options()("help,h", "show this help")(
      "frames", po::value(&frames),
      "frames in the scripted live stream per resolution and core count (default 120; the "
      "script needs about 80, the rest is still table)");
  po::variables_map vm;
  if (!ParseCommandLine(args, desc, vm)) return 0;  // --help was printed
  if (frames < 2) throw InputError("command line", "--frames", "must be at least 2");
  const Scenario scenario = LoadScenario(DatasetsDir() / "scenarios" / "napoleonic.json");
  const StandKindCatalog catalog = LoadStandKinds();
  const ShotOptions shot_options = LoadShotOptions("napoleonic");
  const SideColorModel colors = DefaultSideColorModel();
  double load[3] = {0, 0, 0};
  if (getloadavg(load, 3) < 1) load[0] = -1;
  const int all_cores = cv::getNumberOfCPUs();
  std::printf(
      "machine: %d cores, load average %.1f when started (one-core figures are thread "
      "CPU time; all-core figures are wall time)\n",
      all_cores, load[0]);
  std::string summary;
  double peak_mb = 0;
  for (const cv::Size size : {cv::Size(1280, 720), cv::Size(1920, 1080), cv::Size(3840, 2160)}) {
    const SynthScene s =
        GenerateScene(scenario, SynthOptions{.seed = 3, .size = size, .with_hand_frame = true}, 0);
    const TableCalibration cal = CalibrationOf(s);
    const TopView view(cal);  // for the session-1 comparison and the sizes printed
    live::PipelineConfig config;
    config.board = s.board.grid;
    // As `referee live` runs it: the stand search knows the board's terrain.
    config.terrain = s.board;
    config.catalog = catalog;
    config.colors = colors;
    // The live window's camera view: the full top view is made only where the referee needs
    // it (the top view shown every frame is measured separately below).
    config.top_view_every_frame = false;
    // What a webcam frame costs before the pipeline: decoding its MJPEG (JPEG) picture.
    std::vector<uchar> jpeg;
    cv::imencode(".jpg", s.before, jpeg, {cv::IMWRITE_JPEG_QUALITY, 90});
    for (const int threads : {1, all_cores}) {
      const bool one_core = threads == 1;
      cv::setNumThreads(threads);
      ResetPeakMemory();
      const StreamFigures f = RunStream(s, cal, config, frames, one_core, catalog, shot_options);
      peak_mb = std::max(peak_mb, PeakMemoryMb());
      const double fps = 1000.0 * f.frames / f.total_ms;
      // The live ruling runs the height and close-call checks with the engine's ruling
      // (LiveSession::Step).
      const double rest_to_verdict =
          f.rest_frame_ms + f.ruling_ms + f.height_check_ms + f.close_call_ms;
      double decode_ms = 1e9;
      for (int i = 0; i < 3; ++i) {
        decode_ms = std::min(decode_ms,
                             TimeMs(one_core, [&] { (void)cv::imdecode(jpeg, cv::IMREAD_COLOR); }));
      }
      std::printf(
          "%4dp %d core%s: live %.1f fps (%d frames; median %.1f ms, p95 %.1f, worst %.0f), "
          "rest-to-verdict %.1f ms (projectile %.1f + ruling %.2f + height and close-call checks; "
          "%s), "
          "top view "
          "%dx%d\n",
          size.height, threads, one_core ? " " : "s", fps, f.frames, Percentile(f.frame_ms, 0.5),
          Percentile(f.frame_ms, 0.95), Percentile(f.frame_ms, 1.0), rest_to_verdict,
          f.projectile_ms, f.ruling_ms, f.outcome.c_str(), view.size().width, view.size().height);
      std::printf(
          "      height check %.2f ms as at rest, %.2f ms taken as on the nearest stand's "
          "figures; close-call check %.2f ms as at rest, %.2f ms half a millimetre inside the "
          "circle behind the nearest stand\n",
          f.height_check_ms, f.height_check_on_stand_ms, f.close_call_ms,
          f.close_call_near_edge_ms);
      const auto per = [&](double sum) { return sum / f.frames; };
      std::printf(
          "      per frame: rectify %.1f, change %.1f, hand %.2f, stands %.1f (%d runs), bump %.1f "
          "(%d checks), projectile %.2f ms; hand frames flagged %d/%d, false hand flags %d/%d%s; "
          "MJPEG decode %.1f ms; map setup %.0f ms\n",
          per(f.stage_sum.rectify_ms), per(f.stage_sum.change_ms), per(f.stage_sum.hand_ms),
          per(f.stage_sum.stands_ms), f.stand_runs, per(f.stage_sum.bump_ms), f.bump_checks,
          per(f.stage_sum.projectile_ms), f.hand_flagged, f.hand_frames, f.false_hands,
          f.other_frames, f.rest_on_hand ? " (RE-SCENED OR RESTED DURING THE HAND)" : "", decode_ms,
          f.setup_ms);
      char part[128];
      std::snprintf(part, sizeof part, " %dp/%dc %.1ffps %.0fms hands %d/%d false %d", size.height,
                    threads, fps, rest_to_verdict, f.hand_flagged, f.hand_frames, f.false_hands);
      summary += part;
      if (one_core) {
        live::PipelineConfig shown = config;
        shown.top_view_every_frame = true;
        const StreamFigures t = RunStream(s, cal, shown, frames, true, catalog, shot_options);
        std::printf(
            "      with the top view shown (rectified every frame): %.1f fps (median %.1f ms, "
            "p95 %.1f), rectify %.1f ms per frame; hand frames flagged %d/%d, false %d/%d\n",
            1000.0 * t.frames / t.total_ms, Percentile(t.frame_ms, 0.5),
            Percentile(t.frame_ms, 0.95), t.stage_sum.rectify_ms / t.frames, t.hand_flagged,
            t.hand_frames, t.false_hands, t.other_frames);
        // Session 1's worker, for comparison: full stand detection on every frame, and the
        // full two-frame analysis at rest.
        double old_frame = 0;
        const int reps = 3;
        for (int i = 0; i < reps; ++i) {
          old_frame += TimeMs(true, [&] {
            const cv::Mat top = view.Rectify(s.before);
            (void)DetectStands(top, view, colors, catalog, config.stands, &s.board);
          });
        }
        old_frame /= reps;
        double old_verdict = 1e9;
        for (int i = 0; i < 2; ++i) {
          old_verdict = std::min(old_verdict, TimeMs(true, [&] {
                                   const ShotAnalysis a = AnalyseShot(view, s.before, s.after,
                                                                      colors, catalog, &s.board);
                                   (void)a;
                                 }));
        }
        std::printf(
            "      session-1 worker path: %.1f fps (rectify + stands every frame), "
            "rest-to-verdict %.0f ms (AnalyseShot)\n",
            1000.0 / old_frame, old_verdict);
      }
    }
  }
  cv::setNumThreads(all_cores);
  std::printf("peak memory %.0f MB (resident, during the pipeline runs, with the test images)\n",
              peak_mb);
  std::printf("SUMMARY speed:%s | peak %.0f MB\n", summary.c_str(), peak_mb);
  return 0;
}

}  // namespace referee::cli
