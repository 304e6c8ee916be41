// Rules-engine actions and game set-ups as JSON, so a game log can hold a game exactly enough to
// play it again (`referee live --resume` after a crash): squares as [col, row], facings and MDI
// cards by name. The board is not written (the resumed game's board file gives it).
#pragma once

#include <nlohmann/json_fwd.hpp>

#include "engine/rules/game.hpp"

namespace referee::rules {

nlohmann::json ActionToJson(const Action& action);
// Throws std::invalid_argument naming the field when `j` is not an action ActionToJson wrote.
Action ActionFromJson(const nlohmann::json& j);

// The set-up's sides, units (with their flags), first attacker and agreed turns.
nlohmann::json SetupToJson(const GameSetup& setup);
// The same back, on `board`; throws std::invalid_argument naming the field.
GameSetup SetupFromJson(const nlohmann::json& j, const Board& board);

}  // namespace referee::rules
