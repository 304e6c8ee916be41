// The square grid that all gridded rules count in: squares, adjacency, move cost, facings,
// the +/-45 degree arc and the squares a line of fire crosses.
#pragma once

#include <compare>
#include <optional>
#include <string>
#include <vector>

#include "engine/geometry.hpp"

namespace referee {

struct Square {
  int col = 0;
  int row = 0;
  friend auto operator<=>(const Square&, const Square&) = default;
};

// Chess-like name: col 0 -> 'A', row 0 -> "1" (A1 is the origin square).
std::string SquareName(Square s);

// The eight directions a unit may face: toward a side or a corner of its square. North is
// toward row 0 (-y in table coordinates, "up" in the rectified view).
enum class Facing { kN = 0, kNE, kE, kSE, kS, kSW, kW, kNW };

Vec2 FacingVector(Facing f);  // unit vector in table coordinates
bool IsCornerFacing(Facing f);
std::string FacingName(Facing f);
std::optional<Facing> ParseFacing(const std::string& name);
// The facing whose direction is nearest to the given angle (deg from +x toward +y).
Facing NearestFacing(double angle_deg);
Facing Opposite(Facing f);
// Rotate by k eighth-turns clockwise on screen (N -> NE -> E ...).
Facing Turn(Facing f, int eighths);

struct Grid {
  int cols = 12;
  int rows = 8;
  double square_size_in = 4.0;

  double Width() const { return cols * square_size_in; }
  double Height() const { return rows * square_size_in; }
  bool Contains(Square s) const { return s.col >= 0 && s.row >= 0 && s.col < cols && s.row < rows; }
  bool ContainsPoint(Vec2 p) const;
  // The square holding p; points on an inner line belong to the square to their right/below.
  // Points on the outer border belong to the edge square; outside the board: nullopt.
  std::optional<Square> SquareOf(Vec2 p) const;
  Vec2 Center(Square s) const;
  // Distance from p to the closed square region (0 inside or on its edge).
  double DistanceToSquare(Vec2 p, Square s) const;
  std::vector<Square> Neighbours(Square s, bool with_diagonals = true) const;
};

bool AreAdjacent(Square a, Square b, bool with_diagonals = true);
// Cost of moving (or counting range) from a to b: each straight step 1, each diagonal 1.5
// ("measurement or movement on the diagonal is counted as 1.5"); for retreats diagonals count 1.
double MoveCost(Square a, Square b, bool retreat = false);
// Range in squares counted the rules' way: the target square counts, the shooter's does not.
// That is the same number as MoveCost with diagonals at 1.5.
inline double RangeSquares(Square from, Square to) { return MoveCost(from, to, false); }

// Is `to` within +/-45 degrees of `facing` as seen from the centre of `from`? The boundary
// counts as inside (a square exactly on the diagonal of a side facing is in arc).
bool InArc(Square from, Facing facing, Square to);
// Is the direction from `from` to `to` exactly `facing`'s straight line (line infantry)?
bool StraightAhead(Square from, Facing facing, Square to);

// Every square the segment between the centres of a and b passes through (a supercover line),
// excluding a and b themselves. Passing exactly through a grid corner includes both squares
// that share the corner, since either could hold a screen.
std::vector<Square> SquaresBetween(Square a, Square b);

}  // namespace referee
