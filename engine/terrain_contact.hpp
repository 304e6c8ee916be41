// Terrain questions a shot asks: is a square protected (its terrain, or a protecting feature
// outline reaching into it), and does a point touch something inflammable.
#pragma once

#include <optional>
#include <string>

#include "engine/board.hpp"

namespace referee {

// Do the closed polygon region and the closed square share a point?
bool PolygonTouchesSquare(const Polygon& poly, const Grid& grid, Square s);

// Napoleonic 6A "any square containing rocks, trees, houses": the square's terrain protects,
// or a woods/house/rocks feature outline reaches into the square. Bridges never protect (6C).
bool SquareIsProtected(const Board& board, Square s);

struct InflammableContact {
  Square square;       // the square that burns on a 1
  std::string source;  // "feature <id> (<type>)" or "square <name> (<type>)"
};

// The first inflammable thing (woods, house, bridge) the point touches within tolerance_in:
// a feature outline, else the terrain of a square whose closed region holds the point.
std::optional<InflammableContact> FindInflammableContact(const Board& board, Vec2 p,
                                                         double tolerance_in);

// The point lies on a bridge (a bridge feature outline or a bridge square), not in the water.
bool IsOnBridge(const Board& board, Vec2 p);

}  // namespace referee
