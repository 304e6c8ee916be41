#include "ui/cli/command_table.hpp"

#include <array>

#include "ui/cli/commands.hpp"

namespace referee::cli {

std::span<const Command> Commands() {
  static constexpr std::array kCommands = {
      Command{"version", "print the version and where data is read from", RunVersion},
  };
  return kCommands;
}

}  // namespace referee::cli
