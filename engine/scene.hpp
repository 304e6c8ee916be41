// A SCENE: a board, the stands on it and (optionally) one shot at rest. The input of
// `referee adjudicate-scene`, and what the vision pipeline hands the engine.
//
//   {"ruleset": "napoleonic",                      // optional; the CLI --ruleset wins
//    "board": {...}, "terrain": [...], "features": [...],   // as in engine/board_file.hpp
//    "stands": [{"id": "r1", "side": "red", "kind": "line_infantry",
//                "center": [x, y],                 // table inches
//                "size": [w, d],                   // optional, inches; default: the kind's base
//                "angle_deg": 0,                   // optional, default 0 (facing -y)
//                "facing_known": true}],           // optional
//    "shot": {"kind": "field|horse|howitzer|catapult", "point": [x, y], "firer_side": "blue",
//             "gun_id": "b_gun1"                   // optional: the firing gun's stand, or
//             "gun": {"center": [x, y]}}}          // optional: where the firing gun stands
//
// Validation: unknown kinds, non-finite numbers, stands whose centre is off the board,
// duplicate ids and stands whose footprints overlap by more than 1 mm are InputErrors.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "engine/board.hpp"
#include "engine/stand.hpp"

namespace referee {

enum class ShotKind { kField, kHorse, kHowitzer, kCatapult };

std::string ShotKindName(ShotKind k);  // "field", "horse", "howitzer", "catapult"
std::optional<ShotKind> ParseShotKind(const std::string& name);
// Field and horse guns fire a Q-tip whose tip is the impact point; howitzers and catapults a
// plasticine shell whose centre mark is.
bool IsQtipShot(ShotKind k);

struct Shot {
  ShotKind kind = ShotKind::kField;
  Vec2 point;                         // Q-tip tip or shell centre, table inches
  std::string firer_side;             // side of the firing gun
  std::optional<std::string> gun_id;  // the firing gun's stand id, when known
  std::optional<Vec2> gun_center;     // the firing gun's position (from gun_id or shot.gun)
};

struct Scene {
  Board board;
  std::vector<Stand> stands;
  std::optional<Shot> shot;
  std::string ruleset;  // from the file's "ruleset" key; empty when absent
};

// Overlap allowed between two stand footprints before the scene is rejected: bases that touch
// or are pressed together share an edge within the camera's error.
constexpr double kStandOverlapToleranceIn = 1.0 / 25.4;

// Reads stands[] (and validates them against the board and each other).
std::vector<Stand> ParseStands(const nlohmann::json& j, const Board& board,
                               const StandKindCatalog& catalog, const std::string& file);
std::optional<Shot> ParseShot(const nlohmann::json& j, const Board& board,
                              const std::vector<Stand>& stands, const std::string& file);
Scene ParseScene(const nlohmann::json& j, const std::string& file, const StandKindCatalog& catalog);
Scene LoadScene(const std::filesystem::path& path, const StandKindCatalog& catalog);

}  // namespace referee
