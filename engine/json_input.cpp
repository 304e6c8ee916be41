#include "engine/json_input.hpp"

#include <cmath>
#include <fstream>
#include <sstream>

#include "engine/input_error.hpp"

namespace referee {

namespace {

std::string TypeName(const nlohmann::json& j) { return j.type_name(); }

}  // namespace

nlohmann::json ReadJsonFile(const std::filesystem::path& path) {
  const std::string file = path.string();
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw InputError(file, "", "file not found");
  if (std::filesystem::is_directory(path, ec)) throw InputError(file, "", "is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(file, "", "cannot open for reading");
  std::stringstream buffer;
  buffer << in.rdbuf();
  try {
    return nlohmann::json::parse(buffer.str());
  } catch (const nlohmann::json::exception& e) {
    // nlohmann's message already says where ("at line 3, column 7"); keep it on one line.
    std::string what = e.what();
    for (char& c : what) {
      if (c == '\n') c = ' ';
    }
    throw InputError(file, "", "not valid JSON: " + what);
  }
}

std::string FieldPath(const std::string& field, const std::string& key) {
  return field.empty() ? key : field + "." + key;
}

std::string FieldPath(const std::string& field, size_t index) {
  return field + "[" + std::to_string(index) + "]";
}

void RequireObject(const nlohmann::json& j, const std::string& file, const std::string& field) {
  if (!j.is_object()) throw InputError(file, field, "expected an object, got " + TypeName(j));
}

void RequireArray(const nlohmann::json& j, const std::string& file, const std::string& field) {
  if (!j.is_array()) throw InputError(file, field, "expected an array, got " + TypeName(j));
}

const nlohmann::json& RequireKey(const nlohmann::json& obj, const std::string& key,
                                 const std::string& file, const std::string& field) {
  RequireObject(obj, file, field.empty() ? "(top level)" : field);
  const auto it = obj.find(key);
  if (it == obj.end()) throw InputError(file, FieldPath(field, key), "missing");
  return *it;
}

double AsFiniteNumber(const nlohmann::json& j, const std::string& file, const std::string& field) {
  if (!j.is_number()) throw InputError(file, field, "expected a number, got " + TypeName(j));
  const double v = j.get<double>();
  if (!std::isfinite(v)) throw InputError(file, field, "number is not finite");
  return v;
}

int AsInt(const nlohmann::json& j, const std::string& file, const std::string& field) {
  if (!j.is_number_integer()) {
    throw InputError(file, field, "expected an integer, got " + TypeName(j));
  }
  const auto v = j.get<long long>();
  if (v < -1000000 || v > 1000000) throw InputError(file, field, "integer out of range");
  return static_cast<int>(v);
}

std::string AsString(const nlohmann::json& j, const std::string& file, const std::string& field) {
  if (!j.is_string()) throw InputError(file, field, "expected a string, got " + TypeName(j));
  return j.get<std::string>();
}

bool AsBool(const nlohmann::json& j, const std::string& file, const std::string& field) {
  if (!j.is_boolean()) throw InputError(file, field, "expected true or false, got " + TypeName(j));
  return j.get<bool>();
}

Vec2 AsVec2(const nlohmann::json& j, const std::string& file, const std::string& field) {
  if (!j.is_array() || j.size() != 2) {
    throw InputError(file, field, "expected [x, y] (two numbers)");
  }
  return {AsFiniteNumber(j[0], file, FieldPath(field, size_t{0})),
          AsFiniteNumber(j[1], file, FieldPath(field, size_t{1}))};
}

double GetFiniteNumber(const nlohmann::json& obj, const std::string& key, const std::string& file,
                       const std::string& field) {
  return AsFiniteNumber(RequireKey(obj, key, file, field), file, FieldPath(field, key));
}

double GetFiniteNumberOr(const nlohmann::json& obj, const std::string& key, double fallback,
                         const std::string& file, const std::string& field) {
  if (!obj.contains(key)) return fallback;
  return GetFiniteNumber(obj, key, file, field);
}

int GetInt(const nlohmann::json& obj, const std::string& key, const std::string& file,
           const std::string& field) {
  return AsInt(RequireKey(obj, key, file, field), file, FieldPath(field, key));
}

std::string GetString(const nlohmann::json& obj, const std::string& key, const std::string& file,
                      const std::string& field) {
  return AsString(RequireKey(obj, key, file, field), file, FieldPath(field, key));
}

std::string GetStringOr(const nlohmann::json& obj, const std::string& key,
                        const std::string& fallback, const std::string& file,
                        const std::string& field) {
  if (!obj.contains(key)) return fallback;
  return GetString(obj, key, file, field);
}

bool GetBoolOr(const nlohmann::json& obj, const std::string& key, bool fallback,
               const std::string& file, const std::string& field) {
  if (!obj.contains(key)) return fallback;
  return AsBool(obj.at(key), file, FieldPath(field, key));
}

Vec2 GetVec2(const nlohmann::json& obj, const std::string& key, const std::string& file,
             const std::string& field) {
  return AsVec2(RequireKey(obj, key, file, field), file, FieldPath(field, key));
}

}  // namespace referee
