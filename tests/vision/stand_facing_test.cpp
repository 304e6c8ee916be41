// Facing from the front stripe only on an outline good enough to read it from: the stripe test
// reads the profile at depths from the outline found, so an outline far off every catalogue
// size puts a pale figure where a stripe would be.
#include <algorithm>

#include <gtest/gtest.h>

#include "rendered_detection.hpp"

namespace referee {
namespace {

// Hard seed 7, scene 4 has no stripes. blue-2, a 40 x 20 mm line infantry base, is found 46 x
// 21 mm, 6 mm off its catalogue size, and a pale band 3 mm in from one of its long edges passed
// for a stripe (0.62 of the contrast expected under the frame's 3.2 mm blur): it was given a
// facing.
TEST(StandFacingTest, NoFacingOnAnOutlineFarOffItsCatalogueSize) {
  const RenderedDetection r = DetectInScene("hard.json", 4);
  ASSERT_TRUE(std::none_of(r.scene.stands.begin(), r.scene.stands.end(),
                           [](const Stand& t) { return t.facing_known; }));
  const auto truth = std::find_if(r.scene.stands.begin(), r.scene.stands.end(),
                                  [](const Stand& t) { return t.id == "blue-2"; });
  ASSERT_NE(truth, r.scene.stands.end());
  const auto found =
      std::find_if(r.found.stands.begin(), r.found.stands.end(), [&](const DetectedStand& ds) {
        return ds.stand.side == truth->side &&
               Distance(ds.stand.footprint.center, truth->footprint.center) < MmToInches(6.0);
      });
  ASSERT_NE(found, r.found.stands.end());
  EXPECT_FALSE(found->stand.facing_known)
      << "facing " << found->stand.footprint.angle_deg << " on a base measured "
      << InchesToMm(found->stand.footprint.width_in) << " x "
      << InchesToMm(found->stand.footprint.depth_in) << " mm";
}

}  // namespace
}  // namespace referee
