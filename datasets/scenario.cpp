#include "datasets/scenario.hpp"

#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "engine/input_error.hpp"

namespace referee {

namespace {

using nlohmann::json;

// Reads one scenario file, naming the file and the dotted field in every error.
class Reader {
 public:
  explicit Reader(std::string file) : file_(std::move(file)) {}

  [[noreturn]] void Fail(const std::string& field, const std::string& what) const {
    throw InputError(file_, field, what);
  }

  double Number(const json& j, const std::string& field) const {
    if (!j.is_number()) Fail(field, "expected a number");
    const double v = j.get<double>();
    if (!std::isfinite(v)) Fail(field, "not a finite number");
    return v;
  }
  double NumberIn(const json& j, const std::string& field, double lo, double hi) const {
    const double v = Number(j, field);
    if (v < lo || v > hi) {
      std::ostringstream os;
      os << "must be in [" << lo << ", " << hi << "], got " << v;
      Fail(field, os.str());
    }
    return v;
  }
  int Int(const json& j, const std::string& field, int lo, int hi) const {
    if (!j.is_number_integer()) Fail(field, "expected an integer");
    const auto v = j.get<long long>();
    if (v < lo || v > hi) {
      Fail(field, "must be in [" + std::to_string(lo) + ", " + std::to_string(hi) + "], got " +
                      std::to_string(v));
    }
    return static_cast<int>(v);
  }
  std::string String(const json& j, const std::string& field) const {
    if (!j.is_string()) Fail(field, "expected a string");
    return j.get<std::string>();
  }
  bool Bool(const json& j, const std::string& field) const {
    if (!j.is_boolean()) Fail(field, "expected true or false");
    return j.get<bool>();
  }
  Range RangeIn(const json& j, const std::string& field, double lo, double hi) const {
    if (!j.is_array() || j.size() != 2) Fail(field, "expected [min, max]");
    const Range r{NumberIn(j[0], field + "[0]", lo, hi), NumberIn(j[1], field + "[1]", lo, hi)};
    if (r.first > r.second) Fail(field, "min is greater than max");
    return r;
  }
  Rgb Colour(const json& j, const std::string& field) const {
    if (!j.is_array() || j.size() != 3) Fail(field, "expected [r, g, b] (sRGB 0-255)");
    Rgb c{};
    for (int i = 0; i < 3; ++i) c[i] = Int(j[i], field + "[" + std::to_string(i) + "]", 0, 255);
    return c;
  }
  void Object(const json& j, const std::string& field) const {
    if (!j.is_object()) Fail(field, "expected an object");
  }
  // Rejects keys not in `known` so a typo in a scenario is an error, not a silent default.
  void OnlyKeys(const json& j, const std::string& prefix,
                const std::set<std::string>& known) const {
    for (auto it = j.begin(); it != j.end(); ++it) {
      if (!known.count(it.key())) Fail(prefix + it.key(), "unknown key");
    }
  }

 private:
  std::string file_;
};

void ParseDifficulty(const Reader& r, const json& d, ScenarioDifficulty& out) {
  r.Object(d, "difficulty");
  r.OnlyKeys(d, "difficulty.",
             {"tilt_deg", "yaw_deg", "k1", "k2", "tangential", "hfov_deg", "fill", "defocus_px",
              "motion_blur_px", "noise_sigma", "light_unevenness", "vignetting", "exposure",
              "hand_probability", "grid_hidden_fraction", "jpeg_quality", "lamp_height_in",
              "shadows_on_solids"});
  const auto range = [&](const char* key, Range& dst, double lo, double hi) {
    if (d.contains(key)) dst = r.RangeIn(d[key], std::string("difficulty.") + key, lo, hi);
  };
  range("tilt_deg", out.tilt_deg, 0.0, 40.0);
  range("yaw_deg", out.yaw_deg, -180.0, 180.0);
  range("k1", out.k1, -0.6, 0.3);
  range("k2", out.k2, -0.3, 0.3);
  range("tangential", out.tangential, -0.02, 0.02);
  range("hfov_deg", out.hfov_deg, 30.0, 100.0);
  range("fill", out.fill, 0.3, 0.99);
  range("defocus_px", out.defocus_px, 0.0, 10.0);
  range("motion_blur_px", out.motion_blur_px, 0.0, 30.0);
  range("noise_sigma", out.noise_sigma, 0.0, 40.0);
  range("light_unevenness", out.light_unevenness, 0.0, 0.9);
  range("vignetting", out.vignetting, 0.0, 0.9);
  range("exposure", out.exposure, 0.3, 2.0);
  range("lamp_height_in", out.lamp_height_in, 6.0, 200.0);
  if (d.contains("shadows_on_solids")) {
    out.shadows_on_solids = r.Bool(d["shadows_on_solids"], "difficulty.shadows_on_solids");
  }
  if (d.contains("hand_probability")) {
    out.hand_probability = r.NumberIn(d["hand_probability"], "difficulty.hand_probability", 0, 1);
  }
  if (d.contains("grid_hidden_fraction")) {
    out.grid_hidden_fraction =
        r.NumberIn(d["grid_hidden_fraction"], "difficulty.grid_hidden_fraction", 0, 0.9);
  }
  if (d.contains("jpeg_quality")) {
    out.jpeg_quality = r.Int(d["jpeg_quality"], "difficulty.jpeg_quality", 10, 100);
  }
}

void ParseTerrainSection(const Reader& r, const json& t, Scenario& sc) {
  r.Object(t, "terrain");
  r.OnlyKeys(t, "terrain.", {"counts", "squares"});
  if (t.contains("counts")) {
    const json& c = t["counts"];
    r.Object(c, "terrain.counts");
    for (auto it = c.begin(); it != c.end(); ++it) {
      const std::string field = "terrain.counts." + it.key();
      const auto type = referee::ParseTerrain(it.key());
      if (!type || *type == Terrain::kOpen) r.Fail(field, "unknown terrain type");
      sc.terrain_counts[*type] = r.Int(it.value(), field, 0, 1000);
    }
  }
  if (t.contains("squares")) {
    const json& s = t["squares"];
    if (!s.is_array())
      r.Fail("terrain.squares", "expected an array of {\"square\": [c, r], \"type\": ...}");
    for (size_t i = 0; i < s.size(); ++i) {
      const std::string field = "terrain.squares[" + std::to_string(i) + "]";
      r.Object(s[i], field);
      r.OnlyKeys(s[i], field + ".", {"square", "type"});
      if (!s[i].contains("square") || !s[i]["square"].is_array() || s[i]["square"].size() != 2) {
        r.Fail(field + ".square", "expected [col, row]");
      }
      const Square sq{r.Int(s[i]["square"][0], field + ".square[0]", 0, sc.grid.cols - 1),
                      r.Int(s[i]["square"][1], field + ".square[1]", 0, sc.grid.rows - 1)};
      if (!s[i].contains("type")) r.Fail(field + ".type", "missing");
      const auto type = referee::ParseTerrain(r.String(s[i]["type"], field + ".type"));
      if (!type) r.Fail(field + ".type", "unknown terrain type");
      sc.terrain_squares[sq] = *type;
    }
  }
}

}  // namespace

Scenario ParseScenario(const std::string& json_text, const std::filesystem::path& file) {
  const Reader r(file.string());
  json j;
  try {
    j = json::parse(json_text);
  } catch (const json::parse_error& e) {
    throw InputError(file.string(), "", std::string("invalid JSON: ") + e.what());
  }
  r.Object(j, "(top level)");
  r.OnlyKeys(j, "",
             {"name",
              "description",
              "ruleset",
              "board",
              "grid_line_mm",
              "mat_colours",
              "markers",
              "marker_probability",
              "terrain",
              "sides",
              "stands_per_side",
              "kinds",
              "base_thickness_mm",
              "border_mm",
              "front_stripe_probability",
              "figure_probability",
              "figure_height_mm",
              "projectile",
              "qtip_paint",
              "shell_colour",
              "shell_dot_offset_mm",
              "near_stand_probability",
              "across_base_probability",
              "difficulty"});
  Scenario sc;
  sc.file = file;
  sc.name = file.stem().string();
  if (j.contains("name")) sc.name = r.String(j["name"], "name");
  if (j.contains("ruleset")) {
    sc.ruleset = r.String(j["ruleset"], "ruleset");
    if (sc.ruleset != "napoleonic" && sc.ruleset != "ancient") {
      r.Fail("ruleset", "expected \"napoleonic\" or \"ancient\", got \"" + sc.ruleset + "\"");
    }
  }
  if (j.contains("board")) {
    const json& b = j["board"];
    r.Object(b, "board");
    r.OnlyKeys(b, "board.", {"cols", "rows", "square_size"});
    if (b.contains("cols")) sc.grid.cols = r.Int(b["cols"], "board.cols", 1, 100);
    if (b.contains("rows")) sc.grid.rows = r.Int(b["rows"], "board.rows", 1, 100);
    if (b.contains("square_size")) {
      sc.grid.square_size_in = r.NumberIn(b["square_size"], "board.square_size", 1.0, 12.0);
    }
  }
  if (j.contains("grid_line_mm"))
    sc.grid_line_mm = r.RangeIn(j["grid_line_mm"], "grid_line_mm", 0.5, 6.0);
  if (j.contains("mat_colours")) {
    const json& m = j["mat_colours"];
    if (!m.is_array() || m.empty())
      r.Fail("mat_colours", "expected a non-empty array of [r, g, b]");
    sc.mat_colours.clear();
    for (size_t i = 0; i < m.size(); ++i) {
      sc.mat_colours.push_back(r.Colour(m[i], "mat_colours[" + std::to_string(i) + "]"));
    }
  }
  if (j.contains("markers")) sc.markers = r.Bool(j["markers"], "markers");
  if (j.contains("marker_probability")) {
    sc.marker_probability = r.NumberIn(j["marker_probability"], "marker_probability", 0, 1);
  }
  if (j.contains("terrain")) ParseTerrainSection(r, j["terrain"], sc);
  if (j.contains("sides")) {
    const json& s = j["sides"];
    if (!s.is_array() || s.size() != 2)
      r.Fail("sides", "expected two {\"name\", \"colour\"} objects");
    sc.sides.clear();
    for (size_t i = 0; i < 2; ++i) {
      const std::string field = "sides[" + std::to_string(i) + "]";
      r.Object(s[i], field);
      r.OnlyKeys(s[i], field + ".", {"name", "colour"});
      SideSpec side;
      if (!s[i].contains("name")) r.Fail(field + ".name", "missing");
      side.name = r.String(s[i]["name"], field + ".name");
      if (!s[i].contains("colour")) r.Fail(field + ".colour", "missing");
      side.colour = r.Colour(s[i]["colour"], field + ".colour");
      sc.sides.push_back(side);
    }
    if (sc.sides[0].name == sc.sides[1].name)
      r.Fail("sides[1].name", "both sides have the same name");
  }
  if (j.contains("stands_per_side")) {
    sc.stands_per_side = r.Int(j["stands_per_side"], "stands_per_side", 0, 40);
  }
  if (j.contains("kinds")) {
    const json& k = j["kinds"];
    if (!k.is_array() || k.empty())
      r.Fail("kinds", "expected a non-empty array of stand kind names");
    sc.kinds.clear();
    for (size_t i = 0; i < k.size(); ++i)
      sc.kinds.push_back(r.String(k[i], "kinds[" + std::to_string(i) + "]"));
  }
  if (j.contains("base_thickness_mm")) {
    sc.base_thickness_mm = r.RangeIn(j["base_thickness_mm"], "base_thickness_mm", 0.5, 10.0);
  }
  if (j.contains("border_mm")) sc.border_mm = r.RangeIn(j["border_mm"], "border_mm", 1.0, 10.0);
  if (j.contains("front_stripe_probability")) {
    sc.front_stripe_probability =
        r.NumberIn(j["front_stripe_probability"], "front_stripe_probability", 0, 1);
  }
  if (j.contains("figure_probability")) {
    sc.figure_probability = r.NumberIn(j["figure_probability"], "figure_probability", 0, 1);
  }
  if (j.contains("figure_height_mm")) {
    sc.figure_height_mm = r.RangeIn(j["figure_height_mm"], "figure_height_mm", 0.0, 60.0);
  }
  if (j.contains("projectile")) {
    sc.projectile = r.String(j["projectile"], "projectile");
    if (sc.projectile != "qtip" && sc.projectile != "shell" && sc.projectile != "mixed") {
      r.Fail("projectile",
             "expected \"qtip\", \"shell\" or \"mixed\", got \"" + sc.projectile + "\"");
    }
  }
  if (j.contains("qtip_paint")) sc.qtip_paint = r.Colour(j["qtip_paint"], "qtip_paint");
  if (j.contains("shell_colour")) sc.shell_colour = r.Colour(j["shell_colour"], "shell_colour");
  if (j.contains("shell_dot_offset_mm")) {
    sc.shell_dot_offset_mm = r.NumberIn(j["shell_dot_offset_mm"], "shell_dot_offset_mm", 0, 4);
  }
  if (j.contains("near_stand_probability")) {
    sc.near_stand_probability =
        r.NumberIn(j["near_stand_probability"], "near_stand_probability", 0, 1);
  }
  if (j.contains("across_base_probability")) {
    sc.across_base_probability =
        r.NumberIn(j["across_base_probability"], "across_base_probability", 0, 1);
  }
  if (j.contains("difficulty")) ParseDifficulty(r, j["difficulty"], sc.difficulty);
  return sc;
}

Scenario LoadScenario(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError(file.string(), "", "cannot open scenario file");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ParseScenario(ss.str(), file);
}

}  // namespace referee
