// The top of a rendered base shows what TABLE_KIT describes: the side-colour border, the interior
// inside it and, when the base has one, the white front stripe. Faces in one plane are layers and
// must be drawn in their listed order, whatever their distance from the lens.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include <opencv2/imgproc.hpp>

#include "datasets/scenario.hpp"
#include "datasets/scene_layout.hpp"
#include "datasets/scene_renderer.hpp"
#include "datasets/scene_truth.hpp"
#include "engine/data_paths.hpp"

namespace referee {
namespace {

double ColourDistance(const cv::Vec3b& p, const cv::Scalar& c) {
  const double d0 = p[0] - c[0], d1 = p[1] - c[1], d2 = p[2] - c[2];
  return std::sqrt(d0 * d0 + d1 * d1 + d2 * d2);
}

// The image colour at the image point of a table point on the base top (bilinear).
cv::Vec3b Sample(const cv::Mat& img, const CameraModel& cam, Vec2 p, double height_in) {
  cv::Mat one;
  cv::getRectSubPix(img, cv::Size(1, 1), cam.ImageFromTable(p, height_in), one);
  return one.at<cv::Vec3b>(0, 0);
}

// Which of the base top's colours a pixel is nearest: 0 border, 1 interior, 2 stripe.
int Nearest(const cv::Vec3b& p, const StandLook& look, const cv::Scalar& white) {
  const double d[3] = {ColourDistance(p, look.side_bgr), ColourDistance(p, look.interior_bgr),
                       ColourDistance(p, white)};
  return static_cast<int>(std::min_element(d, d + 3) - d);
}

TEST(SynthBaseTop, BorderInteriorAndFrontStripeAreAllVisible) {
  Scenario sc = LoadScenario(DatasetsDir() / "scenarios" / "napoleonic.json");
  sc.terrain_counts.clear();
  sc.terrain_squares.clear();
  sc.figure_probability = 0.0;
  sc.across_base_probability = 0.0;
  sc.front_stripe_probability = 1.0;
  sc.difficulty.hand_probability = 0.0;
  sc.difficulty.tilt_deg = {10, 25};  // oblique: coplanar faces lie at different distances
  LaidOutScene laid = LayOutScene(sc, SynthOptions{23, cv::Size(1920, 1080), 2, false}, 0);
  laid.layout.shadow_strength = 0.0;
  const SceneLayout& L = laid.layout;
  const SceneRenderer renderer(L, 2);
  const cv::Mat img = renderer.RenderClean(StaticSolids(L, true));
  const cv::Scalar white(235, 238, 240);

  int interiors = 0, stripes = 0, borders = 0, checked = 0;
  for (const StandLook& look : L.stands) {
    const OrientedRect& fp = look.stand.footprint;
    const cv::Point2d c = L.camera.ImageFromTable(fp.center, look.thickness_in);
    if (c.x < 40 || c.y < 40 || c.x > img.cols - 40 || c.y > img.rows - 40) continue;
    ASSERT_TRUE(look.front_stripe);
    ++checked;
    // Interior: towards the rear of the base, well inside the border.
    const Vec2 rear = fp.center + (0.25 * fp.depth_in) * fp.AxisY();
    if (Nearest(Sample(img, L.camera, rear, look.thickness_in), look, white) == 1) ++interiors;
    // Stripe: just inside the front border (front is the -AxisY side), mid-width.
    const Vec2 stripe =
        fp.center - (0.5 * fp.depth_in - look.border_in - 0.5 * look.stripe_in) * fp.AxisY();
    if (Nearest(Sample(img, L.camera, stripe, look.thickness_in), look, white) == 2) ++stripes;
    // Border: half-way across it on a side edge.
    const Vec2 side = fp.center + (0.5 * fp.width_in - 0.5 * look.border_in) * fp.AxisX();
    if (Nearest(Sample(img, L.camera, side, look.thickness_in), look, white) == 0) ++borders;
  }
  ASSERT_GE(checked, 10);
  // Before coplanar faces kept their order, the full side-colour top covered everything: 0 of each.
  EXPECT_GE(interiors, checked * 9 / 10) << "of " << checked;
  EXPECT_GE(stripes, checked * 9 / 10) << "of " << checked;
  EXPECT_GE(borders, checked * 9 / 10) << "of " << checked;
}

}  // namespace
}  // namespace referee
