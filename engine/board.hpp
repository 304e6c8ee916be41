// The board: its grid, what terrain each square holds, and optional feature outlines.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/geometry.hpp"
#include "engine/grid.hpp"

namespace referee {

enum class Terrain { kOpen, kWoods, kHouse, kRocks, kWater, kRoad, kBridge, kHill };

std::string TerrainName(Terrain t);
std::optional<Terrain> ParseTerrain(const std::string& name);
// Woods, houses and rocks protect ("any square containing rocks, trees, houses").
bool IsProtecting(Terrain t);
// Trees, houses and bridges can catch fire when a tip touches them.
bool IsInflammable(Terrain t);

// A feature drawn as a polygon in table inches (e.g. a wood's outline or a house's footprint).
struct TerrainFeature {
  std::string id;
  Terrain type = Terrain::kOpen;
  Polygon outline;
};

struct Board {
  Grid grid;
  std::map<Square, Terrain> terrain;  // squares not listed are open
  std::vector<TerrainFeature> features;

  Terrain TerrainAt(Square s) const;
  bool IsProtected(Square s) const { return IsProtecting(TerrainAt(s)); }
  // Water under a point: the square is water, or the point lies inside a water feature.
  bool IsOverWater(Vec2 p) const;
};

}  // namespace referee
