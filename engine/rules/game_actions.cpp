// The actions of Game: fire, move, supports and melees. Phases and morale are in game.cpp.
#include <algorithm>
#include <cmath>
#include <set>

#include "engine/rules/directions.hpp"
#include "engine/rules/fire.hpp"
#include "engine/rules/game.hpp"
#include "engine/rules/loss_allocation.hpp"

namespace referee::rules {

namespace {

constexpr double kEps = 1e-9;

const char* kRelNames[8] = {"front", "front_right", "right", "rear_right",
                            "rear",  "rear_left",   "left",  "front_left"};

bool IsMounted(const std::string& arm) {
  return arm == "cavalry" || arm == "chariot" || arm == "elephant";
}
bool IsFoot(const std::string& arm) {
  return arm == "infantry" || arm == "crew" || arm == "artillery";
}

int CountKind(const GameUnit& u, const std::string& kind) {
  return static_cast<int>(std::count(u.stands.begin(), u.stands.end(), kind));
}

}  // namespace

double Game::MeleeValue(const GameUnit& u) const {
  double v = 0;
  for (const auto& k : u.stands) {
    const StandValue& s = rules_.Stand(k);
    double x = s.melee;
    if (s.melee_reduced && static_cast<int>(u.stands.size()) <= s.reduced_at_stands)
      x = *s.melee_reduced;
    if (s.charge_melee && u.charged)
      x = *s.charge_melee;  // "2/3*": charging into the contact square
    v += x;
  }
  return v;
}

bool Game::CanManGun(const GameUnit& u) const {
  int crew = 0;
  for (const auto& k : u.stands) {
    const std::string& cls = k;
    if (cls == "foot_crew" || cls == "mounted_crew" || cls == "horse_crew") ++crew;
  }
  return crew >= rules_.artillery.needs_crew_to_fire;
}

void Game::ComputeShots() {
  shots_total_.clear();
  for (const auto& u : units_) {
    if (u.status != UnitStatus::kOnTable) continue;
    const UnitType& t = rules_.Unit(u.type);
    int shots = 0;
    if (t.battery == "foot" && CanManGun(u)) {
      int guns_expected = 0, guns_present = 0;
      for (const auto& g : {"field_gun", "howitzer"}) {
        auto it = t.stands.find(g);
        guns_expected += it == t.stands.end() ? 0 : it->second;
        guns_present += CountKind(u, g);
      }
      const bool wagon_lost = t.stands.count("supply_wagon") && CountKind(u, "supply_wagon") == 0;
      shots = FootBatteryShots(rules_, guns_expected - guns_present, wagon_lost);
    } else if (t.battery == "horse" && CanManGun(u) && CountKind(u, "horse_gun") > 0) {
      shots = rules_.artillery.horse_gun_shots * CountKind(u, "horse_gun");
    } else if (t.arm == "catapult") {
      // A catapult needs a crew, infantry or commander stand in its square (CATAPULT FIRE 1).
      for (const auto* o : UnitsAt(u.square)) {
        if (o == &u || o->side != u.side) continue;
        const std::string& arm = rules_.Unit(o->type).arm;
        const auto& mk = rules_.artillery.manning_kinds;
        bool mans = std::find(mk.begin(), mk.end(), arm) != mk.end();
        for (const auto& k : o->stands)
          mans = mans || std::find(mk.begin(), mk.end(), k) != mk.end();
        if (mans) shots = rules_.artillery.catapult_shots;
      }
    }
    shots_total_[u.id] = shots;
  }
}

int Game::ShotsAvailable(const GameUnit& battery) const {
  auto it = shots_total_.find(battery.id);
  const int total = it == shots_total_.end() ? 0 : it->second;
  auto used = shots_used_.find(battery.id);
  return total - (used == shots_used_.end() ? 0 : used->second);
}

// ---------------------------------------------------------------------------------------------
// Artillery

ActionResult Game::DoArtilleryCasualty(const ArtilleryCasualty& a, DiceSource& dice) {
  if (phase_ != Phase::kArtillery)
    return ActionResult::Refused("artillery fires in the artillery phase");
  GameUnit* f = Unit(a.firer_unit);
  if (!f) return ActionResult::Refused("no such firing unit " + a.firer_unit);
  if (f->holding_canister)
    return ActionResult::Refused(f->id + " is holding canister: no other shot can be fired");
  if (f->limbered)
    return ActionResult::Refused(f->id + " is limbered: a gun must be unlimbered to fire (3B)");
  // The hit of a declared shot (FireArtillery) uses no further shot and its manning is settled.
  const bool declared = shot_declared_.count(f->id) > 0;
  if (!declared && ShotsAvailable(*f) <= 0)
    return ActionResult::Refused(f->id + " has no shot left this turn");
  GameUnit* t = Unit(a.target_unit);
  if (!t || t->status != UnitStatus::kOnTable)
    return ActionResult::Refused("no such target on the table: " + a.target_unit);
  auto it = std::find(t->stands.begin(), t->stands.end(), a.stand_kind);
  if (it == t->stands.end())
    return ActionResult::Refused(t->id + " has no " + a.stand_kind + " stand");
  const size_t before = dice.Events().size();
  std::string manned_by;
  if (declared) {
    shot_declared_.erase(f->id);  // one shot, one stand (with a gun's crew)
  } else {
    ++shots_used_[f->id];
    // An undeclared shot known only from its hit: the rules pick the stand that manned it.
    if (rules_.Unit(f->type).arm == "catapult" &&
        rules_.artillery.manning_stand_cannot_fire_or_support) {
      if (const GameUnit* man = CatapultMan(*f, "", nullptr)) {
        manning_.insert(man->id);
        manned_by = " (manned by " + man->id + ")";
      }
    }
  }
  ActionResult r;
  r.ok = true;
  const bool equipment = rules_.Stand(a.stand_kind).melee == 0 &&
                         rules_.Stand(a.stand_kind).target_class == "equipment";
  RemoveStand(*t, static_cast<size_t>(it - t->stands.begin()), false);
  std::string text =
      f->id + manned_by + " hits " + t->id + ": one " + a.stand_kind + " stand destroyed";
  if (equipment && rules_.Unit(t->type).battery.size()) {
    // "If a gun or a wagon is destroyed, its crew (1 stand) is destroyed with it."
    for (size_t i = 0; i < t->stands.size(); ++i)
      if (t->stands[i] == "foot_crew" || t->stands[i] == "mounted_crew") {
        text += " with its crew (" + t->stands[i] + ")";
        RemoveStand(*t, i, false);
        break;
      }
  }
  CheckBrokenSquares(r);
  Log(r, text, dice, before);
  return r;
}

ActionResult Game::DoCanister(const FireCanister& c, DiceSource& dice) {
  const bool held_phase = phase_ == Phase::kHeldCanister;
  if (phase_ != Phase::kArtillery && !held_phase)
    return ActionResult::Refused("canister is fired in the artillery or held-canister phase");
  GameUnit* b = Unit(c.battery_unit);
  if (!b || b->status != UnitStatus::kOnTable || rules_.Unit(b->type).battery.empty())
    return ActionResult::Refused("no such battery");
  if (b->limbered)
    return ActionResult::Refused(b->id + " is limbered: a gun must be unlimbered to fire (3B)");
  if (held_phase != b->holding_canister)
    return ActionResult::Refused(held_phase ? b->id + " did not hold canister"
                                            : b->id + " is holding canister for later");
  const int shots = ShotsAvailable(*b);
  if (shots <= 0) return ActionResult::Refused(b->id + " has no shot left");
  if (RangeSquares(b->square, c.target) > rules_.artillery.canister_range + kEps ||
      b->square == c.target)
    return ActionResult::Refused("canister reaches adjacent squares only");
  if (!InArc(b->square, b->facing, c.target))
    return ActionResult::Refused("target square is outside +/-45 degrees of the gun's facing");
  for (const auto* o : UnitsAt(c.target))
    if (o->side == b->side)
      return ActionResult::Refused(
          "canister cannot be fired into a square containing friendly troops");
  GameUnit* t = Unit(c.target_unit);
  if (!t || t->status != UnitStatus::kOnTable || t->square != c.target || t->side == b->side)
    return ActionResult::Refused("no enemy unit " + c.target_unit + " in " + SquareName(c.target));
  const size_t before = dice.Events().size();
  const bool prot = setup_.board.IsProtected(c.target);
  // Dice per shot by gun: a foot battery's shots are field gun and howitzer shots (3 dice each).
  const std::string gun = rules_.Unit(b->type).battery == "horse" ? "horse_gun" : "field_gun";
  const FireDiceCount n = CountCanisterDice(rules_, gun, shots, prot);
  const auto rolled = dice.RollDice(n.dice, "canister: " + b->id + " at " + t->id);
  shots_used_[b->id] += shots;
  b->holding_canister = false;
  // Kill as per musketry at range 1, choosing the stand kind that suffers most.
  std::string best_kind;
  int best_hits = -1;
  for (const auto& k : t->stands) {
    const int h = HitsFromDice(rules_.fire, rules_.Stand(k).target_class, 1, rolled).hits;
    if (h > best_hits) best_hits = h, best_kind = k;
  }
  int removed = 0;
  for (int i = 0; i < best_hits; ++i) {
    auto it = std::find(t->stands.begin(), t->stands.end(), best_kind);
    if (it == t->stands.end()) break;
    RemoveStand(*t, static_cast<size_t>(it - t->stands.begin()), false);
    ++removed;
  }
  ActionResult r;
  r.ok = true;
  CheckBrokenSquares(r);
  Log(r,
      b->id + " fires canister at " + t->id + " (" + n.breakdown + "): " + std::to_string(removed) +
          " " + best_kind + " stand(s) destroyed",
      dice, before);
  return r;
}

// ---------------------------------------------------------------------------------------------
// Musketry

std::optional<std::string> Game::WhyCannotFire(const FireMusketry& f) const {
  if (phase_ != Phase::kMusketry) return "musketry is fired in the musketry phase";
  const GameUnit* u = FindUnit(f.firer_unit);
  const GameUnit* t = FindUnit(f.target_unit);
  if (!u || u->status != UnitStatus::kOnTable) return "no such firing unit on the table";
  if (!t || t->status != UnitStatus::kOnTable) return "no such target on the table";
  if (u->side == t->side) return "cannot fire at your own side";
  const UnitType& ut = rules_.Unit(u->type);
  if (ut.firing_range <= 0 || ut.fire_arc == FireArc::kNone || !ut.battery.empty() ||
      ut.arm == "catapult")
    return u->id + " does not fire musketry";
  if (has_fired_.count(u->id)) return u->id + " has already fired this phase";
  if (manning_.count(u->id) && u->stands_at_phase_start <= 1)
    return u->id + "'s stand manned a catapult this turn: it cannot otherwise fire";
  const double range = RangeSquares(u->square, t->square);
  if (range > ut.firing_range + kEps) return "out of range (" + std::to_string(range) + " squares)";
  if (!u->formed_square) {
    if (ut.fire_arc == FireArc::kStraight && !StraightAhead(u->square, u->facing, t->square))
      return "line infantry fires straight ahead only";
    if (ut.fire_arc == FireArc::kArc45 && !InArc(u->square, u->facing, t->square))
      return "target is outside +/-45 degrees of the unit's facing";
  }
  for (Square s : SquaresBetween(u->square, t->square)) {
    if (!UnitsAt(s).empty()) return "screened by a unit in " + SquareName(s);
    if (burning_.count(s)) return "screened by the burning square " + SquareName(s) + " (6D)";
  }
  return std::nullopt;
}

ActionResult Game::DoMusketry(const FireMusketry& f, DiceSource& dice) {
  if (auto why = WhyCannotFire(f)) return ActionResult::Refused(*why);
  GameUnit* u = Unit(f.firer_unit);
  GameUnit* t = Unit(f.target_unit);
  const size_t before = dice.Events().size();
  // The firer's choice of target stand kind: the one the table hits most easily.
  const double range = RangeSquares(u->square, t->square);
  FireDiceRequest req;
  req.firer_type = u->type;
  req.firing_stands = u->stands_at_phase_start;    // musketry is simultaneous (4A)
  if (manning_.count(u->id)) --req.firing_stands;  // that stand worked the catapult
  for (const auto* o : UnitsAt(u->square))
    req.commander_present = req.commander_present || (o != u && o->side == u->side &&
                                                      rules_.Unit(o->type).arm == "commander");
  req.earlier_units_on_target = fired_at_[t->id];
  req.target_protected = setup_.board.IsProtected(t->square);
  std::string kind;
  for (const auto& k : t->stands)
    if (rules_.Stand(k).target_class != "equipment") {
      kind = k;
      break;
    }
  ActionResult r;
  r.ok = true;
  has_fired_[u->id] = true;
  ++fired_at_[t->id];
  if (kind.empty()) {
    Log(r, u->id + " fires at " + t->id + ": only equipment there, musketry cannot harm it", dice,
        before);
    return r;
  }
  req.target_kind = kind;
  const FireDiceCount n = CountFireDice(rules_, req);
  const auto rolled = dice.RollDice(n.dice, "musketry: " + u->id + " at " + t->id);
  const FireHits h = HitsFromDice(rules_.fire, rules_.Stand(kind).target_class, range, rolled);
  int removed = 0;
  for (int i = 0; i < h.hits; ++i) {
    auto it = std::find(t->stands.begin(), t->stands.end(), kind);
    if (it == t->stands.end()) break;
    RemoveStand(*t, static_cast<size_t>(it - t->stands.begin()), false);
    ++removed;
  }
  CheckBrokenSquares(r);
  Log(r,
      u->id + " fires at " + t->id + " (" + n.breakdown + ", range " + h.band + ": '" + h.cell +
          "'): " + std::to_string(removed) + " " + kind + " stand(s) destroyed",
      dice, before);
  return r;
}

// ---------------------------------------------------------------------------------------------
// Movement and charges

std::optional<std::string> Game::WhyCannotMove(const MoveUnit& m) const {
  if (phase_ != Phase::kAttackerMoves) return "units move in the attacker-moves phase";
  const GameUnit* u = FindUnit(m.unit);
  if (!u || u->status != UnitStatus::kOnTable) return "no such unit on the table";
  if (u->side != attacker()) return "only the attacker moves";
  if (moved_.count(u->id)) return u->id + " has already moved this turn";
  const UnitType& t = rules_.Unit(u->type);
  if (t.morale == MoraleRule::kRetreatAtOneStand && !t.guards && u->stands.size() == 1)
    return u->id + " is down to one stand: it cannot advance or attack";
  if (rules_.melee.type_a_faces_sides_only && t.support == 'A' && IsCornerFacing(m.facing))
    return "type A troops may only face the sides of a square";
  if (m.form_square || m.break_square) return WhyCannotFormSquare(m);
  if (u->formed_square) return "squares cannot move";
  if (t.arm == "catapult") {
    bool helper = false;
    for (const auto* o : UnitsAt(u->square)) helper = helper || (o != u && o->side == u->side);
    if (!helper) return "a catapult needs a stand in its square to move it";
  }
  if (!t.battery.empty() && !CanManGun(*u)) return "a gun needs at least one crew stand to move it";
  if (m.path.empty()) return std::nullopt;  // facing only
  double cost = 0;
  Square cur = u->square;
  bool all_road = setup_.board.TerrainAt(cur) == Terrain::kRoad;
  const std::string& enemy = Enemy(u->side);
  for (size_t i = 0; i < m.path.size(); ++i) {
    const Square s = m.path[i];
    if (!setup_.board.grid.Contains(s)) return SquareName(s) + " is off the board";
    if (!AreAdjacent(cur, s)) return SquareName(s) + " is not adjacent to " + SquareName(cur);
    if (setup_.board.TerrainAt(s) == Terrain::kWater) return SquareName(s) + " is water";
    if (burning_.count(s)) return SquareName(s) + " is burning: impassable (6D)";
    if (s.col != cur.col && s.row != cur.row && UnitAt({cur.col, s.row}, enemy) &&
        UnitAt({s.col, cur.row}, enemy))
      return "cannot pass between two diagonally adjacent enemy units";
    const bool last = i + 1 == m.path.size();
    if (!last && UnitAt(s, enemy)) {
      const GameUnit* e = UnitAt(s, enemy);
      const bool run_down = rules_.melee.run_down && IsMounted(t.arm) && e->stands.size() == 1 &&
                            IsFoot(rules_.Unit(e->type).arm) && !setup_.board.IsProtected(s);
      if (!run_down) return "cannot move through enemy units (" + SquareName(s) + ")";
    }
    all_road = all_road && setup_.board.TerrainAt(s) == Terrain::kRoad;
    cost += MoveCost(cur, s);
    cur = s;
  }
  const double allowance = t.move + (all_road ? 1 : 0);
  if (cost > allowance + kEps)
    return "the path costs " + std::to_string(cost) + " squares; " + u->id + " moves " +
           std::to_string(allowance);
  const Square end = m.path.back();
  const GameUnit* target = UnitAt(end, enemy);
  const bool is_commander = t.arm == "commander";
  bool carries_commander = false;
  for (const auto& c : units_)
    carries_commander = carries_commander || (c.attached_to == u->id && c.square == u->square &&
                                              c.status == UnitStatus::kOnTable);
  for (const auto* o : UnitsAt(end)) {
    if (o->side != u->side || o == u) continue;
    const bool o_cmd = rules_.Unit(o->type).arm == "commander";
    if ((is_commander || carries_commander) && o_cmd && o->attached_to != u->id)
      return "one commander per square";
    if (!is_commander && !o_cmd && t.arm != "catapult" && rules_.Unit(o->type).arm != "catapult")
      return "no two units of one side in the same square";
  }
  if (target) {
    if (u->stands.size() < 2 && t.StandCount() > 1 && !is_commander)
      return "a unit of one stand cannot attack (5B)";
    if (t.arm == "catapult" || !t.battery.empty()) return "artillery does not charge";
    if (t.arm == "cavalry" && !rules_.melee.cavalry_may_melee_unbroken_square) {
      for (const auto* o : UnitsAt(end))
        if (o->formed_square) return "cavalry cannot melee an unbroken square (8B)";
    }
    if (t.arm == "cavalry") {
      for (const auto* o : UnitsAt(end)) {
        const auto& barred = rules_.melee.cavalry_barred_by_full_units;
        if (o->side == enemy && std::find(barred.begin(), barred.end(), o->type) != barred.end() &&
            static_cast<int>(o->stands.size()) >= rules_.melee.cavalry_barred_stands)
          return "cavalry cannot charge into a square containing 4 stands of legionaries or "
                 "phalangites";
      }
    }
  }
  return std::nullopt;
}

ActionResult Game::DoMove(const MoveUnit& m, DiceSource& dice) {
  if (auto why = WhyCannotMove(m)) return ActionResult::Refused(*why);
  GameUnit* u = Unit(m.unit);
  const UnitType& t = rules_.Unit(u->type);
  const size_t before = dice.Events().size();
  ActionResult r;
  r.ok = true;
  moved_.insert(u->id);
  if (m.form_square || m.break_square) {
    std::vector<std::string> members = m.form_square ? m.square_with : SquareMembers(u->id);
    if (m.form_square) members.insert(members.begin(), u->id);
    const int group = m.form_square ? next_square_group_++ : 0;
    std::string names;
    for (const auto& id : members) {
      GameUnit* x = Unit(id);
      x->formed_square = m.form_square;
      x->square_group = group;
      moved_.insert(id);
      names += (names.empty() ? "" : ", ") + id;
    }
    Log(r, names + (m.form_square ? " form a Square" : " break their Square") + " (8A)", dice,
        before);
    return r;
  }
  const std::string& enemy = Enemy(u->side);
  const bool charge = !m.path.empty() && UnitAt(m.path.back(), enemy);
  if (charge && t.arm == "elephant" && !rules_.melee.elephant_charge_stays_on.empty()) {
    const int roll = dice.RollDie("elephant charge: " + u->id + " (stays on 5 or 6)");
    const auto& stay = rules_.melee.elephant_charge_stays_on;
    if (std::find(stay.begin(), stay.end(), roll) != stay.end()) {
      Log(r, u->id + " rolls " + std::to_string(roll) + ": the elephant remains stationary", dice,
          before);
      return r;
    }
  }
  Square prev = u->square;
  std::string text = u->id + " moves " + SquareName(u->square);
  for (size_t i = 0; i < m.path.size(); ++i) {
    const Square s = m.path[i];
    if (i + 1 < m.path.size()) {
      if (GameUnit* e = const_cast<GameUnit*>(UnitAt(s, enemy))) {
        text += " (runs down " + e->id + ")";
        while (!e->stands.empty()) RemoveStand(*e, 0, false);
        e->status = UnitStatus::kDestroyed;
      }
    }
    text += " -> " + SquareName(s);
    if (i + 1 == m.path.size()) prev = i ? m.path[i - 1] : u->square;
  }
  const Square start = u->square;
  if (rules_.artillery.gun_moves_limbered && !t.battery.empty() && !m.path.empty() &&
      !u->limbered) {
    u->limbered = true;  // the attacker limbers freely (2G); it must unlimber again to fire
    text += " (limbers to move)";
  }
  if (!m.path.empty()) u->square = m.path.back();
  u->facing = m.facing;
  if (t.arm == "commander" && !m.path.empty()) {
    // A commander joins the unit it moves in with, and leaves the one it moves away from.
    u->attached_to.clear();
    for (const auto* o : UnitsAt(u->square))
      if (o != u && o->side == u->side && rules_.Unit(o->type).arm != "commander" &&
          rules_.Unit(o->type).arm != "catapult")
        u->attached_to = o->id;
    if (!u->attached_to.empty()) text += " (joins " + u->attached_to + ")";
  }
  if (charge) {
    u->charged = true;
    u->came_from = prev;
    u->fought_this_turn = true;
    bool found = false;
    for (auto& mel : melees_)
      if (mel.contact == u->square) {
        mel.attackers.push_back(u->id);
        found = true;
      }
    if (!found) {
      Melee mel;
      mel.contact = u->square;
      mel.attackers.push_back(u->id);
      for (const auto* o : UnitsAt(u->square))
        if (o->side == enemy) mel.defenders.push_back(o->id);
      for (const auto& id : mel.defenders) Unit(id)->fought_this_turn = true;
      melees_.push_back(mel);
    }
    text += ": charges into " + SquareName(u->square);
  }
  Log(r, text, dice, before);
  // Commanders who have joined the unit go with it (2B / Ancient MOVEMENT 2), into a melee too.
  if (!m.path.empty()) {
    for (auto& c : units_) {
      if (c.attached_to != u->id || c.status != UnitStatus::kOnTable || c.square != start) continue;
      c.square = u->square;
      c.facing = u->facing;
      moved_.insert(c.id);
      if (charge) {
        c.came_from = u->came_from;
        c.fought_this_turn = true;
        for (auto& mel : melees_)
          if (mel.contact == u->square) mel.attackers.push_back(c.id);
      }
      LogEntry e;
      e.turn = turn_;
      e.phase = phase_;
      e.text = c.id + " goes with " + u->id + " to " + SquareName(u->square);
      r.entries.push_back(e);
      log_.push_back(e);
    }
  }
  return r;
}

std::optional<std::string> Game::WhyCannotMoveTogether(const MoveUnits& ms) const {
  if (ms.moves.empty()) return "no units to move";
  std::set<std::string> movers;
  for (const auto& m : ms.moves) {
    if (!movers.insert(m.unit).second) return m.unit + " is moved twice";
    if (m.form_square || m.break_square)
      return m.unit + ": a Square is formed or broken alone, not in a set of moves";
  }
  // Each move on a copy with the other movers lifted: the squares they leave are free and they
  // block no path (friends may pass through each other, 1E).
  Game probe = *this;
  for (const auto& m : ms.moves) {
    for (auto& u : probe.units_)
      if (movers.count(u.id) && u.id != m.unit) u.status = UnitStatus::kOffTable;
    const auto why = probe.WhyCannotMove(m);
    for (auto& u : probe.units_)
      if (movers.count(u.id)) u.status = UnitStatus::kOnTable;
    if (why) return m.unit + ": " + *why;
    const GameUnit* u = FindUnit(m.unit);
    if (!m.path.empty() && UnitAt(m.path.back(), Enemy(u->side)))
      return m.unit + " charges: a charge is moved on its own, not in a set of moves";
  }
  // Where they all end (1C): no two movers of a side in one square, one commander per square.
  std::map<Square, std::vector<const GameUnit*>> ends;
  for (const auto& m : ms.moves) {
    const GameUnit* u = FindUnit(m.unit);
    ends[m.path.empty() ? u->square : m.path.back()].push_back(u);
  }
  for (const auto& [square, units] : ends) {
    int troops = 0, commanders = 0;
    for (const auto* u : units) {
      const std::string& arm = rules_.Unit(u->type).arm;
      if (arm == "commander") {
        ++commanders;
      } else if (arm != "catapult") {
        ++troops;
      }
    }
    if (troops > 1)
      return "no two units of one side in the same square (" + SquareName(square) + ")";
    if (commanders > 1) return "one commander per square (" + SquareName(square) + ")";
  }
  return std::nullopt;
}

ActionResult Game::DoMoveTogether(const MoveUnits& ms, DiceSource& dice) {
  if (auto why = WhyCannotMoveTogether(ms)) return ActionResult::Refused(*why);
  std::set<std::string> movers;
  for (const auto& m : ms.moves) movers.insert(m.unit);
  ActionResult r;
  r.ok = true;
  // As checked: each moves with the others lifted, so one may enter a square another leaves.
  for (const auto& m : ms.moves) {
    for (auto& u : units_)
      if (movers.count(u.id) && u.id != m.unit) u.status = UnitStatus::kOffTable;
    ActionResult one = DoMove(m, dice);
    for (auto& u : units_)
      if (movers.count(u.id)) u.status = UnitStatus::kOnTable;
    r.entries.insert(r.entries.end(), one.entries.begin(), one.entries.end());
  }
  return r;
}

// ---------------------------------------------------------------------------------------------
// Supports and melees

std::optional<std::string> Game::WhyCannotSupport(const DeclareSupport& s) const {
  const GameUnit* u = FindUnit(s.unit);
  if (!u || u->status != UnitStatus::kOnTable) return "no such unit on the table";
  const Melee* mel = nullptr;
  for (const auto& m : melees_)
    if (m.contact == s.contact) mel = &m;
  if (!mel) return "no melee at " + SquareName(s.contact);
  if (u->fought_this_turn) return u->id + " already fights in a melee this turn";
  if (manning_.count(u->id) && u->stands.size() <= 1)
    return u->id + "'s stand manned a catapult this turn: it cannot support";
  if (melee_fought_) return "all supports are indicated before the melees are resolved (5A)";
  if (rules_.melee.supports_attacker_first) {
    if (u->side == defender() && phase_ == Phase::kAttackerMoves)
      return "the defender indicates supports after the attacker has moved";
    if (u->side == attacker() && defender_declared_support_)
      return "the attacker indicates supports first; the defender has begun indicating theirs";
  }
  const auto rel_dir = DirectionTo(u->square, s.contact);
  if (!rel_dir) return u->id + " is not adjacent to the contact square";
  const bool is_attacker = u->side == attacker();
  const UnitType* t = &rules_.Unit(u->type);
  // A commander supports as the unit it is with (7 / type C).
  if (t->arm == "commander")
    for (const auto* o : UnitsAt(u->square))
      if (o != u && o->side == u->side && rules_.Unit(o->type).arm != "commander")
        t = &rules_.Unit(o->type);
  auto st = rules_.support_types.find(t->support);
  if (st == rules_.support_types.end() || st->second.directions.empty())
    return t->name + " may not support melees";
  // The friendly unit in the contact square: mounted troops support foot from the side only.
  const GameUnit* friend_in_contact = nullptr;
  for (const auto& id : is_attacker ? mel->attackers : mel->defenders)
    if (const GameUnit* f = FindUnit(id)) friend_in_contact = f;
  if (!friend_in_contact) return "no friendly unit in the contact square";
  const std::string& friend_arm = rules_.Unit(friend_in_contact->type).arm;
  if (rules_.melee.mounted_supports_foot_only_from_side && IsMounted(t->arm) &&
      IsFoot(friend_arm)) {
    // Ancient 4: mounted troops support foot only from directly beside it.
    const int side_rel = (static_cast<int>(*DirectionTo(s.contact, u->square)) -
                          static_cast<int>(friend_in_contact->facing) + 8) %
                         8;
    if (side_rel != 2 && side_rel != 6)
      return "cavalry, chariots and elephants support infantry or crews only from directly to the "
             "side";
  }
  int turn = is_attacker ? rules_.melee.attacker_support_turn_eighths
                         : rules_.melee.defender_support_turn_eighths;
  Facing base = u->facing;
  if (!is_attacker && rules_.melee.defending_cavalry_support_needs_start_facing &&
      t->arm == "cavalry" && (friend_arm == "infantry" || friend_arm == "artillery")) {
    turn = 0;  // 5A: a defending cavalry unit cannot wheel to support infantry or artillery
    base = u->facing_at_turn_start;
  }
  if (u->formed_square) turn = 4;  // squares face every way (8B)
  for (int k = -turn; k <= turn; ++k) {
    const Facing f = Turn(base, k);
    if (rules_.melee.type_a_faces_sides_only && t->support == 'A' && IsCornerFacing(f)) continue;
    const int rel = (static_cast<int>(*rel_dir) - static_cast<int>(f) + 8) % 8;
    const std::string name = kRelNames[rel];
    const auto& dirs = st->second.directions;
    if (std::find(dirs.begin(), dirs.end(), name) == dirs.end()) continue;
    return std::nullopt;
  }
  return t->name + " cannot support toward " + SquareName(s.contact) + " from " +
         SquareName(u->square) + " with its facing (support type " + std::string(1, t->support) +
         ")";
}

ActionResult Game::DoFight(const FightMelee& f, DiceSource& dice) {
  if (phase_ != Phase::kMelees)
    return ActionResult::Refused("melees are fought in the melee phase");
  auto it = std::find_if(melees_.begin(), melees_.end(),
                         [&](const Melee& m) { return m.contact == f.contact; });
  if (it == melees_.end()) return ActionResult::Refused("no melee at " + SquareName(f.contact));
  const Melee mel = *it;
  melees_.erase(it);
  melee_fought_ = true;
  const size_t before = dice.Events().size();
  ActionResult r;
  r.ok = true;
  // Contact-square units first, then supports clockwise round the contact square (5E).
  auto side_units = [&](const std::vector<std::string>& contact,
                        std::vector<std::string> supports) {
    std::vector<GameUnit*> out;
    for (const auto& id : contact)
      if (GameUnit* u = Unit(id); u && u->status == UnitStatus::kOnTable) out.push_back(u);
    std::sort(supports.begin(), supports.end(), [&](const std::string& a, const std::string& b) {
      return static_cast<int>(*DirectionTo(f.contact, Unit(a)->square)) <
             static_cast<int>(*DirectionTo(f.contact, Unit(b)->square));
    });
    for (const auto& id : supports)
      if (GameUnit* u = Unit(id); u && u->status == UnitStatus::kOnTable) out.push_back(u);
    return out;
  };
  std::vector<GameUnit*> side[2] = {side_units(mel.attackers, mel.attacker_supports),
                                    side_units(mel.defenders, mel.defender_supports)};
  double strength[2] = {0, 0};
  for (int s = 0; s < 2; ++s)
    for (auto* u : side[s]) {
      strength[s] += MeleeValue(*u);
      // A support's stand that manned a catapult does not support (it fights if attacked).
      const bool support =
          std::find(mel.attackers.begin(), mel.attackers.end(), u->id) == mel.attackers.end() &&
          std::find(mel.defenders.begin(), mel.defenders.end(), u->id) == mel.defenders.end();
      if (support && manning_.count(u->id) && !u->stands.empty())
        strength[s] -= rules_.Stand(u->stands.front()).melee;
    }
  const char* kSideName[2] = {"attacker", "defender"};
  if (strength[0] <= kEps || strength[1] <= kEps) {
    // Nothing able to fight on one side (only equipment, or everyone gone): the other side
    // takes the square and its equipment.
    const int loser = strength[1] <= kEps ? 1 : 0;
    for (auto* u : side[loser]) {
      while (!u->stands.empty()) RemoveStand(*u, 0, strength[1 - loser] > kEps);
      u->status = UnitStatus::kDestroyed;
    }
    Log(r,
        std::string("melee at ") + SquareName(f.contact) + ": the " + kSideName[loser] +
            " has nothing able to fight; its equipment is taken",
        dice, before);
    return r;
  }
  MeleeInput in;
  in.attacker_strength = strength[0];
  in.defender_strength = strength[1];
  in.attacker_mdi = f.attacker_mdi;
  in.defender_mdi = f.defender_mdi;
  in.protected_contact = setup_.board.IsProtected(f.contact);
  const MeleeOutcome out = ResolveMelee(rules_, in);
  std::string text =
      "melee at " + SquareName(f.contact) + " (" + out.clause + "): " + out.explanation;
  // Losses in points -> stands.
  const double loss[2] = {out.attacker_loss, out.defender_loss};
  for (int s = 0; s < 2; ++s) {
    if (loss[s] <= kEps) continue;
    std::vector<LossUnit> lu;
    std::vector<std::vector<size_t>> index;
    for (auto* u : side[s]) {
      LossUnit l;
      l.id = u->id;
      std::vector<size_t> idx;
      for (size_t i = 0; i < u->stands.size(); ++i) {
        const StandValue& sv = rules_.Stand(u->stands[i]);
        if (sv.melee <= 0) continue;  // equipment is captured, not killed
        double v = sv.melee;
        if (sv.melee_reduced && static_cast<int>(u->stands.size()) <= sv.reduced_at_stands)
          v = *sv.melee_reduced;
        if (sv.charge_melee && u->charged) v = *sv.charge_melee;
        l.stand_values.push_back(v);
        idx.push_back(i);
      }
      lu.push_back(l);
      index.push_back(idx);
    }
    const LossResult lr =
        AllocateLosses(lu, loss[s], dice, std::string("melee loss of the ") + kSideName[s]);
    // Remove from the back so earlier indices stay valid.
    std::vector<std::pair<int, size_t>> rm;
    for (const auto& x : lr.removed) rm.push_back({x.unit, index[x.unit][x.stand]});
    std::sort(rm.begin(), rm.end(), [](auto a, auto b) {
      return a.first != b.first ? a.first < b.first : a.second > b.second;
    });
    for (const auto& [ui, si] : rm) RemoveStand(*side[s][ui], si, false);
    text += std::string("; ") + kSideName[s] + " loses " + std::to_string(lr.removed.size()) +
            " stand(s) (" + std::to_string(lr.removed_points) + " points" +
            (lr.coin_flipped ? lr.coin_heads ? ", coin: heads" : ", coin: tails" : "") + ")";
  }
  // Equipment capture (5H / catapults).
  const int captor = out.captures_equipment == Who::kAttacker   ? 0
                     : out.captures_equipment == Who::kDefender ? 1
                                                                : -1;
  if (captor >= 0) {
    const bool retreating_keeps =
        rules_.melee.equipment_capture == "catapult_retreats_with_friends_else_captured";
    for (auto* u : side[1 - captor]) {
      if (u->status != UnitStatus::kOnTable) continue;
      if (retreating_keeps && out.destroyed != (captor == 0 ? Who::kDefender : Who::kAttacker))
        continue;
      for (size_t i = u->stands.size(); i-- > 0;)
        if (rules_.Stand(u->stands[i]).melee <= 0 && u->status == UnitStatus::kOnTable) {
          text += "; " + u->stands[i] + " of " + u->id + " captured";
          RemoveStand(*u, i, true);
        }
    }
  }
  Log(r, text, dice, before);
  // Destruction or retreat of whole sides.
  std::set<std::string> carried;
  for (int s = 0; s < 2; ++s) {
    // Units before commanders, so a commander goes with the unit it has joined.
    std::stable_partition(side[s].begin(), side[s].end(), [&](const GameUnit* u) {
      return rules_.Unit(u->type).arm != "commander";
    });
    const Who me = s == 0 ? Who::kAttacker : Who::kDefender;
    if (out.destroyed == me) {
      for (auto* u : side[s]) {
        while (!u->stands.empty()) RemoveStand(*u, 0, false);
        u->status = UnitStatus::kDestroyed;
      }
    } else if (out.retreats == me || out.retreats == Who::kBoth) {
      for (auto* u : side[s]) {
        if (u->status != UnitStatus::kOnTable) continue;
        if (u->square != f.contact) {
          // Supports retreat directly away from the contact square.
          u->came_from =
              Square{2 * u->square.col - f.contact.col, 2 * u->square.row - f.contact.row};
        } else if (s == 1) {
          u->came_from.reset();  // the defender retreats toward its rear
        }
        if (carried.count(u->id)) continue;  // went with the unit it had joined
        for (const auto& id : Retreat(*u, r, RetreatKind::kMelee)) carried.insert(id);
      }
    }
  }
  CheckBrokenSquares(r);
  return r;
}

}  // namespace referee::rules
