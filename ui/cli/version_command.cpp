#include <iostream>

#include "engine/data_paths.hpp"
#include "ui/cli/commands.hpp"

namespace referee::cli {

int RunVersion(const std::vector<std::string>& /*args*/) {
  std::cout << "referee 0.1.0\ndata: " << DataRoot().string() << "\n";
  return 0;
}

}  // namespace referee::cli
