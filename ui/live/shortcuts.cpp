#include "ui/live/shortcuts.hpp"

#include <array>
#include <stdexcept>

namespace referee::live {

std::span<const Shortcut> Shortcuts() {
  static constexpr std::array kShortcuts = {
      Shortcut{Command::kAcceptCalibration, Key::kEnter, "Enter", "accept the found grid"},
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
      Shortcut{Command::kConfirmRemoval, Key::kR, "R", "confirm the stands were removed"},
      Shortcut{Command::kUndoVerdict, Key::kU, "U", "undo the last verdict (logged)"},
      Shortcut{Command::kMoveStandMode, Key::kM, "M", "overrule: drag a stand to move it"},
      Shortcut{Command::kReassignUnitMode, Key::kN, "N",
               "overrule: re-assign the selected stand to the next unit"},
      Shortcut{Command::kChangeImpactMode, Key::kI, "I",
               "overrule: click to move the impact point"},
      Shortcut{Command::kRollDice, Key::kD, "D", "roll the dice for the open combat"},
      Shortcut{Command::kNextPhase, Key::kP, "P", "advance to the next turn phase"},
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
