// `referee bench <name> ...`: benchmarks print figures (last line a one-line summary); they are
// never timed assertions in tests.
#include <iostream>
#include <string>
#include <vector>

#include "ui/cli/command_table.hpp"
#include "ui/cli/commands.hpp"

namespace referee::cli {

int RunBenchCalibration(const std::vector<std::string>& args);

namespace {
struct Bench {
  const char* name;
  const char* summary;
  CommandFn run;
};

// One line per benchmark; each lives in its own bench_<name>.cpp.
const std::vector<Bench>& Benches() {
  static const std::vector<Bench> kBenches = {
      {"calibration", "grid calibration vs truth over generated scenes: DIR", RunBenchCalibration},
      {"accuracy", "vision over a synth set DIR: impact, stands, verdicts, refusals",
       RunBenchAccuracy},
      {"speed", "live vision pipeline fps at 720p/1080p/2160p, rest-to-verdict latency",
       RunBenchSpeed},
      {"stands", "stand detector alone over a synth set DIR: P/R, centre, size, angle, ms",
       RunBenchStands},
      {"edges", "where the stand search puts rendered bases' sides: border width, blur, JPEG",
       RunBenchEdges},
      {"rules", "self-play of both rulesets (1,000 games each), games/second", RunBenchRules},
  };
  return kBenches;
}
}  // namespace

int RunBench(const std::vector<std::string>& args) {
  if (args.empty() || args[0] == "--help") {
    std::cerr << "usage: referee bench <name> [options]\n";
    for (const auto& b : Benches()) std::cerr << "  " << b.name << "  " << b.summary << "\n";
    return args.empty() ? 2 : 0;
  }
  for (const auto& b : Benches()) {
    if (args[0] == b.name) return b.run({args.begin() + 1, args.end()});
  }
  std::cerr << "referee bench: unknown benchmark '" << args[0] << "'\n";
  return 2;
}

}  // namespace referee::cli
