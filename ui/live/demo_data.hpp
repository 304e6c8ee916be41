// The bundled recorded game `referee live --demo` plays: frames of a recorded shot sequence
// under datasets/sample/ (from the synthetic generator), with the board file beside them.
#pragma once

#include <filesystem>
#include <optional>

namespace referee::live {

struct DemoData {
  std::filesystem::path frames_dir;            // numbered images, played in order
  std::optional<std::filesystem::path> board;  // board JSON if the sample has one
};

// The first recorded sequence (a folder with frames.json) under `root` (default
// DatasetsDir()/sample), else the first folder holding at least two images.
// Throws InputError when none is there.
DemoData FindDemoData(const std::filesystem::path& root);

}  // namespace referee::live
