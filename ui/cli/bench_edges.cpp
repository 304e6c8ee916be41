// `referee bench edges`: where the stand search puts the sides of rendered bases whose edges
// are known exactly, against the border's width, what stands inside it, blur and JPEG. It
// measures the outward bias a thin border gives (s62): the gradient of its inner edge adds to
// the outer edge's on the border's side and pulls the peak RefineEdges places the side at
// outward, the more the wider the blur (JPEG's chroma and quantisation widen it).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include <boost/program_options.hpp>

#include "datasets/bordered_base_target.hpp"
#include "engine/input_error.hpp"
#include "ui/cli/command_line.hpp"
#include "ui/cli/commands.hpp"
#include "ui/cli/edge_placement_trials.hpp"
#include "ui/cli/signed_errors.hpp"

namespace referee::cli {
namespace {

std::vector<double> ParseList(const std::string& text, const char* option, double lo, double hi) {
  std::vector<double> out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    size_t used = 0;
    double v = 0;
    try {
      v = std::stod(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != item.size() || item.empty() || v < lo || v > hi) {
      char what[96];
      std::snprintf(what, sizeof what, "'%s' is not a number from %g to %g", item.c_str(), lo, hi);
      throw InputError("command line", option, what);
    }
    out.push_back(v);
  }
  if (out.empty()) throw InputError("command line", option, "needs at least one value");
  return out;
}

cv::Scalar ParseBgr(const std::string& text, const char* option) {
  const std::vector<double> v = ParseList(text, option, 0.0, 255.0);
  if (v.size() != 3) throw InputError("command line", option, "needs three values B,G,R");
  return {v[0], v[1], v[2]};
}

}  // namespace

int RunBenchEdges(const std::vector<std::string>& args) {
  namespace po = boost::program_options;
  EdgeTrialSpec spec;
  std::string borders = "3,4,5,12", qualities = "0,100,80", mat_text, border_text;
  double blur_px = 0.8, noise = 0.0;
  po::options_description desc(
      "usage: referee bench edges [--camera-mm MM] [--borders-mm LIST] [--jpeg-qualities LIST] "
      "[--blur-px PX] [--noise LEVELS] [--trials N] [--mat-bgr B,G,R] [--border-bgr B,G,R]");
  desc.add_options()("help,h", "show this help")(
      "camera-mm", po::value(&spec.camera_mm),
      "the camera's pixel on the table, mm (default 1.6: the generated 1080p scenes' cameras "
      "see a base at 1.5-1.7)")("borders-mm", po::value(&borders),
                                "border widths to try, mm (default 3,4,5,12)")(
      "jpeg-qualities", po::value(&qualities),
      "JPEG qualities to send the frame at, 0 for lossless (default 0,100,80)")(
      "blur-px", po::value(&blur_px), "the lens's blur, camera pixels (default 0.8)")(
      "noise", po::value(&noise), "sensor noise, grey levels (default 0)")(
      "trials", po::value(&spec.trials), "bases per setting (default 48)")(
      "mat-bgr", po::value(&mat_text), "the mat's colour B,G,R (default 58,110,74: green)")(
      "border-bgr", po::value(&border_text),
      "the border's colour B,G,R (default 42,48,192: TABLE_KIT's red)");
  po::variables_map vm;
  if (!ParseCommandLine(args, desc, vm)) return 0;  // --help was printed
  if (!(spec.camera_mm >= 0.2 && spec.camera_mm <= 5.0))
    throw InputError("command line", "--camera-mm", "must be from 0.2 to 5");
  if (!(blur_px >= 0 && blur_px <= 5))
    throw InputError("command line", "--blur-px", "must be from 0 to 5");
  if (!(noise >= 0 && noise <= 20))
    throw InputError("command line", "--noise", "must be from 0 to 20");
  if (spec.trials < 1 || spec.trials > 1000)
    throw InputError("command line", "--trials", "must be from 1 to 1000");
  const std::vector<double> border_list = ParseList(borders, "--borders-mm", 1.0, 20.0);
  const std::vector<double> quality_list = ParseList(qualities, "--jpeg-qualities", 0.0, 100.0);

  const BorderedBaseTarget defaults;
  spec.mat_bgr = mat_text.empty() ? defaults.mat_bgr : ParseBgr(mat_text, "--mat-bgr");
  spec.border_bgr =
      border_text.empty() ? defaults.border_bgr : ParseBgr(border_text, "--border-bgr");
  struct Inside {
    const char* name;
    cv::Scalar bgr;
  };
  const Inside insides[] = {{"mat-coloured", spec.mat_bgr},
                            {"painted like border", spec.border_bgr},
                            {"light figures", {200, 200, 200}},
                            {"dark figures", {30, 30, 30}}};
  std::printf(
      "bases 40 x 20 mm, border BGR %.0f,%.0f,%.0f on a mat %.0f,%.0f,%.0f, camera %.2f mm/px, "
      "blur %.2f px, noise %.1f, %d per setting; outward: + the side found outside the truth\n",
      spec.border_bgr[0], spec.border_bgr[1], spec.border_bgr[2], spec.mat_bgr[0], spec.mat_bgr[1],
      spec.mat_bgr[2], spec.camera_mm, blur_px, noise, spec.trials);
  std::string summary;
  for (const double q : quality_list) {
    const std::string sent = q > 0 ? "JPEG q" + std::to_string(static_cast<int>(q)) : "lossless";
    std::vector<double> thin, wide;
    for (const double border : border_list) {
      for (const Inside& inside : insides) {
        spec.border_mm = border;
        spec.inside_bgr = inside.bgr;
        spec.camera = CameraResponse{};
        spec.camera.blur_px = blur_px;
        spec.camera.noise = noise;
        spec.camera.jpeg_quality = static_cast<int>(q);
        spec.camera.active = true;
        const EdgeTrialResult r = RunEdgeTrials(spec);
        const SignedErrorFigures f = SummariseSignedErrors(r.outward_mm);
        std::printf(
            "border %4.1f mm, inside %-19s, %-9s: placed %4zu / %4d sides, outward mean "
            "%+.2f mm, sd %.2f, |err| p90 %.2f\n",
            border, inside.name, sent.c_str(), r.outward_mm.size(), r.sides, f.mean, f.sd,
            f.p90_abs);
        std::vector<double>& pooled = border <= 5.0 ? thin : wide;
        pooled.insert(pooled.end(), r.outward_mm.begin(), r.outward_mm.end());
      }
    }
    // Pooled over the borders TABLE_KIT allows at its narrowest (up to 5 mm) and the wider ones.
    summary += " | " + sent + ":";
    const char* sep = " ";
    for (const auto& [label, pooled] : {std::pair{"borders <= 5 mm", &thin}, {"wider", &wide}}) {
      if (pooled->empty()) continue;
      const SignedErrorFigures f = SummariseSignedErrors(*pooled);
      char buf[96];
      std::snprintf(buf, sizeof buf, "%s%s %+.2f sd %.2f", sep, label, f.mean, f.sd);
      summary += buf;
      sep = ", ";
    }
  }
  std::printf("SUMMARY edges: outward mm%s\n", summary.c_str());
  return 0;
}

}  // namespace referee::cli
