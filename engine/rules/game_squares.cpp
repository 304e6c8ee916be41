// Napoleonic 8: infantry Squares of one or more units. A Square is a k x k block of grid squares,
// one unit in each ("long rectangular squares are not allowed"); each face needs at least one
// stand per grid square of frontage, so a unit needs one stand for every outer face it is on.
#include <algorithm>
#include <climits>

#include "engine/rules/game.hpp"

namespace referee::rules {

namespace {

struct Block {
  int col0 = INT_MAX, row0 = INT_MAX, col1 = INT_MIN, row1 = INT_MIN;
  void Add(Square s) {
    col0 = std::min(col0, s.col);
    row0 = std::min(row0, s.row);
    col1 = std::max(col1, s.col);
    row1 = std::max(row1, s.row);
  }
  // Outer faces of the block the grid square `s` lies on (4 for a block of one square).
  int FacesOf(Square s) const {
    return (s.col == col0) + (s.col == col1) + (s.row == row0) + (s.row == row1);
  }
};

}  // namespace

std::vector<std::string> Game::SquareMembers(const std::string& unit) const {
  std::vector<std::string> out;
  const GameUnit* u = FindUnit(unit);
  if (!u || !u->formed_square) return out;
  if (u->square_group == 0) return {u->id};
  for (const auto& o : units_)
    if (o.square_group == u->square_group) out.push_back(o.id);
  return out;
}

int Game::StandsNeededInSquare(const GameUnit& u) const {
  const int per = rules_.square_formation ? rules_.square_formation->stands_per_frontage_square : 1;
  Block b;
  b.Add(u.square);
  if (u.square_group != 0)
    for (const auto& o : units_)
      if (o.square_group == u.square_group) b.Add(o.square);
  return per * b.FacesOf(u.square);
}

std::optional<std::string> Game::WhyCannotFormSquare(const MoveUnit& m) const {
  if (!m.path.empty()) return "forming or breaking a square takes one entire move (8A)";
  const GameUnit* u = FindUnit(m.unit);
  if (m.break_square) {
    if (!u->formed_square) return u->id + " is not in a Square";
    for (const auto& id : SquareMembers(u->id))
      if (moved_.count(id)) return id + " has already moved this turn";
    return std::nullopt;
  }
  if (!rules_.square_formation && !rules_.Unit(u->type).can_form_square)
    return "the " + rules_.name + " rules have no infantry squares";
  std::vector<const GameUnit*> members = {u};
  for (const auto& id : m.square_with) {
    const GameUnit* o = FindUnit(id);
    if (!o || o->status != UnitStatus::kOnTable) return "no such unit on the table: " + id;
    if (std::find(members.begin(), members.end(), o) != members.end())
      return id + " is named twice";
    members.push_back(o);
  }
  Block b;
  for (const auto* o : members) {
    if (o->side != u->side) return o->id + " is not on " + u->side + "'s side";
    if (!rules_.Unit(o->type).can_form_square)
      return rules_.Unit(o->type).name + " cannot form a square (only line or guards infantry)";
    if (o->formed_square) return o->id + " is already in a Square";
    if (o != u && moved_.count(o->id)) return o->id + " has already moved this turn";
    for (const auto* p : members)
      if (p != o && p->square == o->square) return o->id + " and " + p->id + " share a square";
    b.Add(o->square);
  }
  const int w = b.col1 - b.col0 + 1, h = b.row1 - b.row0 + 1;
  const bool blocks_only = !rules_.square_formation || rules_.square_formation->square_blocks_only;
  if (blocks_only && w != h) return "long rectangular squares are not allowed (8A)";
  if (static_cast<int>(members.size()) != w * h)
    return "the units must fill a block of " + std::to_string(w) + " x " + std::to_string(h) +
           " grid squares, one unit in each";
  const int per = rules_.square_formation ? rules_.square_formation->stands_per_frontage_square : 1;
  for (const auto* o : members) {
    const int need = per * b.FacesOf(o->square);
    if (static_cast<int>(o->stands.size()) < need)
      return o->id + " has " + std::to_string(o->stands.size()) + " stands but faces " +
             std::to_string(b.FacesOf(o->square)) + " side(s) of the Square: it needs " +
             std::to_string(need) + " (1 stand per square of frontage)";
  }
  return std::nullopt;
}

void Game::CheckBrokenSquares(ActionResult& r) {
  std::set<int> broken;
  for (const auto& u : units_) {
    if (!u.formed_square) continue;
    if (u.status != UnitStatus::kOnTable ||
        static_cast<int>(u.stands.size()) < StandsNeededInSquare(u))
      broken.insert(u.square_group);
  }
  for (int g : broken) {
    std::string names;
    for (auto& u : units_) {
      if (!u.formed_square || u.square_group != g) continue;
      // 8C: the defender faces every stand of the unit one way; it keeps its present facing.
      u.formed_square = false;
      u.square_group = 0;
      names += (names.empty() ? "" : ", ") + u.id;
    }
    LogEntry e;
    e.turn = turn_;
    e.phase = phase_;
    e.text = "the Square of " + names + " is broken: a face is below 1 stand per square of " +
             "frontage (8C)";
    r.entries.push_back(e);
    log_.push_back(e);
  }
}

}  // namespace referee::rules
