// `referee calibrate --board BOARD --image IMAGE --out CAL.yml [--lens LENS.yml] [--json]
// [--debug DEBUG.png]`: calibrate the table from one camera image (grid lines, corner markers
// when present) and write the calibration file. Exit 1 with the reason when it refuses.
#include <boost/program_options.hpp>
#include <iostream>
#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>
#include <optional>
#include <string>
#include <vector>

#include "calibration/calibrate_table.hpp"
#include "calibration/calibration_file.hpp"
#include "engine/board_file.hpp"
#include "engine/input_error.hpp"
#include "ui/cli/command_line.hpp"
#include "ui/cli/commands.hpp"
#include "vision/image_file.hpp"

namespace referee::cli {

namespace {

namespace po = boost::program_options;

struct CalibrateCliOptions {
  std::string board_path, image_path, out_path, lens_path, debug_path;
  bool json = false;

  void Check() const {
    if (board_path.empty()) throw InputError("command line", "--board", "missing board file");
    if (image_path.empty()) throw InputError("command line", "--image", "missing image");
    if (out_path.empty()) throw InputError("command line", "--out", "missing output file");
  }
};

nlohmann::json FixesJson(const std::vector<IntersectionFix>& fixes) {
  nlohmann::json a = nlohmann::json::array();
  for (const auto& f : fixes) {
    a.push_back(
        {{"col", f.col}, {"row", f.row}, {"px", {f.px.x, f.px.y}}, {"residual_px", f.residual_px}});
  }
  return a;
}

nlohmann::json QualityJson(const CalibrationQuality& q) {
  return {{"rms_px", q.rms_px},
          {"rms_mm", q.rms_mm},
          {"max_mm", q.max_mm},
          {"coverage", q.coverage},
          {"intersections_found", q.intersections_found},
          {"intersections_total", q.intersections_total}};
}

}  // namespace

int RunCalibrate(const std::vector<std::string>& args) {
  CalibrateCliOptions opt;
  po::options_description desc(
      "usage: referee calibrate --board BOARD --image IMAGE --out CAL.yml [--lens LENS.yml] "
      "[--json] [--debug DEBUG.png]");
  desc.add_options()("help,h", "show this help")("board", po::value(&opt.board_path),
                                                 "BOARD file (JSON): grid size, markers, ...")(
      "image", po::value(&opt.image_path), "camera image of the table")(
      "out", po::value(&opt.out_path), "calibration file to write (YAML)")(
      "lens", po::value(&opt.lens_path),
      "lens file from calibrate-lens (default: estimate focal length and k1/k2 from the grid)")(
      "json", po::bool_switch(&opt.json), "print the result as JSON")(
      "debug", po::value(&opt.debug_path), "write a picture of what was found");
  po::variables_map vm;
  if (!ParseCommandLine(args, desc, vm)) return 0;  // --help was printed
  opt.Check();

  const BoardFile board = LoadBoardFile(opt.board_path);
  if (const std::string note = IgnoredKeysNote(board, opt.board_path); !note.empty())
    std::cerr << "referee calibrate: " << note << "\n";
  const cv::Mat image = ReadImageFileOrThrow(opt.image_path, "cannot read the image");
  std::optional<LensModel> lens;
  if (!opt.lens_path.empty()) {
    lens = LoadLens(opt.lens_path);
    if (lens->image_size != image.size()) {
      throw InputError(opt.lens_path, "image_width",
                       "lens was calibrated at " + std::to_string(lens->image_size.width) + "x" +
                           std::to_string(lens->image_size.height) + ", the image is " +
                           std::to_string(image.cols) + "x" + std::to_string(image.rows));
    }
  }
  CalibrateOptions copt;
  const CalibrationResult result = CalibrateTable(image, board.board.grid, lens, copt);
  if (!opt.debug_path.empty()) {
    if (!cv::imwrite(opt.debug_path, DrawCalibrationDebug(image, result))) {
      throw InputError(opt.debug_path, "", "cannot write the debug picture");
    }
  }
  if (const auto* refusal = std::get_if<CalibrationRefusal>(&result)) {
    if (opt.json) {
      nlohmann::json j = QualityJson(refusal->quality);
      j["refused"] = refusal->code;
      j["message"] = refusal->message;
      j["intersections"] = FixesJson(refusal->intersections);
      std::cout << j.dump(2) << "\n";
    }
    std::cerr << "referee calibrate: refused (" << refusal->code << "): " << refusal->message
              << "\n";
    return 1;
  }
  const auto& cal = std::get<TableCalibration>(result);
  SaveCalibration(cal, opt.out_path);
  if (opt.json) {
    nlohmann::json j = QualityJson(cal.quality);
    j["markers_used"] = cal.markers_used;
    j["lens_from_file"] = cal.lens_from_file;
    j["focal_px"] = cal.camera.camera_matrix(0, 0);
    j["distortion"] = {cal.camera.distortion[0], cal.camera.distortion[1], cal.camera.distortion[2],
                       cal.camera.distortion[3], cal.camera.distortion[4]};
    const cv::Vec3d c = cal.camera.CameraCenterTable();
    j["camera_center_in"] = {c[0], c[1], c[2]};
    j["out"] = opt.out_path;
    j["intersections"] = FixesJson(cal.intersections);
    std::cout << j.dump(2) << "\n";
  } else {
    const auto& q = cal.quality;
    std::cout << "calibrated " << cal.board.cols << " x " << cal.board.rows << " board ("
              << (cal.markers_used ? "markers + grid" : "grid only")
              << "): " << q.intersections_found << "/" << q.intersections_total
              << " crossings, rms " << q.rms_px << " px = " << q.rms_mm << " mm, max " << q.max_mm
              << " mm\nwrote " << opt.out_path << "\n";
  }
  return 0;
}

}  // namespace referee::cli
