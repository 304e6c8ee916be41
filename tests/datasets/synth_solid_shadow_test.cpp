// The lamp's shadows fall on the solids too when a scenario asks for it ("shadows_on_solids"):
// a figure darkens its own base top on the side away from the lamp, border and interior alike,
// and leaves the lamp's side as it was. Off (the default) every image keeps its bytes.
#include <gtest/gtest.h>

#include <cstdint>

#include <opencv2/imgproc.hpp>

#include "datasets/scenario.hpp"
#include "datasets/scene_layout.hpp"
#include "datasets/scene_renderer.hpp"
#include "datasets/scene_truth.hpp"
#include "datasets/synth_scene.hpp"
#include "engine/data_paths.hpp"

namespace referee {
namespace {

Scenario Load(const char* name) { return LoadScenario(DatasetsDir() / "scenarios" / name); }

// Sum of B, G and R at the image point of a table point at `height_in` (bilinear).
double Level(const cv::Mat& img, const CameraModel& cam, Vec2 p, double height_in) {
  cv::Mat one;
  cv::getRectSubPix(img, cv::Size(1, 1), cam.ImageFromTable(p, height_in), one);
  const cv::Vec3b v = one.at<cv::Vec3b>(0, 0);
  return static_cast<double>(v[0]) + v[1] + v[2];
}

// One 40 x 40 mm base straight under a level camera, one figure 10 x 10 x 20 mm at its centre, the
// lamp 30" to its +x side and 20" up: the figure's shadow runs 1.3" toward -x, across the
// interior and the border on that side.
struct OneFigure {
  SceneLayout layout;
  StandLook look;
};

OneFigure OneFigureUnderTheLamp() {
  Scenario sc = Load("napoleonic.json");
  sc.terrain_counts.clear();
  sc.terrain_squares.clear();
  sc.difficulty.hand_probability = 0.0;
  sc.difficulty.tilt_deg = {0, 0};
  LaidOutScene laid = LayOutScene(sc, SynthOptions{5, cv::Size(1920, 1080), 2, false}, 0);
  OneFigure out{laid.layout, laid.layout.stands.at(0)};
  const cv::Vec3d cam = out.layout.camera.CameraCenterTable();
  const Vec2 centre{cam[0], cam[1]};
  out.look.stand.footprint = OrientedRect{centre, 40 / 25.4, 40 / 25.4, 0.0};
  out.look.front_stripe = false;
  out.look.border_in = 0.2;  // 5 mm: its middle is two pixels from either edge
  const double r = 0.2;
  out.look.figures = {StandLook::Figure{
      {centre + Vec2{-r, -r}, centre + Vec2{r, -r}, centre + Vec2{r, r}, centre + Vec2{-r, r}},
      20 / 25.4,
      cv::Scalar(90, 90, 90)}};
  out.layout.stands = {out.look};
  out.layout.lamp = {centre.x + 30.0, centre.y, -20.0};
  out.layout.shadow_strength = 0.5;
  return out;
}

TEST(SynthSolidShadow, FigureShadowDarkensTheBaseTopAwayFromTheLamp) {
  OneFigure scene = OneFigureUnderTheLamp();
  const double top_in = scene.look.thickness_in;
  const Vec2 c = scene.look.stand.footprint.center;
  const double half = 0.5 * scene.look.stand.footprint.width_in;
  const Vec2 interior_away = c + Vec2{-0.45, 0}, interior_lit = c + Vec2{0.45, 0};
  const double border_x = half - 0.5 * scene.look.border_in;
  const Vec2 border_away = c + Vec2{-border_x, 0}, border_lit = c + Vec2{border_x, 0};

  std::array<double, 4> off{}, on{};
  for (const bool shadows : {false, true}) {
    scene.layout.shadows_on_solids = shadows;
    const SceneRenderer renderer(scene.layout, 2);
    const cv::Mat img = renderer.RenderClean(StaticSolids(scene.layout, true));
    auto& v = shadows ? on : off;
    const CameraModel& cam = scene.layout.camera;
    v = {Level(img, cam, interior_away, top_in), Level(img, cam, interior_lit, top_in),
         Level(img, cam, border_away, top_in), Level(img, cam, border_lit, top_in)};
  }
  // Off: both sides of the figure look alike (before this change, also with the setting on).
  EXPECT_NEAR(off[0], off[1], 0.03 * off[1]);
  EXPECT_NEAR(off[2], off[3], 0.03 * off[3]);
  // On: the away side takes the mat's shadow factor (1 - 0.5), the lamp's side is untouched.
  EXPECT_NEAR(on[0] / on[1], 0.5, 0.06);
  EXPECT_NEAR(on[2] / on[3], 0.5, 0.06);
  EXPECT_NEAR(on[1], off[1], 3.0);
  EXPECT_NEAR(on[3], off[3], 3.0);
}

// A Q-tip lying on the mat across the same figure's shadow, plain head in it: the head takes the
// shadow (it has no flat faces; it receives on its mid-height plane), the stick far from the
// shadow does not.
TEST(SynthSolidShadow, QtipInAFigureShadowIsDarkened) {
  OneFigure scene = OneFigureUnderTheLamp();
  const Vec2 c = scene.look.stand.footprint.center;
  const double axis_in = 0.5 * kQtipHeadDiaIn;
  const QtipPose pose{{c.x - 1.1, c.y - 0.5 * kQtipHeadLenIn, -axis_in},
                      {c.x - 1.1, c.y - 0.5 * kQtipHeadLenIn + kQtipLengthIn, -axis_in}};
  std::vector<Solid> solids = StaticSolids(scene.layout, true);
  for (const Solid& q : QtipSolids(pose, cv::Scalar(20, 20, 20))) solids.push_back(q);
  const Vec2 head = c + Vec2{-1.1, 0.0}, stick = c + Vec2{-1.1, 1.2};
  std::array<double, 2> off{}, on{};
  for (const bool shadows : {false, true}) {
    scene.layout.shadows_on_solids = shadows;
    const SceneRenderer renderer(scene.layout, 2);
    const cv::Mat img = renderer.RenderClean(solids);
    auto& v = shadows ? on : off;
    v = {Level(img, scene.layout.camera, head, axis_in),
         Level(img, scene.layout.camera, stick, axis_in)};
  }
  EXPECT_NEAR(on[0] / off[0], 0.5, 0.08);  // the mat's shadow factor (1 - 0.5)
  EXPECT_NEAR(on[1], off[1], 3.0);
}

TEST(SynthSolidShadow, ScenarioSettingDefaultsOffAndLampJsonTurnsItOn) {
  const Scenario nap = Load("napoleonic.json");
  EXPECT_FALSE(nap.difficulty.shadows_on_solids);
  EXPECT_EQ(nap.difficulty.lamp_height_in, (Range{55.0, 90.0}));
  const Scenario lamp = Load("lamp.json");
  EXPECT_TRUE(lamp.difficulty.shadows_on_solids);
  EXPECT_LT(lamp.difficulty.lamp_height_in.second, 55.0);
  const LaidOutScene laid = LayOutScene(lamp, SynthOptions{5, cv::Size(640, 360), 2, false}, 0);
  EXPECT_TRUE(laid.layout.shadows_on_solids);
  EXPECT_GE(-laid.layout.lamp.z, lamp.difficulty.lamp_height_in.first);
  EXPECT_LE(-laid.layout.lamp.z, lamp.difficulty.lamp_height_in.second);
}

// FNV-1a over the images' pixels (not the encoded files: PNG and JPEG bytes depend on the codec
// library, the pixels only on the renderer).
uint64_t PixelHash(const SynthScene& s) {
  uint64_t h = 1469598103934665603ull;
  for (const cv::Mat* m : {&s.empty, &s.before, &s.after, &s.after_hand}) {
    const cv::Mat c = m->isContinuous() ? *m : m->clone();
    const auto* p = c.ptr<uchar>();
    for (size_t i = 0; i < c.total() * c.elemSize(); ++i) h = (h ^ p[i]) * 1099511628211ull;
  }
  return h;
}

TEST(SynthSolidShadow, SettingOffKeepsTheImagesOfBefore) {
  Scenario sc = Load("napoleonic.json");
  sc.difficulty.hand_probability = 1.0;
  const SynthScene s = GenerateScene(sc, SynthOptions{9, cv::Size(480, 270), 2, true}, 2);
  ASSERT_FALSE(s.after_hand.empty());
  // The images of this scene as the renderer drew them before shadows on solids existed
  // (session 10). A deliberate change to the renderer updates this number.
  EXPECT_EQ(PixelHash(s), 6295271188594289148ull);
}

TEST(SynthSolidShadow, SameSeedSameImagesWithShadowsOnSolids) {
  const Scenario lamp = Load("lamp.json");
  const SynthOptions opt{5, cv::Size(480, 270), 2, true};
  const SynthScene a = GenerateScene(lamp, opt, 1), b = GenerateScene(lamp, opt, 1);
  EXPECT_EQ(PixelHash(a), PixelHash(b));
  // And the setting does something on this scene.
  Scenario lamp_off = lamp;
  lamp_off.difficulty.shadows_on_solids = false;
  EXPECT_NE(PixelHash(a), PixelHash(GenerateScene(lamp_off, opt, 1)));
}

}  // namespace
}  // namespace referee
