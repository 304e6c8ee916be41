#include "engine/terrain_contact.hpp"

#include <algorithm>
#include <cmath>

namespace referee {

namespace {

// Closed segments ab and cd share a point (orientation test with collinear overlap).
bool SegmentsIntersect(Vec2 a, Vec2 b, Vec2 c, Vec2 d) {
  const double d1 = Cross(b - a, c - a), d2 = Cross(b - a, d - a);
  const double d3 = Cross(d - c, a - c), d4 = Cross(d - c, b - c);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) {
    return true;
  }
  return DistanceToSegment(c, a, b) == 0.0 || DistanceToSegment(d, a, b) == 0.0 ||
         DistanceToSegment(a, c, d) == 0.0 || DistanceToSegment(b, c, d) == 0.0;
}

// The closed squares whose region holds p: one inside a square, two on a line, four at a
// corner (a tip on a grid line touches both sides).
std::vector<Square> SquaresHolding(const Grid& grid, Vec2 p) {
  std::vector<Square> out;
  const auto sq = grid.SquareOf(p);
  if (!sq) return out;
  for (int dr = -1; dr <= 1; ++dr) {
    for (int dc = -1; dc <= 1; ++dc) {
      const Square s{sq->col + dc, sq->row + dr};
      if (grid.Contains(s) && grid.DistanceToSquare(p, s) == 0.0) out.push_back(s);
    }
  }
  return out;
}

}  // namespace

bool PolygonTouchesSquare(const Polygon& poly, const Grid& grid, Square s) {
  const auto& v = poly.vertices;
  if (v.size() < 3) return false;
  for (const Vec2 p : v) {
    if (grid.DistanceToSquare(p, s) == 0.0) return true;
  }
  const OrientedRect r{grid.Center(s), grid.square_size_in, grid.square_size_in, 0.0};
  const auto c = r.Corners();
  if (PointInPolygon(c[0], poly)) return true;
  for (size_t i = 0, j = v.size() - 1; i < v.size(); j = i++) {
    for (size_t k = 0; k < 4; ++k) {
      if (SegmentsIntersect(v[j], v[i], c[k], c[(k + 1) % 4])) return true;
    }
  }
  return false;
}

bool SquareIsProtected(const Board& board, Square s) {
  if (board.IsProtected(s)) return true;
  return std::any_of(board.features.begin(), board.features.end(), [&](const TerrainFeature& f) {
    return IsProtecting(f.type) && PolygonTouchesSquare(f.outline, board.grid, s);
  });
}

std::optional<InflammableContact> FindInflammableContact(const Board& board, Vec2 p,
                                                         double tolerance_in) {
  const auto sq = board.grid.SquareOf(p);
  if (!sq) return std::nullopt;
  for (const auto& f : board.features) {
    if (IsInflammable(f.type) && DistanceToPolygon(p, f.outline) <= tolerance_in + 1e-9) {
      return InflammableContact{*sq, "feature " + f.id + " (" + TerrainName(f.type) + ")"};
    }
  }
  for (const Square s : SquaresHolding(board.grid, p)) {
    const Terrain t = board.TerrainAt(s);
    if (IsInflammable(t)) {
      return InflammableContact{s, "square " + SquareName(s) + " (" + TerrainName(t) + ")"};
    }
  }
  return std::nullopt;
}

bool IsOnBridge(const Board& board, Vec2 p) {
  for (const auto& f : board.features) {
    if (f.type == Terrain::kBridge && PointInPolygon(p, f.outline)) return true;
  }
  const auto sq = board.grid.SquareOf(p);
  return sq && board.TerrainAt(*sq) == Terrain::kBridge;
}

}  // namespace referee
