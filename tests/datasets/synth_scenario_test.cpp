// Scenario files: the shipped ones load; bad input names the file and the field.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "datasets/scenario.hpp"
#include "datasets/synth_scene.hpp"
#include "engine/data_paths.hpp"
#include "engine/input_error.hpp"

namespace referee {
namespace {

namespace fs = std::filesystem;

fs::path WriteTemp(const std::string& name, const std::string& text) {
  const fs::path dir = fs::path(REFEREE_TEST_TMP) / "synth_scenario";
  fs::create_directories(dir);
  fs::path p = dir / name;
  std::ofstream(p) << text;
  return p;
}

// Loads `text` as a scenario and returns the InputError's field (fails if none is thrown).
std::string FieldOfError(const std::string& text) {
  const fs::path p = WriteTemp("bad.json", text);
  try {
    const Scenario sc = LoadScenario(p);
    // Some errors (unknown stand kinds) only show against the catalogue at generation time.
    GenerateScene(sc, SynthOptions{1, cv::Size(320, 240), 1, false}, 0);
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), p.string());
    EXPECT_NE(std::string(e.what()).find(p.string()), std::string::npos) << e.what();
    return e.field();
  }
  ADD_FAILURE() << "no InputError for: " << text;
  return "";
}

TEST(SynthScenario, ShippedScenariosLoad) {
  for (const char* name : {"napoleonic", "ancient", "hard", "lamp", "handmade_shells"}) {
    const Scenario sc = LoadScenario(DatasetsDir() / "scenarios" / (std::string(name) + ".json"));
    EXPECT_EQ(sc.name, name);
  }
  const Scenario hard = LoadScenario(DatasetsDir() / "scenarios" / "hard.json");
  EXPECT_DOUBLE_EQ(hard.difficulty.grid_hidden_fraction, 0.3);
  EXPECT_FALSE(hard.markers);
  EXPECT_EQ(LoadScenario(DatasetsDir() / "scenarios" / "ancient.json").grid.square_size_in, 3.0);
  EXPECT_EQ(LoadScenario(DatasetsDir() / "scenarios" / "ancient.json").shell_dot_offset_mm, 0.0);
  EXPECT_EQ(LoadScenario(DatasetsDir() / "scenarios" / "handmade_shells.json").shell_dot_offset_mm,
            2.0);
}

TEST(SynthScenario, BadInputNamesFileAndField) {
  EXPECT_EQ(FieldOfError(R"({"board": {"cols": "twelve"}})"), "board.cols");
  EXPECT_EQ(FieldOfError(R"({"board": {"cols": 0}})"), "board.cols");
  EXPECT_EQ(FieldOfError(R"({"stand_per_side": 3})"), "stand_per_side");  // typo: unknown key
  EXPECT_EQ(FieldOfError(R"({"projectile": "arrow"})"), "projectile");
  EXPECT_EQ(FieldOfError(R"({"shell_dot_offset_mm": 9})"), "shell_dot_offset_mm");
  EXPECT_EQ(FieldOfError(R"({"difficulty": {"tilt_deg": [20, 10]}})"), "difficulty.tilt_deg");
  EXPECT_EQ(FieldOfError(R"({"difficulty": {"k1": [-0.2]}})"), "difficulty.k1");
  EXPECT_EQ(FieldOfError(R"({"sides": [{"name": "red", "colour": [300, 0, 0]},
                                       {"name": "blue", "colour": [0, 0, 255]}]})"),
            "sides[0].colour[0]");
  EXPECT_EQ(FieldOfError(R"({"terrain": {"counts": {"lava": 2}}})"), "terrain.counts.lava");
  EXPECT_EQ(FieldOfError(R"({"kinds": ["line_infantry", "space_marine"]})"), "kinds[1]");
  EXPECT_EQ(FieldOfError(R"({"board": )"), "");  // invalid JSON: the file alone
}

TEST(SynthScenario, MissingFileIsInputError) {
  EXPECT_THROW(LoadScenario(fs::path(REFEREE_TEST_TMP) / "no_such_scenario.json"), InputError);
}

}  // namespace
}  // namespace referee
