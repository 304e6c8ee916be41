#include "engine/grid.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>

namespace referee {

std::string SquareName(Square s) {
  std::string name;
  int c = s.col;
  // Spreadsheet-style letters so boards wider than 26 columns still get names.
  do {
    name.insert(name.begin(), static_cast<char>('A' + c % 26));
    c = c / 26 - 1;
  } while (c >= 0);
  return name + std::to_string(s.row + 1);
}

namespace {
constexpr std::array<const char*, 8> kFacingNames = {"N", "NE", "E", "SE", "S", "SW", "W", "NW"};
}

Vec2 FacingVector(Facing f) {
  // N is -y; turning clockwise on screen (y down) goes N, NE, E ...
  const double angle = DegToRad(-90.0 + 45.0 * static_cast<int>(f));
  Vec2 v{std::cos(angle), std::sin(angle)};
  if (IsCornerFacing(f)) {
    v = {v.x > 0 ? 1.0 : -1.0, v.y > 0 ? 1.0 : -1.0};
    v = (1.0 / std::sqrt(2.0)) * v;
  } else {
    v = {std::round(v.x), std::round(v.y)};
  }
  return v;
}

bool IsCornerFacing(Facing f) { return static_cast<int>(f) % 2 == 1; }

std::string FacingName(Facing f) { return kFacingNames[static_cast<size_t>(f)]; }

std::optional<Facing> ParseFacing(const std::string& name) {
  for (size_t i = 0; i < kFacingNames.size(); ++i) {
    if (name == kFacingNames[i]) return static_cast<Facing>(i);
  }
  return std::nullopt;
}

Facing NearestFacing(double angle_deg) {
  double a = std::fmod(angle_deg + 90.0, 360.0);
  if (a < 0) a += 360.0;
  const int k = static_cast<int>(std::lround(a / 45.0)) % 8;
  return static_cast<Facing>(k);
}

Facing Opposite(Facing f) { return Turn(f, 4); }

Facing Turn(Facing f, int eighths) {
  const int k = ((static_cast<int>(f) + eighths) % 8 + 8) % 8;
  return static_cast<Facing>(k);
}

bool Grid::ContainsPoint(Vec2 p) const {
  return p.x >= 0.0 && p.y >= 0.0 && p.x <= Width() && p.y <= Height();
}

std::optional<Square> Grid::SquareOf(Vec2 p) const {
  if (!IsFinite(p) || !ContainsPoint(p)) return std::nullopt;
  int c = static_cast<int>(std::floor(p.x / square_size_in));
  int r = static_cast<int>(std::floor(p.y / square_size_in));
  c = std::clamp(c, 0, cols - 1);
  r = std::clamp(r, 0, rows - 1);
  return Square{c, r};
}

Vec2 Grid::Center(Square s) const {
  return {(s.col + 0.5) * square_size_in, (s.row + 0.5) * square_size_in};
}

double Grid::DistanceToSquare(Vec2 p, Square s) const {
  const OrientedRect r{Center(s), square_size_in, square_size_in, 0.0};
  return DistanceToRect(p, r);
}

std::vector<Square> Grid::Neighbours(Square s, bool with_diagonals) const {
  std::vector<Square> out;
  for (int dr = -1; dr <= 1; ++dr) {
    for (int dc = -1; dc <= 1; ++dc) {
      if (dr == 0 && dc == 0) continue;
      if (!with_diagonals && dr != 0 && dc != 0) continue;
      const Square n{s.col + dc, s.row + dr};
      if (Contains(n)) out.push_back(n);
    }
  }
  return out;
}

bool AreAdjacent(Square a, Square b, bool with_diagonals) {
  const int dc = std::abs(a.col - b.col);
  const int dr = std::abs(a.row - b.row);
  if (dc == 0 && dr == 0) return false;
  if (dc > 1 || dr > 1) return false;
  return with_diagonals || dc == 0 || dr == 0;
}

double MoveCost(Square a, Square b, bool retreat) {
  const int dc = std::abs(a.col - b.col);
  const int dr = std::abs(a.row - b.row);
  const int diag = std::min(dc, dr);
  const int straight = std::max(dc, dr) - diag;
  return straight + (retreat ? 1.0 : 1.5) * diag;
}

bool InArc(Square from, Facing facing, Square to) {
  if (from == to) return false;
  const Vec2 d{static_cast<double>(to.col - from.col), static_cast<double>(to.row - from.row)};
  const Vec2 f = FacingVector(facing);
  // Within 45 degrees <=> cos(angle) >= cos(45); compare squared to stay exact on diagonals.
  const double dot = Dot(d, f);
  if (dot <= 0) return false;
  return 2.0 * dot * dot >= Dot(d, d) * Dot(f, f) - 1e-12;
}

bool StraightAhead(Square from, Facing facing, Square to) {
  if (from == to) return false;
  const int dc = to.col - from.col;
  const int dr = to.row - from.row;
  const Vec2 f = FacingVector(facing);
  const int fx = f.x > 0.1 ? 1 : (f.x < -0.1 ? -1 : 0);
  const int fy = f.y > 0.1 ? 1 : (f.y < -0.1 ? -1 : 0);
  // Same ray: a positive multiple of the step (fx, fy).
  for (int k = 1; k <= std::max(std::abs(dc), std::abs(dr)); ++k) {
    if (dc == k * fx && dr == k * fy) return true;
  }
  return false;
}

std::vector<Square> SquaresBetween(Square a, Square b) {
  // Walk the segment between square centres in unit-square coordinates and collect every
  // cell it touches (Amanatides-Woo traversal, with corner crossings taking both neighbours).
  std::vector<Square> out;
  const double x0 = a.col + 0.5, y0 = a.row + 0.5;
  const double x1 = b.col + 0.5, y1 = b.row + 0.5;
  const double dx = x1 - x0, dy = y1 - y0;
  const int step_x = dx > 0 ? 1 : (dx < 0 ? -1 : 0);
  const int step_y = dy > 0 ? 1 : (dy < 0 ? -1 : 0);
  const double inf = 1e300;
  const double t_dx = step_x != 0 ? 1.0 / std::abs(dx) : inf;
  const double t_dy = step_y != 0 ? 1.0 / std::abs(dy) : inf;
  double t_mx = step_x != 0 ? 0.5 * t_dx : inf;
  double t_my = step_y != 0 ? 0.5 * t_dy : inf;
  int cx = a.col, cy = a.row;
  auto push = [&](int c, int r) {
    const Square s{c, r};
    if (s == a || s == b) return;
    if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
  };
  while (!(cx == b.col && cy == b.row)) {
    const double diff = t_mx - t_my;
    if (std::abs(diff) < 1e-12) {
      // Exactly through a corner: both side cells are touched.
      push(cx + step_x, cy);
      push(cx, cy + step_y);
      cx += step_x;
      cy += step_y;
      t_mx += t_dx;
      t_my += t_dy;
    } else if (diff < 0) {
      cx += step_x;
      t_mx += t_dx;
    } else {
      cy += step_y;
      t_my += t_dy;
    }
    push(cx, cy);
    if (t_mx > 1.0 + 1e-9 && t_my > 1.0 + 1e-9 && !(cx == b.col && cy == b.row)) break;
  }
  return out;
}

}  // namespace referee
