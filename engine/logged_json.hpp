// Fields of the JSON a game log keeps verbatim (a shot's verdict, a choice's details). The log's
// reader keeps such a line whole, so a damaged field here reads as absent: a report or a replay
// shows what the rest of the line says instead of stopping on one bad value.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace referee {

// obj[key] when obj is an object holding a value of that type, else fallback.
double LoggedNumber(const nlohmann::json& obj, const char* key, double fallback);
bool LoggedBool(const nlohmann::json& obj, const char* key, bool fallback);
std::string LoggedString(const nlohmann::json& obj, const char* key, const std::string& fallback);

// One row of a logged verdict's "stands_near", each field as far as it reads.
struct LoggedStandNear {
  std::string id, side;
  double distance_mm = 0, distance_in = 0, margin_in = 0;
  bool destroyed = false, candidate = false, inside_circle = false;
};

// The verdict's "stands_near" rows in their order (none when it holds no such list); a row that
// is no object reads as all fallbacks.
std::vector<LoggedStandNear> LoggedStandsNear(const nlohmann::json& verdict);
// The verdict's circle radius, in; the rule books' 1" when it does not read.
double LoggedHitRadiusIn(const nlohmann::json& verdict);

}  // namespace referee
