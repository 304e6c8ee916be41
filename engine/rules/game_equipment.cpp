// Guns limbering (Napoleonic 2G, 3B), a side destroying its own equipment (11), commanders
// joining and leaving units (2B / Ancient MOVEMENT 2) and support declarations (5A).
#include <algorithm>

#include "engine/rules/directions.hpp"
#include "engine/rules/game.hpp"

namespace referee::rules {

namespace {

ActionResult Refuse(std::string why) {
  ActionResult r;
  r.refusal = std::move(why);
  return r;
}

}  // namespace

std::optional<std::string> Game::WhyCannotLimber(const Limber& l) const {
  if (!rules_.artillery.limbering) return "guns do not limber in the " + rules_.name + " rules";
  const GameUnit* u = FindUnit(l.battery_unit);
  if (!u || u->status != UnitStatus::kOnTable) return "no such unit on the table";
  if (rules_.Unit(u->type).battery.empty()) return u->id + " is not a gun battery";
  if (u->side != attacker()) return "the defender may not limber or unlimber (2G)";
  if (u->limbered == l.limber)
    return u->id + (l.limber ? " is already limbered" : " is already unlimbered");
  if (u->holding_canister) return u->id + " is holding canister";
  return std::nullopt;
}

ActionResult Game::DoLimber(const Limber& l, DiceSource& dice) {
  if (auto why = WhyCannotLimber(l)) return Refuse(*why);
  GameUnit* u = Unit(l.battery_unit);
  u->limbered = l.limber;
  ActionResult r;
  r.ok = true;
  Log(r, u->id + (l.limber ? " limbers" : " unlimbers"), dice, dice.Events().size());
  return r;
}

std::optional<std::string> Game::WhyCannotDestroyEquipment(const DestroyEquipment& d) const {
  if (!rules_.destroy_own_equipment_at_end_of_turn)
    return "the " + rules_.name + " rules have no voluntary destruction of equipment";
  if (phase_ != Phase::kEndOfTurn) return "equipment is destroyed at the end of a turn (11)";
  const GameUnit* u = FindUnit(d.unit);
  if (!u || u->status != UnitStatus::kOnTable) return "no such unit on the table";
  if (std::find(u->stands.begin(), u->stands.end(), d.stand_kind) == u->stands.end())
    return u->id + " has no " + d.stand_kind + " stand";
  if (rules_.Stand(d.stand_kind).target_class != "equipment")
    return d.stand_kind + " is not equipment (guns, wagons)";
  return std::nullopt;
}

ActionResult Game::DoDestroyEquipment(const DestroyEquipment& d, DiceSource& dice) {
  if (auto why = WhyCannotDestroyEquipment(d)) return Refuse(*why);
  GameUnit* u = Unit(d.unit);
  const auto it = std::find(u->stands.begin(), u->stands.end(), d.stand_kind);
  RemoveStand(*u, static_cast<size_t>(it - u->stands.begin()), false);
  ActionResult r;
  r.ok = true;
  Log(r, u->side + " destroys its own " + d.stand_kind + " of " + u->id + " (11)", dice,
      dice.Events().size());
  return r;
}

ActionResult Game::DoAttachCommander(const AttachCommander& a, DiceSource& dice) {
  GameUnit* c = Unit(a.commander);
  if (!c || c->status != UnitStatus::kOnTable || rules_.Unit(c->type).arm != "commander")
    return Refuse("no commander " + a.commander + " on the table");
  ActionResult r;
  r.ok = true;
  if (a.unit.empty()) {
    if (c->attached_to.empty()) return Refuse(c->id + " has not joined a unit");
    Log(r, c->id + " leaves " + c->attached_to, dice, dice.Events().size());
    c->attached_to.clear();
    return r;
  }
  const GameUnit* u = FindUnit(a.unit);
  if (!u || u->status != UnitStatus::kOnTable || u->side != c->side)
    return Refuse("no friendly unit " + a.unit + " on the table");
  if (u->square != c->square)
    return Refuse(c->id + " must be in " + u->id + "'s square to join it");
  const std::string& arm = rules_.Unit(u->type).arm;
  if (arm == "commander" || arm == "catapult") return Refuse("a commander joins a unit of troops");
  c->attached_to = u->id;
  Log(r, c->id + " joins " + u->id, dice, dice.Events().size());
  return r;
}

void Game::CarryAttached(const GameUnit& unit, Square from, ActionResult& r) {
  for (auto& c : units_) {
    if (c.attached_to != unit.id || c.status != UnitStatus::kOnTable || c.square != from) continue;
    LogEntry e;
    e.turn = turn_;
    e.phase = phase_;
    if (unit.status == UnitStatus::kDestroyed) {
      c.attached_to.clear();  // its unit is gone; the commander stays where it was
      continue;
    }
    c.square = unit.square;
    c.status = unit.status;
    c.facing = unit.facing;
    e.text =
        c.id + " goes with " + unit.id +
        (unit.status == UnitStatus::kOffTable ? " off the board" : " to " + SquareName(c.square));
    r.entries.push_back(e);
    log_.push_back(e);
  }
}

ActionResult Game::DoDeclareSupport(const DeclareSupport& s, DiceSource& dice) {
  if (phase_ != Phase::kAttackerMoves && phase_ != Phase::kHeldCanister && phase_ != Phase::kMelees)
    return Refuse("supports are declared after movement, before melees are fought");
  if (auto why = WhyCannotSupport(s)) return Refuse(*why);
  const size_t before = dice.Events().size();
  GameUnit* u = Unit(s.unit);
  for (auto& m : melees_) {
    if (m.contact != s.contact) continue;
    (u->side == attacker() ? m.attacker_supports : m.defender_supports).push_back(u->id);
  }
  u->fought_this_turn = true;
  if (u->side == defender()) defender_declared_support_ = true;
  // Supports are shown by facing into the contact square (type A faces sides only).
  if (auto f = DirectionTo(u->square, s.contact)) u->facing = *f;
  ActionResult r;
  r.ok = true;
  Log(r,
      u->id + " (" + (u->side == attacker() ? "attacker" : "defender") +
          ") supports the melee at " + SquareName(s.contact),
      dice, before);
  return r;
}

}  // namespace referee::rules
