#include "engine/logged_json.hpp"

#include <nlohmann/json.hpp>

namespace referee {
namespace {

// The value at key, or nullptr when obj is no object or lacks it.
const nlohmann::json* Field(const nlohmann::json& obj, const char* key) {
  if (!obj.is_object()) return nullptr;
  const auto it = obj.find(key);
  return it == obj.end() ? nullptr : &*it;
}

}  // namespace

double LoggedNumber(const nlohmann::json& obj, const char* key, double fallback) {
  const nlohmann::json* v = Field(obj, key);
  return v != nullptr && v->is_number() ? v->get<double>() : fallback;
}

bool LoggedBool(const nlohmann::json& obj, const char* key, bool fallback) {
  const nlohmann::json* v = Field(obj, key);
  return v != nullptr && v->is_boolean() ? v->get<bool>() : fallback;
}

std::string LoggedString(const nlohmann::json& obj, const char* key, const std::string& fallback) {
  const nlohmann::json* v = Field(obj, key);
  return v != nullptr && v->is_string() ? v->get<std::string>() : fallback;
}

std::vector<LoggedStandNear> LoggedStandsNear(const nlohmann::json& verdict) {
  std::vector<LoggedStandNear> rows;
  const nlohmann::json* near = Field(verdict, "stands_near");
  if (near == nullptr || !near->is_array()) return rows;
  rows.reserve(near->size());
  for (const auto& n : *near) {
    rows.push_back({LoggedString(n, "id", ""), LoggedString(n, "side", ""),
                    LoggedNumber(n, "distance_mm", 0.0), LoggedNumber(n, "distance_in", 0.0),
                    LoggedNumber(n, "margin_in", 0.0), LoggedBool(n, "destroyed", false),
                    LoggedBool(n, "candidate", false), LoggedBool(n, "inside_circle", false)});
  }
  return rows;
}

double LoggedHitRadiusIn(const nlohmann::json& verdict) {
  return LoggedNumber(verdict, "hit_radius_in", 1.0);
}

}  // namespace referee
