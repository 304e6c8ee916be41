// `referee rectify --calibration CAL.yml --image IMAGE --out TOP.png [--px-per-inch 20]
// [--margin 1]`: the camera image resampled into a top view of the table.
#include <boost/program_options.hpp>
#include <iostream>
#include <opencv2/imgcodecs.hpp>
#include <string>
#include <vector>

#include "calibration/calibration_file.hpp"
#include "calibration/rectify.hpp"
#include "engine/input_error.hpp"
#include "ui/cli/command_line.hpp"
#include "ui/cli/commands.hpp"
#include "vision/image_file.hpp"

namespace referee::cli {

namespace {

namespace po = boost::program_options;

struct RectifyOptions {
  std::string calibration_path, image_path, out_path;
  double px_per_inch = 20.0;  // top-view resolution; 20 px/in ~ 1.3 mm per pixel
  double margin_in = 1.0;     // border around the grid, inches

  void Check() const {
    if (calibration_path.empty()) throw InputError("command line", "--calibration", "missing");
    if (image_path.empty()) throw InputError("command line", "--image", "missing");
    if (out_path.empty()) throw InputError("command line", "--out", "missing");
    if (!(px_per_inch >= 1 && px_per_inch <= 400)) {
      throw InputError("command line", "--px-per-inch", "must be in [1, 400]");
    }
    if (!(margin_in >= 0 && margin_in <= 48)) {
      throw InputError("command line", "--margin", "must be in [0, 48] inches");
    }
  }
};

}  // namespace

int RunRectify(const std::vector<std::string>& args) {
  RectifyOptions opt;
  po::options_description desc(
      "usage: referee rectify --calibration CAL.yml --image IMAGE --out TOP.png "
      "[--px-per-inch 20] [--margin 1]");
  desc.add_options()("help,h", "show this help")("calibration", po::value(&opt.calibration_path),
                                                 "calibration file from `calibrate`")(
      "image", po::value(&opt.image_path), "camera image (same camera and size)")(
      "out", po::value(&opt.out_path), "top view to write")(
      "px-per-inch", po::value(&opt.px_per_inch), "top-view resolution (default 20)")(
      "margin", po::value(&opt.margin_in), "inches shown around the grid (default 1)");
  po::variables_map vm;
  if (!ParseCommandLine(args, desc, vm)) return 0;  // --help was printed
  opt.Check();
  const TableCalibration cal = LoadCalibration(opt.calibration_path);
  const cv::Mat image = ReadImageFileOrThrow(opt.image_path, "cannot read the image");
  if (image.size() != cal.camera.image_size) {
    throw InputError(opt.image_path, "", "image size differs from the calibration's");
  }
  const cv::Mat top = RectifyToTable(image, cal, opt.px_per_inch, opt.margin_in);
  if (!cv::imwrite(opt.out_path, top)) throw InputError(opt.out_path, "", "cannot write");
  std::cout << "wrote " << opt.out_path << " (" << top.cols << "x" << top.rows << ", "
            << opt.px_per_inch << " px/in)\n";
  return 0;
}

}  // namespace referee::cli
