#include "ui/live/screenshots.hpp"

#include <fstream>
#include <utility>

#include "ui/live/gl_image.hpp"

namespace referee::live {

namespace fs = std::filesystem;

Screenshots::Screenshots(fs::path dir) : dir_(std::move(dir)) {
  if (!dir_.empty()) fs::create_directories(dir_);
}

void Screenshots::Save(const std::string& name, int fb_width, int fb_height, nlohmann::json notes) {
  const fs::path file = dir_ / (name + ".png");
  SavePng(ReadFramebuffer(fb_width, fb_height), file);
  notes["file"] = file.filename().string();
  notes["framebuffer"] = {fb_width, fb_height};
  index_[name] = std::move(notes);
  taken_.insert(name);
  std::ofstream(dir_ / "screenshots.json") << index_.dump(2) << "\n";
}

}  // namespace referee::live
