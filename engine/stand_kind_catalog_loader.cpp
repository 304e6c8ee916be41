#include "engine/stand_kind_catalog_loader.hpp"

#include <nlohmann/json.hpp>

#include "engine/input_error.hpp"
#include "engine/json_input.hpp"

namespace referee {

StandKindCatalog ParseStandKinds(const nlohmann::json& j, const std::string& file) {
  const auto& kinds = RequireKey(j, "kinds", file, "");
  RequireObject(kinds, file, "kinds");
  if (kinds.empty()) throw InputError(file, "kinds", "no stand kinds defined");
  StandKindCatalog catalog;
  for (const auto& [name, entry] : kinds.items()) {
    const std::string field = "kinds." + name;
    RequireObject(entry, file, field);
    StandKind kind;
    kind.name = name;
    const std::string category = GetString(entry, "category", file, field);
    const auto parsed = ParseCategory(category);
    if (!parsed) {
      throw InputError(file, FieldPath(field, "category"), "unknown category '" + category + "'");
    }
    kind.category = *parsed;
    const Vec2 base = GetVec2(entry, "base_mm", file, field);
    if (base.x <= 0.0 || base.y <= 0.0) {
      throw InputError(file, FieldPath(field, "base_mm"), "width and depth must be positive");
    }
    kind.width_mm = base.x;
    kind.depth_mm = base.y;
    catalog.kinds.emplace(name, kind);
  }
  return catalog;
}

StandKindCatalog LoadStandKinds(const std::filesystem::path& path) {
  return ParseStandKinds(ReadJsonFile(path), path.string());
}

}  // namespace referee
