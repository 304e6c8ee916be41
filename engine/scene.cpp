#include "engine/scene.hpp"

#include <array>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <set>
#include <utility>

#include "engine/board_file.hpp"
#include "engine/input_error.hpp"
#include "engine/json_input.hpp"

namespace referee {

namespace {
constexpr std::array<std::pair<ShotKind, const char*>, 4> kShotKindNames = {{
    {ShotKind::kField, "field"},
    {ShotKind::kHorse, "horse"},
    {ShotKind::kHowitzer, "howitzer"},
    {ShotKind::kCatapult, "catapult"},
}};

std::string Fmt(Vec2 p) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "(%.3f, %.3f)", p.x, p.y);
  return buf;
}
}  // namespace

std::string ShotKindName(ShotKind k) {
  for (const auto& [value, name] : kShotKindNames) {
    if (value == k) return name;
  }
  return "field";
}

std::optional<ShotKind> ParseShotKind(const std::string& name) {
  for (const auto& [value, n] : kShotKindNames) {
    if (name == n) return value;
  }
  return std::nullopt;
}

bool IsQtipShot(ShotKind k) { return k == ShotKind::kField || k == ShotKind::kHorse; }

std::vector<Stand> ParseStands(const nlohmann::json& j, const Board& board,
                               const StandKindCatalog& catalog, const std::string& file) {
  std::vector<Stand> stands;
  if (!j.contains("stands")) return stands;
  const auto& arr = j.at("stands");
  RequireArray(arr, file, "stands");
  std::set<std::string> ids;
  for (size_t i = 0; i < arr.size(); ++i) {
    const std::string field = FieldPath("stands", i);
    const auto& s = arr[i];
    RequireObject(s, file, field);
    for (const auto& [key, value] : s.items()) {
      static const std::set<std::string> kKnown = {"id",   "side",      "kind",         "center",
                                                   "size", "angle_deg", "facing_known", "note"};
      if (!kKnown.count(key)) {
        throw InputError(file, FieldPath(field, key),
                         "unknown field (id, side, kind, center, size, angle_deg, facing_known, "
                         "note)");
      }
    }
    Stand st;
    st.id = GetString(s, "id", file, field);
    if (st.id.empty()) throw InputError(file, FieldPath(field, "id"), "empty id");
    if (!ids.insert(st.id).second) {
      throw InputError(file, FieldPath(field, "id"), "duplicate stand id '" + st.id + "'");
    }
    st.side = GetString(s, "side", file, field);
    if (st.side.empty()) throw InputError(file, FieldPath(field, "side"), "empty side");
    st.kind = GetString(s, "kind", file, field);
    const StandKind* kind = catalog.Find(st.kind);
    if (kind == nullptr) {
      throw InputError(
          file, FieldPath(field, "kind"),
          "unknown stand kind '" + st.kind + "' (see engine/rulesets/stand_kinds.json)");
    }
    st.footprint.center = GetVec2(s, "center", file, field);
    if (s.contains("size")) {
      const Vec2 size = GetVec2(s, "size", file, field);
      if (size.x <= 0.0 || size.y <= 0.0 || size.x > 20.0 || size.y > 20.0) {
        throw InputError(file, FieldPath(field, "size"),
                         "width and depth must be in (0, 20] inches");
      }
      st.footprint.width_in = size.x;
      st.footprint.depth_in = size.y;
    } else {
      st.footprint.width_in = MmToInches(kind->width_mm);
      st.footprint.depth_in = MmToInches(kind->depth_mm);
    }
    st.footprint.angle_deg = GetFiniteNumberOr(s, "angle_deg", 0.0, file, field);
    st.facing_known = GetBoolOr(s, "facing_known", true, file, field);
    if (!board.grid.ContainsPoint(st.footprint.center)) {
      throw InputError(file, FieldPath(field, "center"),
                       "stand '" + st.id + "' at " + Fmt(st.footprint.center) + " is outside the " +
                           Fmt({board.grid.Width(), board.grid.Height()}) + " in board");
    }
    for (size_t k = 0; k < stands.size(); ++k) {
      if (RectPenetrationDepth(stands[k].footprint, st.footprint) > kStandOverlapToleranceIn) {
        throw InputError(file, field,
                         "stand '" + st.id + "' overlaps stand '" + stands[k].id + "'");
      }
    }
    stands.push_back(std::move(st));
  }
  return stands;
}

std::optional<Shot> ParseShot(const nlohmann::json& j, const Board& board,
                              const std::vector<Stand>& stands, const std::string& file) {
  if (!j.contains("shot")) return std::nullopt;
  const auto& s = j.at("shot");
  RequireObject(s, file, "shot");
  Shot shot;
  const std::string kind = GetString(s, "kind", file, "shot");
  const auto parsed = ParseShotKind(kind);
  if (!parsed) {
    throw InputError(file, "shot.kind",
                     "unknown shot kind '" + kind + "' (field, horse, howitzer, catapult)");
  }
  shot.kind = *parsed;
  shot.point = GetVec2(s, "point", file, "shot");
  if (!board.grid.ContainsPoint(shot.point)) {
    throw InputError(file, "shot.point",
                     "impact " + Fmt(shot.point) + " is off the board: nothing to adjudicate");
  }
  shot.firer_side = GetString(s, "firer_side", file, "shot");
  if (shot.firer_side.empty()) throw InputError(file, "shot.firer_side", "empty side");
  if (s.contains("gun_id")) {
    const std::string id = GetString(s, "gun_id", file, "shot");
    const Stand* gun = nullptr;
    for (const auto& st : stands) {
      if (st.id == id) gun = &st;
    }
    if (gun == nullptr) throw InputError(file, "shot.gun_id", "no stand with id '" + id + "'");
    if (gun->side != shot.firer_side) {
      throw InputError(file, "shot.gun_id",
                       "gun '" + id + "' is on side '" + gun->side + "', not the firer's '" +
                           shot.firer_side + "'");
    }
    shot.gun_id = id;
    shot.gun_center = gun->footprint.center;
  }
  if (s.contains("gun")) {
    if (shot.gun_id) throw InputError(file, "shot.gun", "give either gun or gun_id, not both");
    const auto& g = s.at("gun");
    RequireObject(g, file, "shot.gun");
    shot.gun_center = GetVec2(g, "center", file, "shot.gun");
    if (!board.grid.ContainsPoint(*shot.gun_center)) {
      throw InputError(file, "shot.gun.center", "the gun is outside the board");
    }
  }
  return shot;
}

Scene ParseScene(const nlohmann::json& j, const std::string& file,
                 const StandKindCatalog& catalog) {
  Scene scene;
  scene.board = ParseBoardJson(j, file);
  scene.ruleset = GetStringOr(j, "ruleset", "", file, "");
  scene.stands = ParseStands(j, scene.board, catalog, file);
  scene.shot = ParseShot(j, scene.board, scene.stands, file);
  return scene;
}

Scene LoadScene(const std::filesystem::path& path, const StandKindCatalog& catalog) {
  return ParseScene(ReadJsonFile(path), path.string(), catalog);
}

}  // namespace referee
