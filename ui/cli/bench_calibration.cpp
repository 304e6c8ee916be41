// `referee bench calibration DIR [--image before.png]`: calibrates every generated scene under
// DIR (sub-folders holding truth.json, as written by `referee synth`) and compares with the
// truth: crossing error in px (each found crossing against the true pixel of the same grid
// crossing), table error in mm (true pixels of a 1" lattice over the board mapped back through
// the calibration), found rate. The last line is a one-line summary.
#include <algorithm>
#include <boost/program_options.hpp>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>
#include <string>
#include <vector>

#include "calibration/calibrate_table.hpp"
#include "calibration/raised_point_error.hpp"
#include "engine/input_error.hpp"
#include "ui/cli/bench_board_symmetry.hpp"
#include "ui/cli/bench_camera_options.hpp"
#include "ui/cli/bench_scene_set.hpp"
#include "ui/cli/command_line.hpp"
#include "ui/cli/commands.hpp"

namespace referee::cli {

namespace {

namespace po = boost::program_options;
namespace fs = std::filesystem;

struct SceneTruth {
  Grid board;
  bool markers = false;
  CameraModel camera;
  std::vector<cv::Point2d> crossings_px;  // row-major, (cols+1) per row
};

SceneTruth ReadTruth(const fs::path& file) {
  std::ifstream in(file);
  nlohmann::json j;
  try {
    in >> j;
    SceneTruth t;
    const auto& b = j.at("board");
    t.board =
        Grid{b.at("cols").get<int>(), b.at("rows").get<int>(), b.at("square_size").get<double>()};
    t.markers = b.value("markers", false);
    const auto& c = j.at("camera");
    t.camera.image_size = {c.at("image_size")[0].get<int>(), c.at("image_size")[1].get<int>()};
    for (int r = 0; r < 3; ++r) {
      for (int k = 0; k < 3; ++k) t.camera.camera_matrix(r, k) = c.at("K")[r][k].get<double>();
    }
    for (int i = 0; i < 5; ++i) t.camera.distortion[i] = c.at("dist")[i].get<double>();
    for (int i = 0; i < 3; ++i) {
      t.camera.rvec_cam_from_table[i] = c.at("rvec")[i].get<double>();
      t.camera.tvec_cam_from_table[i] = c.at("tvec")[i].get<double>();
    }
    for (const auto& p : j.at("grid_intersections_px")) {
      t.crossings_px.emplace_back(p[0].get<double>(), p[1].get<double>());
    }
    return t;
  } catch (const nlohmann::json::exception& e) {
    throw InputError(file.string(), "", e.what());
  }
}

struct SceneResult {
  std::string name;
  bool found = false;
  std::string refusal;
  int crossings = 0, total = 0;
  double mean_px = 0, max_px = 0, max_mm = 0, seconds = 0;
  bool labels_match = false;
  Vec2 worst_at;  // truth table point of the largest table error
  // The fitted camera against the truth's: focal length (%), camera centre (mm), and the table
  // error of points raised kRaisedMm above the mat (a projectile on a base is mapped back
  // through the pose at its height, so a pose or focal error moves it where a flat point holds).
  double focal_err_pct = 0, centre_err_mm = 0, raised_max_mm = 0, raised_mean_mm = 0;
};

constexpr double kRaisedMm = 25.0;

}  // namespace

int RunBenchCalibration(const std::vector<std::string>& args) {
  std::string dir, image_name = "before.png";
  bool verbose = false;
  po::options_description desc(
      "usage: referee bench calibration DIR [--image before.png] [--verbose] [--camera-...]");
  desc.add_options()("help,h", "show this help")("dir", po::value(&dir), "scenes folder")(
      "image", po::value(&image_name),
      "which image of each scene to calibrate from (empty.png, before.png, after.jpg, "
      "after_hand.jpg)")("verbose", po::bool_switch(&verbose),
                         "under a refused table, every attempt's own reason");
  CameraResponseArgs camera_args;
  camera_args.AddTo(desc);
  po::positional_options_description pos;
  pos.add("dir", 1);
  po::variables_map vm;
  if (!ParseCommandLine(args, desc, pos, vm)) return 0;  // --help was printed
  const std::vector<fs::path> scenes = ListSynthScenes(dir, image_name, 0);
  const CameraResponse camera = camera_args.Parse(vm);
  if (camera.active) std::cout << "every image re-shot: " << camera.Describe() << "\n";

  std::vector<SceneResult> results;
  std::cout << std::fixed << std::setprecision(3);
  for (const auto& sdir : scenes) {
    const SceneTruth truth = ReadTruth(sdir / "truth.json");
    const fs::path file = sdir / image_name;
    const cv::Mat image =
        Reshot(cv::imread(file.string(), cv::IMREAD_COLOR), camera, file.extension() == ".jpg",
               std::hash<std::string>{}(file.string()));
    if (image.empty()) throw InputError((sdir / image_name).string(), "", "cannot read the image");
    SceneResult r;
    r.name = fs::relative(sdir, dir).string();
    r.total = (truth.board.cols + 1) * (truth.board.rows + 1);
    const auto t0 = std::chrono::steady_clock::now();
    const CalibrationResult res = CalibrateTable(image, truth.board, std::nullopt);
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (const auto* ref = std::get_if<CalibrationRefusal>(&res)) {
      r.refusal = ref->code + ": " + ref->message;
      std::cout << r.name << "  REFUSED " << r.refusal << "\n";
      if (verbose) {
        for (const auto& a : ref->attempts) std::cout << "    " << a << "\n";
      }
      results.push_back(r);
      continue;
    }
    const auto& cal = std::get<TableCalibration>(res);
    r.found = true;
    // Which board symmetry maps our labels onto the truth's (the markerless origin rule may
    // pick another corner than the generator's origin).
    const BoardSymmetry sym = FindBoardSymmetry(cal.intersections, truth.crossings_px, truth.board);
    r.labels_match = sym.id == 0;
    double sum = 0;
    for (const auto& f : cal.intersections) {
      const cv::Point2i t = sym.ToTruth(cv::Point2i(f.col, f.row));
      if (t.x < 0 || t.y < 0 || t.x > truth.board.cols || t.y > truth.board.rows) continue;
      const double d = cv::norm(
          truth.crossings_px[static_cast<size_t>(t.y) * static_cast<size_t>(truth.board.cols + 1) +
                             static_cast<size_t>(t.x)] -
          f.px);
      sum += d;
      r.max_px = std::max(r.max_px, d);
      ++r.crossings;
    }
    r.mean_px = r.crossings ? sum / r.crossings : 0;
    // Table error over a 1" lattice: true pixel -> our table point -> truth's labels.
    for (double y = 0; y <= truth.board.Height() + 1e-9; y += 1.0) {
      for (double x = 0; x <= truth.board.Width() + 1e-9; x += 1.0) {
        const cv::Point2d px = truth.camera.ImageFromTable({x, y});
        const Vec2 ours = cal.TableFromImage(px);
        const Vec2 theirs = sym.ToTruth(ours);
        const double e_mm = InchesToMm(Distance(theirs, {x, y}));
        if (e_mm > r.max_mm) {
          r.max_mm = e_mm;
          r.worst_at = {x, y};
        }
      }
    }
    {
      const double f_ours = 0.5 * (cal.camera.camera_matrix(0, 0) + cal.camera.camera_matrix(1, 1));
      const double f_true =
          0.5 * (truth.camera.camera_matrix(0, 0) + truth.camera.camera_matrix(1, 1));
      r.focal_err_pct = 100.0 * (f_ours - f_true) / f_true;
      const cv::Vec3d c_ours = cal.camera.CameraCenterTable();
      const cv::Vec3d c_true = truth.camera.CameraCenterTable();
      const Vec2 c_xy = sym.ToTruth(Vec2{c_ours[0], c_ours[1]});
      r.centre_err_mm = InchesToMm(std::sqrt((c_xy.x - c_true[0]) * (c_xy.x - c_true[0]) +
                                             (c_xy.y - c_true[1]) * (c_xy.y - c_true[1]) +
                                             (c_ours[2] - c_true[2]) * (c_ours[2] - c_true[2])));
      const RaisedPointError raised = MeasureRaisedPointError(
          truth.camera, cal, kRaisedMm, [&](Vec2 p) { return sym.ToTruth(p); });
      r.raised_mean_mm = raised.mean_mm;
      r.raised_max_mm = raised.max_mm;
      std::cout << r.name << "  camera: focal " << std::showpos << r.focal_err_pct << std::noshowpos
                << " %  centre " << r.centre_err_mm << " mm  height (ours - truth) "
                << InchesToMm(c_true[2] - c_ours[2]) << " mm  raised " << kRaisedMm << " mm: mean "
                << r.raised_mean_mm << " max " << r.raised_max_mm << " mm\n";
    }
    std::cout << r.name << "  crossings " << r.crossings << "/" << r.total << "  mean " << r.mean_px
              << " px  max " << r.max_px << " px  table max " << r.max_mm << " mm at ("
              << r.worst_at.x << "," << r.worst_at.y << ")  fit rms " << cal.quality.rms_px
              << " px  " << (cal.markers_used ? "markers" : "grid") << "  labels "
              << (r.labels_match ? "=truth" : "sym" + std::to_string(sym.id)) << "  " << r.seconds
              << " s\n";
    results.push_back(r);
  }
  int found = 0, total_crossings = 0;
  double sum_px = 0, worst_px = 0, worst_mm = 0, sum_mm = 0, secs = 0;
  for (const auto& r : results) {
    secs += r.seconds;
    if (!r.found) continue;
    ++found;
    sum_px += r.mean_px * r.crossings;
    total_crossings += r.crossings;
    worst_px = std::max(worst_px, r.max_px);
    worst_mm = std::max(worst_mm, r.max_mm);
    sum_mm += r.max_mm;
  }
  {
    std::vector<double> focal, centre, raised_mean, raised_max;
    for (const auto& r : results) {
      if (!r.found) continue;
      focal.push_back(std::abs(r.focal_err_pct));
      centre.push_back(r.centre_err_mm);
      raised_mean.push_back(r.raised_mean_mm);
      raised_max.push_back(r.raised_max_mm);
    }
    auto median = [](std::vector<double> v) {
      if (v.empty()) return 0.0;
      std::sort(v.begin(), v.end());
      return v[v.size() / 2];
    };
    auto worst = [](const std::vector<double>& v) {
      return v.empty() ? 0.0 : *std::max_element(v.begin(), v.end());
    };
    std::cout << "camera vs truth (found scenes): |focal| median " << median(focal) << " % max "
              << worst(focal) << " %  centre median " << median(centre) << " mm max "
              << worst(centre) << " mm  raised " << kRaisedMm << " mm: mean median "
              << median(raised_mean) << " mm  max median " << median(raised_max) << " mm worst "
              << worst(raised_max) << " mm\n";
  }
  const auto n_scenes = static_cast<double>(results.size());
  std::cout << "calibration: scenes " << results.size() << "  found " << 100.0 * found / n_scenes
            << "%  mean " << (total_crossings ? sum_px / total_crossings : 0) << " px  max "
            << worst_px << " px  table max mean " << (found ? sum_mm / found : 0) << " mm  worst "
            << worst_mm << " mm  " << secs / n_scenes << " s/scene\n";
  return 0;
}

}  // namespace referee::cli
