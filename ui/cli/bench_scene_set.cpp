#include "ui/cli/bench_scene_set.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "engine/board_file.hpp"
#include "engine/input_error.hpp"

namespace referee::cli {

namespace fs = std::filesystem;

std::vector<fs::path> ListSynthScenes(const std::string& dir, const std::string& required_file,
                                      int limit) {
  if (dir.empty() || !fs::is_directory(dir)) {
    throw InputError(dir, "DIR", "not a directory of scenes");
  }
  std::vector<fs::path> scenes;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.path().filename() == "truth.json" &&
        (required_file.empty() || fs::exists(e.path().parent_path() / required_file))) {
      scenes.push_back(e.path().parent_path());
    }
  }
  std::sort(scenes.begin(), scenes.end());
  if (limit > 0 && static_cast<int>(scenes.size()) > limit) {
    scenes.resize(static_cast<size_t>(limit));
  }
  if (scenes.empty()) {
    throw InputError(dir, "",
                     "no scene folders with truth.json" +
                         (required_file.empty() ? std::string() : " and " + required_file) +
                         " (generate them with referee synth)");
  }
  return scenes;
}

Vec2 TruthPoint(const nlohmann::json& xy) {
  return {xy.at(0).get<double>(), xy.at(1).get<double>()};
}

CameraModel TruthCamera(const nlohmann::json& c) {
  CameraModel m;
  m.image_size = {c.at("image_size").at(0).get<int>(), c.at("image_size").at(1).get<int>()};
  for (int r = 0; r < 3; ++r) {
    for (int k = 0; k < 3; ++k) m.camera_matrix(r, k) = c.at("K").at(r).at(k).get<double>();
  }
  for (int k = 0; k < 5; ++k) m.distortion[k] = c.at("dist").at(k).get<double>();
  for (int k = 0; k < 3; ++k) {
    m.rvec_cam_from_table[k] = c.at("rvec").at(k).get<double>();
    m.tvec_cam_from_table[k] = c.at("tvec").at(k).get<double>();
  }
  return m;
}

Board TruthBoard(const nlohmann::json& b, const std::string& file) {
  nlohmann::json j;
  j["board"] = {
      {"cols", b.at("cols")}, {"rows", b.at("rows")}, {"square_size", b.at("square_size")}};
  j["terrain"] = nlohmann::json::array();
  for (const auto& t : b.value("terrain", nlohmann::json::array())) {
    j["terrain"].push_back({{"square", t.at("square")}, {"type", t.at("type")}});
  }
  return ParseBoardJson(j, file);
}

SideColorModel DefaultSideColorModel() {
  SideColorModel colors;
  colors.AddSidesFromSrgb(DefaultSideColors());
  return colors;
}

}  // namespace referee::cli
