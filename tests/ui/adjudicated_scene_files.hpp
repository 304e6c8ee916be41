// A rendered scene written as a club's files for `referee adjudicate`: before and after frames,
// a calibration from the generator's camera, and a board file with its terrain; and the command
// run on them.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "calibration/calibration_file.hpp"
#include "datasets/synth_scene.hpp"

namespace referee {

// `scene` into `dir` (created afresh): before.png, after.png, cal.yml, board.json.
inline void WriteSceneFiles(const SynthScene& scene, const std::filesystem::path& dir) {
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  cv::imwrite((dir / "before.png").string(), scene.before);
  cv::imwrite((dir / "after.png").string(), scene.after);
  TableCalibration cal;
  cal.board = scene.board.grid;
  cal.camera = scene.camera;
  cv::cvtColor(scene.before, cal.reference_gray, cv::COLOR_BGR2GRAY);
  const int cols = scene.board.grid.cols, rows = scene.board.grid.rows;
  const double q = scene.board.grid.square_size_in;
  for (const auto& [col, row] : {std::pair{0, 0}, {cols, 0}, {cols, rows}, {0, rows}}) {
    cal.intersections.push_back({col, row, cal.camera.ImageFromTable({col * q, row * q}), 0});
  }
  SaveCalibration(cal, dir / "cal.yml");
  nlohmann::json board = {{"board", {{"cols", cols}, {"rows", rows}, {"square_size", q}}},
                          {"terrain", nlohmann::json::array()}};
  for (const auto& [square, terrain] : scene.board.terrain) {
    board["terrain"].push_back(
        {{"square", {square.col, square.row}}, {"type", TerrainName(terrain)}});
  }
  std::ofstream(dir / "board.json") << board.dump();
}

// `referee adjudicate ARGS` on the files in `dir`, its stdout and stderr into dir/stdout.txt:
// OUT.json (dir/out.json) parsed; a test failure when the command fails.
inline nlohmann::json AdjudicateSceneFiles(const std::filesystem::path& dir,
                                           const std::string& args) {
  const std::filesystem::path out = dir / "out.json";
  const std::string cmd = std::string(REFEREE_BINARY) + " adjudicate " + args + " --calibration " +
                          (dir / "cal.yml").string() + " --board " + (dir / "board.json").string() +
                          " --before " + (dir / "before.png").string() + " --after " +
                          (dir / "after.png").string() + " --out " + out.string() + " >" +
                          (dir / "stdout.txt").string() + " 2>&1";
  const int status = std::system(cmd.c_str());
  if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
    ADD_FAILURE() << cmd;
    return {};
  }
  std::ifstream in(out);
  return nlohmann::json::parse(in);
}

// What the command printed (dir/stdout.txt).
inline std::string AdjudicateStdout(const std::filesystem::path& dir) {
  std::ifstream said(dir / "stdout.txt");
  return {std::istreambuf_iterator<char>(said), {}};
}

}  // namespace referee
