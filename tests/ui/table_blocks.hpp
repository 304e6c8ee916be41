// Stands laid out on the table the way players put them down, for the turn-flow tests: a unit's
// stands in a block round a grid square's centre, and a gun with its crew.
#pragma once

#include <string>
#include <variant>
#include <vector>

#include "engine/game_log.hpp"
#include "engine/grid.hpp"
#include "engine/rules/game.hpp"
#include "engine/stand.hpp"

namespace referee::testing {

// n (<= 4) stands of `kind` in a 2 x 2 block round the centre of `sq` of `grid`, facing
// `angle_deg` (0 = north, 180 = south), ids "<prefix>1".."<prefix>n".
inline std::vector<Stand> Block(const std::string& prefix, const std::string& side,
                                const std::string& kind, Square sq, double angle_deg, int n = 4,
                                const Grid& grid = Grid()) {
  const Vec2 c = grid.Center(sq);
  const Vec2 offsets[4] = {{-0.85, -0.45}, {0.85, -0.45}, {-0.85, 0.45}, {0.85, 0.45}};
  std::vector<Stand> out;
  for (int i = 0; i < n; ++i) {
    Stand s;
    s.id = prefix + std::to_string(i + 1);
    s.side = side;
    s.kind = kind;
    s.footprint = {c + offsets[i], 1.575, 0.787, angle_deg};
    out.push_back(s);
  }
  return out;
}

// A gun (40 x 40 mm) in `sq` facing `angle_deg`, with one crew stand of `crew_kind` behind it:
// ids `gun_id` and `gun_id` + "-crew".
inline std::vector<Stand> Gun(const std::string& gun_id, const std::string& side,
                              const std::string& gun_kind, const std::string& crew_kind, Square sq,
                              double angle_deg, const Grid& grid = Grid()) {
  Stand gun;
  gun.id = gun_id;
  gun.side = side;
  gun.kind = gun_kind;
  gun.footprint = {grid.Center(sq), 1.575, 1.575, angle_deg};
  Stand crew = gun;
  crew.id = gun_id + "-crew";
  crew.kind = crew_kind;
  const Vec2 behind = Rotate({0.0, 1.3}, DegToRad(angle_deg));
  crew.footprint = {grid.Center(sq) + behind, 1.575, 0.787, angle_deg};
  return {gun, crew};
}

inline std::vector<Stand> Concat(std::vector<Stand> a, const std::vector<Stand>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

template <class T>
std::vector<const T*> OfType(const std::vector<EventPayload>& events) {
  std::vector<const T*> out;
  for (const auto& e : events) {
    if (const T* p = std::get_if<T>(&e)) out.push_back(p);
  }
  return out;
}

// The choices the players made (firer_choice events), without the turn flow's own records of
// its set-up and actions ("game_setup", "turn_action", which let a resumed log play again).
inline std::vector<const FirerChoice*> PlayersChoices(const std::vector<EventPayload>& events) {
  std::vector<const FirerChoice*> out;
  for (const auto* c : OfType<FirerChoice>(events)) {
    if (c->choice != "game_setup" && c->choice != "turn_action") out.push_back(c);
  }
  return out;
}

// The game unit standing in `sq` (the panel names units; tests find them by place).
inline std::string UnitAt(const rules::Game& g, Square sq, const std::string& side) {
  for (const auto& u : g.units()) {
    if (u.square == sq && u.side == side && u.status == rules::UnitStatus::kOnTable) return u.id;
  }
  return "";
}

}  // namespace referee::testing
