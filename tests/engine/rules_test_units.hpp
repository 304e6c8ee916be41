// What the rules tests build games from: a unit of a ruleset's type (all its stands, or only
// the first `stands`), red against blue with red attacking first, and play ended phase by phase.
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/rules/game.hpp"

namespace referee::rules {

inline GameUnit MakeUnit(const RulesetData& r, const std::string& id, const std::string& side,
                         const std::string& type, Square sq, Facing f, int stands = -1) {
  GameUnit u;
  u.id = id;
  u.side = side;
  u.type = type;
  u.square = sq;
  u.facing = f;
  for (const auto& [kind, n] : r.Unit(type).stands)
    for (int i = 0; i < n; ++i) u.stands.push_back(kind);
  if (stands >= 0) u.stands.resize(static_cast<size_t>(stands));
  return u;
}

inline GameSetup TwoSides(std::vector<GameUnit> units, int turns = 8) {
  GameSetup g;
  g.sides[0] = {"red", 7};
  g.sides[1] = {"blue", 0};
  g.first_attacker = 0;  // red attacks first
  g.agreed_turns = turns;
  g.units = std::move(units);
  return g;
}

// Ends phases until `p` (at most a turn's worth).
inline void To(Game& g, DiceSource& d, Phase p) {
  for (int i = 0; i < 12 && g.phase() != p; ++i) ASSERT_TRUE(g.Apply(EndPhase{}, d).ok);
  ASSERT_EQ(g.phase(), p);
}

inline bool Mentions(const std::optional<std::string>& why, const std::string& word) {
  return why && why->find(word) != std::string::npos;
}

}  // namespace referee::rules
