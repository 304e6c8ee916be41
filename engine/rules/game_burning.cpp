// Napoleonic 6D: a tip or shell touching a tree, house or bridge may set its square alight.
#include <algorithm>

#include "engine/rules/game.hpp"

namespace referee::rules {

bool Game::Impassable(Square s) const {
  return setup_.board.TerrainAt(s) == Terrain::kWater || burning_.count(s) > 0;
}

ActionResult Game::DoShellOnInflammable(const ShellOnInflammable& a, DiceSource& dice) {
  ActionResult r;
  if (!rules_.burning) {
    r.refusal = "nothing catches fire in the " + rules_.name + " rules";
    return r;
  }
  if (phase_ != Phase::kArtillery) {
    r.refusal = "only artillery projectiles set squares alight (artillery phase)";
    return r;
  }
  const GameUnit* f = FindUnit(a.firer_unit);
  if (!f || (rules_.Unit(f->type).battery.empty() && rules_.Unit(f->type).arm != "catapult")) {
    r.refusal = "no gun or catapult " + a.firer_unit;
    return r;
  }
  if (!setup_.board.grid.Contains(a.square)) {
    r.refusal = SquareName(a.square) + " is off the board";
    return r;
  }
  const Terrain terrain = setup_.board.TerrainAt(a.square);
  const auto& inflammable = rules_.burning->inflammable;
  if (std::find(inflammable.begin(), inflammable.end(), terrain) == inflammable.end()) {
    r.refusal = SquareName(a.square) + " holds " + TerrainName(terrain) + ", which does not burn";
    return r;
  }
  if (burning_.count(a.square)) {
    r.refusal = SquareName(a.square) + " is already burning";
    return r;
  }
  const size_t before = dice.Events().size();
  const BurningRules& b = *rules_.burning;
  const auto rolled =
      dice.RollDice(b.dice, "fire: " + f->id + "'s shot touches the " + TerrainName(terrain) +
                                " in " + SquareName(a.square));
  const int ones = static_cast<int>(std::count(rolled.begin(), rolled.end(), 1));
  r.ok = true;
  const std::string where = TerrainName(terrain) + " in " + SquareName(a.square);
  if (ones >= b.ones_to_burn_up) {
    // "the square burns up and everyone and anything in it are destroyed. Thereafter the square
    // is considered normal."
    std::string lost;
    for (auto& u : units_) {
      if (u.status != UnitStatus::kOnTable || u.square != a.square) continue;
      while (!u.stands.empty()) RemoveStand(u, 0, false);
      u.status = UnitStatus::kDestroyed;
      u.attached_to.clear();
      lost += " " + u.id;
    }
    setup_.board.terrain.erase(a.square);
    CheckBrokenSquares(r);
    Log(r,
        "the " + where + " burns up (" + std::to_string(ones) + " ones)" +
            (lost.empty() ? "" : "; destroyed:" + lost) + "; it is a normal square from now on",
        dice, before);
    return r;
  }
  if (ones >= b.ones_to_burn) {
    burning_.insert(a.square);
    Log(r,
        "the " + where + " is burning (" + std::to_string(ones) +
            " one): everyone retreats out of it; it is impassable and screens from now on",
        dice, before);
    std::set<std::string> carried;
    // Units first, so commanders go with the units they have joined.
    std::vector<GameUnit*> inside;
    for (auto& u : units_)
      if (u.status == UnitStatus::kOnTable && u.square == a.square) inside.push_back(&u);
    std::stable_partition(inside.begin(), inside.end(), [&](const GameUnit* u) {
      return rules_.Unit(u->type).arm != "commander";
    });
    for (GameUnit* u : inside) {
      if (carried.count(u->id) || u->square != a.square) continue;
      for (const auto& id : Retreat(*u, r, RetreatKind::kFire)) carried.insert(id);
    }
    CheckBrokenSquares(r);
    return r;
  }
  Log(r, "the " + where + " does not catch fire (no one)", dice, before);
  return r;
}

}  // namespace referee::rules
