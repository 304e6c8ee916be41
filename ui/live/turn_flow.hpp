// The turn flow of the live referee: a rules-engine game (engine/rules/game.hpp) driven by the
// players' choices, with no window. It says which phase it is, who attacks and who defends,
// who may fire at whom; it runs musketry and melees with dice rolled by the program or typed in
// from physical dice; it keeps each player's MDI card hidden until both are in; and it turns
// every roll, coin flip, MDI and result into game-log events (engine/game_log.hpp) and into the
// list of physical stands the players must take off or move. The panel (ui/live/panels.cpp)
// only draws it; tests/ui/turn_flow_test.cpp drives it without a screen.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/game_log.hpp"
#include "engine/rules/dice.hpp"
#include "engine/rules/game.hpp"
#include "engine/rules/ruleset.hpp"
#include "ui/live/table_setup.hpp"

namespace referee::live {

enum class DiceMode {
  kProgram,   // the referee rolls (seeded generator; the seed is logged at game start)
  kPhysical,  // the players roll real dice and type each value when asked
};
enum class MeleeRole { kAttacker, kDefender };
std::string MeleeRoleName(MeleeRole role);

// What the engine waits for in physical-dice mode.
struct NeededRoll {
  bool coin = false;    // a coin flip (heads/tails) rather than a die
  std::string purpose;  // the engine's words, e.g. "musketry: red/line_infantry#1 at ..."
};

// What the players must do on the table after a result: take these stands off a unit, and/or
// move the unit to a new square (a retreat).
struct TableChange {
  std::string unit;
  std::string side;
  std::vector<std::string> remove_stand_ids;  // table stand ids (or "unit:kind" without ids)
  std::optional<Square> move_to;              // the unit's new square after a retreat
  bool destroyed = false;
  std::string cause;  // "musketry", "melee", "canister", "morale", ...
};

class TurnFlow {
 public:
  // The ruleset must outlive the flow (the game keeps a reference to its data).
  TurnFlow(const rules::DeGreSweetRuleset& ruleset, std::uint64_t seed);

  const rules::DeGreSweetRuleset& ruleset() const { return ruleset_; }
  bool started() const { return game_ != nullptr; }
  const rules::Game* game() const { return game_.get(); }
  // Why the last action was refused, or what the engine waits for ("" when all is well).
  const std::string& notice() const { return notice_; }
  // The engine's lines for the last applied action (phase changes, hits, melee clause...).
  const std::vector<std::string>& last_results() const { return last_results_; }
  // A line for the players under the results (e.g. what a resumed log left half done).
  void AddResultLine(std::string line) { last_results_.push_back(std::move(line)); }

  // --- start ---
  // Starts the game with `first_attacker` (0 or 1, index into setup.sides) attacking first.
  // Refused when the setup has fewer than two sides or no units. Logs the set-up (firer_choice
  // "game_setup": units, stand ids, first attacker, dice seed) and the first turn_change.
  // Every applied action is then logged, after its own events, as firer_choice "turn_action"
  // (the action, the dice and coins it drew, the table stand ids after it, and how many events
  // just before it belong to it), so a log holds the game exactly enough to play it again.
  bool Start(TableSetup setup, int first_attacker);
  // `referee live --resume`: the game a log holds, played again from its last counted set-up
  // with each counted turn action and the very dice it drew (undone ones skipped), on `board`.
  // Turn, phase, attacker, units lost, shaken, retreated, in Square or limbered, shots used and
  // melees waiting are then as they were; an undo after the resume undoes the logged events.
  // Not logged again. Refused (nothing started, the reason in notice()) when the log holds no
  // started game, was played with another ruleset or board, or an action no longer plays.
  // Typed dice waiting, MDI cards not both in and table changes not yet confirmed are not in
  // the log: the players give them again.
  bool Resume(const Board& board, std::span<const GameEvent> events);

  // --- dice ---
  DiceMode dice_mode() const { return dice_mode_; }
  void SetDiceMode(DiceMode mode);
  // Physical dice: the roll the engine is waiting for, if any.
  const std::optional<NeededRoll>& needed() const { return needed_; }
  // Values typed so far for the waiting action.
  const std::vector<int>& typed_dice() const { return typed_dice_; }
  bool EnterDie(int face);     // 1..6; retries the waiting action
  bool EnterCoin(bool heads);  // retries the waiting action
  bool CancelWaiting();        // drop the waiting action and its typed values

  // --- phase ---
  std::string PhaseName() const;  // "" before the start
  int turn() const;
  std::string attacker() const;
  std::string defender() const;
  bool EndPhase();

  // --- musketry (and held canister) ---
  // Units that may fire now, each with at least one legal target.
  std::vector<std::string> Shooters() const;
  std::vector<std::string> TargetsOf(const std::string& firer) const;
  bool FireMusketry(const std::string& firer, const std::string& target);

  // The panel's choice of firer and target (F and E cycle them; D resolves).
  const std::string& firer() const { return firer_; }
  const std::string& target() const { return target_; }
  bool SelectFirer(const std::string& unit);  // also picks its first target
  bool SelectTarget(const std::string& unit);
  void NextFirer();  // in the melee phase: the next waiting melee
  void NextTarget();
  // D: fire the chosen firer at the chosen target, or fight the chosen melee.
  bool Resolve();

  // --- guns in the artillery phase besides Q-tip shots ---
  // Canister at an adjacent enemy (3 dice per field gun or howitzer shot, 2 per horse gun):
  // in the artillery phase FireMusketry / Resolve fire canister, and Shooters / TargetsOf list
  // the batteries and the targets the engine accepts.
  // Batteries of the attacker that may hold canister for the held-canister phase (2H) now.
  std::vector<std::string> CanHoldCanister() const;
  bool HoldCanister(const std::string& battery);
  // Batteries of the attacker the engine lets limber (limber = true) or unlimber now (2G).
  std::vector<std::string> CanLimber(bool limber) const;
  bool Limber(const std::string& battery, bool limber);

  // --- moves ---
  // Move `unit` to `to` along the straight king-step path, ending with `facing`.
  bool MoveUnit(const std::string& unit, Square to, Facing facing);
  // Forming Squares (8A), which takes the unit's whole move: the unit alone, or with the units in
  // `with` filling a k x k block of grid squares, one unit per square. Logged as the side's
  // choice (firer_choice "form_square") with the engine's line.
  bool FormSquare(const std::string& unit, const std::vector<std::string>& with = {});
  bool BreakSquare(const std::string& unit);
  // Squares the engine would accept now: each entry lists the members, the first unit (the
  // block's top-left) forms it. Every block the ruleset allows: single units, and k x k blocks
  // of the attacker's units, one per grid square (rectangles too where the ruleset's
  // square_blocks_only is false). Smallest blocks first.
  std::vector<std::vector<std::string>> SquareOptions() const;
  // Units in a Square now (to offer breaking it).
  std::vector<std::string> UnitsInSquare() const;

  // The moves the table shows in the attacker's move phase: the table's stands are grouped
  // into units again and each of the attacker's game units is found by its stand ids (the
  // stand tracker keeps them across snapshots, so two units that cross or swap squares are
  // read as two moves); units none of whose ids are on the table are matched to the nearest
  // table unit of their side and type. Matched units standing in another square moved there
  // (straight path, facing as their stands face).
  std::vector<rules::MoveUnit> MovesSeenOnTable(const std::vector<Stand>& stands,
                                                const StandKindCatalog& catalog) const;
  // Applies them, a move into a square another unit leaves after that unit's move; returns
  // how many the engine accepted (refusals in notice()).
  int ApplyTableMoves(const std::vector<Stand>& stands, const StandKindCatalog& catalog);

  // Re-read which table stands make up each unit (units found by their stand ids, else by side,
  // type and nearest square; only units whose stand count agrees with the game and that stand
  // in their game square are updated, so a unit moved on the table but not yet read keeps its
  // ids). Call with the current stands.
  void RefreshStandIds(const std::vector<Stand>& stands, const StandKindCatalog& catalog);

  // --- melee: MDI cards hidden until both are in ---
  std::vector<Square> PendingMelees() const;
  const std::optional<Square>& melee() const { return melee_; }
  bool SelectMelee(Square contact);
  bool ChooseMdi(MeleeRole role, rules::Mdi card);
  bool MdiIn(MeleeRole role) const;
  // Both cards, once both players have chosen; nullopt before (nobody may see one alone).
  std::optional<std::pair<rules::Mdi, rules::Mdi>> RevealedMdi() const;
  bool Fight();
  // Supports (5A): every support is declared before any melee is fought, the attacker's first.
  // Units that may support the selected melee now (the engine's WhyCannotSupport is empty).
  std::vector<std::string> SupportCandidates() const;
  // Declares `unit` as support of the selected melee; logged as firer_choice "support".
  bool DeclareSupport(const std::string& unit);
  // Supports declared for the melee at `contact` this phase, in order.
  std::vector<std::string> SupportsDeclared(Square contact) const;

  // --- artillery (from the shot flow) ---
  // A gun or catapult shot is declared to the engine when it is armed (rules::FireArtillery:
  // arc, range, screening by adjacent friends (3E), shots left, limbered guns, a catapult's
  // manning stand), before the projectile flies; its hit then follows as OnShotCasualties.
  // Why the engine would refuse a shot of the table stand `gun_stand_id` aimed at `target`;
  // nullopt when it may fire.
  std::optional<std::string> WhyCannotDeclareShot(const std::string& gun_stand_id,
                                                  Square target) const;
  // Declares the shot; logged as firer_choice "fire_artillery" (with `shot_id`, the shot
  // flow's id). A catapult is manned by `manned_by` (a unit id), or the rules pick one.
  bool DeclareShot(const std::string& gun_stand_id, Square target, const std::string& shot_id = "",
                   const std::string& manned_by = "");
  // 6D: the shot of the table gun `gun_stand_id` came to rest touching woods, a house or a
  // bridge in `square`: the engine rolls for fire (logged with its dice). Refused outside the
  // artillery phase, on a square that does not burn, or for a stand in no gun unit.
  bool FireRoll(const std::string& gun_stand_id, Square square);
  // Takes back the last declared shot whose hit is not in yet (the players cancelled the shot
  // before firing): the engine plays the game again without it.
  bool UndoDeclaredShot();
  // Takes back the declaration of the shot flow's `shot_id` (a resumed log whose last shot was
  // armed but never judged: the players fire it again). False when it was not declared or a
  // hit of its firer followed (with the reason in notice()).
  bool TakeBackShot(const std::string& shot_id);
  // The enemy units the gun may be aimed at, those the engine allows first (nearest first),
  // then the rest with the engine's reason.
  struct AimOption {
    std::string unit;
    Square square;
    std::string refusal;  // "" when the engine allows the shot
  };
  std::vector<AimOption> AimOptions(const std::string& gun_stand_id) const;
  // Stands removed after a shot verdict: each becomes an ArtilleryCasualty of the unit that
  // holds it, fired by the unit holding `gun_stand_id`. Not logged again (the shot flow logs
  // casualties_removed); refused outside the artillery phase.
  bool OnShotCasualties(const std::string& gun_stand_id,
                        const std::vector<std::string>& removed_stand_ids);

  // --- table changes the players must make ---
  const std::vector<TableChange>& table_changes() const { return table_changes_; }
  bool ConfirmTableMatches();  // the players made every change; the list is cleared

  // The players say the table stand is a `kind` (the camera cannot tell kinds of one base size
  // apart): the game is played again from its set-up with that stand's kind changed, each
  // action with the dice it drew. Refused when the kind is not in its unit's organisation, the
  // stand was not in the set-up, or an action no longer plays the same way.
  bool CorrectStandKind(const std::string& stand_id, const std::string& kind);

  // The unit holding a table stand ("" if none).
  std::string UnitOfStand(const std::string& stand_id) const;
  const std::map<std::string, std::vector<std::string>>& stand_ids() const { return stand_ids_; }

  // --- undo (the engine has none: the game is played again without the action) ---
  size_t actions_played() const { return history_.size(); }
  bool UndoLast();
  // Undo the artillery casualties of these table stands (a shot verdict undone by the players).
  bool UndoShotCasualties(const std::vector<std::string>& stand_ids);

  // Game-log events produced since the last call, in order.
  std::vector<EventPayload> TakeEvents();
  // The same with the action each event belongs to (-1: none), for NoteLogged.
  struct TurnEvent {
    EventPayload payload;
    int action = -1;
  };
  std::vector<TurnEvent> TakeTurnEvents();
  // The log acknowledged an event of `action` as `seq`: an undo of the action undoes it.
  void NoteLogged(int action, int64_t seq);

 private:
  enum class Cause { kMusketry, kMelee, kCanister, kMove, kPhase, kArtillery };
  bool Run(const rules::Action& action, Cause cause);
  bool Retry();
  void Record(const rules::Action& action, Cause cause, const rules::ActionResult& result,
              const std::vector<rules::GameUnit>& before, int turn_before,
              rules::Phase phase_before);
  void RecordDice(const rules::ActionResult& result, const std::string& side);
  bool Refuse(std::string why);
  void Emit(EventPayload payload);
  bool Undo(size_t index);
  // One applied action with every value it drew, to replay it exactly.
  struct Played {
    rules::Action action;
    Cause cause = Cause::kPhase;
    std::vector<int> dice;
    std::vector<int> coins;
    std::map<std::string, std::vector<std::string>> ids_before;
    std::vector<int64_t> logged_seqs;
    std::string shot_stand;  // ArtilleryCasualty from the shot flow: the table stand removed
    int turn = 0;            // the game turn it was played in
    std::string shot_id;     // FireArtillery: the shot flow's id of the shot declared
  };
  struct SeenMove {
    rules::MoveUnit move;
    std::vector<std::string> stand_ids;  // the unit's table stands where it now stands
  };
  // Game unit index -> seen unit index, same side and type: by shared stand ids first (most
  // shared first), then nearest first; `side` "" = both.
  std::vector<std::pair<size_t, size_t>> MatchUnits(const TableSetup& seen,
                                                    const std::string& side) const;
  std::vector<SeenMove> SeenMoves(const std::vector<Stand>& stands,
                                  const StandKindCatalog& catalog) const;

  // Whether the engine would accept `action` now: played on a copy of the game with no dice
  // (running out of dice means every check passed). For actions without a WhyCannot check.
  bool EngineAccepts(const rules::Action& action) const;
  // The game unit holding the table stand and the stand's kind ({nullptr, ""} when none).
  std::pair<const rules::GameUnit*, std::string> StandInGame(const std::string& stand_id) const;

  const rules::DeGreSweetRuleset& ruleset_;
  std::uint64_t seed_;
  rules::SeededDice program_dice_;
  DiceMode dice_mode_ = DiceMode::kProgram;
  std::unique_ptr<rules::Game> game_;
  std::map<std::string, std::vector<std::string>> stand_ids_;

  // The action waiting for physical dice, with the values typed for it so far.
  std::optional<rules::Action> waiting_;
  Cause waiting_cause_ = Cause::kPhase;
  std::optional<NeededRoll> needed_;
  std::vector<int> typed_dice_;
  std::vector<int> typed_coins_;

  std::string firer_, target_;
  std::optional<Square> melee_;
  std::optional<rules::Mdi> mdi_[2];  // [attacker, defender], never shown alone

  std::string notice_;
  std::vector<std::string> last_results_;
  std::vector<TableChange> table_changes_;
  rules::GameSetup initial_;
  std::map<std::string, std::vector<std::string>> initial_stand_ids_;  // parallel to initial_
  std::vector<Played> history_;
  int recording_ = -1;             // history index whose events Record is emitting
  std::string declaring_shot_id_;  // the shot flow's id of the shot being declared
  std::string casualty_stand_;     // the table stand an ArtilleryCasualty being run removes
  // Table stand ids of the units a move being run takes to their new squares (read on the table).
  std::map<std::string, std::vector<std::string>> moving_ids_;
  // The set-up as logged (firer_choice "game_setup"), at the start and after a kind correction.
  void EmitSetup();
  std::vector<TurnEvent> events_;
};

}  // namespace referee::live
