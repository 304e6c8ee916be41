// Sharp frames an MJPEG webcam sends (JPEG quality 80): the colour's own blur wakes the
// blurred-ring search (vision/blurred_ring_fit), and a ring fitted to the texture of woods or
// plain ground, whose band stands barely above what surrounds it, is no base. Rendered
// napoleonic seed 5 scenes, detected as `referee bench stands` detects them.
#include <algorithm>
#include <string>

#include <gtest/gtest.h>

#include "rendered_detection.hpp"

namespace referee {
namespace {

// Is a base of either side claimed within 6 mm of `at` (table inches)?
bool ClaimedAt(const StandDetection& d, Vec2 at) {
  return std::any_of(d.stands.begin(), d.stands.end(), [&](const DetectedStand& ds) {
    return Distance(ds.stand.footprint.center, at) < MmToInches(6.0);
  });
}

// Scene `index` with the bar and without it: without, a base is claimed at `at`, where no true
// base stands within 50 mm; with it, none is, no base is claimed away from a true one, and every
// true base found without the bar is found with it.
void ExpectTextureRingDropped(int index, Vec2 at) {
  StandDetectorOptions off_options;
  off_options.blurred_ring.min_band_over_surroundings = 0;
  const RenderedDetection on = DetectInWebcamScene("napoleonic.json", index, 5, 80);
  const StandDetection off = DetectAsWebcamSends(on.scene, 80, off_options);
  for (const Stand& t : on.scene.stands) {
    ASSERT_GT(InchesToMm(Distance(t.footprint.center, at)), 50.0) << t.id;
  }
  EXPECT_TRUE(ClaimedAt(off, at));
  EXPECT_FALSE(ClaimedAt(on.found, at));
  ExpectNoFalseBases(on, 6.0);
  for (const Stand& t : on.scene.stands) {
    if (FoundOfItsSide(off, t, 6.0)) {
      EXPECT_TRUE(FoundOfItsSide(on.found, t, 6.0)) << t.id;
    }
  }
}

// A 40 x 20 mm ring on plain ground (its band 0.02 of a full border over its surroundings).
TEST(WebcamJpegRingsTest, NoBaseOnPlainGround) { ExpectTextureRingDropped(21, {5.80, 2.77}); }

// A 40 x 30 mm ring on the crowns of a wood (0.05).
TEST(WebcamJpegRingsTest, NoBaseOnAWood) { ExpectTextureRingDropped(17, {25.45, 7.09}); }

}  // namespace
}  // namespace referee
