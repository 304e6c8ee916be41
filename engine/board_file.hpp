// The BOARD file: the grid, its terrain and the physical table kit (side colours, corner
// markers, line width, mat). Read by `referee calibrate|adjudicate|live --board`; a SCENE file
// holds the same `board`/`terrain`/`features` keys.
//
//   {"board": {"cols": 12, "rows": 8, "square_size": 4.0},          // inches
//    "terrain": [{"square": [3, 2], "type": "woods"}],               // optional; others open
//    "features": [{"id": "farm", "type": "house",                     // optional outlines,
//                  "polygon": [[x, y], ...]}],                        //   table inches
//    "sides": {"red": [192, 48, 42], "blue": [42, 75, 192]},          // optional, sRGB 0-255
//    "markers": true,            // optional: ArUco 4x4_50 ids 0-3 outside the corners
//    "line_width_mm": 2.0,       // optional: drawn grid line width
//    "base_height_mm": 2.5,      // optional: thickness of the stands' bases
//    "figure_height_mm": 20.0,   // optional: the figures' tops above their base
//    "shell_colour": [235, 200, 40],  // optional: the shells' plasticine, sRGB
//    "mat": "green"}             // optional: mat colour name, informative
#pragma once

#include <array>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "engine/board.hpp"

namespace referee {

// Reads `board`, optional `terrain` and optional `features` of a board or scene file.
// Throws InputError naming `file` and the field on anything missing, mistyped, non-finite,
// out of the board, duplicated or unknown, and on a key nested in `board` that belongs beside it.
Board ParseBoardJson(const nlohmann::json& j, const std::string& file);

struct BoardFile {
  Board board;
  // Side name -> border colour, sRGB 0-255. Default TABLE_KIT red 192,48,42 and blue 42,75,192.
  std::map<std::string, std::array<int, 3>> side_colors_srgb;
  bool has_markers = false;    // ArUco 4x4_50 ids 0-3, 2" wide, centred 1.5" outside corners
  double line_width_mm = 2.0;  // grid line width as drawn (TABLE_KIT: 1.5-3 mm)
  std::string mat_color;       // e.g. "green"; empty when not stated
  // The club's stands and miniatures: one camera cannot measure how high a projectile lying on
  // a base or its figures rests, and each millimetre of height moves the impact point by up to
  // half a millimetre on the table. TABLE_KIT: bases 2-3 mm, figures up to ~25 mm (6 mm scale
  // armies ~8).
  double base_height_mm = 2.5;
  double figure_height_mm = 20.0;
  // How far the club's marks may lie from where the referee puts a point it could not see them
  // at: a hand-pressed dot from its shell's centre (where a shell whose dot was unseen is
  // placed), and a Q-tip's painted head's end from one nominal head length past the white stick
  // (where a tip whose head was not told from the mat is put). The too-close-to-call check adds
  // them to the camera's error for such a point. Defaults 2 and 3 mm.
  double shell_dot_offset_mm = 2.0;
  double qtip_head_spread_mm = 3.0;
  // The howitzer and catapult shells' plasticine colour, sRGB 0-255 (TABLE_KIT: yellow).
  std::array<int, 3> shell_colour_srgb{235, 200, 40};
  // Top-level keys the referee does not read (a misspelt "terain" would otherwise go unseen):
  // the commands name them on stderr.
  std::vector<std::string> ignored_keys;
};

// One line naming `file`'s ignored keys ("" when none), for the commands to print.
std::string IgnoredKeysNote(const BoardFile& board, const std::string& file);

std::map<std::string, std::array<int, 3>> DefaultSideColors();
BoardFile ParseBoardFile(const nlohmann::json& j, const std::string& file);
BoardFile LoadBoardFile(const std::filesystem::path& path);

}  // namespace referee
