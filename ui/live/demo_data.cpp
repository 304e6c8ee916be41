#include "ui/live/demo_data.hpp"

#include <algorithm>
#include <vector>

#include "engine/input_error.hpp"
#include "vision/frame_source.hpp"

namespace referee::live {

namespace fs = std::filesystem;

DemoData FindDemoData(const fs::path& root) {
  if (!fs::is_directory(root)) {
    throw InputError(root.string(), "", "no bundled demo game here (set REFEREE_DATA_DIR?)");
  }
  std::vector<fs::path> dirs = {root};
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    if (e.is_directory()) dirs.push_back(e.path());
  }
  std::sort(dirs.begin() + 1, dirs.end());
  // A recorded sequence (frames.json beside its frames) comes before any folder of stills: a
  // scene folder's empty/before/after images are not a game to play.
  std::stable_partition(dirs.begin(), dirs.end(),
                        [](const fs::path& d) { return fs::is_regular_file(d / "frames.json"); });
  for (const auto& dir : dirs) {
    if (NumberedImages(dir).size() < 2) continue;
    DemoData d;
    d.frames_dir = dir;
    for (fs::path p = dir;; p = p.parent_path()) {
      for (const char* name : {"board.json", "board_file.json"}) {
        if (fs::is_regular_file(p / name)) {
          d.board = p / name;
          break;
        }
      }
      if (d.board || p == root || !p.has_parent_path()) break;
    }
    return d;
  }
  throw InputError(root.string(), "", "holds no folder of demo frames");
}

}  // namespace referee::live
