// Bases whose border the blur spreads below the colour gates (vision/blurred_ring_fit): on a
// departure map drawn as a camera would leave it (a band of the side's colour around figures,
// blurred over 5.4 mm, kept at a third of its colour, with pixel noise), and on a rendered hard
// scene.
#include <algorithm>
#include <cmath>
#include <string>

#include <gtest/gtest.h>
#include <opencv2/imgproc.hpp>

#include "drawn_borders.hpp"
#include "rendered_detection.hpp"
#include "vision/blurred_ring_fit.hpp"
#include "vision/edge_blur.hpp"

namespace referee::blurred_ring_fit_test {
namespace {

constexpr double kMmPerPx = 0.5;
constexpr double kBlurMm = 5.4;  // 10-90 % rise, as hard seed 7 scene 8 measures
const std::vector<BaseSize> kSizes{{40, 20}, {40, 30}, {40, 40}, {60, 40}};

PxRect Rect(cv::Point2d centre_px, double w_mm, double d_mm, double angle_deg) {
  return DrawnRect(centre_px, w_mm, d_mm, angle_deg, kMmPerPx);
}

// A departure map: `paint` (1 = the side's colour) blurred as the frame blurs, at `gain` of
// the colour, with pixel noise.
cv::Mat Camera(const cv::Mat& paint, double gain, int seed) {
  cv::Mat dep;
  cv::GaussianBlur(paint, dep, {0, 0}, BlurSigmaPx(kBlurMm, kMmPerPx));
  dep *= gain;
  cv::Mat noise(dep.size(), CV_32F);
  cv::RNG rng(static_cast<uint64_t>(seed));
  rng.fill(noise, cv::RNG::NORMAL, 0.0, 0.05);
  return dep + noise;
}

// A base's top: a border_mm band of the side's colour, figures inside of other colours.
cv::Mat PaintBase(cv::Size size, const PxRect& r, double border_mm) {
  cv::Mat paint(size, CV_32F, cv::Scalar(0));
  cv::fillConvexPoly(paint, GrownCorners(r, 0), cv::Scalar(1.0));
  cv::fillConvexPoly(paint, GrownCorners(r, -border_mm / kMmPerPx), cv::Scalar(0.1));
  cv::circle(paint, r.center + cv::Point2d(8, 3), 6, cv::Scalar(-0.2), cv::FILLED);
  return paint;
}

TEST(BlurredRingFitTest, FindsABorderBlurredToAThirdOfItsColourAtItsSizeAndAngle) {
  const cv::Size size(400, 360);
  for (const double angle : {20.0, 63.0}) {
    const PxRect truth = Rect({201.3, 178.6}, 40, 30, angle);
    const cv::Mat dep = Camera(PaintBase(size, truth, 3.5), 0.6, 1);
    const std::vector<PxRect> found = FitBlurredRings(dep, {}, {}, kMmPerPx, kSizes, kBlurMm, 3.0);
    ASSERT_EQ(found.size(), 1u) << angle;
    const PxRect& r = found[0];
    EXPECT_LT(cv::norm(r.center - truth.center) * kMmPerPx, 1.5) << angle;
    EXPECT_NEAR(std::max(r.len_a, r.len_b) * kMmPerPx, 40.0, 1.0) << angle;
    EXPECT_NEAR(std::min(r.len_a, r.len_b) * kMmPerPx, 30.0, 1.0) << angle;
    // Angle mod 180 of the long axis.
    const cv::Point2d long_axis = r.len_a >= r.len_b ? r.axis_a : r.AxisB();
    double err =
        std::fmod(std::abs(std::atan2(long_axis.y, long_axis.x) * 180.0 / CV_PI - angle), 180.0);
    err = std::min(err, 180.0 - err);
    EXPECT_LT(err, 1.5) << angle;
  }
}

TEST(BlurredRingFitTest, ClaimsNothingOnBareMatOrABlurredPatchOfTheColour) {
  const cv::Size size(400, 360);
  const cv::Mat bare = Camera(cv::Mat(size, CV_32F, cv::Scalar(0)), 0.6, 2);
  EXPECT_TRUE(FitBlurredRings(bare, {}, {}, kMmPerPx, kSizes, kBlurMm, 3.0).empty());
  // A base-sized patch of the colour throughout (a roof, a pond): no ring around figures.
  cv::Mat patch(size, CV_32F, cv::Scalar(0));
  cv::fillConvexPoly(patch, GrownCorners(Rect({200, 180}, 40, 30, 20), 0), cv::Scalar(1.0));
  EXPECT_TRUE(
      FitBlurredRings(Camera(patch, 0.6, 3), {}, {}, kMmPerPx, kSizes, kBlurMm, 3.0).empty());
}

// Two 40 x 20 mm bases touching at 5 and 45 degrees: their blurred bands join into one seed,
// whose gradients' mean direction lies between the two, where no ring fits either (nothing was
// found). Searched also at the directions the seed's gradients peak at, a base is found at
// its place, size and angle.
TEST(BlurredRingFitTest, FindsABaseWhoseSeedANeighbourAtAnotherAnglePullsOff) {
  const cv::Size size(400, 360);
  const PxRect left = Rect({160, 180}, 40, 20, 5), right = Rect({225, 185}, 40, 20, 45);
  cv::Mat paint = PaintBase(size, left, 3.5);
  cv::Mat second = PaintBase(size, right, 3.5);
  cv::Mat in_right(size, CV_8U, cv::Scalar(0));
  cv::fillConvexPoly(in_right, GrownCorners(right, 0), cv::Scalar(255));
  second.copyTo(paint, in_right);
  const cv::Mat dep = Camera(paint, 0.6, 4);
  // Searched only at the mean direction, as before: nothing is found.
  BlurredRingOptions mean_only;
  mean_only.max_extra_angles = 0;
  EXPECT_TRUE(FitBlurredRings(dep, {}, {}, kMmPerPx, kSizes, kBlurMm, 3.0, mean_only).empty());
  const std::vector<PxRect> found = FitBlurredRings(dep, {}, {}, kMmPerPx, kSizes, kBlurMm, 3.0);
  ASSERT_FALSE(found.empty());
  for (const PxRect& r : found) {
    const PxRect& truth =
        cv::norm(r.center - left.center) < cv::norm(r.center - right.center) ? left : right;
    EXPECT_LT(cv::norm(r.center - truth.center) * kMmPerPx, 1.5);
    EXPECT_NEAR(std::max(r.len_a, r.len_b) * kMmPerPx, 40.0, 1.0);
    EXPECT_NEAR(std::min(r.len_a, r.len_b) * kMmPerPx, 20.0, 1.0);
    const cv::Point2d long_axis = r.len_a >= r.len_b ? r.axis_a : r.AxisB();
    const cv::Point2d truth_axis = truth.axis_a;
    EXPECT_GT(std::abs(long_axis.dot(truth_axis)), std::cos(3.0 * CV_PI / 180.0));
  }
}

// A base whose figures wear the side's colour (red coats on a red-bordered base): blurred,
// its inside reads more toward the colour than its band does, which a roof or a pond of the
// colour also does (the base was dropped). Figures are not even: heads, muskets, boots and the
// bare top between them break the colour up, so such an inside is still a base's: found at
// its place and size. The same ring around an even patch of the colour is still no base.
TEST(BlurredRingFitTest, FindsABaseWhoseFiguresWearTheSideColourButNotAnEvenPatch) {
  const cv::Size size(400, 360);
  const PxRect truth = Rect({201.3, 178.6}, 40, 30, 20);
  cv::Mat figures = PaintBase(size, truth, 3.5);
  cv::Mat coats(size, CV_8U, cv::Scalar(0));
  cv::fillConvexPoly(coats, GrownCorners(truth, -4.5 / kMmPerPx), cv::Scalar(255));
  figures.setTo(cv::Scalar(1.0), coats);
  // Four figures' heads, muskets and boots: dark patches among the coats.
  for (const double u : {-6.0, 6.0}) {
    for (const double v : {-3.5, 3.5}) {
      const cv::Point2d at =
          truth.center + (u / kMmPerPx) * truth.axis_a + (v / kMmPerPx) * truth.AxisB();
      cv::circle(figures, at, static_cast<int>(2.8 / kMmPerPx), cv::Scalar(-0.5), cv::FILLED);
    }
  }
  // At the nominal border width only (a wider ring's band takes in more of the coats).
  BlurredRingOptions nominal_only;
  nominal_only.max_border_mm = 3.0;
  const std::vector<PxRect> found = FitBlurredRings(Camera(figures, 0.6, 7), {}, {}, kMmPerPx,
                                                    kSizes, kBlurMm, 3.0, nominal_only);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_LT(cv::norm(found[0].center - truth.center) * kMmPerPx, 1.5);
  EXPECT_NEAR(std::max(found[0].len_a, found[0].len_b) * kMmPerPx, 40.0, 1.0);
  EXPECT_NEAR(std::min(found[0].len_a, found[0].len_b) * kMmPerPx, 30.0, 1.0);
  // On a square the board says may show an even shade of the colour (a road: its blurred edges
  // and texture can read so too), such an inside is not taken for figures.
  BlurredRingOptions on_road = nominal_only;
  on_road.even_shade_terrain = cv::Mat(size, CV_8U, cv::Scalar(0));
  cv::fillConvexPoly(on_road.even_shade_terrain, GrownCorners(truth, 10.0 / kMmPerPx),
                     cv::Scalar(255));
  EXPECT_TRUE(
      FitBlurredRings(Camera(figures, 0.6, 7), {}, {}, kMmPerPx, kSizes, kBlurMm, 3.0, on_road)
          .empty());
  // Without the figures' texture: the border around an even inside of the colour.
  cv::Mat even = PaintBase(size, truth, 3.5);
  even.setTo(cv::Scalar(1.0), coats);
  EXPECT_TRUE(
      FitBlurredRings(Camera(even, 0.6, 7), {}, {}, kMmPerPx, kSizes, kBlurMm, 3.0).empty());
}

// A base standing on a sheet of white paper: from a green mat, the paper reads about 0.45 of
// the way toward blue, so the mat just outside the band reads more than a third of the band
// (the base was dropped as a ring inside a patch of the colour). Its band still stands out of
// its own surroundings by most of a border's colour, on every side: found at its place and
// size. The paper alone, its edges blurred as a band's are, is still no base.
TEST(BlurredRingFitTest, FindsABaseOnPaperThatReadsAShadeTowardTheColourButNotThePaper) {
  const cv::Size size(400, 360);
  const PxRect truth = Rect({201.3, 178.6}, 40, 30, 20);
  const PxRect paper = Rect({195.0, 182.0}, 110, 85, 14);
  cv::Mat sheet(size, CV_32F, cv::Scalar(0));
  cv::fillConvexPoly(sheet, GrownCorners(paper, 0), cv::Scalar(0.45));
  cv::Mat paint = sheet.clone();
  const cv::Mat base = PaintBase(size, truth, 3.5);
  cv::Mat on_base(size, CV_8U, cv::Scalar(0));
  cv::fillConvexPoly(on_base, GrownCorners(truth, 0), cv::Scalar(255));
  base.copyTo(paint, on_base);
  // As before: only where the mat outside is bare mat.
  BlurredRingOptions bare_mat_only;
  bare_mat_only.min_local_band_fraction = 0;
  EXPECT_TRUE(
      FitBlurredRings(Camera(paint, 0.6, 8), {}, {}, kMmPerPx, kSizes, kBlurMm, 3.0, bare_mat_only)
          .empty());
  const std::vector<PxRect> found =
      FitBlurredRings(Camera(paint, 0.6, 8), {}, {}, kMmPerPx, kSizes, kBlurMm, 3.0);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_LT(cv::norm(found[0].center - truth.center) * kMmPerPx, 1.5);
  EXPECT_NEAR(std::max(found[0].len_a, found[0].len_b) * kMmPerPx, 40.0, 1.0);
  EXPECT_NEAR(std::min(found[0].len_a, found[0].len_b) * kMmPerPx, 30.0, 1.0);
  EXPECT_TRUE(
      FitBlurredRings(Camera(sheet, 0.6, 8), {}, {}, kMmPerPx, kSizes, kBlurMm, 3.0).empty());
}

// A 40 x 40 mm gun base whose barrel, or a horse, overhangs half of one side: what overhangs
// wears the side's colour, so that half's blurred band fits best further out than the edge
// search reaches (the base was dropped). That half tells nothing; its side is placed by its
// other half: found at its place, size and angle, once.
TEST(BlurredRingFitTest, FindsABaseWhoseOverhangPullsHalfASideOutward) {
  const cv::Size size(400, 360);
  for (const double angle : {20.0, 63.0}) {
    const PxRect truth = Rect({201.3, 178.6}, 40, 40, angle);
    cv::Mat paint = PaintBase(size, truth, 3.5);
    // 6 mm out past the +a side, over its +b half.
    const PxRect overhang{
        truth.center + (20.0 + 3.0) / kMmPerPx * truth.axis_a + 10.0 / kMmPerPx * truth.AxisB(),
        truth.axis_a,
        6.0 / kMmPerPx,
        14.0 / kMmPerPx,
        {}};
    cv::fillConvexPoly(paint, GrownCorners(overhang, 0), cv::Scalar(1.0));
    const cv::Mat dep = Camera(paint, 0.6, 5);
    const std::vector<PxRect> found = FitBlurredRings(dep, {}, {}, kMmPerPx, kSizes, kBlurMm, 3.0);
    ASSERT_EQ(found.size(), 1u) << angle;
    const PxRect& r = found[0];
    EXPECT_LT(cv::norm(r.center - truth.center) * kMmPerPx, 1.5) << angle;
    EXPECT_NEAR(r.len_a * kMmPerPx, 40.0, 1.0) << angle;
    EXPECT_NEAR(r.len_b * kMmPerPx, 40.0, 1.0) << angle;
    // Angle mod 90 (a square base).
    const double err =
        std::acos(std::min(1.0, std::abs(r.axis_a.dot(truth.axis_a)))) * 180.0 / CV_PI;
    EXPECT_LT(std::min(err, 90.0 - err), 2.0) << angle;
  }
}

// A 40 x 40 mm base the tilted camera sees along its diagonal: its figures' tops are seen past
// two sides (5 mm past each, more than the 3 mm border), and hide most of both sides' bands.
// Only the one side they are seen furthest past could show less than half the ring's gain (the
// base was dropped); every side they are seen past wholly may: found at its place, size and
// angle, once.
TEST(BlurredRingFitTest, FindsABaseWhoseFiguresHideTwoSidesTheCameraSeesThemPast) {
  const cv::Size size(400, 360);
  const PxRect truth = Rect({201.3, 178.6}, 40, 40, 0);
  cv::Mat paint = PaintBase(size, truth, 3.5);
  // The +x and +y sides' bands under figures (other colours) along 28 mm of their 40.
  const double half_px = 20.0 / kMmPerPx, hidden_px = 14.0 / kMmPerPx;
  cv::rectangle(paint,
                cv::Rect2d(truth.center.x + half_px - 4.0 / kMmPerPx, truth.center.y - hidden_px,
                           5.0 / kMmPerPx, 2 * hidden_px),
                cv::Scalar(0.1), cv::FILLED);
  cv::rectangle(paint,
                cv::Rect2d(truth.center.x - hidden_px, truth.center.y + half_px - 4.0 / kMmPerPx,
                           2 * hidden_px, 5.0 / kMmPerPx),
                cv::Scalar(0.1), cv::FILLED);
  const cv::Mat dep = Camera(paint, 0.6, 6);
  BlurredRingOptions options;
  options.figure_top_shift_px = [](cv::Point2d) { return cv::Point2d(5.0, 5.0) / kMmPerPx; };
  const std::vector<PxRect> found =
      FitBlurredRings(dep, {}, {}, kMmPerPx, kSizes, kBlurMm, 3.0, options);
  ASSERT_EQ(found.size(), 1u);
  const PxRect& r = found[0];
  EXPECT_LT(cv::norm(r.center - truth.center) * kMmPerPx, 1.5);
  EXPECT_NEAR(r.len_a * kMmPerPx, 40.0, 1.0);
  EXPECT_NEAR(r.len_b * kMmPerPx, 40.0, 1.0);
  const double err = std::acos(std::min(1.0, std::abs(r.axis_a.x))) * 180.0 / CV_PI;
  EXPECT_LT(std::min(err, 90.0 - err), 2.0);
}

// The stands found in r's scene (a `hard` one) with other detector options.
StandDetection DetectAgain(const RenderedDetection& r, const StandDetectorOptions& options) {
  const TopView view(TruthCalibration(r.scene));
  const Scenario sc = LoadScenario(DatasetsDir() / "scenarios" / "hard.json");
  return DetectStands(view.Rectify(r.scene.before), view, ScenarioSideColors(sc), LoadStandKinds(),
                      options, &r.scene.board);
}

// The base `id` of a rendered scene is found at its place (max_centre_mm), size (2 mm) and
// angle (max_angle_deg; mod 90 degrees for a square base, mod 180 otherwise).
void ExpectFoundAsRendered(const RenderedDetection& r, const std::string& id, double max_angle_deg,
                           double max_centre_mm = 1.5) {
  const Stand& truth = Truth(r, id);
  const DetectedStand* found = FoundNear(r, truth, 10.0);
  ASSERT_NE(found, nullptr) << id;
  const OrientedRect& f = found->stand.footprint;
  const OrientedRect& t = truth.footprint;
  EXPECT_LT(InchesToMm(Distance(f.center, t.center)), max_centre_mm) << id;
  EXPECT_NEAR(InchesToMm(std::max(f.width_in, f.depth_in)),
              InchesToMm(std::max(t.width_in, t.depth_in)), 2.0)
      << id;
  EXPECT_NEAR(InchesToMm(std::min(f.width_in, f.depth_in)),
              InchesToMm(std::min(t.width_in, t.depth_in)), 2.0)
      << id;
  // Angle of the long side.
  const bool square = std::abs(t.width_in - t.depth_in) < 0.05;
  const double period = square ? 90.0 : 180.0;
  const auto long_angle = [](const OrientedRect& o) {
    return o.width_in >= o.depth_in ? o.angle_deg : o.angle_deg + 90.0;
  };
  double err = std::fmod(std::abs(long_angle(f) - long_angle(t)), period);
  err = std::min(err, period - err);
  EXPECT_LT(err, max_angle_deg) << id;
}

// Hard seed 7, scene 3 as the generator renders it: blur and a washed-out camera leave the
// borders of a red 40 x 40 mm wagon and a blue 40 x 30 mm commander below every colour gate
// (both were missed). Fitted as blurred rings, each is found at its place, size and angle;
// nothing is claimed where no base stands.
TEST(BlurredRingFitTest, FindsRenderedBasesBlurredBelowTheColourGates) {
  const RenderedDetection r = DetectInScene("hard.json", 3, 7);
  for (const char* id : {"red-6", "blue-6"}) ExpectFoundAsRendered(r, id, 3.0);
  ExpectNoFalseBases(r, 6.0);
}

// Hard seed 7, scene 8 (5.4 mm blur): the generator paints borders 3-5 mm wide, as clubs do
// by hand. Two blue 40 x 20 mm bases whose blurred band no 3 mm ring fits clearly enough (both
// were missed) are found by a wider ring, at their place, size and angle; nothing is claimed
// where no base stands.
TEST(BlurredRingFitTest, FindsRenderedBasesWhoseBandOnlyAWiderBorderExplains) {
  const RenderedDetection r = DetectInScene("hard.json", 8, 7);
  for (const char* id : {"blue-6", "blue-7"}) ExpectFoundAsRendered(r, id, 4.0);
  ExpectNoFalseBases(r, 6.0);
}

// Hard seed 7, scene 9 (4.8 mm blur): the blue 40 x 40 mm howitzer's figures wear its side's
// colour, so a 40 x 20 mm ring along one half of its border correlates with its own samples
// nearly as well as the whole ring does, and no size won by the margin (it was missed). Scored
// on the same pixels, the 40 x 20 ring leaves the far border run unexplained: the base is found
// at its place, size and angle, once. (From s47 the side refitted to its washed rings placed it
// first, from its refitted mask, 1.69 mm off; s48 places the refit's bases after the ring and
// blob searches.)
TEST(BlurredRingFitTest, FindsARenderedBaseWhoseHalfASmallerRingFitsAlmostAsWell) {
  const RenderedDetection r = DetectInScene("hard.json", 9, 7);
  ExpectFoundAsRendered(r, "blue-4", 3.0);
  EXPECT_EQ(CountNear(r, Truth(r, "blue-4"), 15.0), 1);
}

// Hard seed 7, scene 7: the ring fit places red-6 (40 x 30 mm) right, but RefineEdges then
// moved its blurred sides to the half-way crossing of the blur's spread and the stripe step
// grew it over a white band, 6.4 mm too deep, and its kind by size was wrong. A blurred-ring
// base keeps its fitted outline: found at its place, size and angle.
TEST(BlurredRingFitTest, KeepsARenderedRingFittedBaseAtItsFittedSize) {
  const RenderedDetection r = DetectInScene("hard.json", 7, 7);
  ExpectFoundAsRendered(r, "red-6", 3.0);
}

// Hard seed 7, scene 3: the blue 40 x 40 mm howitzer's border shows its blurred band along three
// sides, but its figures, seen by the tilted camera past the side facing away from it, hide
// part of that side's band (it was missed: every side had to show half the ring's gain). Found
// at its place, size and angle, once, and nothing is claimed where no base stands.
TEST(BlurredRingFitTest, FindsARenderedBaseWhoseFarBorderItsFiguresPartlyHide) {
  const RenderedDetection r = DetectInScene("hard.json", 3, 7);
  ExpectFoundAsRendered(r, "blue-1", 3.0);
  EXPECT_EQ(CountNear(r, Truth(r, "blue-1"), 15.0), 1);
  ExpectNoFalseBases(r, 6.0);
}

// Hard seed 5, scene 5 (5.4 mm blur): the red 40 x 40 mm field gun's figures, seen by the tilted
// camera past the side facing away from its foot, spread the band there outward, so that side
// fitted best beyond the edge search's reach and the base was dropped. That side is placed by
// the opposite one at the catalogue size: found at its size and angle, within 2.5 mm of its
// place (one side, not two, places it across), once, and nothing is claimed where no base
// stands.
TEST(BlurredRingFitTest, FindsARenderedBaseWhoseFiguresSpreadItsFarBandOutward) {
  const RenderedDetection r = DetectInScene("hard.json", 5, 5);
  ExpectFoundAsRendered(r, "red-2", 3.0, 2.5);
  EXPECT_EQ(CountNear(r, Truth(r, "red-2"), 15.0), 1);
  ExpectNoFalseBases(r, 6.0);
}

// Hard seed 7, scene 3 (5 mm blur): the red 40 x 20 mm base stands across a yellow road, a
// shade toward red, so its blurred band and the road's make one seed longer than any base,
// which was not searched (the base was missed). Searched a tile at a time, it is found at its
// place, size and angle, once, and nothing is claimed where no base stands (the road neither).
TEST(BlurredRingFitTest, FindsARenderedBaseAcrossARoadItsBandJoins) {
  const RenderedDetection r = DetectInScene("hard.json", 3, 7);
  ExpectFoundAsRendered(r, "red-10", 3.0);
  EXPECT_EQ(CountNear(r, Truth(r, "red-10"), 15.0), 1);
  ExpectNoFalseBases(r, 6.0);
}

// Hard seed 7, scene 3 (5 mm blur): the blue 40 x 40 mm wagon's ring fit stands out of the bare
// mat and beats every other size, but its edges, each moved to where it fits best, turned it by
// 4 degrees, more than the angle search's step (it was dropped). Fitted again at the pose its
// edges give, it explains the band better, still stands out and its edges now leave it in place:
// found at its place, size and angle, once, and nothing is claimed where no base stands.
TEST(BlurredRingFitTest, FindsARenderedBaseWhoseEdgesTurnItsFitPastTheSearchStep) {
  const RenderedDetection r = DetectInScene("hard.json", 3, 7);
  ExpectFoundAsRendered(r, "blue-5", 2.0);
  EXPECT_EQ(CountNear(r, Truth(r, "blue-5"), 15.0), 1);
  ExpectNoFalseBases(r, 6.0);
}

// Hard seed 103, scene 10 (5.6 mm blur, a camera tilted 25 degrees): the bands of the blue
// 40 x 30 mm commander (blue-8), the blue 40 x 40 mm wagon (blue-5) and the red 40 x 20 mm light
// infantry (red-9) spread unevenly, where side faces and figures are seen past the border, so
// their half-side edges, each fitted alone, read a turn of 5-11 degrees or a shift of over
// 1.5 mm that the band as a whole explains worse than the search's pose (all three were
// dropped). Their bands are clearly their side's colour, so the search's pose stands: found at
// their place, size and angle, once, and nothing is claimed where no base stands. Turned off,
// all three are missed as before (with the washed-side pass off too, which finds blue-5 again,
// fitted toward blue's washed colour, and the washed patches with figures, s46, which place
// blue-8 from its washed blob, and with the thick washed rings, s47, which place blue-5 from
// a ring fitted to its spread hue when nothing else does). The thick rings placed blue-5 first,
// 4.5 degrees off, until s48 placed the refit's bases after the ring and blob searches.
TEST(BlurredRingFitTest, KeepsTheSearchsPoseWhereHalfSideEdgesReadAMoveTheBandDoesNot) {
  const RenderedDetection r = DetectInScene("hard.json", 10, 103);
  for (const char* id : {"blue-8", "blue-5", "red-9"}) {
    ExpectFoundAsRendered(r, id, 3.0, 2.0);
    EXPECT_EQ(CountNear(r, Truth(r, id), 15.0), 1) << id;
  }
  ExpectNoFalseBases(r, 6.0);

  StandDetectorOptions off;
  off.thick_washed_rings = false;
  off.blurred_ring.keep_search_pose_over_pulled_edges = false;
  off.washed_sides.enabled = false;
  off.place_washed_figure_bases = false;
  const StandDetection without = DetectAgain(r, off);
  for (const char* id : {"blue-8", "blue-5", "red-9"}) {
    EXPECT_FALSE(FoundOfItsSide(without, Truth(r, id), 6.0)) << id;
  }
}

// Hard seed 7, scene 9: the red 40 x 40 mm supply wagon stands at 45 degrees near a house
// square, mostly hidden from the tilted camera (under half its top changes the frame). Its
// blurred band shares a seed with other evidence, whose gradients' mean direction lies 11-15
// degrees off the wagon's own, outside the angle search, where no ring fits it (it was missed).
// Searched also at the direction its sides peak at, it is found at its place, size and angle,
// once.
TEST(BlurredRingFitTest, FindsARenderedBaseWhoseSeedsMeanDirectionIsPulledOff) {
  const RenderedDetection r = DetectInScene("hard.json", 9, 7);
  ExpectFoundAsRendered(r, "red-9", 3.0);
  EXPECT_EQ(CountNear(r, Truth(r, "red-9"), 15.0), 1);
}

}  // namespace
}  // namespace referee::blurred_ring_fit_test

namespace referee::blurred_ring_fit_test {
namespace {

// The sizes a found base is offered at: its own and the other outlines, as "W x D" mm rounded.
std::vector<std::pair<long, long>> OfferedSizesMm(const Stand& s) {
  std::vector<std::pair<long, long>> out{{std::lround(InchesToMm(s.footprint.width_in)),
                                          std::lround(InchesToMm(s.footprint.depth_in))}};
  for (const OtherOutline& o : s.other_outlines) {
    out.emplace_back(std::lround(InchesToMm(o.footprint.width_in)),
                     std::lround(InchesToMm(o.footprint.depth_in)));
  }
  return out;
}

// Hard seed 5, scene 3 (heavy blur): blue-3's 40 x 30 mm band is fitted as well by another
// catalogue size over the same base, so no size won by the margin and the base was missed
// altogether. It is now reported at the size whose band, inside and edges bear it out, with
// the other size it could be (the verdict asks the players when that decides a hit), once,
// and nothing is claimed where no base stands. Turned off, the base is missed as before.
TEST(BlurredRingFitTest, ReportsARenderedBaseWhoseSizeTheBandCannotTellWithItsOtherSize) {
  const RenderedDetection r = DetectInScene("hard.json", 3, 5);
  const Stand& truth = Truth(r, "blue-3");
  const DetectedStand* found = FoundNear(r, truth, 6.0);
  ASSERT_NE(found, nullptr);
  ASSERT_FALSE(found->stand.other_outlines.empty());
  const auto offered = OfferedSizesMm(found->stand);
  EXPECT_NE(std::find(offered.begin(), offered.end(), std::pair<long, long>{40, 30}),
            offered.end());
  ExpectPlacedOn(*found, truth, 3.0, 3.0);
  EXPECT_EQ(CountNear(r, truth, 15.0), 1);
  ExpectNoFalseBases(r, 6.0);
  for (const OtherOutline& o : found->stand.other_outlines) {
    EXPECT_LT(InchesToMm(Distance(o.footprint.center, truth.footprint.center)), 15.0);
  }

  StandDetectorOptions off;
  off.blurred_ring.report_size_ties = false;
  EXPECT_FALSE(FoundOfItsSide(DetectAgain(r, off), truth, 6.0));
}

// Hard seed 5, scene 4 (heavy blur, tilted camera): the red 40 x 30 mm cavalry base's riders
// wear its side's colour, so its inside reads more toward red than its blurred band (the base
// was dropped as a patch of the colour). The inside is textured as figures are, not even as a
// roof is: found at its place, size and angle, once, and nothing is claimed where no base
// stands.
TEST(BlurredRingFitTest, FindsARenderedBaseWhoseRidersWearItsSideColour) {
  const RenderedDetection r = DetectInScene("hard.json", 4, 5);
  ExpectFoundAsRendered(r, "red-8", 3.0);
  EXPECT_EQ(CountNear(r, Truth(r, "red-8"), 15.0), 1);
  ExpectNoFalseBases(r, 6.0);
}

// Bases within `mm` of a table point (inches), either side, or of one side only.
int CountNearPoint(const RenderedDetection& r, Vec2 at_in, double mm,
                   const std::string& side = "") {
  return static_cast<int>(
      std::count_if(r.found.stands.begin(), r.found.stands.end(), [&](const DetectedStand& ds) {
        return (side.empty() || ds.stand.side == side) &&
               Distance(ds.stand.footprint.center, at_in) < MmToInches(mm);
      }));
}

// Hard seed 29, scene 4: a yellow ruler lies across two sheets of paper on a brown mat. Yellow
// reads a little toward red from that mat, and a 40 x 20 mm ring fits along the ruler, its inside
// textured by the ruler, the papers and the mat between them: taken for a red base whose
// figures wear red (the textured-inside exception alone). Its band is a faint tint (0.13 of red,
// where a red border blurred so reads 0.64), nothing inside is nearer red than the mat, and the
// ruler's tint runs on past the ring's short side: no base is claimed there. With those three
// checks off, the false base comes back.
TEST(BlurredRingFitTest, ClaimsNoRenderedBaseOnARulerAcrossPapers) {
  const RenderedDetection r = DetectInScene("hard.json", 4, 29);
  const Vec2 ruler_in{11.64, 6.26};
  EXPECT_EQ(CountNearPoint(r, ruler_in, 15.0), 0);
  ExpectNoFalseBases(r, 6.0);

  StandDetectorOptions off;
  off.blurred_ring.min_band_strength = 0;
  off.blurred_ring.min_coloured_inside_departure = -2;
  off.blurred_ring.colour_ends_at_ring = false;
  RenderedDetection without = r;
  without.found = DetectAgain(r, off);
  EXPECT_EQ(CountNearPoint(without, ruler_in, 15.0, "red"), 1);
}

// Hard seed 61, scene 2: blue-4, a 40 x 40 mm howitzer base on a green mat, its crew in red.
// From green, blue and red both lie toward magenta, so its blurred blue band departs toward red
// too, and its inside, red figures among others, is textured: a red base was claimed on it (the
// blue base itself is missed). Split into shares of the two sides' colours its band is more
// blue than red: no red base is claimed there. With that check off, the false base comes back.
TEST(BlurredRingFitTest, ClaimsNoRenderedBaseOfOneSideOnAnothersWhoseFiguresWearIt) {
  const RenderedDetection r = DetectInScene("hard.json", 2, 61);
  const Stand& blue = Truth(r, "blue-4");
  EXPECT_EQ(CountNearPoint(r, blue.footprint.center, 15.0, "red"), 0);

  StandDetectorOptions off;
  off.blurred_ring.compare_other_sides = false;
  RenderedDetection without = r;
  without.found = DetectAgain(r, off);
  EXPECT_EQ(CountNearPoint(without, blue.footprint.center, 15.0, "red"), 1);
}

// Hard seed 5, scene 7: the red 40 x 20 mm base's blurred band stands 12 or more robust
// deviations above the bare mat's in gain, but its figures lower its correlation with the
// band below the 6 deviations a search over thousands of placements needs (it was missed as
// too faint). Where the gain alone rules the mat out, 4 deviations of correlation show the
// band's shape: found at its place, size and angle, once, and nothing is claimed where no base
// stands.
TEST(BlurredRingFitTest, FindsARenderedBaseWhoseBandIsStrongButLooselyShaped) {
  const RenderedDetection r = DetectInScene("hard.json", 7, 5);
  ExpectFoundAsRendered(r, "red-4", 3.0);
  EXPECT_EQ(CountNear(r, Truth(r, "red-4"), 15.0), 1);
  ExpectNoFalseBases(r, 6.0);
}

// The frame's blur, which wakes this search, read on a camera that steps little in colour: a
// desaturating webcam under a cast shows a base's border 20-35 levels from the mat, under the
// 40 a clear step needs (the stand search on ancient seed 5 scene 17 through such a camera read
// no blur, so never searched, and found 3 of its 20 bases). Read on those steps instead, it is
// what the picture was given: the spread past the edge of a Gaussian whose 10-90 % rise is
// 1.5 mm, 1.28 sigma (0.75 mm; see vision/edge_blur.hpp), as a clear step reads it.
TEST(EdgeBlurTest, ReadsALowContrastCamerasBlurOnItsWeakSteps) {
  const double mm = 0.25, rise_mm = 1.5;
  const cv::Vec3b mat(70, 95, 120);
  std::vector<PxRect> bases;
  bases.reserve(4);
  for (int i = 0; i < 4; ++i) {
    bases.push_back(DrawnRect({130.0 + 200 * i, 130.0}, 40, 30, 7.0 + 11 * i, mm));
  }
  const auto frame = [&](cv::Vec3b top) {
    cv::Mat img(260, 860, CV_8UC3, cv::Scalar(mat[0], mat[1], mat[2]));
    for (const PxRect& r : bases) {
      cv::fillConvexPoly(img, GrownCorners(r, 0), cv::Scalar(top[0], top[1], top[2]));
    }
    cv::Mat blurred;
    cv::GaussianBlur(img, blurred, {0, 0}, BlurSigmaPx(rise_mm, mm));
    return blurred;
  };
  const double spread_mm = 1.2816 * BlurSigmaPx(rise_mm, mm) * mm;
  // 26 levels from the mat (a washed blue); 66 (the same blue as a sharp sensor shows it).
  EXPECT_NEAR(EdgeBlurMm(frame({88, 105, 100}), bases, mm), spread_mm, 0.2);
  EXPECT_NEAR(EdgeBlurMm(frame({125, 110, 80}), bases, mm), spread_mm, 0.2);
  // A step no larger than noise tells nothing: unknown.
  EXPECT_EQ(EdgeBlurMm(frame({76, 99, 114}), bases, mm), 0.0);
}

}  // namespace
}  // namespace referee::blurred_ring_fit_test

namespace referee::blurred_ring_fit_test {
namespace {

// Hard seed 5, scene 3: blue-3 (40 x 30 mm) under heavy blur is offered at 40 x 30 and at the
// 40 x 40 its blurred band could as well be, each fitted whole over its top and the side face
// beside it, the image placing neither of its sides. The reported outline has been moved a
// quarter of its side faces' span away from the camera since s61; since s62 the other size is
// too: it lies 0.85 mm from the base's centre (1.12 mm before, the side face's shift kept).
TEST(BlurredRingFitTest, AnOtherSizeIsMovedOffTheSideFaceAsTheReportedOneIs) {
  const RenderedDetection r = DetectInScene("hard.json", 3, 5);
  const Stand& truth = Truth(r, "blue-3");
  const DetectedStand* found = FoundNear(r, truth, 6.0);
  ASSERT_NE(found, nullptr);
  ASSERT_EQ(found->stand.other_outlines.size(), 1u);
  const OtherOutline& other = found->stand.other_outlines.front();
  EXPECT_NEAR(InchesToMm(other.footprint.depth_in), 40.0, 1.0);
  EXPECT_LT(InchesToMm(Distance(other.footprint.center, truth.footprint.center)), 1.0);
}

}  // namespace
}  // namespace referee::blurred_ring_fit_test
