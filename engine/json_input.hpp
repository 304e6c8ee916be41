// Reading user JSON files with errors that name the file and the field. Every getter throws
// InputError(file, field, what) on a missing key, a wrong type or a non-finite number.
#pragma once

#include <filesystem>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "engine/geometry.hpp"

namespace referee {

// Parses a whole file. A missing file, an unreadable file or invalid JSON is an InputError.
nlohmann::json ReadJsonFile(const std::filesystem::path& path);

// `field` is the dotted path of `obj` inside the file (e.g. "stands[3]"); the getters append
// ".key" to name what is wrong. An empty `field` names top-level keys as plain "key".
std::string FieldPath(const std::string& field, const std::string& key);
std::string FieldPath(const std::string& field, size_t index);

// obj must be an object holding key.
const nlohmann::json& RequireKey(const nlohmann::json& obj, const std::string& key,
                                 const std::string& file, const std::string& field);
void RequireObject(const nlohmann::json& j, const std::string& file, const std::string& field);
void RequireArray(const nlohmann::json& j, const std::string& file, const std::string& field);

// Value getters: `j` itself is the value, `field` its full path.
double AsFiniteNumber(const nlohmann::json& j, const std::string& file, const std::string& field);
int AsInt(const nlohmann::json& j, const std::string& file, const std::string& field);
std::string AsString(const nlohmann::json& j, const std::string& file, const std::string& field);
bool AsBool(const nlohmann::json& j, const std::string& file, const std::string& field);
// A two-number array [x, y], both finite.
Vec2 AsVec2(const nlohmann::json& j, const std::string& file, const std::string& field);

// Keyed getters on an object; the *Or forms return `fallback` when the key is absent.
double GetFiniteNumber(const nlohmann::json& obj, const std::string& key, const std::string& file,
                       const std::string& field);
double GetFiniteNumberOr(const nlohmann::json& obj, const std::string& key, double fallback,
                         const std::string& file, const std::string& field);
int GetInt(const nlohmann::json& obj, const std::string& key, const std::string& file,
           const std::string& field);
std::string GetString(const nlohmann::json& obj, const std::string& key, const std::string& file,
                      const std::string& field);
std::string GetStringOr(const nlohmann::json& obj, const std::string& key,
                        const std::string& fallback, const std::string& file,
                        const std::string& field);
bool GetBoolOr(const nlohmann::json& obj, const std::string& key, bool fallback,
               const std::string& file, const std::string& field);
Vec2 GetVec2(const nlohmann::json& obj, const std::string& key, const std::string& file,
             const std::string& field);

}  // namespace referee
