#include "ui/live/shortcuts.hpp"

#include <array>
#include <stdexcept>

namespace referee::live {

std::span<const Shortcut> Shortcuts() {
  static constexpr std::array kShortcuts = {
      Shortcut{Command::kAcceptCalibration, Key::kEnter, "Enter",
               "accept the found grid (or the recalibration offered after a bump)"},
      Shortcut{Command::kRetryCalibration, Key::kBackspace, "Backspace", "retry grid detection"},
      Shortcut{Command::kRecalibrate, Key::kK, "K", "recalibrate (after a camera bump)"},
      Shortcut{Command::kSampleSideColour, Key::kS, "S",
               "sample the next side colour at the mouse"},
      Shortcut{Command::kNextBattery, Key::kB, "B", "select the next battery (gun) to fire"},
      Shortcut{Command::kNextShotType, Key::kT, "T", "cycle the shot type"},
      Shortcut{Command::kArm, Key::kSpace, "Space", "arm: watch for the next shot"},
      Shortcut{Command::kCancelShot, Key::kEscape, "Esc", "cancel the armed shot"},
      Shortcut{Command::kAcceptVerdict, Key::kA, "A", "accept the verdict"},
      Shortcut{Command::kNextCandidate, Key::kTab, "Tab", "select the next candidate stand"},
      Shortcut{Command::kChooseCasualty, Key::kC, "C", "firer chooses the selected stand"},
      Shortcut{Command::kConfirmRemoval, Key::kR, "R",
               "confirm the table matches (stands removed, retreats made)"},
      Shortcut{Command::kUndoVerdict, Key::kU, "U", "undo the last verdict (logged)"},
      Shortcut{Command::kMoveStandMode, Key::kM, "M", "overrule: drag a stand to move it"},
      Shortcut{Command::kReassignUnitMode, Key::kN, "N",
               "overrule: re-assign the selected stand to the next unit"},
      Shortcut{Command::kChangeImpactMode, Key::kI, "I",
               "overrule: click to move the impact point"},
      Shortcut{Command::kStartGame, Key::kG, "G", "start the game with the units on the table"},
      Shortcut{Command::kRollDice, Key::kD, "D",
               "resolve: fire the chosen unit, or fight the chosen melee"},
      Shortcut{Command::kNextPhase, Key::kP, "P", "end the phase (the engine says what is next)"},
      Shortcut{Command::kNextFirer, Key::kF, "F", "next unit to fire / next melee"},
      Shortcut{Command::kNextTarget, Key::kE, "E", "next target of the firing unit"},
      Shortcut{Command::kReadMoves, Key::kJ, "J", "read the attacker's moves from the table"},
      Shortcut{Command::kToggleDiceMode, Key::kX, "X", "dice: program rolls / physical dice"},
      Shortcut{Command::kMdiAttacker, Key::kW, "W",
               "attacker picks an MDI card (hidden until both are in)"},
      Shortcut{Command::kMdiDefender, Key::kO, "O",
               "defender picks an MDI card (hidden until both are in)"},
      Shortcut{Command::kDie1, Key::k1, "1", "physical dice: type a 1"},
      Shortcut{Command::kDie2, Key::k2, "2", "physical dice: type a 2"},
      Shortcut{Command::kDie3, Key::k3, "3", "physical dice: type a 3"},
      Shortcut{Command::kDie4, Key::k4, "4", "physical dice: type a 4"},
      Shortcut{Command::kDie5, Key::k5, "5", "physical dice: type a 5"},
      Shortcut{Command::kDie6, Key::k6, "6", "physical dice: type a 6"},
      Shortcut{Command::kCoinHeads, Key::kH, "H", "physical coin: heads"},
      Shortcut{Command::kCoinTails, Key::kZ, "Z", "physical coin: tails"},
      Shortcut{Command::kUndoTurnAction, Key::kY, "Y",
               "undo the last turn action (fire, move, melee, phase end; logged)"},
      Shortcut{Command::kTableIsClear, Key::k0, "0",
               "the table is clear: end a hand pause (something left across the board edge)"},
      Shortcut{Command::kToggleView, Key::kV, "V", "switch camera / rectified top view"},
      Shortcut{Command::kToggleHelp, Key::kF1, "F1", "show / hide this help"},
      Shortcut{Command::kSaveLog, Key::kL, "L", "flush the game log to disk"},
      Shortcut{Command::kQuit, Key::kQ, "Q", "quit"},
  };
  return kShortcuts;
}

std::optional<Command> CommandForKey(Key key) {
  for (const auto& s : Shortcuts()) {
    if (s.key == key) return s.command;
  }
  return std::nullopt;
}

const Shortcut& ShortcutFor(Command command) {
  for (const auto& s : Shortcuts()) {
    if (s.command == command) return s;
  }
  throw std::logic_error("a live command has no shortcut");
}

}  // namespace referee::live
