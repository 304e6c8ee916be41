// Randomised self-play: seeded games with random legal choices, invariants checked after every
// action. Used by tests (a few hundred games) and `referee bench rules` (1,000 per ruleset).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "engine/rules/game.hpp"
#include "engine/rules/ruleset_data.hpp"

namespace referee::rules {

struct SelfPlayOptions {
  int games = 1000;
  std::uint64_t seed = 1;   // game g uses seed + g
  int agreed_turns = 12;    // game length when nobody is destroyed
  int max_actions = 20000;  // per game; exceeding it is a violation (a game that does not end)
};

struct SelfPlayReport {
  int games = 0;
  long actions = 0;
  long refused = 0;  // actions the engine refused (random choices are only mostly legal)
  long dice_events = 0;
  long melees = 0;
  int ended_by_turns = 0;
  int ended_by_destruction = 0;
  int draws = 0;
  std::vector<std::string> violations;  // "seed N action K: what"
  std::map<std::string, long> applied;  // accepted actions by ActionName: the clauses exercised
};

SelfPlayReport RunSelfPlay(const RulesetData& rules, const SelfPlayOptions& options);

// Invariants of a game state; empty when all hold.
std::vector<std::string> CheckInvariants(const Game& game);

}  // namespace referee::rules
