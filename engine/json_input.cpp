#include "engine/json_input.hpp"

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "engine/input_error.hpp"

namespace referee {

namespace {

std::string TypeName(const nlohmann::json& j) { return j.type_name(); }

// Builds the document like nlohmann's own DOM parser while keeping track of where it is, so a
// syntax error or an overflowing number (1e999) names the field it happened in.
class PathTrackingSax {
 public:
  using json = nlohmann::json;
  explicit PathTrackingSax(json& result) : dom_(result, false) {}

  bool null() { return Value() && dom_.null(); }
  bool boolean(bool v) { return Value() && dom_.boolean(v); }
  bool number_integer(json::number_integer_t v) { return Value() && dom_.number_integer(v); }
  bool number_unsigned(json::number_unsigned_t v) { return Value() && dom_.number_unsigned(v); }
  bool number_float(json::number_float_t v, const std::string& s) {
    return Value() && dom_.number_float(v, s);
  }
  bool string(std::string& v) { return Value() && dom_.string(v); }
  bool binary(json::binary_t& v) { return Value() && dom_.binary(v); }
  bool start_object(std::size_t n) {
    Value();
    stack_.push_back({true, "", -1});
    return dom_.start_object(n);
  }
  bool key(std::string& k) {
    stack_.back().key = k;
    return dom_.key(k);
  }
  bool end_object() {
    stack_.pop_back();
    return dom_.end_object();
  }
  bool start_array(std::size_t n) {
    Value();
    stack_.push_back({false, "", -1});
    return dom_.start_array(n);
  }
  bool end_array() {
    stack_.pop_back();
    return dom_.end_array();
  }
  bool parse_error(std::size_t /*position*/, const std::string& /*last_token*/,
                   const nlohmann::detail::exception& ex) {
    // The failing value has not been counted yet: name the element it would have been.
    std::string path;
    for (size_t i = 0; i < stack_.size(); ++i) {
      const Level& l = stack_[i];
      if (l.is_object) {
        if (!l.key.empty()) path += (path.empty() ? "" : ".") + l.key;
      } else {
        const long index = l.index + (i + 1 == stack_.size() ? 1 : 0);
        path += "[" + std::to_string(std::max(0L, index)) + "]";
      }
    }
    error_field_ = path;
    std::string what = ex.what();
    for (char& c : what) {
      if (c == '\n') c = ' ';
    }
    if (what.find("number overflow") != std::string::npos) {
      error_what_ = "number is not finite (" + what + ")";
    } else {
      error_what_ = "not valid JSON: " + what;
    }
    return false;
  }

  const std::string& error_field() const { return error_field_; }
  const std::string& error_what() const { return error_what_; }

 private:
  struct Level {
    bool is_object;
    std::string key;
    long index;
  };
  bool Value() {
    if (!stack_.empty() && !stack_.back().is_object) ++stack_.back().index;
    return true;
  }

  nlohmann::detail::json_sax_dom_parser<json> dom_;
  std::vector<Level> stack_;
  std::string error_field_, error_what_;
};

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
  nlohmann::json result;
  PathTrackingSax sax(result);
  const std::string text = buffer.str();
  if (!nlohmann::json::sax_parse(text, &sax)) {
    throw InputError(file, sax.error_field(), sax.error_what());
  }
  return result;
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
