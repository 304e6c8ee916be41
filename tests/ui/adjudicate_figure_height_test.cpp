// `referee adjudicate` reads the club's figure height from the board file: a Q-tip lying across
// figures is put at their height, which one camera cannot measure. A rendered 1080p table whose
// figures are all 10 mm tall, a Q-tip laid level across one stand's figures: the default 20 mm
// figures put its tip several mm off; the board's `figure_height_mm` brings it back, and
// `--figure-height-mm` still overrides the board. Bad kit heights in a board file
// are one line naming the file and the field, exit 2.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "../vision/laid_out_qtip_shot.hpp"
#include "calibration/calibration_file.hpp"
#include "datasets/scene_truth.hpp"
#include "datasets/synth_scene.hpp"
#include "engine/data_paths.hpp"

namespace referee::adjudicate_figure_height_test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

fs::path Dir() { return fs::path(REFEREE_TEST_TMP) / "adjudicate_figure_height_test"; }

int Referee(const std::string& args, std::string* err = nullptr) {
  const fs::path err_path = Dir() / "stderr.txt";
  const std::string cmd = std::string(REFEREE_BINARY) + " adjudicate " + args + " >" +
                          (Dir() / "stdout.txt").string() + " 2>" + err_path.string();
  const int status = std::system(cmd.c_str());
  if (err) {
    std::ifstream in(err_path);
    err->assign(std::istreambuf_iterator<char>(in), {});
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// The board file the tests give `adjudicate`: the bundled napoleonic board with `kit` added.
fs::path BoardWith(const std::string& name, const json& kit) {
  std::ifstream in(DatasetsDir() / "boards" / "napoleonic_12x8.json");
  json board = json::parse(in);
  for (const auto& [key, value] : kit.items()) board[key] = value;
  fs::path p = Dir() / name;
  std::ofstream(p) << board.dump();
  return p;
}

class AdjudicateFigureHeightTest : public ::testing::Test {
 protected:
  // Napoleonic seed 5 scene 0 with every figure 10 mm tall and a Q-tip laid level across the
  // figures of a stand, its middle over them and both heads in the air.
  static void SetUpTestSuite() {
    fs::create_directories(Dir());
    const Scenario sc = LoadScenario(DatasetsDir() / "scenarios" / "napoleonic.json");
    const SynthOptions options{.seed = 5, .size = {1920, 1080}, .with_hand_frame = false};
    LaidOutScene laid = LayOutScene(sc, options, 0);
    SceneLayout& L = laid.layout;
    const double base_in = MmToInches(2.5);
    for (auto& look : L.stands) {
      look.thickness_in = base_in;
      for (auto& f : look.figures) f.height_in = MmToInches(kFigureMm);
    }
    // The stand furthest from the camera's foot (where a height moves the tip most) that has
    // figures and a Q-tip's length of open mat along its width axis, the painted head off the
    // grid's dark lines (a black head on a line is another test's matter).
    const auto off_lines = [&](Vec2 p) {
      const double q = L.board.grid.square_size_in;
      const auto gap = [q](double v) { return std::abs(v - q * std::round(v / q)); };
      return gap(p.x) > 0.4 && gap(p.y) > 0.4;
    };
    const cv::Vec3d eye = L.camera.CameraCenterTable();
    const Vec2 foot{eye[0], eye[1]};
    Vec2 plain;
    double best_in = -1;
    for (const auto& look : L.stands) {
      if (look.figures.size() < 2 || Distance(look.stand.footprint.center, foot) < best_in)
        continue;
      const OrientedRect& fp = look.stand.footprint;
      const Vec2 tip = fp.center + 0.5 * kQtipLengthIn * fp.AxisX();
      const Vec2 p = fp.center - 0.5 * kQtipLengthIn * fp.AxisX();
      bool clear =
          L.board.grid.ContainsPoint(tip) && L.board.grid.ContainsPoint(p) && off_lines(tip);
      for (const auto& other : L.stands) {
        if (&other == &look) continue;
        for (double d = 0; d <= kQtipLengthIn && clear; d += 0.05)
          clear = DistanceToRect(p + d * fp.AxisX(), other.stand.footprint) > 0.5;
      }
      if (!clear) continue;
      tip_ = tip, plain = p;
      best_in = Distance(look.stand.footprint.center, foot);
    }
    ASSERT_TRUE(tip_.has_value());
    const double axis_in = base_in + MmToInches(kFigureMm) + 0.5 * kQtipStickDiaIn;
    L.qtip.plain_end = {plain.x, plain.y, -axis_in};
    L.qtip.painted_end = {tip_->x, tip_->y, -axis_in};
    L.hand.reset();
    const RenderedQtipShot shot = RenderQtipShot(laid, options.supersample);
    const cv::Mat& before = shot.before;
    const cv::Mat& after = shot.after;
    cv::imwrite((Dir() / "before.png").string(), before);
    cv::imwrite((Dir() / "after.jpg").string(), after,
                {cv::IMWRITE_JPEG_QUALITY, L.photo.jpeg_quality});
    TableCalibration cal;
    cal.board = L.board.grid;
    cal.camera = L.camera;
    cv::cvtColor(before, cal.reference_gray, cv::COLOR_BGR2GRAY);
    for (const auto& [col, row] : {std::pair{0, 0}, {12, 0}, {12, 8}, {0, 8}}) {
      cal.intersections.push_back({col, row, cal.camera.ImageFromTable({col * 4.0, row * 4.0}), 0});
    }
    SaveCalibration(cal, Dir() / "cal.yml");
  }

  // The tip's distance from the truth, mm, as `adjudicate` places it with `board` and `extra`.
  static double TipErrorMm(const fs::path& board, const std::string& extra = "") {
    const fs::path out = Dir() / "out.json";
    fs::remove(out);
    Referee("--calibration " + (Dir() / "cal.yml").string() + " --board " + board.string() +
            " --before " + (Dir() / "before.png").string() + " --after " +
            (Dir() / "after.jpg").string() + " --out " + out.string() + extra);
    std::ifstream in(out);
    const json j = json::parse(in);
    EXPECT_FALSE(j.at("rejected").get<bool>()) << j.at("reason");
    if (j.at("projectile").is_null()) return 1e9;
    const json& p = j.at("projectile").at("point");
    return InchesToMm(Distance({p.at(0).get<double>(), p.at(1).get<double>()}, *tip_));
  }

  static constexpr double kFigureMm = 10.0;
  static std::optional<Vec2> tip_;
};
std::optional<Vec2> AdjudicateFigureHeightTest::tip_;

TEST_F(AdjudicateFigureHeightTest, TheBoardsFigureHeightPlacesAQtipLyingOnFigures) {
  ASSERT_TRUE(tip_.has_value());
  const double default_mm = TipErrorMm(BoardWith("default.json", json::object()));
  const double kit_mm = TipErrorMm(BoardWith("kit.json", {{"figure_height_mm", kFigureMm}}));
  std::cout << "tip error: default figures " << default_mm << " mm, the board's " << kit_mm
            << " mm\n";
  EXPECT_GT(default_mm, 3.0);
  EXPECT_LT(kit_mm, 1.5) << "with the default 20 mm figures: " << default_mm << " mm";
  // The command line still overrides the board file.
  const double overridden_mm = TipErrorMm(BoardWith("kit.json", {{"figure_height_mm", kFigureMm}}),
                                          " --figure-height-mm 20");
  EXPECT_NEAR(overridden_mm, default_mm, 0.05);
}

TEST_F(AdjudicateFigureHeightTest, ImpossibleKitHeightsAreOneLineNamingTheField) {
  for (const auto& [key, value] : {std::pair{"figure_height_mm", -3.0}, {"base_height_mm", 0.0}}) {
    const fs::path board = BoardWith(std::string("bad_") + key + ".json", {{key, value}});
    std::string err;
    EXPECT_EQ(
        Referee("--calibration " + (Dir() / "cal.yml").string() + " --board " + board.string() +
                    " --before " + (Dir() / "before.png").string() + " --after " +
                    (Dir() / "after.jpg").string() + " --out " + (Dir() / "out.json").string(),
                &err),
        2)
        << err;
    EXPECT_NE(err.find(board.filename().string()), std::string::npos) << err;
    EXPECT_NE(err.find(key), std::string::npos) << err;
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
  }
}

}  // namespace
}  // namespace referee::adjudicate_figure_height_test
