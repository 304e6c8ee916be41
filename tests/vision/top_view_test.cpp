// The top view and its crops on generated 720p scenes (real lens distortion and parallax): a
// crop maps to the same table inches and rectifies to the same pixels as the full view, and
// the projectile detector given only the changed region (what the live referee does at rest)
// finds the same tip as on the whole view.
#include "vision/top_view.hpp"

#include <gtest/gtest.h>

#include <opencv2/imgproc.hpp>

#include "datasets/synth_scene.hpp"
#include "engine/data_paths.hpp"
#include "rendered_scene.hpp"
#include "vision/block_shrink.hpp"
#include "vision/change_meter.hpp"
#include "vision/projectile_detector.hpp"

namespace referee {
namespace {

SynthScene Scene(uint64_t seed) {
  const Scenario sc = LoadScenario(DatasetsDir() / "scenarios" / "napoleonic.json");
  return GenerateScene(
      sc, SynthOptions{.seed = seed, .size = {1280, 720}, .with_hand_frame = false}, 0);
}

TEST(TopViewTest, CropMapsAndRectifiesLikeTheFullView) {
  const SynthScene s = Scene(5);
  const TopView view(TruthCalibration(s));
  const cv::Rect r(137, 58, 301, 211);
  const TopView crop = view.Crop(r);
  EXPECT_EQ(crop.region(), r);
  EXPECT_EQ(crop.size(), r.size());
  for (const cv::Point2d p : {cv::Point2d(0, 0), cv::Point2d(12.25, 200.5), cv::Point2d(300, 7)}) {
    const Vec2 a = crop.TableFromRectified(p);
    const Vec2 b = view.TableFromRectified(p + cv::Point2d(r.tl()));
    EXPECT_NEAR(a.x, b.x, 1e-12);
    EXPECT_NEAR(a.y, b.y, 1e-12);
    const cv::Point2d back = crop.RectifiedFromTable(a);
    EXPECT_NEAR(back.x, p.x, 1e-9);
    EXPECT_NEAR(back.y, p.y, 1e-9);
  }
  const cv::Mat full = view.Rectify(s.before);
  const cv::Mat part = crop.Rectify(s.before);
  ASSERT_EQ(part.size(), r.size());
  EXPECT_EQ(cv::norm(part, full(r), cv::NORM_INF), 0.0);
  // A crop reaching past the view is clipped to it.
  EXPECT_EQ(view.Crop({-10, -10, 50, 50}).region(), cv::Rect(0, 0, 40, 40));
  // The camera sees the whole board: the board's own pixels are all inside the image.
  const cv::Point2d c = view.RectifiedFromTable({s.board.grid.Width() / 2, 1.0});
  EXPECT_EQ(view.seen_mask().at<uchar>(cv::Point(c)), 255);
}

TEST(TopViewTest, ProjectileFoundOnTheChangedCropAsOnTheWholeView) {
  int compared = 0;
  for (const uint64_t seed : {2u, 3u, 4u, 6u}) {
    const SynthScene s = Scene(seed);
    if (!s.projectile) continue;
    const TopView view(TruthCalibration(s));
    const cv::Mat before = view.Rectify(s.before), after = view.Rectify(s.after);
    const ProjectileOptions options;
    std::vector<DetectedStand> stands;  // the true stands: a tip on a base is raised by it
    for (const Stand& st : s.stands) {
      DetectedStand d;
      d.stand = st;
      stands.push_back(d);
    }
    const ProjectileResult whole = DetectProjectile(before, after, view, stands, options);
    const ChangeMeter meter(view);
    const cv::Rect box = meter.Around(meter.Changed(meter.Shrink(before), meter.Shrink(after)),
                                      options.ignore_area_mm2, 25.0);
    ASSERT_FALSE(box.empty()) << "seed " << seed << ": the projectile changed nothing";
    EXPECT_LT(box.area(), view.size().area() / 10) << "seed " << seed;
    const TopView crop = view.Crop(box);
    const ProjectileResult part = DetectProjectile(before(box), after(box), crop, stands, options);
    ASSERT_EQ(whole.index(), part.index()) << "seed " << seed;
    if (const auto* w = std::get_if<ProjectileObservation>(&whole)) {
      const auto& p = std::get<ProjectileObservation>(part);
      EXPECT_EQ(w->kind, p.kind);
      EXPECT_LT(InchesToMm(Distance(w->point, p.point)), 0.1) << "seed " << seed;
      EXPECT_LT(InchesToMm(Distance(w->point, s.projectile->point)), 3.0) << "seed " << seed;
      ++compared;
    }
  }
  EXPECT_GE(compared, 2);
}

// The live tests shrink every camera frame by block means (odd factors on their own vector
// path): the result is one area resize's, to the level for odd factors (exact rounding) and to
// one level where halvings round twice. Odd sizes: the pixels past the last block are left out.
TEST(TopViewTest, BlockMeansByAnyFactorAreOneAreaResize) {
  const SynthScene s = Scene(31);
  const cv::Mat frame = s.before(cv::Rect(0, 0, 1279, 719));  // not a multiple of any factor
  for (const int factor : {2, 3, 5, 6, 12}) {
    const cv::Size out(frame.cols / factor, frame.rows / factor);
    cv::Mat expected, diff;
    cv::resize(frame(cv::Rect(0, 0, out.width * factor, out.height * factor)), expected, out, 0, 0,
               cv::INTER_AREA);
    const cv::Mat shrunk = ShrinkByBlocks(frame, factor);
    ASSERT_EQ(shrunk.size(), out) << "factor " << factor;
    ASSERT_EQ(shrunk.type(), frame.type());
    cv::absdiff(shrunk, expected, diff);
    double worst = 0;
    cv::minMaxLoc(diff.reshape(1), nullptr, &worst);
    EXPECT_LE(worst, factor % 2 == 1 ? 0.0 : 1.0) << "factor " << factor;
  }
  cv::Mat grey;
  cv::cvtColor(frame, grey, cv::COLOR_BGR2GRAY);
  cv::Mat expected, diff;
  cv::resize(grey(cv::Rect(0, 0, 426 * 3, 239 * 3)), expected, {426, 239}, 0, 0, cv::INTER_AREA);
  cv::absdiff(ShrinkByBlocks(grey, 3), expected, diff);
  EXPECT_EQ(cv::countNonZero(diff), 0) << "one channel";
}

}  // namespace
}  // namespace referee
