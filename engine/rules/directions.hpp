// The facing that points from a square to an adjacent one (supports, clockwise loss order).
#pragma once

#include <cstdlib>
#include <optional>

#include "engine/grid.hpp"

namespace referee::rules {

inline std::optional<Facing> DirectionTo(Square from, Square to) {
  const int dc = to.col - from.col, dr = to.row - from.row;
  if (std::abs(dc) > 1 || std::abs(dr) > 1 || (!dc && !dr)) return std::nullopt;
  static const int kIndex[3][3] = {{7, 0, 1}, {6, -1, 2}, {5, 4, 3}};  // [dr+1][dc+1]
  return static_cast<Facing>(kIndex[dr + 1][dc + 1]);
}

}  // namespace referee::rules
