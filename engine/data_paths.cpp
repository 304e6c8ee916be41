#include "engine/data_paths.hpp"

#include <cstdlib>

namespace referee {

std::filesystem::path DataRoot() {
  if (const char* env = std::getenv("REFEREE_DATA_DIR"); env != nullptr && *env != '\0') {
    return env;
  }
  return REFEREE_SOURCE_DIR;
}

}  // namespace referee
