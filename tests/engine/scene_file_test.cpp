// Scene and board files from disk: the bundled examples load, and every kind of bad input is
// one InputError naming the file and the field.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>

#include "engine/board_file.hpp"
#include "engine/data_paths.hpp"
#include "engine/input_error.hpp"
#include "engine/json_input.hpp"
#include "engine/scene.hpp"
#include "engine/stand_kind_catalog_loader.hpp"

namespace referee {
namespace {

namespace fs = std::filesystem;

fs::path WriteTemp(const std::string& name, const std::string& text) {
  const fs::path dir = fs::path(REFEREE_TEST_TMP) / "scene_file_test";
  fs::create_directories(dir);
  fs::path p = dir / name;
  std::ofstream(p) << text;
  return p;
}

const std::string kBoard = R"("board": {"cols": 12, "rows": 8, "square_size": 4.0})";

std::string SceneWith(const std::string& stands, const std::string& extra = "") {
  return "{" + kBoard + R"(, "stands": [)" + stands + "]" + extra + "}";
}

const std::string kGoodStand =
    R"({"id": "r1", "side": "red", "kind": "line_infantry", "center": [10, 10]})";
const std::string kGoodShot =
    R"(, "shot": {"kind": "field", "point": [10, 11], "firer_side": "blue"})";

// Loads the text as a scene and returns the error's field ("" if it loaded).
std::string FieldOfError(const std::string& name, const std::string& text) {
  const fs::path p = WriteTemp(name, text);
  try {
    LoadScene(p, LoadStandKinds());
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), p.string());
    EXPECT_NE(std::string(e.what()).find(p.string()), std::string::npos);
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << "one line";
    return e.field();
  }
  return "(loaded)";
}

TEST(SceneFile, BundledScenesAndBoardsLoad) {
  const auto catalog = LoadStandKinds();
  int n = 0;
  for (const auto& e : fs::directory_iterator(DatasetsDir() / "scenes")) {
    if (e.path().extension() != ".json") continue;
    SCOPED_TRACE(e.path().string());
    const Scene s = LoadScene(e.path(), catalog);
    EXPECT_TRUE(s.shot.has_value());
    EXPECT_FALSE(s.stands.empty());
    ++n;
  }
  EXPECT_GE(n, 11);
  const BoardFile nap = LoadBoardFile(DatasetsDir() / "boards" / "napoleonic_12x8.json");
  EXPECT_EQ(nap.board.grid.cols, 12);
  EXPECT_EQ(nap.board.grid.rows, 8);
  EXPECT_DOUBLE_EQ(nap.board.grid.square_size_in, 4.0);
  EXPECT_TRUE(nap.has_markers);
  EXPECT_EQ(nap.board.TerrainAt({5, 2}), Terrain::kWoods);
  EXPECT_EQ(nap.board.features.size(), 1u);
  EXPECT_EQ(nap.side_colors_srgb.at("red"), (std::array<int, 3>{192, 48, 42}));
  const BoardFile anc = LoadBoardFile(DatasetsDir() / "boards" / "ancient_10x8_3in.json");
  EXPECT_DOUBLE_EQ(anc.board.grid.square_size_in, 3.0);
  EXPECT_FALSE(anc.has_markers);
}

TEST(SceneFile, DefaultsComeFromTheKindAndTableKit) {
  const fs::path p = WriteTemp("defaults.json", "{" + kBoard + "}");
  const BoardFile b = LoadBoardFile(p);
  EXPECT_EQ(b.side_colors_srgb, DefaultSideColors());
  EXPECT_DOUBLE_EQ(b.line_width_mm, 2.0);
  EXPECT_DOUBLE_EQ(b.base_height_mm, 2.5);
  EXPECT_DOUBLE_EQ(b.figure_height_mm, 20.0);
  EXPECT_FALSE(b.has_markers);
  const Scene s =
      ParseScene(nlohmann::json::parse(SceneWith(kGoodStand, kGoodShot)), "x", LoadStandKinds());
  ASSERT_EQ(s.stands.size(), 1u);
  EXPECT_DOUBLE_EQ(s.stands[0].footprint.width_in, 40.0 / 25.4);
  EXPECT_DOUBLE_EQ(s.stands[0].footprint.depth_in, 20.0 / 25.4);
  EXPECT_EQ(s.shot->kind, ShotKind::kField);
  EXPECT_FALSE(s.shot->gun_center.has_value());
}

TEST(SceneFile, KitHeightsAreReadAndChecked) {
  const BoardFile b = LoadBoardFile(
      WriteTemp("kit.json", "{" + kBoard + R"(, "base_height_mm": 3, "figure_height_mm": 8})"));
  EXPECT_DOUBLE_EQ(b.base_height_mm, 3.0);
  EXPECT_DOUBLE_EQ(b.figure_height_mm, 8.0);
  EXPECT_EQ(b.shell_colour_srgb, (std::array<int, 3>{235, 200, 40}));  // TABLE_KIT yellow
  const BoardFile red = LoadBoardFile(
      WriteTemp("red_shells.json", "{" + kBoard + R"(, "shell_colour": [200, 30, 30]})"));
  EXPECT_EQ(red.shell_colour_srgb, (std::array<int, 3>{200, 30, 30}));
  EXPECT_TRUE(red.ignored_keys.empty());  // it was named as ignored while being read
  // How far the club's hand-pressed dots and bud heads may lie off (s60): defaults, then read.
  EXPECT_DOUBLE_EQ(b.shell_dot_offset_mm, 2.0);
  EXPECT_DOUBLE_EQ(b.qtip_head_spread_mm, 3.0);
  const BoardFile marks = LoadBoardFile(WriteTemp(
      "marks.json", "{" + kBoard + R"(, "shell_dot_offset_mm": 0.5, "qtip_head_spread_mm": 4})"));
  EXPECT_DOUBLE_EQ(marks.shell_dot_offset_mm, 0.5);
  EXPECT_DOUBLE_EQ(marks.qtip_head_spread_mm, 4.0);
  EXPECT_TRUE(marks.ignored_keys.empty());
  for (const auto& [name, kit, field] :
       {std::tuple{"no_base.json", R"("base_height_mm": 0)", "base_height_mm"},
        {"dot_off_shell.json", R"("shell_dot_offset_mm": 7)", "shell_dot_offset_mm"},
        {"negative_spread.json", R"("qtip_head_spread_mm": -1)", "qtip_head_spread_mm"},
        {"tall_figures.json", R"("figure_height_mm": 250)", "figure_height_mm"},
        {"text_height.json", R"("figure_height_mm": "tall")", "figure_height_mm"},
        {"bad_shell.json", R"("shell_colour": [235, 200])", "shell_colour"}}) {
    const fs::path p = WriteTemp(name, "{" + kBoard + ", " + kit + "}");
    try {
      LoadBoardFile(p);
      ADD_FAILURE() << name << " was accepted";
    } catch (const InputError& e) {
      EXPECT_EQ(e.file(), p.string());
      EXPECT_EQ(e.field(), field) << e.what();
    }
  }
}

// A board file written with its terrain inside "board" (as a generated scene's truth.json
// holds it) was read as an open board: houses then pass for stands and water for the mat.
TEST(SceneFile, KeysNestedInTheBoardThatBelongBesideItAreRefused) {
  const fs::path p = WriteTemp("nested.json",
                               R"({"board": {"cols": 12, "rows": 8, "square_size": 4,
                    "terrain": [{"square": [1, 5], "type": "house"}]}})");
  try {
    LoadBoardFile(p);
    ADD_FAILURE() << "terrain nested in board was accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), p.string());
    EXPECT_EQ(e.field(), "board.terrain") << e.what();
  }
}

TEST(SceneFile, TopLevelKeysTheRefereeDoesNotReadAreNamed) {
  const BoardFile typo = LoadBoardFile(WriteTemp(
      "typo.json", "{" + kBoard + R"(, "terain": [{"square": [1, 5], "type": "house"}]})"));
  EXPECT_TRUE(typo.board.terrain.empty());
  EXPECT_EQ(typo.ignored_keys, std::vector<std::string>{"terain"});
  EXPECT_NE(
      IgnoredKeysNote(typo, "typo.json").find("typo.json: not a board key, ignored: \"terain\""),
      std::string::npos);
  // The shipped boards and a scene file (its shot and stands) read clean.
  EXPECT_TRUE(
      LoadBoardFile(DatasetsDir() / "boards" / "napoleonic_12x8.json").ignored_keys.empty());
  EXPECT_TRUE(LoadBoardFile(DatasetsDir() / "sample" / "board.json").ignored_keys.empty());
  const BoardFile scene = LoadBoardFile(DatasetsDir() / "scenes" / "ancient_catapult.json");
  EXPECT_TRUE(scene.ignored_keys.empty());
  EXPECT_EQ(IgnoredKeysNote(scene, "x"), "");
}

TEST(SceneFile, MissingFieldsAreNamed) {
  EXPECT_EQ(FieldOfError("no_board.json", R"({"stands": []})"), "board");
  EXPECT_EQ(FieldOfError("no_cols.json", R"({"board": {"rows": 8, "square_size": 4}})"),
            "board.cols");
  EXPECT_EQ(FieldOfError("no_center.json",
                         SceneWith(R"({"id": "r1", "side": "red", "kind": "line_infantry"})")),
            "stands[0].center");
  EXPECT_EQ(
      FieldOfError("no_point.json",
                   SceneWith(kGoodStand, R"(, "shot": {"kind": "field", "firer_side": "b"})")),
      "shot.point");
}

TEST(SceneFile, WrongTypesAreNamed) {
  EXPECT_EQ(
      FieldOfError("cols_string.json", R"({"board": {"cols": "12", "rows": 8, "square_size": 4}})"),
      "board.cols");
  EXPECT_EQ(FieldOfError("cols_fraction.json",
                         R"({"board": {"cols": 12.5, "rows": 8, "square_size": 4}})"),
            "board.cols");
  EXPECT_EQ(FieldOfError("stands_object.json", "{" + kBoard + R"(, "stands": {}})"), "stands");
  EXPECT_EQ(FieldOfError("center_three.json",
                         SceneWith(R"({"id": "r1", "side": "red", "kind": "line_infantry",
                                      "center": [1, 2, 3]})")),
            "stands[0].center");
  EXPECT_EQ(FieldOfError("angle_string.json",
                         SceneWith(R"({"id": "r1", "side": "red", "kind": "line_infantry",
                                      "center": [10, 10], "angle_deg": "north"})")),
            "stands[0].angle_deg");
  EXPECT_EQ(
      FieldOfError("typo.json", SceneWith(R"({"id": "r1", "side": "red", "kind": "line_infantry",
                                      "center": [10, 10], "angle": 90})")),
      "stands[0].angle");
}

TEST(SceneFile, NonFiniteNumbersAreNamed) {
  // nlohmann refuses NaN literals and overflowing numbers while parsing; the field is still
  // named.
  EXPECT_EQ(FieldOfError("inf_center.json",
                         SceneWith(R"({"id": "r1", "side": "red", "kind": "line_infantry",
                                      "center": [10, 1e999]})")),
            "stands[0].center[1]");
  EXPECT_EQ(FieldOfError("inf_size.json", R"({"board": {"cols": 12, "rows": 8,
                                               "square_size": -1e999}})"),
            "board.square_size");
  EXPECT_EQ(FieldOfError("nan_point.json",
                         SceneWith(kGoodStand, R"(, "shot": {"kind": "field", "point": [NaN, 1],
                                                  "firer_side": "blue"})")),
            "shot.point[0]");
  // A syntax error names where the parser was: after board.cols.
  EXPECT_EQ(FieldOfError("garbage.json", "{\"board\": {\"cols\": 12,, }}"), "board.cols");
  // Values that reach the engine as doubles are checked too.
  const nlohmann::json j = {{"board", {{"cols", 12}, {"rows", 8}, {"square_size", NAN}}}};
  try {
    ParseBoardJson(j, "mem.json");
    ADD_FAILURE() << "NaN accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "board.square_size");
  }
}

TEST(SceneFile, BadValuesAreNamed) {
  EXPECT_EQ(FieldOfError("unknown_kind.json",
                         SceneWith(R"({"id": "r1", "side": "red", "kind": "dragoon_of_mars",
                                      "center": [10, 10]})")),
            "stands[0].kind");
  EXPECT_EQ(FieldOfError("off_board.json",
                         SceneWith(R"({"id": "r1", "side": "red", "kind": "line_infantry",
                                      "center": [49, 10]})")),
            "stands[0].center");
  EXPECT_EQ(FieldOfError("dup_id.json", SceneWith(kGoodStand + ", " + R"({"id": "r1",
                          "side": "red", "kind": "line_infantry", "center": [20, 20]})")),
            "stands[1].id");
  EXPECT_EQ(FieldOfError("overlap.json", SceneWith(kGoodStand + ", " + R"({"id": "r2",
                          "side": "red", "kind": "line_infantry", "center": [10.5, 10.2]})")),
            "stands[1]");
  EXPECT_EQ(FieldOfError("neg_size.json",
                         SceneWith(R"({"id": "r1", "side": "red", "kind": "line_infantry",
                                      "center": [10, 10], "size": [0, 1]})")),
            "stands[0].size");
  EXPECT_EQ(FieldOfError("bad_terrain.json",
                         "{" + kBoard + R"(, "terrain": [{"square": [1, 1], "type": "lava"}]})"),
            "terrain[0].type");
  EXPECT_EQ(FieldOfError("terrain_off.json",
                         "{" + kBoard + R"(, "terrain": [{"square": [12, 1], "type": "woods"}]})"),
            "terrain[0].square");
  EXPECT_EQ(FieldOfError("terrain_twice.json",
                         "{" + kBoard + R"(, "terrain": [{"square": [1, 1], "type": "woods"},
                                            {"square": [1, 1], "type": "water"}]})"),
            "terrain[1].square");
  EXPECT_EQ(FieldOfError("flat_polygon.json",
                         "{" + kBoard + R"(, "features": [{"id": "f", "type": "house",
                           "polygon": [[0, 0], [1, 1], [2, 2]]}]})"),
            "features[0].polygon");
  EXPECT_EQ(FieldOfError("shot_kind.json",
                         SceneWith(kGoodStand, R"(, "shot": {"kind": "mortar", "point": [1, 1],
                                                  "firer_side": "blue"})")),
            "shot.kind");
  EXPECT_EQ(FieldOfError("shot_off.json",
                         SceneWith(kGoodStand, R"(, "shot": {"kind": "field", "point": [-1, 1],
                                                  "firer_side": "blue"})")),
            "shot.point");
  EXPECT_EQ(FieldOfError("gun_id.json",
                         SceneWith(kGoodStand, R"(, "shot": {"kind": "field", "point": [1, 1],
                                                  "firer_side": "blue", "gun_id": "nope"})")),
            "shot.gun_id");
  EXPECT_EQ(FieldOfError("gun_side.json",
                         SceneWith(kGoodStand, R"(, "shot": {"kind": "field", "point": [1, 1],
                                                  "firer_side": "blue", "gun_id": "r1"})")),
            "shot.gun_id");
  // Touching bases (sharing an edge) are fine.
  EXPECT_EQ(FieldOfError("touching.json", SceneWith(kGoodStand + ", " + R"({"id": "r2",
                          "side": "red", "kind": "line_infantry", "center": [10, 10.7874015748]})")),
            "(loaded)");
}

TEST(SceneFile, UnreadableFilesAreInputErrors) {
  EXPECT_THROW(ReadJsonFile("/nonexistent/scene.json"), InputError);
  EXPECT_THROW(ReadJsonFile(WriteTemp("empty.json", "")), InputError);
  EXPECT_THROW(LoadStandKinds(WriteTemp("kinds.json", R"({"kinds": {"x": {"category": "ogre",
                                                        "base_mm": [40, 20]}}})")),
               InputError);
  EXPECT_GE(LoadStandKinds().kinds.size(), 30u);
}

}  // namespace
}  // namespace referee
