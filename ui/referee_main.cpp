// referee: a thin shell over the command table (ui/cli/command_table.cpp).
#include <algorithm>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "calibration/frame_memory.hpp"
#include "engine/input_error.hpp"
#include "ui/cli/command_table.hpp"

namespace {

void PrintUsage(std::ostream& out) {
  out << "usage: referee <command> [options]   (referee <command> --help for its options)\n\n";
  for (const auto& c : referee::cli::Commands()) {
    out << "  " << c.name << std::string(22 - std::min<size_t>(21, std::string(c.name).size()), ' ')
        << c.summary << "\n";
  }
}

}  // namespace

int main(int argc, char** argv) {
  referee::KeepFreedFrameMemory();
  if (argc < 2 || std::string(argv[1]) == "--help" || std::string(argv[1]) == "help") {
    PrintUsage(argc < 2 ? std::cerr : std::cout);
    return argc < 2 ? 2 : 0;
  }
  const std::string name = argv[1];
  const std::vector<std::string> args(argv + 2, argv + argc);
  for (const auto& c : referee::cli::Commands()) {
    if (name != c.name) continue;
    try {
      return c.run(args);
    } catch (const referee::InputError& e) {
      std::cerr << "referee " << name << ": " << e.what() << "\n";
      return 2;
    } catch (const std::exception& e) {
      std::cerr << "referee " << name << ": " << e.what() << "\n";
      return 1;
    }
  }
  std::cerr << "referee: unknown command '" << name << "'\n";
  PrintUsage(std::cerr);
  return 2;
}
