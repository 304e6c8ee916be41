// Entry points of the subcommands, each defined in its own <name>_command.cpp.
#pragma once

#include <string>
#include <vector>

namespace referee::cli {

int RunVersion(const std::vector<std::string>& args);
int RunBench(const std::vector<std::string>& args);
int RunLog(const std::vector<std::string>& args);
int RunReport(const std::vector<std::string>& args);
int RunReplay(const std::vector<std::string>& args);
int RunClub(const std::vector<std::string>& args);
int RunAdjudicateScene(const std::vector<std::string>& args);
int RunAdjudicate(const std::vector<std::string>& args);
int RunSynth(const std::vector<std::string>& args);
int RunLive(const std::vector<std::string>& args);
int RunRules(const std::vector<std::string>& args);
int RunCalibrate(const std::vector<std::string>& args);
int RunCalibrateLens(const std::vector<std::string>& args);
int RunRectify(const std::vector<std::string>& args);
// Benchmarks, dispatched by RunBench (ui/cli/bench_command.cpp).
int RunBenchRules(const std::vector<std::string>& args);
int RunBenchEdges(const std::vector<std::string>& args);
int RunBenchAccuracy(const std::vector<std::string>& args);
int RunBenchSpeed(const std::vector<std::string>& args);
int RunBenchStands(const std::vector<std::string>& args);

}  // namespace referee::cli
