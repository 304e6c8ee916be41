// A unit of a ruleset's type for the rules tests: all its stands, or only the first `stands`.
#pragma once

#include <string>

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

}  // namespace referee::rules
