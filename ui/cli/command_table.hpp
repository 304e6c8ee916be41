// The referee's subcommands: one table, one line each. main() only dispatches.
#pragma once

#include <span>
#include <string>
#include <vector>

namespace referee::cli {

// A command gets its arguments after the subcommand name and returns the process exit code:
// 0 done, 1 ran but refused or failed (e.g. no projectile), 2 bad input or usage.
using CommandFn = int (*)(const std::vector<std::string>& args);

struct Command {
  const char* name;
  const char* summary;
  CommandFn run;
};

std::span<const Command> Commands();

}  // namespace referee::cli
