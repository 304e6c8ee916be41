// A Q-tip whose painted head alone clears the plain change test, in a rendered `hard` scene
// (1080p, heavy blur, the generator's camera, `after` compressed as a webcam sends it). A dark
// head is plain on a pale tan mat; the white stick blurred into that mat stays under even the
// lowered threshold. The head, about as wide as long, has no axis of its own: the whole model
// is matched around it in every direction.
#include <gtest/gtest.h>

#include <variant>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "analysed_scene.hpp"
#include "vision/projectile_detector.hpp"

namespace referee {
namespace {

// Seed 109, scene 1. Before: "a change of 10 x 7 mm is neither a Q-tip nor a shell".
TEST(QtipHeadAloneTest, AQtipSeenPlainlyOnlyAtItsHeadIsMatchedAroundIt) {
  ExpectHardQtipPlaced(109, 1, "only at its head");
}

// The same head-sized dark change with no stick beside it (a dark fleck dropped on the mat)
// must not be stretched into a Q-tip in some direction. Painted, not grey: a grey darkening is
// set aside as a shadow before any model is tried.
TEST(QtipHeadAloneTest, AHeadSizedFleckWithNoStickStaysRefused) {
  const Scenario sc = HardScenario();
  const SynthScene s = HardScene(sc, 109, 1);
  ASSERT_TRUE(s.projectile.has_value());
  const ShotAnalysis a = AnalyseRenderedScene(sc, s);
  const TopView view(TruthCalibration(s));

  // Where the head lies, 4 mm along the axis from the tip, on the mat of `before`.
  const Vec2 along = s.projectile->plain_end - s.projectile->point;
  const Vec2 head = s.projectile->point + along * (MmToInches(4.0) / Norm(along));
  const cv::Mat fleck = WithFleck(s, head, cv::Size2d(4.0, 3.0), 20, cv::Scalar(50, 60, 120));
  const ProjectileResult r = DetectProjectile(
      a.top_before, view.Rectify(AsWebcamSends(fleck, s.jpeg_quality)), view, a.stands.stands);
  const auto* placed = std::get_if<ProjectileObservation>(&r);
  EXPECT_EQ(placed, nullptr) << placed->note << ", change " << placed->change_area_mm2 << " mm^2";
  const auto* refusal = std::get_if<Refusal>(&r);
  ASSERT_NE(refusal, nullptr);
  EXPECT_NE(refusal->reason.find("neither a Q-tip nor a shell"), std::string::npos)
      << refusal->reason;
}

}  // namespace
}  // namespace referee
