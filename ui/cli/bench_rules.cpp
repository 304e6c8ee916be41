// `referee bench rules [--games N] [--seed S]`: seeded self-play of both rulesets with every
// invariant checked after every action; prints games per second. Exit 1 on any violation.
#include <boost/program_options.hpp>
#include <chrono>
#include <cstdio>
#include <iostream>

#include "engine/input_error.hpp"
#include "engine/rules/ruleset_loader.hpp"
#include "engine/rules/self_play.hpp"
#include "ui/cli/command_line.hpp"
#include "ui/cli/commands.hpp"

namespace referee::cli {

int RunBenchRules(const std::vector<std::string>& args) {
  namespace po = boost::program_options;
  rules::SelfPlayOptions opt;
  po::options_description desc("usage: referee bench rules [--games N] [--seed S]");
  desc.add_options()("help,h", "show this help")("games", po::value(&opt.games),
                                                 "games per ruleset (default 1000)")(
      "seed", po::value(&opt.seed), "seed of the first game (default 1)")(
      "turns", po::value(&opt.agreed_turns), "agreed turns per game (default 12)");
  po::variables_map vm;
  if (!ParseCommandLine(args, desc, vm)) return 0;  // --help was printed
  if (opt.games < 1) throw InputError("command line", "--games", "must be >= 1");
  bool clean = true;
  double total_games = 0, total_s = 0;
  for (const char* name : {"napoleonic", "ancient"}) {
    const rules::RulesetData r = rules::LoadRuleset(name);
    const auto t0 = std::chrono::steady_clock::now();
    const rules::SelfPlayReport rep = rules::RunSelfPlay(r, opt);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    total_games += rep.games;
    total_s += s;
    std::printf(
        "%-10s %d games in %.2f s = %.1f games/s; %ld actions (%ld refused), %ld melees, %ld "
        "dice/coin events; "
        "ended by turns %d, by destruction or surrender %d, draws %d; invariant violations %zu\n",
        name, rep.games, s, rep.games / s, rep.actions, rep.refused, rep.melees, rep.dice_events,
        rep.ended_by_turns, rep.ended_by_destruction, rep.draws, rep.violations.size());
    std::printf("  accepted actions:");
    for (const auto& [action, n] : rep.applied) std::printf(" %s %ld", action.c_str(), n);
    std::printf("\n");
    for (size_t i = 0; i < rep.violations.size() && i < 10; ++i)
      std::printf("  violation: %s\n", rep.violations[i].c_str());
    clean = clean && rep.violations.empty();
  }
  std::printf("bench rules: %.0f games, %.1f games/s, %s\n", total_games, total_games / total_s,
              clean ? "all invariants held" : "INVARIANT VIOLATIONS");
  return clean ? 0 : 1;
}

}  // namespace referee::cli
