// Screenshots of a window at key states, for headless runs (--screenshot-dir): PNGs with stable
// names and a screenshots.json saying where things were drawn, which the tests read.
#pragma once

#include <filesystem>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

namespace referee::live {

class Screenshots {
 public:
  // An empty dir takes no screenshots.
  explicit Screenshots(std::filesystem::path dir);
  bool Wants(const std::string& name) const { return !dir_.empty() && !taken_.contains(name); }
  // Reads the current framebuffer into DIR/name.png and adds `notes` to screenshots.json.
  void Save(const std::string& name, int fb_width, int fb_height, nlohmann::json notes);

 private:
  std::filesystem::path dir_;
  std::set<std::string> taken_;
  nlohmann::json index_ = nlohmann::json::object();
};

}  // namespace referee::live
