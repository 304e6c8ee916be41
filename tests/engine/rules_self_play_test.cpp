// Randomised self-play of both rulesets: every game ends and every invariant holds after every
// action. The full 1,000 games per ruleset run in `referee bench rules`.
#include <gtest/gtest.h>

#include "engine/rules/ruleset_loader.hpp"
#include "engine/rules/self_play.hpp"

namespace referee::rules {
namespace {

void RunAndCheck(const std::string& ruleset, int games, std::uint64_t seed) {
  const RulesetData rules = LoadRuleset(ruleset);
  SelfPlayOptions o;
  o.games = games;
  o.seed = seed;
  const SelfPlayReport r = RunSelfPlay(rules, o);
  EXPECT_EQ(r.games, games);
  for (size_t i = 0; i < std::min<size_t>(r.violations.size(), 10); ++i)
    ADD_FAILURE() << ruleset << ": " << r.violations[i];
  EXPECT_TRUE(r.violations.empty()) << r.violations.size() << " violations (seed " << seed << ")";
  EXPECT_EQ(r.ended_by_turns + r.ended_by_destruction, games);
  // The games must actually exercise the rules, not idle to the end.
  EXPECT_GT(r.melees, games) << "too few melees fought";
  EXPECT_GT(r.dice_events, 10L * games);
  // Session 2 clauses are played too, not only tested one by one.
  EXPECT_GT(r.applied.count("attach_commander") ? r.applied.at("attach_commander") : 0, 0);
  if (ruleset == "napoleonic") {
    for (const char* a : {"shell_on_inflammable", "limber", "destroy_equipment"}) {
      EXPECT_GT(r.applied.count(a) ? r.applied.at(a) : 0, 0) << a;
    }
  }
}

TEST(RulesSelfPlay, NapoleonicGamesEndWithInvariantsHeld) { RunAndCheck("napoleonic", 200, 1); }
TEST(RulesSelfPlay, AncientGamesEndWithInvariantsHeld) { RunAndCheck("ancient", 200, 1); }

}  // namespace
}  // namespace referee::rules
