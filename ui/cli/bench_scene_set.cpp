#include "ui/cli/bench_scene_set.hpp"

#include <algorithm>

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

SideColorModel DefaultSideColorModel() {
  SideColorModel colors;
  for (const auto& [name, rgb] : DefaultSideColors()) {
    colors.AddSideFromSrgb(name, cv::Vec3b(static_cast<uchar>(rgb[0]), static_cast<uchar>(rgb[1]),
                                           static_cast<uchar>(rgb[2])));
  }
  return colors;
}

}  // namespace referee::cli
