// `referee bench accuracy` with the referee's own calibration scores a markerless board seen
// from the other side in the truth's frame: TABLE_KIT puts the markerless origin at the grid
// corner nearest the image's top-left, the generator labels its truth from its own corner, so
// the bench must map our stands and impact through the board's half turn before scoring (it
// scored such a scene as a wrong table: stands found but none matched). Also the mapping itself
// on geometry: points, base angles and terrain squares.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <regex>
#include <string>

#include "datasets/scenario.hpp"
#include "datasets/synth_scene.hpp"
#include "engine/data_paths.hpp"
#include "ui/cli/bench_board_symmetry.hpp"

namespace referee {
namespace {

namespace fs = std::filesystem;

std::string RunReferee(const std::string& args) {
  const std::string cmd = std::string(REFEREE_BINARY) + " " + args + " 2>&1";
  std::string out;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (pipe == nullptr) return out;
  std::array<char, 4096> buf{};
  size_t n = 0;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) out.append(buf.data(), n);
  pclose(pipe);
  return out;
}

double Field(const std::string& text, const std::string& pattern) {
  std::smatch m;
  if (!std::regex_search(text, m, std::regex(pattern))) return -1;
  return std::stod(m[1].str());
}

TEST(BenchAccuracySymmetry, MarkerlessBoardSeenFromTheOtherSideIsScoredInTheTruthsFrame) {
  Scenario sc = LoadScenario(DatasetsDir() / "scenarios" / "napoleonic.json");
  sc.markers = false;
  // Seed 5 scene 0 is rolled a half turn by the generator (checked below): its truth origin
  // appears at the image's bottom-right, where TABLE_KIT's markerless origin cannot be.
  const SynthScene scene = GenerateScene(sc, SynthOptions{.seed = 5, .supersample = 1}, 0);
  ASSERT_FALSE(scene.markers);
  const cv::Point2d origin_px = scene.grid_intersections_px.front();
  const cv::Point2d far_px = scene.grid_intersections_px.back();  // (cols, rows)
  ASSERT_GT(origin_px.x + origin_px.y, far_px.x + far_px.y)
      << "the scene is no longer seen from the other side; pick another";
  const fs::path dir = fs::path(REFEREE_TEST_TMP) / "bench_accuracy_symmetry_test";
  fs::remove_all(dir);
  WriteScene(scene, dir / "scene_0000");

  const std::string out = RunReferee("bench accuracy " + dir.string() + " --verbose");
  SCOPED_TRACE(out);
  ASSERT_NE(out.find("1 calibrated from empty, 0 calibration refused"), std::string::npos);
  EXPECT_NE(out.find("labels sym3"), std::string::npos);  // the half turn was applied
  EXPECT_EQ(Field(out, R"(\| relabelled (\d+))"), 1);
  // The same stands the truth camera finds, now matched: the old scoring matched none.
  EXPECT_GE(Field(out, R"(stands P ([0-9.]+)%)"), 95.0);
  EXPECT_GE(Field(out, R"(stands P [0-9.]+% R ([0-9.]+)%)"), 90.0);
  EXPECT_LT(Field(out, R"(centre_mm med ([0-9.]+))"), 1.0);
  EXPECT_LT(Field(out, R"(angle_deg med ([0-9.]+))"), 2.0);
  // The grid's crossings land where the truth's are (the old bench compared mirrored labels).
  EXPECT_LT(Field(out, R"(grid_px med ([0-9.]+))"), 2.0);
  // The impact is where the truth puts it, or the shot was refused (never a wrong table point).
  const double refused = Field(out, R"(refused shots (\d+)/1)");
  if (refused == 0) {
    EXPECT_LT(Field(out, R"(impact_mm med [0-9.]+ p95 [0-9.]+ max ([0-9.]+))"), 5.0);
  }
  // Every pair with nothing new at rest is played and none is ruled: the table photographed
  // again, the shot taken away, the shot left lying and photographed again.
  EXPECT_EQ(Field(out, R"(no-projectile adjudicated (\d+)/2)"), 0);
  EXPECT_EQ(Field(out, R"(taken-away adjudicated (\d+)/1)"), 0);
  EXPECT_EQ(Field(out, R"(lying-still adjudicated (\d+)/1)"), 0);

  // `bench stands --calibrate` scores the truth in our frame too (s60: it matched none of this
  // scene's stands, and its side errors were read against the wrong bases).
  const std::string stands = RunReferee("bench stands " + dir.string() + " --calibrate");
  SCOPED_TRACE(stands);
  EXPECT_NE(stands.find("board symmetry applied (markerless board labelled from another "
                        "corner): 1 of 1 scenes"),
            std::string::npos);
  EXPECT_GE(Field(stands, R"(SUMMARY stands: scenes 1 P ([0-9.]+)%)"), 95.0);
  EXPECT_GE(Field(stands, R"(SUMMARY stands: scenes 1 P [0-9.]+% R ([0-9.]+)%)"), 90.0);
  EXPECT_LT(Field(stands, R"(centre_mm med ([0-9.]+))"), 1.0);
  EXPECT_LT(Field(stands, R"(angle_deg med ([0-9.]+))"), 2.0);
}

TEST(BenchAccuracySymmetry, HalfTurnMapsPointsBaseAnglesAndTerrain) {
  const Grid g{12, 8, 4.0};
  const cli::BoardSymmetry half_turn{3, g};
  const Vec2 p = half_turn.ToTruth(Vec2{1.0, 2.0});
  EXPECT_DOUBLE_EQ(p.x, 47.0);
  EXPECT_DOUBLE_EQ(p.y, 30.0);
  EXPECT_DOUBLE_EQ(half_turn.FromTruth(p).x, 1.0);
  EXPECT_DOUBLE_EQ(half_turn.FromTruth(p).y, 2.0);
  EXPECT_EQ(half_turn.ToTruth(cv::Point2i(0, 0)), cv::Point2i(12, 8));
  // A base facing -y in our frame faces +y in the truth's: the same stand, turned half a turn.
  EXPECT_NEAR(half_turn.RectAngleToTruth(10.0), 190.0, 1e-9);
  EXPECT_NEAR(half_turn.RectAngleFromTruth(190.0), 10.0, 1e-9);
  // A mirror (not a real camera's, but the bench handles all 8) keeps the front the front.
  const cli::BoardSymmetry mirror_cols{1, g};
  EXPECT_NEAR(mirror_cols.RectAngleToTruth(0.0), 0.0, 1e-9);
  EXPECT_NEAR(mirror_cols.AngleToTruth(0.0), 180.0, 1e-9);
  // ... and back, for every symmetry: a truth stand expressed in our frame maps back onto itself.
  for (int id = 0; id < 8; ++id) {
    const cli::BoardSymmetry sym{id, Grid{8, 8, 4.0}};
    for (const double a : {0.0, 10.0, 95.0, 260.0}) {
      const double back = sym.RectAngleToTruth(sym.RectAngleFromTruth(a));
      EXPECT_NEAR(std::remainder(back - a, 360.0), 0.0, 1e-9) << "symmetry " << id << " " << a;
    }
  }
  nlohmann::json truth_stand = {{"center", {1.0, 2.0}},
                                {"angle_deg", 10.0},
                                {"corners", {{0.5, 1.5}, {1.5, 1.5}}},
                                {"center_px", {640, 360}}};
  const nlohmann::json ours_stand = cli::StandFromTruth(truth_stand, half_turn);
  EXPECT_DOUBLE_EQ(ours_stand["center"][0].get<double>(), 47.0);
  EXPECT_DOUBLE_EQ(ours_stand["corners"][1][1].get<double>(), 30.5);
  EXPECT_NEAR(ours_stand["angle_deg"].get<double>(), 190.0, 1e-9);
  EXPECT_EQ(ours_stand["center_px"], truth_stand["center_px"]);

  Board truth;
  truth.grid = g;
  truth.terrain[{1, 0}] = Terrain::kWoods;  // B1 in the truth's frame
  truth.features.push_back({"wood", Terrain::kWoods, Polygon{{{4.5, 0.5}, {7.5, 0.5}, {6, 3}}}});
  const Board ours = cli::BoardFromTruth(truth, half_turn);
  EXPECT_EQ(ours.TerrainAt({10, 7}), Terrain::kWoods);
  EXPECT_EQ(ours.TerrainAt({1, 0}), Terrain::kOpen);
  EXPECT_DOUBLE_EQ(ours.features[0].outline.vertices[0].x, 43.5);
  EXPECT_DOUBLE_EQ(ours.features[0].outline.vertices[0].y, 31.5);
}

}  // namespace
}  // namespace referee
