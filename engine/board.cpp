#include "engine/board.hpp"

#include <array>
#include <utility>

namespace referee {

namespace {
constexpr std::array<std::pair<Terrain, const char*>, 8> kTerrainNames = {{
    {Terrain::kOpen, "open"},
    {Terrain::kWoods, "woods"},
    {Terrain::kHouse, "house"},
    {Terrain::kRocks, "rocks"},
    {Terrain::kWater, "water"},
    {Terrain::kRoad, "road"},
    {Terrain::kBridge, "bridge"},
    {Terrain::kHill, "hill"},
}};
}  // namespace

std::string TerrainName(Terrain t) {
  for (const auto& [value, name] : kTerrainNames) {
    if (value == t) return name;
  }
  return "open";
}

std::optional<Terrain> ParseTerrain(const std::string& name) {
  for (const auto& [value, n] : kTerrainNames) {
    if (name == n) return value;
  }
  return std::nullopt;
}

bool IsProtecting(Terrain t) {
  return t == Terrain::kWoods || t == Terrain::kHouse || t == Terrain::kRocks;
}

bool IsInflammable(Terrain t) {
  return t == Terrain::kWoods || t == Terrain::kHouse || t == Terrain::kBridge;
}

Terrain Board::TerrainAt(Square s) const {
  const auto it = terrain.find(s);
  return it == terrain.end() ? Terrain::kOpen : it->second;
}

bool Board::IsOverWater(Vec2 p) const {
  for (const auto& f : features) {
    if (f.type == Terrain::kWater && PointInPolygon(p, f.outline)) return true;
  }
  const auto sq = grid.SquareOf(p);
  return sq && TerrainAt(*sq) == Terrain::kWater;
}

}  // namespace referee
