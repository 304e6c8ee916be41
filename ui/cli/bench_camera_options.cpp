#include "ui/cli/bench_camera_options.hpp"

#include <sstream>

#include "engine/input_error.hpp"

namespace referee::cli {

namespace po = boost::program_options;

void CameraResponseArgs::AddTo(po::options_description& desc) {
  desc.add_options()("camera-white-balance", po::value(&white_balance),
                     "every frame re-shot with per-channel gains B,G,R (a tungsten-lit room: "
                     "0.8,1,1.2)")("camera-gamma", po::value(&response.gamma),
                                   "... with the tone curve out = in^G (0.75: a brighter camera)")(
      "camera-vignette", po::value(&response.vignette),
      "... with lens shading 1 - V r^2 (0.2: corners 40 % darker)")(
      "camera-desaturate", po::value(&response.desaturate),
      "... with this share of the saturation lost (0.35: a cheap sensor)")(
      "camera-blur-px", po::value(&response.blur_px),
      "... through a soft lens: Gaussian sigma in pixels (1.2 at 1080p: a webcam's focus)")(
      "camera-noise", po::value(&response.noise), "... with sensor noise of this sigma, levels")(
      "camera-jpeg-quality", po::value(&response.jpeg_quality),
      "... sent as JPEG at this quality, 4:2:0 chroma (an MJPEG webcam: 80)");
}

CameraResponse CameraResponseArgs::Parse(const po::variables_map& vm) const {
  CameraResponse r = response;
  if (!white_balance.empty()) {
    std::stringstream in(white_balance);
    char comma = 0;
    cv::Vec3d& wb = r.white_balance;
    if (!(in >> wb[0] >> comma) || comma != ',' || !(in >> wb[1] >> comma) || comma != ',' ||
        !(in >> wb[2]) || wb[0] <= 0 || wb[1] <= 0 || wb[2] <= 0) {
      throw InputError("command line", "--camera-white-balance",
                       "expected three positive gains B,G,R, got '" + white_balance + "'");
    }
  }
  const auto check = [](bool ok, const char* option, const char* range) {
    if (!ok) throw InputError("command line", option, std::string("expected ") + range);
  };
  check(r.gamma > 0.2 && r.gamma < 5.0, "--camera-gamma", "0.2 to 5");
  check(r.vignette >= 0.0 && r.vignette < 1.0, "--camera-vignette", "0 to 1");
  check(r.desaturate >= 0.0 && r.desaturate <= 1.0, "--camera-desaturate", "0 to 1");
  check(r.blur_px >= 0.0 && r.blur_px <= 20.0, "--camera-blur-px", "0 to 20 (pixels)");
  check(r.noise >= 0.0 && r.noise <= 64.0, "--camera-noise", "0 to 64 (levels)");
  check(vm.count("camera-jpeg-quality") == 0 || (r.jpeg_quality >= 1 && r.jpeg_quality <= 100),
        "--camera-jpeg-quality", "1 to 100");
  for (const char* name :
       {"camera-white-balance", "camera-gamma", "camera-vignette", "camera-desaturate",
        "camera-blur-px", "camera-noise", "camera-jpeg-quality"}) {
    r.active = r.active || vm.count(name) > 0;
  }
  return r;
}

}  // namespace referee::cli
