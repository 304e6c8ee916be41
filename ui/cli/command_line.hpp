// The one way every subcommand reads its options: parse errors become a one-line InputError
// (exit 2), --help prints the options.
#pragma once

#include <boost/program_options.hpp>
#include <string>
#include <vector>

namespace referee::cli {

// Fills vm from args; returns false when --help was asked for (and printed), so the caller
// returns 0.
bool ParseCommandLine(const std::vector<std::string>& args,
                      const boost::program_options::options_description& desc,
                      boost::program_options::variables_map& vm);
// The same, for commands that also take positional arguments (file names).
bool ParseCommandLine(const std::vector<std::string>& args,
                      const boost::program_options::options_description& desc,
                      const boost::program_options::positional_options_description& positional,
                      boost::program_options::variables_map& vm);

}  // namespace referee::cli
