// `referee adjudicate` says at which height a shot lying on a stand would change who is hit,
// since one camera does not measure that height. Ancient seed 5 scene 2 (1080p, rendered here):
// a catapult shell rests on a stand's figures, and a base near the 1" circle's edge is hit or
// clear depending on how high the shell lies. The height the command reports is checked against
// the generator's own geometry: the true camera ray through where the shell is seen, and the
// true stands, ruled by the engine at each height.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "adjudicated_scene_files.hpp"
#include "datasets/scenario.hpp"
#include "datasets/synth_scene.hpp"
#include "engine/data_paths.hpp"
#include "engine/shot_adjudication.hpp"
#include "engine/stand_kind_catalog_loader.hpp"

namespace referee::adjudicate_rest_height_test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

fs::path Dir() { return fs::path(REFEREE_TEST_TMP) / "adjudicate_rest_height_test"; }

// The stands the engine hits with a catapult shell at p on the generator's table.
std::vector<std::string> TrueHits(const SynthScene& scene, Vec2 p, const std::string& firer) {
  Shot shot;
  shot.kind = ShotKind::kCatapult;
  shot.point = p;
  shot.firer_side = firer;
  const Verdict v =
      AdjudicateShot(scene.board, scene.stands, shot, LoadStandKinds(), LoadShotOptions("ancient"));
  std::vector<std::string> ids = v.candidates;
  std::ranges::sort(ids);
  return ids;
}

TEST(AdjudicateRestHeightTest, TheHeightThatDecidesAShotOnFiguresIsTheTablesOwn) {
  const Scenario sc = LoadScenario(DatasetsDir() / "scenarios" / "ancient.json");
  const SynthScene scene =
      GenerateScene(sc, SynthOptions{.seed = 5, .size = {1920, 1080}, .with_hand_frame = false}, 2);
  ASSERT_TRUE(scene.projectile.has_value());
  WriteSceneFiles(scene, Dir());
  const std::string firer = scene.verdict.firer_side;
  const json j = AdjudicateSceneFiles(Dir(), "--ruleset ancient --shot catapult --firer " + firer);
  ASSERT_FALSE(j.is_null());
  ASSERT_FALSE(j.at("rejected").get<bool>()) << j.at("reason");
  // Its dot shows on the shell's top here: the point is the dot, not the square's centre.
  EXPECT_TRUE(j.at("projectile").at("dot_seen").get<bool>());
  const json* height = nullptr;
  for (const auto& c : j.at("check")) {
    if (c.contains("decides_height_mm")) height = &c;
  }
  ASSERT_NE(height, nullptr) << j.at("check").dump();
  EXPECT_EQ(height->at("side"), "");
  EXPECT_EQ(height->at("stand"), j.at("projectile").at("resting_on"));
  // The height decides at the sizes reported: no other base size is part of it.
  EXPECT_EQ(height->at("if_base_of"), "");
  EXPECT_EQ(height->at("if_base"), "");
  const double ruled_mm = height->at("height_mm").get<double>();
  const double decides_mm = height->at("decides_height_mm").get<double>();

  // The generator's geometry: the shell's dot is seen where the true ray through it meets the
  // mat; at height h it would lie on that ray h above the mat.
  const cv::Vec3d eye = scene.camera.CameraCenterTable();
  const Vec2 foot{eye[0], eye[1]};
  const double eye_mm = InchesToMm(-eye[2]);
  const double dot_mm = InchesToMm(scene.projectile->height_in);
  const Vec2 seen = foot + (eye_mm / (eye_mm - dot_mm)) * (scene.projectile->point - foot);
  const auto at = [&](double h_mm) { return foot + ((eye_mm - h_mm) / eye_mm) * (seen - foot); };
  const std::vector<std::string> ruled = TrueHits(scene, at(ruled_mm), firer);
  // The true height nearest the ruled one at which the true stands' ruling changes.
  double true_decides_mm = -1;
  for (double h = 0.0; h <= 45.0; h += 0.1) {
    if (TrueHits(scene, at(h), firer) != ruled &&
        (true_decides_mm < 0 || std::abs(h - ruled_mm) < std::abs(true_decides_mm - ruled_mm))) {
      true_decides_mm = h;
    }
  }
  ASSERT_GE(true_decides_mm, 0.0) << "the true table's ruling does not change with the height";
  // 1.5 mm of height moves the point ~0.3 mm here: within what the stands and the dot are
  // found to.
  EXPECT_NEAR(decides_mm, true_decides_mm, 1.5)
      << "ruled at " << ruled_mm << " mm; " << height->at("reason");
  // The shell truly lies above that height: the ruling stands.
  EXPECT_GT(dot_mm, decides_mm);
  const std::string text = AdjudicateStdout(Dir());
  EXPECT_NE(text.find("CHECK: the height decides"), std::string::npos) << text;
}

}  // namespace
}  // namespace referee::adjudicate_rest_height_test
