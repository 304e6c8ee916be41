// Sharp frames an MJPEG webcam sends (JPEG quality 80): the colour's own blur wakes the
// blurred-ring search (vision/blurred_ring_fit), and a ring fitted to the texture of woods or
// plain ground, whose band stands barely above what surrounds it, is no base. Rendered
// napoleonic seed 5 scenes, detected as `referee bench stands` detects them; and an ancient
// scene through a webcam that also washes its colours out, whose blur is read on weak steps.
#include <algorithm>
#include <cmath>
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

// Ancient seed 5, scene 17, through a webcam that washes colour (white balance 0.9,1,1.1,
// vignette 0.15, a quarter of the saturation lost, 0.8 px of blur, noise 3, JPEG 80, as
// `referee bench stands --camera-...` shoots it): the kit's colours gate no border, and the
// bases the washed classes find step only 20-35 levels from the mat, under the 40 the frame's
// blur was read on. With no blur read the blurred-ring search never ran, and the scene was lost
// or not by the draw of the noise: over noise seeds 1-8 the s42 code found 1-4 of the 20 bases
// on five (3 on seed 1) and 11 on three. Read on those weaker steps, the blur wakes the search:
// 10-13 found on all eight, none claimed where no base is.
TEST(WebcamJpegRingsTest, FindsBasesOfAWashingWebcamWhoseStepsAreWeak) {
  const Scenario sc = LoadScenario(DatasetsDir() / "scenarios" / "ancient.json");
  RenderedDetection r;
  r.scene = GenerateScene(sc, SynthOptions{.seed = 5}, 17);
  r.found = DetectInSentFrame(r.scene, Reshot(r.scene.before, WashingWebcam(), false, 1));
  const auto found = std::count_if(r.scene.stands.begin(), r.scene.stands.end(),
                                   [&](const Stand& t) { return FoundOfItsSide(r.found, t, 6.0); });
  EXPECT_GE(found, 8) << "of " << r.scene.stands.size();
  ExpectNoFalseBases(r, 6.0);
}

// The same scene 17 through the same webcam, noise seed 3: its bases step so weakly from the dark
// mat that the washed classes see rings of red and blue 0.15-0.3 of the way from it, and the
// webcam's halved chroma spreads each ring's hue 3-6 mm past its edge. Sampled 2.5 mm out, the
// true size showed its own border outside; a smaller size fitted inside the ring read less
// there, so no washed ring was a candidate and red-1 (a 40 x 30 mm cavalry base, its border and
// bare top plain to see) and red-3 (a 40 x 40 mm catapult base) were missed. Sampled past the
// frame's blur, six red rings agree, red is refitted from them, and its thick rings are fitted
// as rings in the refitted mask. Over noise seeds 1-8 that found 15-18 of the 20 bases where
// 11-14 were, red-1 on seven seeds and red-3 on six; on seed 8 two were lost and a 40 x 40 mm
// chariot base was claimed 7 mm off as a 40 x 30.
TEST(WebcamJpegRingsTest, FitsWashedRingsWhoseHueTheWebcamsChromaSpreads) {
  const Scenario sc = LoadScenario(DatasetsDir() / "scenarios" / "ancient.json");
  RenderedDetection r;
  r.scene = GenerateScene(sc, SynthOptions{.seed = 5}, 17);
  const cv::Mat sent = Reshot(r.scene.before, WashingWebcam(), false, 3);
  r.found = DetectInSentFrame(r.scene, sent);
  StandDetectorOptions off;
  off.thick_washed_rings = false;
  const StandDetection without = DetectInSentFrame(r.scene, sent, off);
  for (const std::string id : {"red-1", "red-3"}) {
    const Stand& truth = Truth(r, id);
    EXPECT_FALSE(FoundOfItsSide(without, truth, 6.0)) << id;
    const DetectedStand* found = FoundNear(r, truth, 6.0);
    ASSERT_NE(found, nullptr) << id;
    ExpectPlacedOn(*found, truth, 3.0, 3.0);
  }
  ExpectNoFalseBases(r, 6.0);
  for (const Stand& t : r.scene.stands) {
    if (FoundOfItsSide(without, t, 6.0)) {
      EXPECT_TRUE(FoundOfItsSide(r.found, t, 6.0)) << t.id;
    }
  }
}

// Does `found` report truth's size, or offer it among the other sizes it could be (each side
// within 3 mm)?
bool ReportsOrOffersTheTrueSize(const DetectedStand& found, const Stand& truth) {
  const auto same = [&](const OrientedRect& f) {
    return std::abs(InchesToMm(f.width_in - truth.footprint.width_in)) < 3.0 &&
           std::abs(InchesToMm(f.depth_in - truth.footprint.depth_in)) < 3.0;
  };
  return same(found.stand.footprint) ||
         std::any_of(found.stand.other_outlines.begin(), found.stand.other_outlines.end(),
                     [&](const OtherOutline& o) { return same(o.footprint); });
}

// The same scene 17, noise seed 1: a thick ring fits sizes that differ by less than its hue's
// spread about alike, and red-1 (40 x 30 mm) and blue-5 (40 x 30 mm) were placed at 40 x 40. Each
// is reported with the sizes the ring cannot tell from it (each side within the spread), so the
// players are asked where the size decides a ruling: the true size is among them.
TEST(WebcamJpegRingsTest, OffersTheSizesAThickWashedRingCannotTell) {
  const Scenario sc = LoadScenario(DatasetsDir() / "scenarios" / "ancient.json");
  RenderedDetection r;
  r.scene = GenerateScene(sc, SynthOptions{.seed = 5}, 17);
  r.found = DetectInSentFrame(r.scene, Reshot(r.scene.before, WashingWebcam(), false, 1));
  for (const std::string id : {"red-1", "blue-5"}) {
    const Stand& truth = Truth(r, id);
    const DetectedStand* found = FoundNear(r, truth, 6.0);
    ASSERT_NE(found, nullptr) << id;
    EXPECT_FALSE(found->stand.other_outlines.empty()) << id;
    EXPECT_TRUE(ReportsOrOffersTheTrueSize(*found, truth)) << id;
  }
}

// Lamp seed 5, scene 15, through the same webcam: blue-6, a 40 x 40 mm gun base, has a tan top
// inside its blue border on a green mat, and tan lies part of the way from green toward red, so
// the washed classes see a ring of red inside the ring of blue. With the rings sampled past the
// blur, that ring made one of red's three agreeing rings, red was refitted, and blue-6 was
// claimed as a red base: on noise seed 2 by the first build of this pass (every ring fitted
// counted, two at one place too, and rings where another side's lay), on seed 5 by one that
// kept those out of the refitted side's ring fits but not of the count. A ring where another
// side's washed ring lies too counts for neither side, and each place counts once.
TEST(WebcamJpegRingsTest, NoBaseOfAnotherSideClaimedInsideAWashedBorder) {
  const Scenario sc = LoadScenario(DatasetsDir() / "scenarios" / "lamp.json");
  RenderedDetection r;
  r.scene = GenerateScene(sc, SynthOptions{.seed = 5}, 15);
  const Stand& blue6 = Truth(r, "blue-6");
  for (const int noise_seed : {2, 5}) {
    r.found =
        DetectInSentFrame(r.scene, Reshot(r.scene.before, WashingWebcam(), false, noise_seed));
    EXPECT_TRUE(FoundOfItsSide(r.found, blue6, 6.0)) << "noise seed " << noise_seed;
    EXPECT_EQ(CountNear(r, blue6, 6.0), 1) << "noise seed " << noise_seed;
  }
}

// Ancient seed 5 scene `index` through the washing webcam (noise seed `noise_seed`): base `id`
// is missed with `off` and found with every pass on, marked as a faint border for the players
// to check; no base is claimed where none is, and every base found with `off` is found.
void ExpectPlacedAndFlaggedOnlyWith(int index, int noise_seed, const std::string& id,
                                    const StandDetectorOptions& off) {
  const Scenario sc = LoadScenario(DatasetsDir() / "scenarios" / "ancient.json");
  RenderedDetection r;
  r.scene = GenerateScene(sc, SynthOptions{.seed = 5}, index);
  const cv::Mat sent = Reshot(r.scene.before, WashingWebcam(), false, noise_seed);
  r.found = DetectInSentFrame(r.scene, sent);
  const StandDetection without = DetectInSentFrame(r.scene, sent, off);
  const Stand& truth = Truth(r, id);
  EXPECT_FALSE(FoundOfItsSide(without, truth, 6.0));
  EXPECT_TRUE(FoundOfItsSide(r.found, truth, 6.0));
  // Placed on faint evidence, it is marked for the players to check.
  for (const DetectedStand& d : r.found.stands) {
    if (Distance(d.stand.footprint.center, truth.footprint.center) < MmToInches(6.0)) {
      EXPECT_TRUE(d.faint_border);
    }
  }
  ExpectNoFalseBases(r, 6.0);
  for (const Stand& t : r.scene.stands) {
    if (FoundOfItsSide(without, t, 6.0)) {
      EXPECT_TRUE(FoundOfItsSide(r.found, t, 6.0)) << t.id;
    }
  }
}

// Ancient seed 5, scene 9, through the same washing webcam: the frame-washout passes find the
// other red bases, and red-3 (a 20 x 40 mm velites base at the board's left edge, its border
// a third of the way from the mat to red, as the red bases found show theirs) is one ring of
// washed red, too few to refit red from, and an open one, no blob the washed classes close:
// over noise seeds 1-12 it was missed on eight, and placed on seven of those as a lone ring
// that shows its side's colour as far as the found bases do (seed 2 here), marked as a faint
// border for the players to check. No base found without it was lost on any seed.
TEST(WebcamJpegRingsTest, PlacesALoneWashedRingAsItsSidesFoundBasesShowIt) {
  StandDetectorOptions off;
  off.place_lone_rings = false;
  ExpectPlacedAndFlaggedOnlyWith(9, 2, "red-3", off);
}

// Ancient seed 5, scene 1, through the same washing webcam: blue-4, a 40 x 20 mm velites base
// whose blue border the camera leaves about a quarter of the way from the tan mat, is one patch
// of washed blue to the washed classes, its white figure lying on the line from the mat toward
// blue as its border does, so no ring shows in the hue; it was missed. Its inside's brightness
// spreads (lit and shaded figures), and it is placed as blue's base, marked as a faint border
// for the players to check. Over noise seeds 1-8 it was placed on five (2, 4, 6, 7, 8), and no
// base found without it was lost on any.
TEST(WebcamJpegRingsTest, PlacesAWashedBaseWhoseFiguresShowItsBordersHue) {
  StandDetectorOptions off;
  off.place_washed_figure_bases = false;
  ExpectPlacedAndFlaggedOnlyWith(1, 2, "blue-4", off);
}

}  // namespace
}  // namespace referee
