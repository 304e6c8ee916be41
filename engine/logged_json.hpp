// Fields of the JSON a game log keeps verbatim (a shot's verdict, a choice's details). The log's
// reader keeps such a line whole, so a damaged field here reads as absent: a report or a replay
// shows what the rest of the line says instead of stopping on one bad value.
#pragma once

#include <string>

#include <nlohmann/json_fwd.hpp>

namespace referee {

// obj[key] when obj is an object holding a value of that type, else fallback.
double LoggedNumber(const nlohmann::json& obj, const char* key, double fallback);
bool LoggedBool(const nlohmann::json& obj, const char* key, bool fallback);
std::string LoggedString(const nlohmann::json& obj, const char* key, const std::string& fallback);

}  // namespace referee
