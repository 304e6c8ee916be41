#include "engine/rules/game.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>

#include "engine/rules/directions.hpp"
#include "engine/rules/fire.hpp"
#include "engine/rules/loss_allocation.hpp"
#include "engine/rules/retreat.hpp"

namespace referee::rules {

namespace {

constexpr double kEps = 1e-9;

}  // namespace

std::string PhaseName(Phase p) {
  switch (p) {
    case Phase::kArtillery:
      return "artillery";
    case Phase::kMusketry:
      return "musketry";
    case Phase::kAttackerMoves:
      return "attacker_moves";
    case Phase::kHeldCanister:
      return "held_canister";
    case Phase::kMelees:
      return "melees";
    case Phase::kEndOfTurn:
      return "end_of_turn";
    case Phase::kGameOver:
      return "game_over";
  }
  return "?";
}

std::string ActionName(const Action& a) {
  static const char* kNames[] = {"artillery_casualty",   "hold_canister",  "fire_canister",
                                 "fire_musketry",        "move",           "declare_support",
                                 "fight_melee",          "end_phase",      "surrender",
                                 "shell_on_inflammable", "limber",         "destroy_equipment",
                                 "attach_commander",     "fire_artillery", "move_together"};
  static_assert(sizeof(kNames) / sizeof(kNames[0]) == std::variant_size_v<Action>);
  return kNames[a.index()];
}

Game::Game(const RulesetData& rules, GameSetup setup) : rules_(rules), setup_(std::move(setup)) {
  units_ = setup_.units;
  attacker_ = setup_.first_attacker;
  std::set<std::string> ids;
  for (auto& u : units_) {
    if (!ids.insert(u.id).second) throw std::invalid_argument("duplicate unit id " + u.id);
    if (SideIndex(u.side) < 0) throw std::invalid_argument(u.id + ": unknown side " + u.side);
    rules_.Unit(u.type);  // throws on unknown type
    if (!setup_.board.grid.Contains(u.square))
      throw std::invalid_argument(u.id + " is off the board");
    for (const auto& k : u.stands) initial_points_[u.side] += rules_.Stand(k).points;
    u.facing_at_turn_start = u.facing;
    u.stands_at_phase_start = static_cast<int>(u.stands.size());
  }
  for (const auto& s : setup_.sides) initial_points_[s.name] += 0;
  for (auto& u : units_) {
    if (rules_.Unit(u.type).arm != "commander") continue;
    if (!u.attached_to.empty()) {
      const GameUnit* host = FindUnit(u.attached_to);
      if (!host || host->side != u.side || host->square != u.square)
        throw std::invalid_argument(u.id + " is attached to " + u.attached_to +
                                    ", which is not a friendly unit in its square");
      continue;
    }
    // A commander set up with a friendly unit has joined it (2B / Ancient MOVEMENT 2).
    for (const auto& o : units_)
      if (&o != &u && o.side == u.side && o.square == u.square && o.status == u.status &&
          rules_.Unit(o.type).arm != "commander" && rules_.Unit(o.type).arm != "catapult")
        u.attached_to = o.id;
  }
  // Squares set up already formed: each unit without a group is a Square on its own.
  for (const auto& u : units_)
    next_square_group_ = std::max(next_square_group_, u.square_group + 1);
  for (auto& u : units_)
    if (u.formed_square && u.square_group == 0) u.square_group = next_square_group_++;
  phase_ = Phase::kArtillery;
  ComputeShots();
}

const std::string& Game::attacker() const { return setup_.sides[attacker_].name; }
const std::string& Game::defender() const { return setup_.sides[1 - attacker_].name; }

int Game::SideIndex(const std::string& side) const {
  for (int i = 0; i < 2; ++i)
    if (setup_.sides[i].name == side) return i;
  return -1;
}
const std::string& Game::Enemy(const std::string& side) const {
  return setup_.sides[1 - SideIndex(side)].name;
}

const GameUnit* Game::FindUnit(const std::string& id) const {
  for (const auto& u : units_)
    if (u.id == id) return &u;
  return nullptr;
}
GameUnit* Game::Unit(const std::string& id) { return const_cast<GameUnit*>(FindUnit(id)); }

std::vector<const GameUnit*> Game::UnitsAt(Square s) const {
  std::vector<const GameUnit*> out;
  for (const auto& u : units_)
    if (u.status == UnitStatus::kOnTable && u.square == s) out.push_back(&u);
  return out;
}

const GameUnit* Game::UnitAt(Square s, const std::string& side) const {
  for (const auto* u : UnitsAt(s))
    if (u->side == side && rules_.Unit(u->type).arm != "commander") return u;
  for (const auto* u : UnitsAt(s))
    if (u->side == side) return u;
  return nullptr;
}

bool Game::IsEnemyAt(Square s, const std::string& side) const {
  return UnitAt(s, Enemy(side)) != nullptr;
}

std::vector<Square> Game::PendingMelees() const {
  std::vector<Square> out;
  for (const auto& m : melees_) out.push_back(m.contact);
  return out;
}

double Game::InitialPoints(const std::string& side) const {
  auto it = initial_points_.find(side);
  return it == initial_points_.end() ? 0 : it->second;
}

Points Game::PointsOf(const std::string& side) const {
  Points p;
  for (const auto& u : units_) {
    if (u.side != side) continue;
    double v = 0;
    for (const auto& k : u.stands) v += rules_.Stand(k).points;
    if (u.status == UnitStatus::kOnTable)
      p.on_table += v;
    else if (u.status == UnitStatus::kOffTable)
      p.off_table += v;
    else
      p.destroyed += v;  // a destroyed unit keeps no stands; kept for safety
  }
  auto d = destroyed_points_.find(side);
  if (d != destroyed_points_.end()) p.destroyed += d->second;
  auto c = captured_from_.find(side);
  if (c != captured_from_.end()) p.captured_from = c->second;
  return p;
}

std::string Game::Winner() const { return winner_; }

void Game::Log(ActionResult& r, std::string text, DiceSource& dice, size_t dice_before) {
  LogEntry e;
  e.turn = turn_;
  e.phase = phase_;
  e.text = std::move(text);
  const auto& ev = dice.Events();
  for (size_t i = dice_before; i < ev.size(); ++i) e.dice.push_back(ev[i]);
  r.entries.push_back(e);
  log_.push_back(e);
}

void Game::RemoveStand(GameUnit& u, size_t index, bool captured_by_enemy) {
  const double pts = rules_.Stand(u.stands[index]).points;
  if (captured_by_enemy)
    captured_from_[u.side] += pts;
  else
    destroyed_points_[u.side] += pts;
  u.stands.erase(u.stands.begin() + static_cast<long>(index));
  bool fighting = false;
  for (const auto& k : u.stands) fighting = fighting || rules_.Stand(k).melee > 0;
  if (u.stands.empty())
    u.status = UnitStatus::kDestroyed;
  else if (!fighting && rules_.Unit(u.type).arm != "catapult") {
    // Equipment with no one left to move or man it: it stays where it is, owned by nobody.
    for (const auto& k : u.stands) destroyed_points_[u.side] += rules_.Stand(k).points;
    u.stands.clear();
    u.status = UnitStatus::kDestroyed;
  }
  if (u.status == UnitStatus::kDestroyed) u.attached_to.clear();
  if (u.status == UnitStatus::kDestroyed)
    for (auto& c : units_)
      if (c.attached_to == u.id) c.attached_to.clear();  // the commander stays where it is
}

// ---------------------------------------------------------------------------------------------
// Phases

ActionResult Game::Apply(const Action& action, DiceSource& dice) {
  // With physical dice the players may not have typed enough values: then the action is not
  // applied at all (DiceExhausted propagates with the state untouched; type the roll, retry).
  auto units = units_;
  auto melees = melees_;
  auto fired_at = fired_at_;
  auto shots_used = shots_used_;
  auto has_fired = has_fired_;
  auto shots_total = shots_total_;
  auto moved = moved_;
  auto burning = burning_;
  auto terrain = setup_.board.terrain;
  const int next_group = next_square_group_;
  const bool defender_declared = defender_declared_support_, fought = melee_fought_;
  auto manning = manning_;
  auto shot_declared = shot_declared_;
  auto captured = captured_from_;
  auto destroyed = destroyed_points_;
  const Phase phase = phase_;
  const int turn = turn_, attacker = attacker_;
  const size_t log_size = log_.size();
  try {
    return ApplyUnchecked(action, dice);
  } catch (const DiceExhausted&) {
    units_ = std::move(units);
    melees_ = std::move(melees);
    fired_at_ = std::move(fired_at);
    shots_used_ = std::move(shots_used);
    has_fired_ = std::move(has_fired);
    shots_total_ = std::move(shots_total);
    moved_ = std::move(moved);
    burning_ = std::move(burning);
    setup_.board.terrain = std::move(terrain);
    next_square_group_ = next_group;
    defender_declared_support_ = defender_declared;
    melee_fought_ = fought;
    manning_ = std::move(manning);
    shot_declared_ = std::move(shot_declared);
    captured_from_ = std::move(captured);
    destroyed_points_ = std::move(destroyed);
    phase_ = phase;
    turn_ = turn;
    attacker_ = attacker;
    log_.resize(log_size);
    throw;
  }
}

ActionResult Game::ApplyUnchecked(const Action& action, DiceSource& dice) {
  if (phase_ == Phase::kGameOver) return ActionResult::Refused("the game is over");
  const size_t before = dice.Events().size();
  if (const auto* s = std::get_if<Surrender>(&action)) {
    if (SideIndex(s->side) < 0) return ActionResult::Refused("unknown side " + s->side);
    ActionResult r;
    r.ok = true;
    end_reason_ = s->side + " surrenders";
    winner_ = Enemy(s->side);
    Log(r, end_reason_ + "; " + winner_ + " wins", dice, before);
    phase_ = Phase::kGameOver;
    return r;
  }
  if (std::holds_alternative<EndPhase>(action)) {
    ActionResult r;
    r.ok = true;
    AdvancePhase(r, dice);
    return r;
  }
  if (const auto* a = std::get_if<ArtilleryCasualty>(&action)) return DoArtilleryCasualty(*a, dice);
  if (const auto* a = std::get_if<FireArtillery>(&action)) return DoFireArtillery(*a, dice);
  if (const auto* h = std::get_if<HoldCanister>(&action)) {
    if (phase_ != Phase::kArtillery)
      return ActionResult::Refused("canister is held during the artillery phase");
    GameUnit* b = Unit(h->battery_unit);
    if (!b || b->status != UnitStatus::kOnTable || rules_.Unit(b->type).battery.empty())
      return ActionResult::Refused("no such battery");
    if (shots_used_[b->id] > 0)
      return ActionResult::Refused("if held, no other shot can be fired (2H)");
    if (b->limbered)
      return ActionResult::Refused(b->id + " is limbered: a gun must be unlimbered to fire (3B)");
    if (rules_.artillery.canister_range <= 0)
      return ActionResult::Refused("this ruleset has no canister");
    b->holding_canister = true;
    ActionResult r;
    r.ok = true;
    Log(r, b->id + " holds canister", dice, before);
    return r;
  }
  if (const auto* c = std::get_if<FireCanister>(&action)) return DoCanister(*c, dice);
  if (const auto* f = std::get_if<FireMusketry>(&action)) return DoMusketry(*f, dice);
  if (const auto* m = std::get_if<MoveUnit>(&action)) return DoMove(*m, dice);
  if (const auto* m = std::get_if<MoveUnits>(&action)) return DoMoveTogether(*m, dice);
  if (const auto* s = std::get_if<DeclareSupport>(&action)) return DoDeclareSupport(*s, dice);
  if (const auto* f = std::get_if<FightMelee>(&action)) return DoFight(*f, dice);
  if (const auto* b = std::get_if<ShellOnInflammable>(&action))
    return DoShellOnInflammable(*b, dice);
  if (const auto* l = std::get_if<Limber>(&action)) return DoLimber(*l, dice);
  if (const auto* d = std::get_if<DestroyEquipment>(&action)) return DoDestroyEquipment(*d, dice);
  if (const auto* c = std::get_if<AttachCommander>(&action)) return DoAttachCommander(*c, dice);
  return ActionResult::Refused("unknown action");
}

void Game::AdvancePhase(ActionResult& r, DiceSource& dice) {
  const size_t before = dice.Events().size();
  const auto& seq = rules_.turn_sequence;
  auto idx = std::find(seq.begin(), seq.end(), PhaseName(phase_));
  // Melees left unfought when the phase ends are fought by nobody: refuse to skip them.
  if (phase_ == Phase::kMelees && !melees_.empty()) {
    Log(r, "melees still to fight; the phase does not end", dice, before);
    r.ok = false;
    r.refusal = "fight every melee before ending the melee phase";
    return;
  }
  std::string next = (idx == seq.end() || idx + 1 == seq.end()) ? "end_of_turn" : *(idx + 1);
  if (phase_ == Phase::kEndOfTurn) next = "artillery";
  for (Phase p : {Phase::kArtillery, Phase::kMusketry, Phase::kAttackerMoves, Phase::kHeldCanister,
                  Phase::kMelees, Phase::kEndOfTurn})
    if (PhaseName(p) == next) phase_ = p;
  fired_at_.clear();
  has_fired_.clear();
  for (auto& u : units_) u.stands_at_phase_start = static_cast<int>(u.stands.size());
  if (phase_ == Phase::kAttackerMoves) MoraleRetreats(r, dice);
  if (phase_ == Phase::kEndOfTurn) {
    CheckEnd(r);
    if (phase_ == Phase::kGameOver) return;
    Log(r, "end of turn " + std::to_string(turn_), dice, before);
  }
  if (phase_ == Phase::kArtillery)
    StartTurn(r, dice);
  else
    Log(r, "phase: " + PhaseName(phase_), dice, before);
}

void Game::StartTurn(ActionResult& r, DiceSource& dice) {
  const size_t before = dice.Events().size();
  ++turn_;
  attacker_ = 1 - attacker_;  // "the attacker becoming the defender, and vice versa"
  shots_used_.clear();
  moved_.clear();
  melees_.clear();
  defender_declared_support_ = false;
  melee_fought_ = false;
  manning_.clear();
  shot_declared_.clear();
  for (auto& u : units_) {
    u.facing_at_turn_start = u.facing;
    u.came_from.reset();
    u.charged = false;
    u.fought_this_turn = false;
    u.holding_canister = false;
  }
  ComputeShots();
  Log(r, "turn " + std::to_string(turn_) + ": " + attacker() + " attacks", dice, before);
}

void Game::CheckEnd(ActionResult& r) {
  bool any[2] = {false, false};
  for (const auto& u : units_)
    if (u.status == UnitStatus::kOnTable && !u.stands.empty()) any[SideIndex(u.side)] = true;
  std::string reason;
  if (!any[0] || !any[1])
    reason = "a side has no units left on the table";
  else if (turn_ >= setup_.agreed_turns)
    reason = "the agreed " + std::to_string(setup_.agreed_turns) + " turns are played";
  if (reason.empty()) return;
  const double a = PointsOf(setup_.sides[0].name).Score(),
               b = PointsOf(setup_.sides[1].name).Score();
  winner_ = std::abs(a - b) < kEps ? "draw" : (a > b ? setup_.sides[0].name : setup_.sides[1].name);
  end_reason_ = reason;
  LogEntry e;
  e.turn = turn_;
  e.phase = Phase::kGameOver;
  e.text = "game over (" + reason + "): " + setup_.sides[0].name + " " + std::to_string(a) + ", " +
           setup_.sides[1].name + " " + std::to_string(b) + " points; winner " + winner_;
  r.entries.push_back(e);
  log_.push_back(e);
  phase_ = Phase::kGameOver;
}

// ---------------------------------------------------------------------------------------------
// Morale: a unit down to one stand retreats a full move backward on each of its turns.

void Game::MoraleRetreats(ActionResult& r, DiceSource& dice) {
  for (auto& u : units_) {
    if (u.side != attacker() || u.status != UnitStatus::kOnTable || u.stands.size() != 1) continue;
    const UnitType& t = rules_.Unit(u.type);
    if (t.morale != MoraleRule::kRetreatAtOneStand || t.guards) continue;
    if (rules_.morale.attached_commander_exempts) {
      bool attached = false;
      for (const auto* o : UnitsAt(u.square))
        attached =
            attached || (o != &u && o->side == u.side && rules_.Unit(o->type).arm == "commander");
      if (attached) continue;
    }
    const size_t before = dice.Events().size();
    Retreat(u, r, RetreatKind::kMorale);
    Log(r, u.id + " is down to one stand and retreats a full move (morale)", dice, before);
  }
}

std::vector<std::string> Game::Retreat(GameUnit& u, ActionResult& r, RetreatKind kind) {
  RetreatQuery q;
  q.start = u.square;
  const Square from = u.square;
  if (kind == RetreatKind::kMelee) {
    q.budget = rules_.melee.retreat_squares;
    q.diagonal_cost = 1.0;  // "For retreats only, diagonal moves are counted 1"
    if (u.came_from && *u.came_from != u.square) {
      q.direction = {double(u.came_from->col - u.square.col),
                     double(u.came_from->row - u.square.row)};
    } else {
      q.direction = FacingVector(Opposite(u.facing));  // defender: toward the rear
    }
  } else if (kind == RetreatKind::kFire) {
    q.budget = rules_.burning ? rules_.burning->retreat_squares : 1;
    q.diagonal_cost = 1.0;  // a retreat: diagonals count 1
    q.direction = FacingVector(Opposite(u.facing));
  } else {
    q.budget = rules_.Unit(u.type).move;
    q.diagonal_cost = 1.5;
    const int home = setup_.sides[SideIndex(u.side)].home_row;
    q.direction = {0.0, home > u.square.row ? 1.0 : (home < u.square.row ? -1.0 : 0.0)};
    if (home == u.square.row) q.direction = {0.0, home == 0 ? -1.0 : 1.0};
  }
  const std::string side = u.side;
  q.passable = [&](Square s) { return !IsEnemyAt(s, side) && !Impassable(s); };
  q.gap_blocked = [&](Square a, Square b) {
    return IsEnemyAt({a.col, b.row}, side) && IsEnemyAt({b.col, a.row}, side);
  };
  const bool is_commander = rules_.Unit(u.type).arm == "commander";
  q.can_end = [&](Square s) {
    if (s == from) return false;  // a retreat leaves the square
    for (const auto* o : UnitsAt(s)) {
      if (o == &u || o->side != side) continue;
      const bool o_cmd = rules_.Unit(o->type).arm == "commander";
      if (is_commander ? o_cmd : !o_cmd) return false;
    }
    return true;
  };
  const RetreatPlan plan = PlanRetreat(setup_.board.grid, q);
  LogEntry e;
  e.turn = turn_;
  e.phase = phase_;
  switch (plan.kind) {
    case RetreatPlan::Kind::kMoved:
      u.square = plan.end;
      e.text = u.id + " retreats " + SquareName(from) + " -> " + SquareName(plan.end);
      break;
    case RetreatPlan::Kind::kOffBoard:
      u.status = UnitStatus::kOffTable;
      e.text = u.id + " retreats off the board (counts for points, fights no more)";
      break;
    case RetreatPlan::Kind::kBlocked:
      e.text = u.id + " cannot retreat (cut off) and is destroyed";
      while (!u.stands.empty()) RemoveStand(u, 0, false);
      u.status = UnitStatus::kDestroyed;
      break;
  }
  if (is_commander) u.attached_to.clear();  // it left its unit's square on its own
  r.entries.push_back(e);
  log_.push_back(e);
  std::vector<std::string> carried;
  for (const auto& c : units_)
    if (c.attached_to == u.id && c.status == UnitStatus::kOnTable && c.square == from)
      carried.push_back(c.id);
  CarryAttached(u, from, r);
  return carried;
}

}  // namespace referee::rules
