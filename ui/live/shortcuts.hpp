// Every main action of the live overlay and the one key that triggers it. This table is the
// only place keys are assigned: the window maps key presses through it and the help panel lists
// it, so a shortcut can never exist without being documented.
#pragma once

#include <optional>
#include <span>
#include <string_view>

namespace referee::live {

enum class Command {
  kAcceptCalibration,
  kRetryCalibration,
  kRecalibrate,
  kSampleSideColour,
  kNextBattery,
  kNextShotType,
  kArm,
  kCancelShot,
  kAcceptVerdict,
  kNextCandidate,
  kChooseCasualty,
  kConfirmRemoval,
  kUndoVerdict,
  kMoveStandMode,
  kReassignUnitMode,
  kChangeImpactMode,
  kRollDice,
  kNextPhase,
  kStartGame,
  kNextFirer,
  kNextTarget,
  kReadMoves,
  kToggleDiceMode,
  kMdiAttacker,
  kMdiDefender,
  kDie1,
  kDie2,
  kDie3,
  kDie4,
  kDie5,
  kDie6,
  kCoinHeads,
  kCoinTails,
  kUndoTurnAction,
  kTableIsClear,
  kToggleView,
  kToggleHelp,
  kSaveLog,
  kQuit,
};

// Keys by the character they print (letters upper-case) or a named key; the window maps these
// to its toolkit's key codes in one place (ui/live/live_window.cpp).
enum class Key : int {
  kSpace = ' ',
  k0 = '0',
  k1 = '1',
  k2 = '2',
  k3 = '3',
  k4 = '4',
  k5 = '5',
  k6 = '6',
  kA = 'A',
  kB = 'B',
  kC = 'C',
  kD = 'D',
  kE = 'E',
  kF = 'F',
  kG = 'G',
  kH = 'H',
  kI = 'I',
  kJ = 'J',
  kK = 'K',
  kL = 'L',
  kM = 'M',
  kN = 'N',
  kO = 'O',
  kP = 'P',
  kQ = 'Q',
  kR = 'R',
  kS = 'S',
  kT = 'T',
  kU = 'U',
  kV = 'V',
  kW = 'W',
  kX = 'X',
  kY = 'Y',
  kZ = 'Z',
  kEnter = 1000,
  kEscape,
  kTab,
  kBackspace,
  kF1,
};

struct Shortcut {
  Command command;
  Key key;
  std::string_view key_label;    // as printed in the help panel
  std::string_view description;  // what it does, in the players' words
};

std::span<const Shortcut> Shortcuts();
std::optional<Command> CommandForKey(Key key);
const Shortcut& ShortcutFor(Command command);

}  // namespace referee::live
