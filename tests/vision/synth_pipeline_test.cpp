// The whole vision pipeline on generated scenes (1280x720, the generator's camera): stands
// found where the truth has them, the impact point near the truth's painted tip when a
// projectile is accepted, hand frames and unchanged frames refused. Seed printed on failure.
#include <gtest/gtest.h>

#include <opencv2/imgcodecs.hpp>

#include "datasets/synth_scene.hpp"
#include "engine/board_file.hpp"
#include "engine/data_paths.hpp"
#include "engine/stand_kind_catalog_loader.hpp"
#include "rendered_scene.hpp"
#include "scenario_side_colors.hpp"
#include "vision/shot_analysis.hpp"

namespace referee {
namespace {

TEST(SynthPipelineTest, StandsProjectileAndRefusals) {
  const Scenario sc = LoadScenario(DatasetsDir() / "scenarios" / "napoleonic.json");
  const StandKindCatalog catalog = LoadStandKinds();
  const SideColorModel colors = ScenarioSideColors(sc);
  const uint64_t seed = 7;
  int truth_stands = 0, found = 0, accepted = 0;
  for (int index = 0; index < 2; ++index) {
    SCOPED_TRACE("seed " + std::to_string(seed) + " index " + std::to_string(index));
    const SynthScene s = GenerateScene(sc, SynthOptions{.seed = seed, .size = {1280, 720}}, index);
    const TableCalibration cal = TruthCalibration(s);
    const TopView view(cal);
    const ShotAnalysis a = AnalyseShot(view, s.before, s.after, colors, catalog, &s.board);
    for (const Stand& t : s.stands) {
      ++truth_stands;
      for (const auto& d : a.stands.stands) {
        if (d.stand.side == t.side &&
            Distance(d.stand.footprint.center, t.footprint.center) < MmToInches(1.5)) {
          ++found;
          // 1 px is ~1.4 mm at 720p; sizes come out 1-3.5 mm large for now (see the report).
          EXPECT_NEAR(InchesToMm(d.stand.footprint.width_in), InchesToMm(t.footprint.width_in), 4.5)
              << t.id;
          break;
        }
      }
    }
    // Nothing found that is not a stand (no house roofs, no figures).
    EXPECT_LE(a.stands.stands.size(), s.stands.size());
    ASSERT_TRUE(s.projectile.has_value());
    if (a.projectile) {
      ++accepted;
      EXPECT_EQ(a.projectile->kind, s.projectile->kind);
      EXPECT_LT(InchesToMm(Distance(a.projectile->point, s.projectile->point)), 2.5);
    }
    if (!s.after_hand.empty()) {
      EXPECT_TRUE(std::holds_alternative<Refusal>(
          DetectProjectile(a.top_before, view.Rectify(s.after_hand), view, a.stands.stands)));
    }
    EXPECT_TRUE(std::holds_alternative<Refusal>(
        DetectProjectile(a.top_before, a.top_before, view, a.stands.stands)));
  }
  EXPECT_GE(found, truth_stands * 9 / 10) << found << " of " << truth_stands;
  EXPECT_GE(accepted, 1);
}

// Hard scenes at 1080p (defocus, motion blur, sensor noise, JPEG): Q-tips so faint that the
// change mask keeps only a 17-22 mm piece of the stick, refused before as "neither a Q-tip nor
// a shell". The whole Q-tip model matched along that piece finds them; the same scene
// photographed again without a projectile stays unadjudicated.
// Index 2 (bug, refused before as "more than one thing changed"): white stick on a pale mat,
// only its two heads change enough, as two regions 72 mm apart on one line; matched as one.
TEST(SynthPipelineTest, FaintBlurredQtipsAreMatchedByTheWholeModel) {
  const Scenario sc = LoadScenario(DatasetsDir() / "scenarios" / "hard.json");
  const StandKindCatalog catalog = LoadStandKinds();
  const SideColorModel colors = ScenarioSideColors(sc);
  const uint64_t seed = 5;
  for (const int index : {4, 8, 2}) {
    SCOPED_TRACE("hard seed " + std::to_string(seed) + " index " + std::to_string(index));
    const SynthScene s = GenerateScene(
        sc, SynthOptions{.seed = seed, .size = {1920, 1080}, .with_hand_frame = false}, index);
    ASSERT_TRUE(s.projectile && s.projectile->kind == "qtip");
    const TableCalibration cal = TruthCalibration(s);
    const TopView view(cal);
    const ShotAnalysis a = AnalyseShot(view, s.before, AsWebcamSends(s.after, s.jpeg_quality),
                                       colors, catalog, &s.board);
    ASSERT_TRUE(a.projectile.has_value()) << a.refusal;
    EXPECT_EQ(a.projectile->kind, "qtip");
    EXPECT_LT(InchesToMm(Distance(a.projectile->point, s.projectile->point)), 2.5);
    if (index == 2) {
      EXPECT_NE(a.projectile->note.find("pieces"), std::string::npos) << a.projectile->note;
    }
    // The scene again, nothing added: new exposure and white balance, fresh noise, JPEG.
    cv::Mat again;
    s.before.convertTo(again, CV_32FC3);
    cv::multiply(again, cv::Scalar(0.94, 0.91, 0.96), again);
    cv::Mat noise(again.size(), CV_32FC3);
    cv::RNG(1000 + index).fill(noise, cv::RNG::NORMAL, 0.0, 2.0);
    again += noise;
    again.convertTo(again, CV_8UC3);
    const ProjectileResult empty = DetectProjectile(
        a.top_before, view.Rectify(AsWebcamSends(again, 85)), view, a.stands.stands);
    EXPECT_TRUE(std::holds_alternative<Refusal>(empty));
  }
}

}  // namespace
}  // namespace referee
