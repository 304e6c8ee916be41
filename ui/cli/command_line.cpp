#include "ui/cli/command_line.hpp"

#include <iostream>

#include "engine/input_error.hpp"

namespace referee::cli {

namespace po = boost::program_options;

bool ParseCommandLine(const std::vector<std::string>& args, const po::options_description& desc,
                      po::variables_map& vm) {
  return ParseCommandLine(args, desc, po::positional_options_description(), vm);
}

bool ParseCommandLine(const std::vector<std::string>& args, const po::options_description& desc,
                      const po::positional_options_description& positional, po::variables_map& vm) {
  try {
    po::store(po::command_line_parser(args).options(desc).positional(positional).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw InputError("command line", "", e.what());
  }
  if (vm.count("help")) {
    std::cout << desc << "\n";
    return false;
  }
  return true;
}

}  // namespace referee::cli
