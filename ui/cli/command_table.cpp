#include "ui/cli/command_table.hpp"

#include <array>

#include "ui/cli/commands.hpp"

namespace referee::cli {

std::span<const Command> Commands() {
  static constexpr std::array kCommands = {
      Command{"version", "print the version and where data is read from", RunVersion},
      Command{"calibrate", "calibrate the table from a camera image of the grid", RunCalibrate},
      Command{"calibrate-lens", "lens intrinsics from chessboard/ChArUco photos", RunCalibrateLens},
      Command{"rectify", "top view of a camera image through a calibration", RunRectify},
      Command{"bench", "benchmarks: print measured figures", RunBench},
      Command{"log", "check a game log: bad lines with their line numbers", RunLog},
      Command{"report", "write a self-contained HTML report of a game log", RunReport},
      Command{"replay", "step through a game log in a window, shot by shot", RunReplay},
      Command{"club", "club history: add finished games, print standings", RunClub},
      Command{"adjudicate-scene", "rule on one shot in a SCENE.json (text or --json)",
              RunAdjudicateScene},
      Command{"adjudicate", "rule on a shot from before/after camera frames (vision)",
              RunAdjudicate},
      Command{"live", "the live overlay on a camera, video, image folder or --demo", RunLive},
      Command{"rules", "the rules engine without a camera: melee CASE.json, fire ..., army [NAME]",
              RunRules},
      Command{"synth", "render synthetic table scenes with exact ground truth", RunSynth},
  };
  return kCommands;
}

}  // namespace referee::cli
