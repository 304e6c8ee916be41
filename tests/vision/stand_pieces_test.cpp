// One base found as two pieces on rendered `hard` scenes: a colour blob cut short at its figures
// beside a ring fit of its far half, or two ring fits of its halves. Bases cannot overlap, so
// two overlapping pieces of one side are one base; two touching halves are one base when the
// rectangle holding both is a catalogue base with its whole outline and no seam inside.
#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>
#include <opencv2/imgproc.hpp>

#include "rendered_detection.hpp"

namespace referee {
namespace {

void ExpectNoTwoOfOneSideOverlap(const RenderedDetection& r) {
  const auto poly = [](const OrientedRect& o) {
    std::vector<cv::Point2f> p;
    for (const Vec2 c : o.Corners()) p.emplace_back(c.x, c.y);
    return p;
  };
  const auto& st = r.found.stands;
  for (size_t i = 0; i < st.size(); ++i) {
    for (size_t j = i + 1; j < st.size(); ++j) {
      if (st[i].stand.side != st[j].stand.side) continue;
      const OrientedRect& a = st[i].stand.footprint;
      const OrientedRect& b = st[j].stand.footprint;
      std::vector<cv::Point2f> meet;
      const double shared = cv::intersectConvexConvex(poly(a), poly(b), meet);
      EXPECT_LT(shared, 0.1 * std::min(a.width_in * a.depth_in, b.width_in * b.depth_in))
          << st[i].stand.id << " at " << a.center.x << ", " << a.center.y << " and "
          << st[j].stand.id << " at " << b.center.x << ", " << b.center.y;
    }
  }
}

// Hard seed 5, scene 11: red-4, a 40 x 30 mm cavalry base, was found as a 17 mm deep blob (the
// washout search) and a 40 x 20 mm ring fit overlapping a third of it, 6 mm off; red-9, a
// 40 x 40 mm field gun, as a 38 x 32 mm blob and a 40 x 20 ring across its far half. Each is
// one base at its catalogue size, and no two bases of one side overlap.
TEST(StandPiecesTest, OverlappingPiecesOfOneBaseAreOneBase) {
  const RenderedDetection r = DetectInScene("hard.json", 11, 5);
  ExpectNoTwoOfOneSideOverlap(r);
  const Stand& cavalry = Truth(r, "red-4");
  const DetectedStand* found = FoundNear(r, cavalry, 12.0);
  ASSERT_NE(found, nullptr);
  EXPECT_LT(Distance(found->stand.footprint.center, cavalry.footprint.center), MmToInches(3.0));
  EXPECT_NEAR(InchesToMm(found->stand.footprint.depth_in), 30.0, 3.0);
  EXPECT_EQ(CountNear(r, cavalry, 25.0), 1);
  EXPECT_EQ(CountNear(r, Truth(r, "red-9"), 20.0), 1);
}

// Hard seed 5, scenes 0 and 10: ring fits of a howitzer's two ends (40 x 30 and 40 x 20 mm,
// overlapping), of its two halves crossed, and a second 40 x 40 ring 6 mm off a supply wagon
// found whole: each was kept beside the other, a false base. Scene 0's crossed halves still
// leave one half (no catalogue base holds both with its whole outline showing).
TEST(StandPiecesTest, NoTwoBasesOfOneSideOverlap) {
  for (const int index : {0, 10}) {
    SCOPED_TRACE("hard seed 5 scene " + std::to_string(index));
    const RenderedDetection r = DetectInScene("hard.json", index, 5);
    ExpectNoTwoOfOneSideOverlap(r);
    if (index == 0) {
      const Stand& howitzer = Truth(r, "blue-6");
      const DetectedStand* found = FoundNear(r, howitzer, 12.0);
      ASSERT_NE(found, nullptr);
      EXPECT_LT(Distance(found->stand.footprint.center, howitzer.footprint.center),
                MmToInches(3.0));
      EXPECT_NEAR(InchesToMm(found->stand.footprint.depth_in), 40.0, 3.0);
      EXPECT_EQ(CountNear(r, howitzer, 25.0), 1);
    }
  }
}

// Hard seed 7, scene 7: red-3, a 40 x 40 mm supply wagon, was found as two 40 x 20 mm halves side
// by side (a washout blob and a ring fit), 11 mm off, one of them a false base. The rectangle
// holding both is a 40 x 40 base whose outline shows all round and whose middle shows no seam
// (two touching 40 x 20 bases would show two borders side by side there): one base.
// The true base `id` of scene r is found as one 40 x 40 mm base within 3 mm of its centre, the
// only base within 25 mm of it.
void ExpectOneWhole40x40Base(const RenderedDetection& r, const std::string& id) {
  const Stand& base = Truth(r, id);
  const DetectedStand* found = FoundNear(r, base, 12.0);
  ASSERT_NE(found, nullptr) << id;
  EXPECT_LT(Distance(found->stand.footprint.center, base.footprint.center), MmToInches(3.0)) << id;
  EXPECT_NEAR(InchesToMm(found->stand.footprint.width_in), 40.0, 3.0) << id;
  EXPECT_NEAR(InchesToMm(found->stand.footprint.depth_in), 40.0, 3.0) << id;
  EXPECT_EQ(CountNear(r, base, 25.0), 1) << id;
}

TEST(StandPiecesTest, TwoTouchingHalvesWithoutASeamAreOneBase) {
  ExpectOneWhole40x40Base(DetectInScene("hard.json", 7), "red-3");
}

// A 40 x 40 mm base whose colour blob ends at its figures, on a frame blurred wider than its
// border, found as its 40 x 20 mm half 10-13 mm off: hard seed 113 scene 1 red-6 (a field gun;
// the half counted as a false base and the gun as missed) and hard seed 101 scene 7 blue-9 (a
// howitzer found as two halves, one of them 12 mm off). On the departure toward the side's
// colour the whole base's blurred ring explains the band far better than the half's (0.75 and
// 0.82 against 0.40 and 0.54): each is one base at its catalogue size, where it stands.
TEST(StandPiecesTest, AHalfUnderABlurWiderThanItsBorderIsGrownOnTheBlurredBand) {
  for (const auto& [seed, index, id] :
       {std::tuple{113, 1, "red-6"}, std::tuple{101, 7, "blue-9"}}) {
    SCOPED_TRACE("hard seed " + std::to_string(seed) + " scene " + std::to_string(index));
    ExpectOneWhole40x40Base(DetectInScene("hard.json", index, seed), id);
  }
}

}  // namespace
}  // namespace referee
