// Facing from a front stripe under a blur wider than the stripe: the edge's profile over the
// other edges is fitted with the painted stripe's box, blurred by the frame's measured blur.
#include <string>

#include <gtest/gtest.h>

#include "rendered_detection.hpp"

namespace referee {
namespace {

// Hard seed 7, scene 3 (5 mm of blur, every base striped): red-4's and blue-6's stripes are
// spread over twice their width, so the windows of the sharp test found no flanks of their own
// beside them and gave no facing; the blurred box explains 0.94 and 0.83 of their edges'
// profiles, with the other edges' boxes under half as high.
TEST(BlurredStripeFitTest, FacingFromAStripeSpreadByAHardSceneBlur) {
  const RenderedDetection r = DetectInScene("hard.json", 3);
  ExpectFacingGiven(r, "red-4");
  ExpectFacingGiven(r, "blue-6");
  // No facing given the wrong way round in the scene.
  for (const auto& ds : r.found.stands) {
    if (!ds.stand.facing_known) continue;
    for (const Stand& t : r.scene.stands) {
      if (t.side != ds.stand.side ||
          Distance(t.footprint.center, ds.stand.footprint.center) > MmToInches(6.0)) {
        continue;
      }
      EXPECT_LT(FacingOffDeg(ds, t), 10.0) << t.id;
    }
  }
}

// Ancient seed 5, scene 17 has no stripes. A cream figure fills the front half of red-4 (40 x
// 20, 3.4 mm of blur) from 2.5 mm in: a blurred box fits its rise (0.89 of the profile) on one
// width edge only, but the profile never falls back before the base's middle.
TEST(BlurredStripeFitTest, NoFacingFromAPaleFigureFillingTheBase) {
  const RenderedDetection r = DetectInScene("ancient.json", 17, 5);
  const Stand& truth = Truth(r, "red-4");
  ASSERT_FALSE(truth.facing_known);
  const DetectedStand* found = FoundNear(r, truth, 6.0);
  ASSERT_NE(found, nullptr);
  EXPECT_FALSE(found->stand.facing_known) << "white " << found->white_stripe;
}

// Hard seed 7, scene 5 (3.8 mm of blur): blue-1 (40 x 20, no stripe) stands beside pale
// terrain. The windows found a band along one width edge, but the blurred fit reads a white band
// along the whole of a side edge, where no stripe is painted, higher than that one: the band is
// the surroundings' light, not paint, and no facing is given.
TEST(BlurredStripeFitTest, NoFacingWhereAnotherEdgeShowsAsHighAWhiteBand) {
  const RenderedDetection r = DetectInScene("hard.json", 5);
  const Stand& truth = Truth(r, "blue-1");
  ASSERT_FALSE(truth.facing_known);
  const DetectedStand* found = FoundNear(r, truth, 6.0);
  ASSERT_NE(found, nullptr);
  EXPECT_FALSE(found->stand.facing_known) << "white " << found->white_stripe;
}

}  // namespace
}  // namespace referee
