#include "engine/board_file.hpp"

#include <algorithm>
#include <array>
#include <nlohmann/json.hpp>
#include <set>

#include "engine/input_error.hpp"
#include "engine/json_input.hpp"

namespace referee {

namespace {

Terrain ParseTerrainField(const nlohmann::json& obj, const std::string& file,
                          const std::string& field) {
  const std::string name = GetString(obj, "type", file, field);
  const auto t = ParseTerrain(name);
  if (!t) {
    throw InputError(
        file, FieldPath(field, "type"),
        "unknown terrain '" + name + "' (open, woods, house, rocks, water, road, bridge, hill)");
  }
  return *t;
}

Square ParseSquare(const nlohmann::json& obj, const Grid& grid, const std::string& file,
                   const std::string& field) {
  const auto& sq = RequireKey(obj, "square", file, field);
  const std::string f = FieldPath(field, "square");
  if (!sq.is_array() || sq.size() != 2) throw InputError(file, f, "expected [col, row]");
  const Square s{AsInt(sq[0], file, FieldPath(f, size_t{0})),
                 AsInt(sq[1], file, FieldPath(f, size_t{1}))};
  if (!grid.Contains(s)) {
    throw InputError(file, f,
                     "square [" + std::to_string(s.col) + ", " + std::to_string(s.row) +
                         "] is outside the " + std::to_string(grid.cols) + "x" +
                         std::to_string(grid.rows) + " board");
  }
  return s;
}

Polygon ParsePolygon(const nlohmann::json& obj, const std::string& file, const std::string& field) {
  const auto& pts = RequireKey(obj, "polygon", file, field);
  const std::string f = FieldPath(field, "polygon");
  RequireArray(pts, file, f);
  if (pts.size() < 3) throw InputError(file, f, "a polygon needs at least 3 points");
  Polygon poly;
  for (size_t i = 0; i < pts.size(); ++i)
    poly.vertices.push_back(AsVec2(pts[i], file, FieldPath(f, i)));
  double twice_area = 0.0;
  for (size_t i = 0, j = poly.vertices.size() - 1; i < poly.vertices.size(); j = i++) {
    twice_area += Cross(poly.vertices[j], poly.vertices[i]);
  }
  if (std::abs(twice_area) < 1e-9) throw InputError(file, f, "polygon has no area");
  return poly;
}

std::array<int, 3> ParseSrgb(const nlohmann::json& rgb, const std::string& file,
                             const std::string& field) {
  if (!rgb.is_array() || rgb.size() != 3) throw InputError(file, field, "expected [r, g, b]");
  std::array<int, 3> c{};
  for (size_t k = 0; k < 3; ++k) {
    c[k] = AsInt(rgb[k], file, FieldPath(field, k));
    if (c[k] < 0 || c[k] > 255) {
      throw InputError(file, FieldPath(field, k), "colour component must be 0-255");
    }
  }
  return c;
}

// The board file's keys beside "board" (ParseBoardFile reads each).
constexpr std::array<const char*, 11> kBesideBoard = {"terrain",
                                                      "features",
                                                      "sides",
                                                      "markers",
                                                      "line_width_mm",
                                                      "base_height_mm",
                                                      "figure_height_mm",
                                                      "mat",
                                                      "shell_colour",
                                                      "shell_dot_offset_mm",
                                                      "qtip_head_spread_mm"};

}  // namespace

Board ParseBoardJson(const nlohmann::json& j, const std::string& file) {
  RequireObject(j, file, "(top level)");
  const auto& b = RequireKey(j, "board", file, "");
  RequireObject(b, file, "board");
  // Keys that belong beside "board", nested in it, would be read as no terrain, no houses and
  // the default kit, and the referee would run on without a word.
  for (const auto& [key, value] : b.items()) {
    if (key == "cols" || key == "rows" || key == "square_size") continue;
    const bool beside =
        std::find(kBesideBoard.begin(), kBesideBoard.end(), key) != kBesideBoard.end();
    throw InputError(file, "board." + key,
                     beside ? "put \"" + key + "\" at the top level of the file, beside \"board\""
                            : std::string("\"board\" holds only cols, rows and square_size"));
  }
  Board board;
  board.grid.cols = GetInt(b, "cols", file, "board");
  board.grid.rows = GetInt(b, "rows", file, "board");
  board.grid.square_size_in = GetFiniteNumber(b, "square_size", file, "board");
  if (board.grid.cols < 1 || board.grid.cols > 200) {
    throw InputError(file, "board.cols", "must be between 1 and 200");
  }
  if (board.grid.rows < 1 || board.grid.rows > 200) {
    throw InputError(file, "board.rows", "must be between 1 and 200");
  }
  if (board.grid.square_size_in <= 0.0 || board.grid.square_size_in > 100.0) {
    throw InputError(file, "board.square_size", "must be in (0, 100] inches");
  }

  if (j.contains("terrain")) {
    const auto& terrain = j.at("terrain");
    RequireArray(terrain, file, "terrain");
    for (size_t i = 0; i < terrain.size(); ++i) {
      const std::string field = FieldPath("terrain", i);
      RequireObject(terrain[i], file, field);
      const Square s = ParseSquare(terrain[i], board.grid, file, field);
      const Terrain t = ParseTerrainField(terrain[i], file, field);
      if (!board.terrain.emplace(s, t).second) {
        throw InputError(file, FieldPath(field, "square"),
                         "square " + SquareName(s) + " is listed twice");
      }
    }
  }

  if (j.contains("features")) {
    const auto& features = j.at("features");
    RequireArray(features, file, "features");
    std::set<std::string> ids;
    for (size_t i = 0; i < features.size(); ++i) {
      const std::string field = FieldPath("features", i);
      RequireObject(features[i], file, field);
      TerrainFeature f;
      f.id = GetString(features[i], "id", file, field);
      if (f.id.empty()) throw InputError(file, FieldPath(field, "id"), "empty id");
      if (!ids.insert(f.id).second) {
        throw InputError(file, FieldPath(field, "id"), "duplicate feature id '" + f.id + "'");
      }
      f.type = ParseTerrainField(features[i], file, field);
      f.outline = ParsePolygon(features[i], file, field);
      board.features.push_back(std::move(f));
    }
  }
  return board;
}

std::map<std::string, std::array<int, 3>> DefaultSideColors() {
  return {{"red", {192, 48, 42}}, {"blue", {42, 75, 192}}};
}

BoardFile ParseBoardFile(const nlohmann::json& j, const std::string& file) {
  BoardFile out;
  out.board = ParseBoardJson(j, file);
  if (j.contains("sides")) {
    const auto& sides = j.at("sides");
    RequireObject(sides, file, "sides");
    if (sides.size() < 2) throw InputError(file, "sides", "need at least two sides");
    for (const auto& [name, rgb] : sides.items()) {
      out.side_colors_srgb[name] = ParseSrgb(rgb, file, "sides." + name);
    }
  } else {
    out.side_colors_srgb = DefaultSideColors();
  }
  out.has_markers = GetBoolOr(j, "markers", false, file, "");
  out.line_width_mm = GetFiniteNumberOr(j, "line_width_mm", 2.0, file, "");
  if (out.line_width_mm <= 0.0 || out.line_width_mm > 20.0) {
    throw InputError(file, "line_width_mm", "must be in (0, 20] mm");
  }
  out.base_height_mm = GetFiniteNumberOr(j, "base_height_mm", 2.5, file, "");
  if (out.base_height_mm <= 0.0 || out.base_height_mm > 10.0) {
    throw InputError(file, "base_height_mm", "must be in (0, 10] mm");
  }
  out.figure_height_mm = GetFiniteNumberOr(j, "figure_height_mm", 20.0, file, "");
  if (out.figure_height_mm < 0.0 || out.figure_height_mm > 60.0) {
    throw InputError(file, "figure_height_mm", "must be in [0, 60] mm");
  }
  // A dot lies on its 12 mm square; a head's end within a head's length of where it is put.
  out.shell_dot_offset_mm = GetFiniteNumberOr(j, "shell_dot_offset_mm", 2.0, file, "");
  if (out.shell_dot_offset_mm < 0.0 || out.shell_dot_offset_mm > 6.0) {
    throw InputError(file, "shell_dot_offset_mm", "must be in [0, 6] mm");
  }
  out.qtip_head_spread_mm = GetFiniteNumberOr(j, "qtip_head_spread_mm", 3.0, file, "");
  if (out.qtip_head_spread_mm < 0.0 || out.qtip_head_spread_mm > 12.0) {
    throw InputError(file, "qtip_head_spread_mm", "must be in [0, 12] mm");
  }
  out.mat_color = GetStringOr(j, "mat", "", file, "");
  if (j.contains("shell_colour"))
    out.shell_colour_srgb = ParseSrgb(j.at("shell_colour"), file, "shell_colour");
  // A scene file may serve as the board file: its own keys are not the board's but expected.
  // A scene file may serve as the board file: its own keys are not the board's but expected.
  for (const auto& [key, value] : j.items()) {
    const bool scene_key =
        key == "description" || key == "shot" || key == "stands" || key == "ruleset";
    if (key != "board" && !scene_key &&
        std::find(kBesideBoard.begin(), kBesideBoard.end(), key) == kBesideBoard.end())
      out.ignored_keys.push_back(key);
  }
  return out;
}

std::string IgnoredKeysNote(const BoardFile& board, const std::string& file) {
  if (board.ignored_keys.empty()) return "";
  std::string keys;
  for (const std::string& k : board.ignored_keys) keys += (keys.empty() ? "\"" : ", \"") + k + "\"";
  return file + ": not a board key, ignored: " + keys + " (board keys: board" + [] {
    std::string all;
    for (const char* k : kBesideBoard) all += std::string(", ") + k;
    return all;
  }() + ")";
}

BoardFile LoadBoardFile(const std::filesystem::path& path) {
  return ParseBoardFile(ReadJsonFile(path), path.string());
}

}  // namespace referee
