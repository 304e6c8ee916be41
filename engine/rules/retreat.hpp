// Retreat paths (Napoleonic 5G/9, Ancient MELEE PROCEDURE / MORALE 1): go as much as possible
// in the correct direction, skirting enemy units; destroyed when cut off; off the board when
// the way leads over the edge.
#pragma once

#include <functional>
#include <vector>

#include "engine/geometry.hpp"
#include "engine/grid.hpp"

namespace referee::rules {

struct RetreatPlan {
  enum class Kind { kMoved, kOffBoard, kBlocked };
  Kind kind = Kind::kBlocked;
  std::vector<Square> path;  // squares entered
  Square end;
};

struct RetreatQuery {
  Square start;
  Vec2 direction;                        // preferred direction in squares (col, row)
  double budget = 2;                     // squares of retreat
  double diagonal_cost = 1;              // 1 in melee retreats, 1.5 in a morale "full move"
  std::function<bool(Square)> passable;  // not enemy, not impassable
  std::function<bool(Square, Square)> gap_blocked;  // diagonal between two enemy units
  std::function<bool(Square)> can_end;              // no other friendly unit there
};

RetreatPlan PlanRetreat(const Grid& grid, const RetreatQuery& q);

}  // namespace referee::rules
