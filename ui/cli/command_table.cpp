#include "ui/cli/command_table.hpp"

#include <array>

#include "ui/cli/commands.hpp"

namespace referee::cli {

std::span<const Command> Commands() {
  static constexpr std::array kCommands = {
      Command{"version", "print the version and where data is read from", RunVersion},
      Command{"bench", "benchmarks: print measured figures", RunBench},
  };
  return kCommands;
}

}  // namespace referee::cli
