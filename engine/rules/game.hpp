// The game facade: state of a gridded game and "apply this action / what phase is it". The UI
// submits actions (a fired Q-tip's casualties, a move, a melee's MDI cards...) and reads the
// phase, the log and the points; it never computes a rule itself.
//
// Stable API: phases, actions and results below are what the UI codes against.
#pragma once

#include <array>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "engine/board.hpp"
#include "engine/grid.hpp"
#include "engine/rules/dice.hpp"
#include "engine/rules/melee.hpp"
#include "engine/rules/ruleset_data.hpp"

namespace referee::rules {

enum class Phase {
  kArtillery,
  kMusketry,
  kAttackerMoves,
  kHeldCanister,
  kMelees,
  kEndOfTurn,
  kGameOver
};
std::string PhaseName(Phase p);

enum class UnitStatus { kOnTable, kOffTable, kDestroyed };

struct GameUnit {
  std::string id;    // unique, e.g. "red/line_infantry#1"
  std::string side;  // one of the two side names
  std::string type;  // ruleset unit type
  Square square;
  Facing facing = Facing::kN;
  std::vector<std::string> stands;  // stand kinds still with the unit
  UnitStatus status = UnitStatus::kOnTable;
  bool formed_square = false;  // Napoleonic infantry square (8A)
  // Bookkeeping the rules need within a turn.
  Facing facing_at_turn_start = Facing::kN;
  std::optional<Square> came_from;  // square it charged from this turn (attacker retreats)
  bool charged = false;             // moved into a contact square this turn
  bool fought_this_turn = false;
  bool holding_canister = false;
  int stands_at_phase_start = 0;
  // Added in session 2 (append-only):
  bool limbered = false;  // Napoleonic gun limbered (2G); a limbered gun cannot fire (3B)
  std::string attached_to =
      {};                // commander: the unit it has joined and moves with (2B / Ancient 2)
  int square_group = 0;  // formed Square: units sharing a nonzero group form one Square (8A)
};

struct SideSetup {
  std::string name;
  int home_row = 0;  // the row of its baseline; morale retreats go toward it
};

struct GameSetup {
  Board board;
  std::array<SideSetup, 2> sides;
  std::vector<GameUnit> units;
  int first_attacker = 0;  // index into sides
  int agreed_turns = 8;    // game ends after this many turns (12)
};

// ---- actions -----------------------------------------------------------------------------
// A stand removed by artillery (Q-tip / shell adjudicated by the camera or the players).
struct ArtilleryCasualty {
  std::string firer_unit;   // the battery / catapult that fired
  std::string target_unit;  // unit that loses the stand
  std::string stand_kind;   // which of its stands
};
// Hold canister for the held-canister phase (Napoleonic 2H).
struct HoldCanister {
  std::string battery_unit;
};
struct FireCanister {
  std::string battery_unit;
  Square target;
  std::string target_unit;  // which unit in the square is shot at
};
struct FireMusketry {
  std::string firer_unit;
  std::string target_unit;
};
struct MoveUnit {
  std::string unit;
  std::vector<Square> path;  // squares entered, in order (not the start square)
  Facing facing = Facing::kN;
  bool form_square = false;  // takes the whole move (8A)
  bool break_square = false;
  // form_square: the other units forming the same Square, one per grid square of a k x k block.
  std::vector<std::string> square_with = {};
};
struct DeclareSupport {
  std::string unit;
  Square contact;
};
struct FightMelee {
  Square contact;
  Mdi attacker_mdi = Mdi::kLine;
  Mdi defender_mdi = Mdi::kLine;
};
struct EndPhase {};
struct Surrender {
  std::string side;
};
// A fired tip (or howitzer/catapult shell) came to rest touching a tree, house or bridge (6D):
// the engine rolls the dice to see whether the square burns.
struct ShellOnInflammable {
  std::string firer_unit;
  Square square;
};
// The attacker limbers (true) or unlimbers (false) a gun (2G).
struct Limber {
  std::string battery_unit;
  bool limber = true;
};
// A side destroys one of its own equipment stands (gun, wagon) at the end of a turn (11).
struct DestroyEquipment {
  std::string unit;
  std::string stand_kind;
};
// A commander joins the unit in its square (unit empty: it leaves its unit) (2B / Ancient 2).
struct AttachCommander {
  std::string commander;
  std::string unit;
};
// A gun or catapult shot declared before the projectile is fired (Napoleonic 3E-3G, Ancient
// CATAPULT FIRE 1-3): it uses one of the firer's shots and, for a catapult, ties the stand that
// mans it, whether the shell then hits or misses. The shell's hit, if any, follows as an
// ArtilleryCasualty of the same firer (which then uses no further shot).
struct FireArtillery {
  std::string firer_unit;
  Square target;               // the square aimed at (arc, range and screening are checked)
  std::string gun_kind = {};   // stand kind fired (field_gun, howitzer...); empty: the first gun
  std::string manned_by = {};  // catapult: unit whose stand mans it; empty: the rules pick one
};
// Units of the attacker moved at the same time and checked as a set: two friends may swap squares,
// or a ring of them change places (friends may pass through each other, 1E), since only where
// they all end must no two units of a side share a square (1C). Each move is otherwise checked
// as a MoveUnit with the other movers lifted off the table. Charges, forming and breaking a
// Square are not moved in a set (apply them as single MoveUnit actions).
struct MoveUnits {
  std::vector<MoveUnit> moves;
};
using Action = std::variant<ArtilleryCasualty, HoldCanister, FireCanister, FireMusketry, MoveUnit,
                            DeclareSupport, FightMelee, EndPhase, Surrender, ShellOnInflammable,
                            Limber, DestroyEquipment, AttachCommander, FireArtillery, MoveUnits>;
std::string ActionName(const Action& a);

struct LogEntry {
  int turn = 0;
  Phase phase = Phase::kArtillery;
  std::string text;
  std::vector<DiceEvent> dice;  // rolls and flips made for this entry, with their purpose
};

struct ActionResult {
  bool ok = false;
  std::string refusal;  // why the action is not legal (when !ok)
  std::vector<LogEntry> entries;

  static ActionResult Refused(std::string why) {
    ActionResult r;
    r.refusal = std::move(why);
    return r;
  }
};

struct Points {
  double on_table = 0;
  double off_table = 0;
  double destroyed = 0;
  double captured_from = 0;                              // equipment this side lost by capture
  double Score() const { return on_table + off_table; }  // 12: including units off the board
};

class Game {
 public:
  Game(const RulesetData& rules, GameSetup setup);

  Phase phase() const { return phase_; }
  int turn() const { return turn_; }
  const std::string& attacker() const;
  const std::string& defender() const;
  const std::vector<GameUnit>& units() const { return units_; }
  const GameUnit* FindUnit(const std::string& id) const;
  const std::vector<LogEntry>& log() const { return log_; }
  const Board& board() const { return setup_.board; }
  const RulesetData& rules() const { return rules_; }
  // Contact squares of melees waiting in this turn.
  std::vector<Square> PendingMelees() const;

  // Applies one action. Illegal actions are refused (ok = false, state unchanged). With
  // PhysicalDice short of values, DiceExhausted is thrown and the state is left unchanged.
  ActionResult Apply(const Action& action, DiceSource& dice);

  Points PointsOf(const std::string& side) const;
  double InitialPoints(const std::string& side) const;
  bool Over() const { return phase_ == Phase::kGameOver; }
  // "attacker", "defender" side name of the higher score, or "draw"; set once the game is over.
  std::string Winner() const;
  std::string EndReason() const { return end_reason_; }

  // Legality checks (public so the UI can grey out choices and self-play can pick at random).
  std::optional<std::string> WhyCannotMove(const MoveUnit& m) const;
  std::optional<std::string> WhyCannotMoveTogether(const MoveUnits& m) const;
  std::optional<std::string> WhyCannotFire(const FireMusketry& f) const;
  std::optional<std::string> WhyCannotSupport(const DeclareSupport& s) const;
  double MeleeValue(const GameUnit& u) const;
  std::optional<std::string> WhyCannotLimber(const Limber& l) const;
  std::optional<std::string> WhyCannotDestroyEquipment(const DestroyEquipment& d) const;
  std::optional<std::string> WhyCannotFireArtillery(const FireArtillery& f) const;
  // The unit whose stand would man `catapult` (the named one, or the rules' pick: crews first);
  // nullptr with *why set when none may.
  const GameUnit* CatapultMan(const GameUnit& catapult, const std::string& named,
                              std::string* why) const;
  // Squares set alight (6D): impassable, and they screen like units.
  const std::set<Square>& BurningSquares() const { return burning_; }
  // Units forming the Square with `unit` (itself included); empty when it is not in one.
  std::vector<std::string> SquareMembers(const std::string& unit) const;
  // Stands each unit of a Square needs for its faces (1 per square of frontage on each face).
  int StandsNeededInSquare(const GameUnit& u) const;

 private:
  struct Melee {
    Square contact;
    std::vector<std::string> attackers;  // units that charged in
    std::vector<std::string> defenders;  // units in the square
    std::vector<std::string> attacker_supports;
    std::vector<std::string> defender_supports;
  };
  ActionResult ApplyUnchecked(const Action& action, DiceSource& dice);
  GameUnit* Unit(const std::string& id);
  const GameUnit* UnitAt(Square s, const std::string& side) const;
  std::vector<const GameUnit*> UnitsAt(Square s) const;
  bool IsEnemyAt(Square s, const std::string& side) const;
  int SideIndex(const std::string& side) const;
  const std::string& Enemy(const std::string& side) const;
  void Log(ActionResult& r, std::string text, DiceSource& dice, size_t dice_before);
  void AdvancePhase(ActionResult& r, DiceSource& dice);
  void StartTurn(ActionResult& r, DiceSource& dice);
  void CheckEnd(ActionResult& r);
  void RemoveStand(GameUnit& u, size_t index, bool captured_by_enemy);
  enum class RetreatKind { kMorale, kMelee, kFire };
  // Returns the commanders carried along with the unit.
  std::vector<std::string> Retreat(GameUnit& u, ActionResult& r, RetreatKind kind);
  void MoraleRetreats(ActionResult& r, DiceSource& dice);
  ActionResult DoMove(const MoveUnit& m, DiceSource& dice);
  ActionResult DoMoveTogether(const MoveUnits& m, DiceSource& dice);
  ActionResult DoFight(const FightMelee& f, DiceSource& dice);
  ActionResult DoMusketry(const FireMusketry& f, DiceSource& dice);
  ActionResult DoCanister(const FireCanister& f, DiceSource& dice);
  ActionResult DoArtilleryCasualty(const ArtilleryCasualty& a, DiceSource& dice);
  int ShotsAvailable(const GameUnit& battery) const;
  bool CanManGun(const GameUnit& u) const;
  void ComputeShots();
  void CheckBrokenSquares(ActionResult& r);
  ActionResult DoShellOnInflammable(const ShellOnInflammable& s, DiceSource& dice);
  ActionResult DoLimber(const Limber& l, DiceSource& dice);
  ActionResult DoDestroyEquipment(const DestroyEquipment& d, DiceSource& dice);
  ActionResult DoAttachCommander(const AttachCommander& a, DiceSource& dice);
  ActionResult DoFireArtillery(const FireArtillery& f, DiceSource& dice);
  ActionResult DoDeclareSupport(const DeclareSupport& s, DiceSource& dice);
  std::optional<std::string> WhyCannotFormSquare(const MoveUnit& m) const;
  // Commanders attached to `unit` that stood with it at `from` follow it to where it is now.
  void CarryAttached(const GameUnit& unit, Square from, ActionResult& r);
  bool Impassable(Square s) const;

  const RulesetData& rules_;
  GameSetup setup_;
  std::vector<GameUnit> units_;
  std::map<std::string, double> initial_points_;
  std::map<std::string, double> captured_from_;
  std::map<std::string, double> destroyed_points_;
  std::vector<Melee> melees_;
  std::map<std::string, int> fired_at_;     // target unit -> units that fired at it this phase
  std::map<std::string, int> shots_used_;   // battery -> shots fired this turn
  std::map<std::string, bool> has_fired_;   // unit -> fired this phase
  std::map<std::string, int> shots_total_;  // battery -> shots this turn, fixed at turn start (2A)
  std::set<std::string> moved_;             // units that moved this turn
  std::set<Square> burning_;                // 6D
  int next_square_group_ = 1;
  bool defender_declared_support_ = false;  // this turn: the attacker's declarations are closed
  bool melee_fought_ = false;               // this turn: all declarations are closed
  std::set<std::string> manning_;           // units one of whose stands manned a catapult
  std::set<std::string> shot_declared_;     // firers whose declared shot's hit is not yet reported
  Phase phase_ = Phase::kArtillery;
  int turn_ = 1;
  int attacker_ = 0;
  std::string end_reason_;
  std::string winner_;
  std::vector<LogEntry> log_;
};

}  // namespace referee::rules
