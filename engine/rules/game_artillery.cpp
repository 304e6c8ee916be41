// Declared gun and catapult shots: arc, range, screening by adjacent friends (Napoleonic 3E, 3G;
// Ancient CATAPULT FIRE 2-3) and the stand that mans a catapult (Ancient CATAPULT FIRE 1).
#include <algorithm>

#include "engine/rules/game.hpp"

namespace referee::rules {

namespace {

constexpr double kEps = 1e-9;

bool Contains(const std::vector<std::string>& v, const std::string& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

}  // namespace

const GameUnit* Game::CatapultMan(const GameUnit& catapult, const std::string& named,
                                  std::string* why) const {
  const auto& kinds = rules_.artillery.manning_kinds;
  auto may_man = [&](const GameUnit& o) {
    if (&o == &catapult || o.side != catapult.side || o.stands.empty()) return false;
    if (Contains(kinds, rules_.Unit(o.type).arm)) return true;
    return std::any_of(o.stands.begin(), o.stands.end(),
                       [&](const std::string& k) { return Contains(kinds, k); });
  };
  const GameUnit* best = nullptr;
  for (const auto* o : UnitsAt(catapult.square)) {
    if (!may_man(*o)) continue;
    if (!named.empty()) {
      if (o->id == named) return o;
      continue;
    }
    if (!best || rules_.Unit(o->type).arm == "crew") best = o;  // crews first
  }
  if (!best && why) {
    *why = named.empty()
               ? catapult.id +
                     " has no crew, infantry or commander stand in its square "
                     "to man it (CATAPULT FIRE 1)"
               : named + " is not a crew, infantry or commander unit of " + catapult.side + " in " +
                     SquareName(catapult.square) + " that could man " + catapult.id;
  }
  return best;
}

std::optional<std::string> Game::WhyCannotFireArtillery(const FireArtillery& f) const {
  if (phase_ != Phase::kArtillery) return "artillery fires in the artillery phase";
  const GameUnit* u = FindUnit(f.firer_unit);
  if (!u || u->status != UnitStatus::kOnTable) return "no such firing unit on the table";
  const UnitType& t = rules_.Unit(u->type);
  const bool catapult = t.arm == "catapult";
  if (t.battery.empty() && !catapult) return u->id + " is not a gun or catapult";
  if (u->holding_canister) return u->id + " is holding canister: no other shot can be fired";
  if (u->limbered) return u->id + " is limbered: a gun must be unlimbered to fire (3B)";
  if (catapult) {
    std::string why;
    if (!CatapultMan(*u, f.manned_by, &why)) return why;
  }
  if (ShotsAvailable(*u) <= 0) return u->id + " has no shot left this turn";
  // The gun that fires: named, or the battery's first gun / the catapult itself.
  std::string gun = f.gun_kind;
  auto is_gun = [&](const std::string& k) {
    return catapult ? rules_.Stand(k).target_class == "equipment"
                    : rules_.artillery.canister_dice.count(k) > 0;
  };
  if (gun.empty()) {
    auto it = std::find_if(u->stands.begin(), u->stands.end(), is_gun);
    if (it != u->stands.end()) gun = *it;
  }
  if (gun.empty() || !is_gun(gun) || !Contains(u->stands, gun))
    return u->id + " has no " + (f.gun_kind.empty() ? "gun" : f.gun_kind) + " to fire";
  if (!setup_.board.grid.Contains(f.target)) return "target square is off the board";
  if (f.target == u->square) return "a gun does not fire into its own square";
  if (t.fire_arc == FireArc::kArc45 && !InArc(u->square, u->facing, f.target))
    return "target square is outside +/-45 degrees of " + u->id + "'s facing";
  if (t.fire_arc == FireArc::kStraight && !StraightAhead(u->square, u->facing, f.target))
    return "target square is not straight ahead of " + u->id;
  const double range = RangeSquares(u->square, f.target);
  if (t.firing_range > 0 && range > t.firing_range + kEps)
    return "out of range (" + std::to_string(range) + " squares, counting the target square)";
  // 3E: friendly troops in an adjacent square screen the gun in that direction; 3G: a howitzer
  // (and, in the Ancient rules, every catapult) fires over them.
  if (rules_.artillery.adjacent_friends_screen &&
      !Contains(rules_.artillery.unscreened_guns, gun)) {
    std::vector<Square> line = SquaresBetween(u->square, f.target);
    line.push_back(f.target);
    for (Square s : line) {
      if (!AreAdjacent(u->square, s)) continue;
      for (const auto* o : UnitsAt(s))
        if (o->side == u->side)
          return u->id + "'s " + gun + " is screened by friendly " + o->id + " in the adjacent " +
                 SquareName(s) + " (3E)";
    }
  }
  return std::nullopt;
}

ActionResult Game::DoFireArtillery(const FireArtillery& f, DiceSource& dice) {
  ActionResult r;
  if (auto why = WhyCannotFireArtillery(f)) {
    r.refusal = *why;
    return r;
  }
  const size_t before = dice.Events().size();
  GameUnit* u = Unit(f.firer_unit);
  ++shots_used_[u->id];
  shot_declared_.insert(u->id);  // a hit reported next belongs to this shot
  std::string text = u->id;
  if (rules_.Unit(u->type).arm == "catapult") {
    const GameUnit* man = CatapultMan(*u, f.manned_by, nullptr);
    if (rules_.artillery.manning_stand_cannot_fire_or_support) manning_.insert(man->id);
    text += " (manned by " + man->id + ")";
  }
  text += " fires " + (f.gun_kind.empty() ? std::string() : f.gun_kind + " ") + "at " +
          SquareName(f.target) + "; " + std::to_string(ShotsAvailable(*u)) + " shot(s) left";
  r.ok = true;
  Log(r, text, dice, before);
  return r;
}

}  // namespace referee::rules
