// `referee calibrate-lens --chessboard 9x6 IMAGES... --out LENS.yml` (or --charuco 5x7
// --square 30 --marker 15): intrinsics and distortion from photos of a printed pattern.
#include <boost/program_options.hpp>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "calibration/calibration_file.hpp"
#include "calibration/lens_calibration.hpp"
#include "engine/input_error.hpp"
#include "ui/cli/command_line.hpp"
#include "ui/cli/commands.hpp"

namespace referee::cli {

namespace {

namespace po = boost::program_options;

cv::Size ParsePattern(const std::string& text, const std::string& field) {
  int w = 0, h = 0;
  char x = 0, extra = 0;
  if (std::sscanf(text.c_str(), "%d%c%d%c", &w, &x, &h, &extra) != 3 || (x != 'x' && x != 'X') ||
      w < 2 || h < 2 || w > 100 || h > 100) {
    throw InputError("command line", field, "expected COLSxROWS like 9x6, got '" + text + "'");
  }
  return {w, h};
}

struct CalibrateLensOptions {
  std::string chessboard, charuco, out_path;
  double square = 1.0, marker = 0.0;
  std::vector<std::string> images;

  void Check() const {
    if (chessboard.empty() == charuco.empty()) {
      throw InputError("command line", "--chessboard",
                       "give exactly one of --chessboard, --charuco");
    }
    if (images.empty()) throw InputError("command line", "IMAGES", "no images given");
    if (out_path.empty()) throw InputError("command line", "--out", "missing output file");
    if (!(square > 0)) throw InputError("command line", "--square", "must be > 0");
    if (!charuco.empty() && !(marker > 0 && marker < square)) {
      throw InputError("command line", "--marker", "must be > 0 and smaller than --square");
    }
  }
};

}  // namespace

int RunCalibrateLens(const std::vector<std::string>& args) {
  CalibrateLensOptions opt;
  po::options_description desc(
      "usage: referee calibrate-lens --chessboard 9x6 IMAGES... --out LENS.yml\n"
      "       referee calibrate-lens --charuco 5x7 --square 30 --marker 15 IMAGES... --out "
      "LENS.yml");
  desc.add_options()("help,h", "show this help")("chessboard", po::value(&opt.chessboard),
                                                 "inner corners COLSxROWS (e.g. 9x6)")(
      "charuco", po::value(&opt.charuco), "ChArUco squares COLSxROWS (dictionary 4x4_50)")(
      "square", po::value(&opt.square), "square size (any unit; default 1)")(
      "marker", po::value(&opt.marker), "ChArUco marker size (same unit as --square)")(
      "out", po::value(&opt.out_path), "lens file to write (YAML)")(
      "images", po::value(&opt.images)->multitoken(), "photos of the pattern");
  po::positional_options_description pos;
  pos.add("images", -1);
  po::variables_map vm;
  if (!ParseCommandLine(args, desc, pos, vm)) return 0;  // --help was printed
  opt.Check();
  std::vector<std::filesystem::path> paths(opt.images.begin(), opt.images.end());
  const LensCalibrationReport rep =
      opt.chessboard.empty() ? CalibrateLensCharuco(paths, ParsePattern(opt.charuco, "--charuco"),
                                                    opt.square, opt.marker)
                             : CalibrateLensChessboard(
                                   paths, ParsePattern(opt.chessboard, "--chessboard"), opt.square);
  SaveLens(rep.lens, opt.out_path);
  for (const auto& s : rep.skipped) std::cout << "skipped (pattern not found): " << s << "\n";
  const auto& k = rep.lens.camera_matrix;
  const auto& d = rep.lens.distortion;
  std::cout << "views " << rep.used.size() << ", rms " << rep.lens.rms_px << " px\n"
            << "fx " << k(0, 0) << " fy " << k(1, 1) << " cx " << k(0, 2) << " cy " << k(1, 2)
            << "\nk1 " << d[0] << " k2 " << d[1] << " p1 " << d[2] << " p2 " << d[3] << " k3 "
            << d[4] << "\nwrote " << opt.out_path << "\n";
  return 0;
}

}  // namespace referee::cli
