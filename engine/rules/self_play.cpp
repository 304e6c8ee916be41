#include "engine/rules/self_play.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "engine/rules/directions.hpp"

namespace referee::rules {

namespace {

constexpr double kEps = 1e-9;

// Both armies for a game: the Napoleonic division each, or two Ancient armies drawn at random.
GameSetup MakeSetup(const RulesetData& rules, SeededDice& rng, int agreed_turns) {
  GameSetup g;
  g.board.grid = Grid{};  // 12 x 8 squares of 4"
  g.sides[0] = {"red", g.board.grid.rows - 1};
  g.sides[1] = {"blue", 0};
  g.agreed_turns = agreed_turns;
  g.first_attacker = rng.Choose(2);
  // A little terrain in the middle rows: woods/houses protect, water blocks, roads speed.
  const Terrain kinds[] = {Terrain::kWoods, Terrain::kHouse, Terrain::kWater, Terrain::kRoad,
                           Terrain::kRocks};
  const int features = rng.Choose(6);
  for (int i = 0; i < features; ++i) {
    const Square s{rng.Choose(g.board.grid.cols), 2 + rng.Choose(g.board.grid.rows - 4)};
    g.board.terrain[s] = kinds[rng.Choose(5)];
  }
  std::vector<std::string> army_names;
  for (const auto& [name, a] : rules.armies) army_names.push_back(name);
  for (int side = 0; side < 2; ++side) {
    const ArmyList& army =
        rules.armies.at(army_names[rng.Choose(static_cast<int>(army_names.size()))]);
    std::vector<Square> free;
    const int r0 = side == 0 ? g.board.grid.rows - 2 : 0;
    for (int r = r0; r < r0 + 2; ++r)
      for (int c = 0; c < g.board.grid.cols; ++c) free.push_back({c, r});
    for (size_t i = free.size(); i > 1; --i)
      std::swap(free[i - 1], free[rng.Choose(static_cast<int>(i))]);
    std::vector<Square> manned;  // squares of units that can man a catapult
    int n = 0;
    for (const auto& e : army.units) {
      const UnitType& t = rules.Unit(e.type);
      for (int k = 0; k < e.count; ++k) {
        GameUnit u;
        u.id = g.sides[side].name + "/" + e.type + "#" + std::to_string(++n);
        u.side = g.sides[side].name;
        u.type = e.type;
        u.facing = side == 0 ? Facing::kN : Facing::kS;
        for (const auto& [kind, count] : t.stands) {
          const int c = e.stands && t.stands.size() == 1 ? *e.stands : count;
          for (int j = 0; j < c; ++j) u.stands.push_back(kind);
        }
        if ((t.arm == "catapult" || t.arm == "commander") && !manned.empty()) {
          u.square = manned.back();  // catapults and commanders share a square with a unit
          manned.pop_back();
        } else {
          if (free.empty()) continue;  // army larger than the deployment zone: leave it out
          u.square = free.back();
          free.pop_back();
          if (t.arm == "infantry" || t.arm == "crew") manned.push_back(u.square);
        }
        g.units.push_back(u);
      }
    }
  }
  return g;
}

template <class T>
T Pick(SeededDice& rng, const std::vector<T>& v) {
  return v[static_cast<size_t>(rng.Choose(static_cast<int>(v.size())))];
}

// Random legal-ish choices for one phase; the engine refuses what is illegal.
std::vector<Action> ChooseActions(const Game& game, SeededDice& rng) {
  std::vector<Action> out;
  const RulesetData& rules = game.rules();
  std::vector<const GameUnit*> units;
  for (const auto& u : game.units())
    if (u.status == UnitStatus::kOnTable) units.push_back(&u);
  switch (game.phase()) {
    case Phase::kArtillery: {
      for (const auto* u : units) {
        const UnitType& t = rules.Unit(u->type);
        if (t.battery.empty() && t.arm != "catapult") continue;
        if (u->limbered && u->side == game.attacker() && rng.Choose(4) != 0)
          out.push_back(Limber{u->id, false});
        for (int shot = 0; shot < 3; ++shot) {
          if (!t.battery.empty() && rules.artillery.canister_range > 0 && rng.Choose(6) == 0) {
            out.push_back(HoldCanister{u->id});
            break;
          }
          // A shot is declared at a random unit in the arc; a third of the shells hit something
          // (the others miss: the shot and a catapult's manning stand are spent all the same).
          std::vector<const GameUnit*> in_arc;
          for (const auto* o : units)
            if (o != u && o->square != u->square && InArc(u->square, u->facing, o->square))
              in_arc.push_back(o);
          if (in_arc.empty()) continue;
          const GameUnit* t2 = Pick(rng, in_arc);
          out.push_back(FireArtillery{u->id, t2->square});
          if (rng.Choose(3) != 0) continue;
          if (rules.burning && IsInflammable(game.board().TerrainAt(t2->square)) &&
              rng.Choose(3) == 0)
            out.push_back(ShellOnInflammable{u->id, t2->square});
          const std::string kind = Pick(rng, t2->stands);
          out.push_back(ArtilleryCasualty{u->id, t2->id, kind});
        }
      }
      break;
    }
    case Phase::kHeldCanister:
    case Phase::kMusketry: {
      for (const auto* u : units) {
        if (game.phase() == Phase::kHeldCanister) {
          if (!u->holding_canister) continue;
          for (const auto* o : units)
            if (o->side != u->side && AreAdjacent(u->square, o->square))
              out.push_back(FireCanister{u->id, o->square, o->id});
          continue;
        }
        std::vector<std::string> targets;
        for (const auto* o : units)
          if (o->side != u->side && !game.WhyCannotFire(FireMusketry{u->id, o->id}))
            targets.push_back(o->id);
        if (!targets.empty() && rng.Choose(4) != 0)
          out.push_back(FireMusketry{u->id, Pick(rng, targets)});
      }
      break;
    }
    case Phase::kAttackerMoves: {
      for (const auto* u : units) {
        if (u->side != game.attacker() || rng.Choose(5) == 0) continue;
        const UnitType& t = rules.Unit(u->type);
        if (t.can_form_square && rng.Choose(12) == 0) {
          MoveUnit m{u->id, {}, u->facing, !u->formed_square, u->formed_square};
          if (m.form_square && rng.Choose(2) == 0) {
            // Try a Square of four units in a 2 x 2 block with this one at a corner (8A).
            for (const Square d : {Square{1, 0}, Square{0, 1}, Square{1, 1}})
              for (const auto* o : units)
                if (o->side == u->side && o->square.col == u->square.col + d.col &&
                    o->square.row == u->square.row + d.row &&
                    rules.Unit(o->type).arm != "commander")
                  m.square_with.push_back(o->id);
          }
          out.push_back(m);
          continue;
        }
        if (t.arm == "commander" && rng.Choose(8) == 0) {
          std::string host;
          for (const auto* o : units)
            if (o != u && o->side == u->side && o->square == u->square) host = o->id;
          out.push_back(AttachCommander{u->id, u->attached_to.empty() ? host : ""});
        }
        // A random path: mostly toward the enemy's baseline, a few tries until one is legal.
        const int forward = u->side == "red" ? -1 : 1;
        for (int attempt = 0; attempt < 6; ++attempt) {
          MoveUnit m;
          m.unit = u->id;
          Square cur = u->square;
          const int steps = 1 + rng.Choose(std::max(1, static_cast<int>(t.move)));
          for (int s = 0; s < steps; ++s) {
            const int dc = rng.Choose(3) - 1;
            const int dr = rng.Choose(4) == 0 ? -forward : forward;
            cur = {cur.col + dc, cur.row + (rng.Choose(3) == 0 ? 0 : dr)};
            if (cur == u->square) continue;
            m.path.push_back(cur);
          }
          if (m.path.empty()) continue;
          auto f =
              DirectionTo(m.path.size() > 1 ? m.path[m.path.size() - 2] : u->square, m.path.back());
          m.facing = f ? *f : u->facing;
          if (rules.melee.type_a_faces_sides_only && t.support == 'A' && IsCornerFacing(m.facing))
            m.facing = Turn(m.facing, 1);
          if (!game.WhyCannotMove(m)) {
            out.push_back(m);
            if (!t.battery.empty() && rng.Choose(3) != 0) out.push_back(Limber{u->id, false});
            break;
          }
        }
      }
      break;
    }
    case Phase::kMelees: {
      // All supports before any melee is fought, the attacker's first (5A). The defender's are
      // chosen against the state before the attacker's, so a few may be refused.
      const std::string sides[2] = {game.attacker(), game.defender()};
      for (const auto& side : sides)
        for (Square contact : game.PendingMelees())
          for (const auto* u : units)
            if (u->side == side && rng.Choose(3) != 0 &&
                (side == game.defender() || !game.WhyCannotSupport(DeclareSupport{u->id, contact})))
              out.push_back(DeclareSupport{u->id, contact});
      for (Square contact : game.PendingMelees())
        out.push_back(FightMelee{contact, static_cast<Mdi>(rng.Choose(kMdiCount)),
                                 static_cast<Mdi>(rng.Choose(kMdiCount))});
      break;
    }
    case Phase::kEndOfTurn: {
      if (!rules.destroy_own_equipment_at_end_of_turn) break;
      for (const auto* u : units)
        for (const auto& k : u->stands)
          if (rules.Stand(k).target_class == "equipment" && rng.Choose(40) == 0)
            out.push_back(DestroyEquipment{u->id, k});
      break;
    }
    default:
      break;
  }
  if (game.phase() == Phase::kMelees && rng.Choose(200) == 0)
    out.push_back(Surrender{game.defender()});
  out.push_back(EndPhase{});
  return out;
}

}  // namespace

std::vector<std::string> CheckInvariants(const Game& game) {
  std::vector<std::string> v;
  const RulesetData& rules = game.rules();
  const auto pending = game.PendingMelees();
  std::map<Square, std::set<std::string>> sides_at;
  for (const auto& u : game.units()) {
    if (game.MeleeValue(u) < -kEps) v.push_back(u.id + " has negative melee strength");
    if (u.status == UnitStatus::kOnTable) {
      if (u.stands.empty()) v.push_back(u.id + " is on the table with no stands");
      if (!game.board().grid.Contains(u.square))
        v.push_back(u.id + " is on the table but off the board");
      sides_at[u.square].insert(u.side);
    }
    if (u.status == UnitStatus::kDestroyed && !u.stands.empty())
      v.push_back(u.id + " is destroyed but keeps stands");
    if (u.status == UnitStatus::kOnTable && game.BurningSquares().count(u.square))
      v.push_back(u.id + " stands in the burning square " + SquareName(u.square));
    if (u.formed_square && (u.status != UnitStatus::kOnTable ||
                            static_cast<int>(u.stands.size()) < game.StandsNeededInSquare(u)))
      v.push_back(u.id + " is in a Square it cannot legally form");
    if (!u.attached_to.empty()) {
      const GameUnit* host = game.FindUnit(u.attached_to);
      if (!host || host->status != u.status || host->square != u.square)
        v.push_back(u.id + " is attached to " + u.attached_to + " but not with it");
    }
    for (const auto& k : u.stands)
      if (!rules.stand_values.count(k)) v.push_back(u.id + " holds an unknown stand kind " + k);
  }
  // No stand in two places: opposing units share a square only at a melee waiting to be fought.
  for (const auto& [sq, sides] : sides_at)
    if (sides.size() > 1 && std::find(pending.begin(), pending.end(), sq) == pending.end())
      v.push_back("both sides hold " + SquareName(sq) + " outside a melee");
  const std::string sides[2] = {game.attacker(), game.defender()};
  for (const auto& side : sides) {
    const Points p = game.PointsOf(side);
    const double total = p.on_table + p.off_table + p.destroyed + p.captured_from;
    if (p.on_table < -kEps || p.off_table < -kEps || p.destroyed < -kEps)
      v.push_back(side + " has negative points");
    if (std::abs(total - game.InitialPoints(side)) > 1e-6)
      v.push_back(side + " points not conserved: " + std::to_string(total) + " vs " +
                  std::to_string(game.InitialPoints(side)));
  }
  return v;
}

SelfPlayReport RunSelfPlay(const RulesetData& rules, const SelfPlayOptions& options) {
  SelfPlayReport rep;
  for (int g = 0; g < options.games; ++g) {
    const std::uint64_t seed = options.seed + static_cast<std::uint64_t>(g);
    SeededDice rng(seed);
    Game game(rules, MakeSetup(rules, rng, options.agreed_turns));
    int actions = 0;
    while (!game.Over()) {
      bool progressed = false;
      for (const Action& a : ChooseActions(game, rng)) {
        if (game.Over()) break;
        const Phase before = game.phase();
        const ActionResult r = game.Apply(a, rng);
        ++actions;
        ++rep.actions;
        if (!r.ok) ++rep.refused;
        if (r.ok) ++rep.applied[ActionName(a)];
        if (std::holds_alternative<FightMelee>(a) && r.ok) ++rep.melees;
        for (const auto& msg : CheckInvariants(game))
          rep.violations.push_back("seed " + std::to_string(seed) + " action " +
                                   std::to_string(actions) + " (" + ActionName(a) + "): " + msg);
        progressed = progressed || game.phase() != before;
      }
      if (actions > options.max_actions || !progressed) {
        rep.violations.push_back("seed " + std::to_string(seed) + ": game stuck in phase " +
                                 PhaseName(game.phase()));
        break;
      }
    }
    rep.dice_events += static_cast<long>(rng.Events().size());
    ++rep.games;
    if (game.EndReason().find("agreed") != std::string::npos)
      ++rep.ended_by_turns;
    else
      ++rep.ended_by_destruction;
    if (game.Winner() == "draw") ++rep.draws;
    if (rep.violations.size() > 50) break;
  }
  return rep;
}

}  // namespace referee::rules
