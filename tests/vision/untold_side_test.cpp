// A base whose border shows on one side of an axis and not at all on the other is measured
// along that axis by a guess (vision/untold_side.hpp): the other catalogue sizes, placed against
// the side that shows, are offered to the players. Drawn evidence masks in a top view of 0.5 mm
// per pixel, and a base of `hard` seed 353 scene 5 fitted 10 mm too deep under its figures.
#include <algorithm>
#include <vector>

#include <gtest/gtest.h>
#include <opencv2/imgproc.hpp>

#include "analysed_scene.hpp"
#include "drawn_borders.hpp"
#include "engine/shot_adjudication.hpp"
#include "rendered_detection.hpp"
#include "vision/untold_side.hpp"

namespace referee {
namespace {

constexpr double kMm = 0.5;  // mm per top-view px
const std::vector<BaseSize> kSizes{{40, 20}, {40, 30}, {40, 40}};

// A 40 x 30 mm base at (100, 100) px, its 40 mm along x: the -b side is the top (y = 70 px),
// the +b side the bottom (y = 130 px).
PxRect Base() { return DrawnRect({100, 100}, 40, 30, 0, kMm); }

// The evidence of r's 3 mm border, with the band along the top side cleared from its first
// `top_cleared` (0..1) of its length: figures standing over it.
cv::Mat BorderEvidence(const PxRect& r, double top_cleared) {
  cv::Mat m(200, 200, CV_8U, cv::Scalar(0));
  cv::fillConvexPoly(m, GrownCorners(r, 0), cv::Scalar(255));
  cv::fillConvexPoly(m, GrownCorners(r, -3.0 / kMm), cv::Scalar(0));
  const double x0 = r.center.x - 0.5 * r.len_a, y0 = r.center.y - 0.5 * r.len_b;
  cv::rectangle(m,
                cv::Rect(static_cast<int>(x0), static_cast<int>(y0) - 1,
                         static_cast<int>(top_cleared * r.len_a), static_cast<int>(3.0 / kMm) + 1),
                cv::Scalar(0), cv::FILLED);
  return m;
}

std::vector<PxRect> Open(const cv::Mat& evidence, const std::vector<const PxRect*>& others = {},
                         cv::Point2d front_out = {}) {
  return SizesAnUntoldSideLeavesOpen(Base(), evidence, front_out, 3.0 / kMm, kSizes, kMm, 5.0 / kMm,
                                     others);
}

// The one of `open` whose length along y is d_mm, or null.
const PxRect* WithDepth(const std::vector<PxRect>& open, double d_mm) {
  const auto it = std::find_if(open.begin(), open.end(), [&](const PxRect& o) {
    return std::abs(o.len_b * kMm - d_mm) < 0.5 && std::abs(o.len_a * kMm - 40) < 0.5;
  });
  return it == open.end() ? nullptr : &*it;
}

TEST(UntoldSideTest, ABaseWhoseEverySideShowsLeavesNoSizeOpen) {
  EXPECT_TRUE(Open(BorderEvidence(Base(), 0)).empty());
}

// Figures over the whole top side: 40 x 20 and 40 x 40 are as likely, each with its bottom
// edge on the found base's.
TEST(UntoldSideTest, AHiddenSideLeavesTheOtherSizesAlongItsAxisOpenAgainstTheSideSeen) {
  const std::vector<PxRect> open = Open(BorderEvidence(Base(), 1.0));
  ASSERT_EQ(open.size(), 2u);
  const PxRect* small = WithDepth(open, 20);
  const PxRect* large = WithDepth(open, 40);
  ASSERT_NE(small, nullptr);
  ASSERT_NE(large, nullptr);
  for (const PxRect* o : {small, large}) {
    EXPECT_NEAR(o->center.y + 0.5 * o->len_b, 130.0, 0.5);  // the bottom edge kept
    EXPECT_NEAR(o->center.x, 100.0, 0.5);
  }
}

// Half the top side's border still seen past its figures: the side is told.
TEST(UntoldSideTest, ASideHalfSeenIsTold) {
  EXPECT_TRUE(Open(BorderEvidence(Base(), 0.5)).empty());
}

// A white front stripe read along the top side marks that edge.
TEST(UntoldSideTest, ASideWithTheFrontStripeReadIsTold) {
  EXPECT_TRUE(Open(BorderEvidence(Base(), 1.0), {}, {0, -1}).empty());
}

// A base found 2 mm beyond the hidden side: a 40 x 40 would overlap it, so only 40 x 20 is open.
TEST(UntoldSideTest, NoSizeThatWouldOverlapAnotherBaseFound) {
  const PxRect neighbour = DrawnRect({100, 70 - (2 + 15) / kMm}, 40, 30, 0, kMm);
  const std::vector<PxRect> open = Open(BorderEvidence(Base(), 1.0), {&neighbour});
  ASSERT_EQ(open.size(), 1u);
  EXPECT_NE(WithDepth(open, 20), nullptr);
}

// `hard` seed 353 scene 5: red-9, a 40 x 20 mm light infantry base far from the tilted camera
// (half a pixel per mm, 2-8 mm of blur), its figures standing over one long side. The ring fit
// chose 40 x 30 mm, running on 10 mm under those figures. It now comes with the sizes that side
// leaves open, the true one among them, each keeping the side that shows; a shot whose circle
// reaches the 40 x 30's hidden part but not the true base is asked about, not called a hit.
// (The scene's own shot lies off the other side, whose edge the blur puts 3.5 mm toward it: that
// miss is still called a hit, README "Not met yet" 1.)
TEST(UntoldSideTest, AFarSideUnderFiguresLeavesTheTrueSizeOpenForThePlayers) {
  SynthScene s;
  const ShotAnalysis a = AnalyseHardShot(353, 5, "qtip", s);
  const auto truth = std::ranges::find_if(s.stands, [](const Stand& t) { return t.id == "red-9"; });
  ASSERT_NE(truth, s.stands.end());
  const RenderedDetection found_in{s, a.stands};
  const DetectedStand* found = FoundNear(found_in, *truth, 6.0);
  ASSERT_NE(found, nullptr);
  EXPECT_GT(InchesToMm(found->stand.footprint.depth_in), 25.0);
  // The true size is offered, placed within 5 mm (the edge it keeps is read under 2-8 mm of
  // blur), half the step between two sizes.
  const auto true_size = std::ranges::find_if(found->stand.other_outlines, [](const auto& o) {
    return std::abs(InchesToMm(o.footprint.depth_in) - 20.0) < 1.0;
  });
  ASSERT_NE(true_size, found->stand.other_outlines.end());
  EXPECT_LT(InchesToMm(Distance(true_size->footprint.center, truth->footprint.center)), 5.0);

  // A horse gun's shot 3 mm out of reach of the true base's hidden side: within reach of the
  // 40 x 30 reported.
  const Vec2 hidden = found->stand.footprint.center - true_size->footprint.center;
  const Vec2 away = (1.0 / Norm(hidden)) * hidden;
  const ShotOptions rules = LoadShotOptions("napoleonic");
  Shot shot;
  shot.kind = ShotKind::kHorse;
  shot.point = truth->footprint.center +
               (0.5 * truth->footprint.depth_in + rules.hit_radius_in + MmToInches(3.0)) * away;
  EXPECT_GT(TargetDistance(shot.point, *truth, StandCategory::kInfantry, rules),
            rules.hit_radius_in);
  EXPECT_LT(TargetDistance(shot.point, found->stand, StandCategory::kInfantry, rules),
            rules.hit_radius_in);
  const Verdict v = AdjudicateShot(s.board, StandsOf(a.stands), shot, LoadStandKinds(), rules);
  EXPECT_EQ(v.size_to_confirm, std::vector<std::string>{found->stand.id});
}

}  // namespace
}  // namespace referee
