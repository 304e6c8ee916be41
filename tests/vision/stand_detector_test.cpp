// Stand detection on top views drawn directly (exact truth, no renderer in between): isolated
// bases, a touching 2x2 block, facing stripes, side-coloured figures and a red roof.
#include "vision/stand_detector.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "datasets/synth_scene.hpp"
#include "engine/data_paths.hpp"
#include "engine/stand_kind_catalog_loader.hpp"
#include "rendered_detection.hpp"
#include "scenario_side_colors.hpp"
#include "tests/overhead_calibration.hpp"
#include "vision/side_washout.hpp"

namespace referee {
namespace {

struct DrawnBase {
  OrientedRect rect;
  cv::Scalar side_bgr;
  bool stripe = false;
};

void DrawBase(cv::Mat& img, const TopView& view, const DrawnBase& b, double border_mm,
              cv::RNG& rng) {
  auto poly = [&](const OrientedRect& r) {
    std::vector<cv::Point> pts;
    for (const Vec2& c : r.Corners()) {
      const cv::Point2d p = view.RectifiedFromTable(c);
      pts.emplace_back(cvRound(p.x * 16), cvRound(p.y * 16));
    }
    return pts;
  };
  cv::fillPoly(img, std::vector<std::vector<cv::Point>>{poly(b.rect)}, b.side_bgr, cv::LINE_AA, 4);
  OrientedRect inner = b.rect;
  inner.width_in -= 2 * MmToInches(border_mm);
  inner.depth_in -= 2 * MmToInches(border_mm);
  cv::fillPoly(img, std::vector<std::vector<cv::Point>>{poly(inner)}, cv::Scalar(60, 90, 110),
               cv::LINE_AA, 4);
  // Figures: blobs of random colour, one of them close to the side colour.
  for (int i = 0; i < 4; ++i) {
    const Vec2 c = inner.center + Rotate({rng.uniform(-0.3, 0.3) * inner.width_in,
                                          rng.uniform(-0.25, 0.25) * inner.depth_in},
                                         DegToRad(inner.angle_deg));
    const cv::Scalar col =
        i == 0 ? b.side_bgr * 0.9
               : cv::Scalar(rng.uniform(0, 255), rng.uniform(0, 255), rng.uniform(0, 255));
    cv::circle(img, view.RectifiedFromTable(c), static_cast<int>(0.12 * view.px_per_inch()), col,
               cv::FILLED);
  }
  if (b.stripe) {
    const auto k = b.rect.Corners();
    const Vec2 in = MmToInches(1.25) * b.rect.AxisY();  // 2.5 mm stripe at the front edge
    cv::line(img, view.RectifiedFromTable(k[0] + in), view.RectifiedFromTable(k[1] + in),
             cv::Scalar(250, 250, 250),
             std::max(1, static_cast<int>(MmToInches(2.5) * view.px_per_inch())));
  }
}

// A block of cols x rows touching bases of one colour, w x dp inches each, turned ang degrees
// about its centre c (columns along the width), in column-major order.
std::vector<DrawnBase> TouchingBlock(Vec2 c, double w, double dp, double ang, int cols, int rows,
                                     const cv::Scalar& colour) {
  std::vector<DrawnBase> bases;
  bases.reserve(static_cast<size_t>(cols) * static_cast<size_t>(rows));
  for (int i = 0; i < cols; ++i) {
    for (int j = 0; j < rows; ++j) {
      const Vec2 off =
          Rotate({(i - 0.5 * (cols - 1)) * w, (j - 0.5 * (rows - 1)) * dp}, DegToRad(ang));
      bases.push_back({{c + off, w, dp, ang}, colour, false});
    }
  }
  return bases;
}

class StandDetectorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    catalog = LoadStandKinds();
    view = TopView(OverheadCalibration(), {.px_per_inch = 40, .margin_in = 1});
    img = cv::Mat(view.size(), CV_8UC3, cv::Scalar(58, 110, 74));  // green mat (BGR)
    // Uneven light: darker toward the right.
    for (int x = 0; x < img.cols; ++x) {
      cv::Mat col = img.col(x);
      col.convertTo(col, -1, 1.0 - 0.35 * x / img.cols);
    }
    for (int c = 0; c <= 12; ++c) {
      cv::line(img, view.RectifiedFromTable({c * 4.0, 0}), view.RectifiedFromTable({c * 4.0, 32}),
               cv::Scalar(30, 30, 30), 2);
    }
    for (int r = 0; r <= 8; ++r) {
      cv::line(img, view.RectifiedFromTable({0, r * 4.0}), view.RectifiedFromTable({48, r * 4.0}),
               cv::Scalar(30, 30, 30), 2);
    }
  }
  StandKindCatalog catalog;
  TopView view;
  cv::Mat img;
  SideColorModel Colors() const {
    SideColorModel m;
    m.AddSideFromSrgb("red", {192, 48, 42});
    m.AddSideFromSrgb("blue", {42, 75, 192});
    return m;
  }
};

const DetectedStand* Nearest(const StandDetection& d, Vec2 p) {
  const DetectedStand* best = nullptr;
  for (const auto& s : d.stands) {
    if (!best || Distance(s.stand.footprint.center, p) < Distance(best->stand.footprint.center, p))
      best = &s;
  }
  return best;
}

TEST_F(StandDetectorTest, FindsIsolatedBasesWithSizeAngleAndFacing) {
  cv::RNG rng(3);
  const cv::Scalar red(42, 48, 192), blue(192, 75, 42);
  const std::vector<DrawnBase> bases = {
      {{{6.3, 5.1}, MmToInches(40), MmToInches(20), 17.0}, red, true},
      {{{20.2, 14.7}, MmToInches(40), MmToInches(30), -33.0}, blue, false},
      {{{38.0, 25.0}, MmToInches(40), MmToInches(40), 5.0}, red, false},
  };
  for (const auto& b : bases) DrawBase(img, view, b, 3.5, rng);
  // The overhead camera has its centre above the board centre; base tops 2.5 mm up shift
  // toward the nadir, so compare against a detector told the bases are flat.
  StandDetectorOptions opt;
  opt.base_height_mm = 0.0;
  const StandDetection d = DetectStands(img, view, Colors(), catalog, opt);
  ASSERT_EQ(d.stands.size(), bases.size());
  for (const auto& b : bases) {
    const DetectedStand* s = Nearest(d, b.rect.center);
    ASSERT_NE(s, nullptr);
    EXPECT_LT(InchesToMm(Distance(s->stand.footprint.center, b.rect.center)), 0.5);
    EXPECT_NEAR(InchesToMm(s->stand.footprint.width_in), InchesToMm(b.rect.width_in), 1.5);
    EXPECT_NEAR(InchesToMm(s->stand.footprint.depth_in), InchesToMm(b.rect.depth_in), 1.5);
    const double mod =
        (b.stripe || std::abs(b.rect.width_in - b.rect.depth_in) > 0.1) ? 180.0 : 90.0;
    double da = std::fmod(std::abs(s->stand.footprint.angle_deg - b.rect.angle_deg),
                          b.stripe ? 360.0 : mod);
    da = std::min(da, (b.stripe ? 360.0 : mod) - da);
    EXPECT_LT(da, 1.0) << s->stand.id;
    EXPECT_EQ(s->stand.facing_known, b.stripe);
  }
  EXPECT_EQ(Nearest(d, bases[0].rect.center)->stand.kind, "line_infantry");
  EXPECT_EQ(Nearest(d, bases[1].rect.center)->stand.kind, "line_cavalry");
  EXPECT_EQ(Nearest(d, bases[1].rect.center)->stand.side, "blue");
}

TEST_F(StandDetectorTest, SplitsATouching2x2Block) {
  cv::RNG rng(5);
  const cv::Scalar red(42, 48, 192);
  const std::vector<DrawnBase> bases =
      TouchingBlock({22.0, 15.0}, MmToInches(40), MmToInches(20), 12.0, 2, 2, red);
  for (const auto& b : bases) DrawBase(img, view, b, 3.0, rng);
  StandDetectorOptions opt;
  opt.base_height_mm = 0.0;
  const StandDetection d = DetectStands(img, view, Colors(), catalog, opt);
  ASSERT_EQ(d.stands.size(), 4u);
  for (const auto& b : bases) {
    const DetectedStand* s = Nearest(d, b.rect.center);
    EXPECT_LT(InchesToMm(Distance(s->stand.footprint.center, b.rect.center)), 1.0);
    EXPECT_NEAR(InchesToMm(s->stand.footprint.width_in), 40.0, 1.5);
    EXPECT_NEAR(InchesToMm(s->stand.footprint.depth_in), 20.0, 1.5);
  }
}

// Seen on generated napoleonic scenes: a gun painted near its side colour, its barrel down the
// middle of a 40 x 40 base from the crossbar to the far border, looked like the seam of two
// touching 40 x 20 bases, and the base came out as two. A seam is two borders side by side
// between straight lines; the barrel is a tapered curve.
TEST_F(StandDetectorTest, KeepsA40x40BaseWithASideColouredGunBarrelWhole) {
  cv::RNG rng(8);
  const cv::Scalar red(42, 48, 192);
  const DrawnBase gun{{{14.0, 14.0}, MmToInches(40), MmToInches(40), 8.0}, red, false};
  DrawBase(img, view, gun, 3.5, rng);
  const double px_per_mm = view.px_per_inch() / 25.4;
  const auto ellipse = [&](double along_mm, double half_w_mm, double half_d_mm) {
    const Vec2 c = gun.rect.center + MmToInches(along_mm) * gun.rect.AxisY();
    cv::ellipse(img,
                cv::RotatedRect(view.RectifiedFromTable(c),
                                cv::Size2f(static_cast<float>(2 * half_w_mm * px_per_mm),
                                           static_cast<float>(2 * half_d_mm * px_per_mm)),
                                static_cast<float>(gun.rect.angle_deg)),
                red * 0.9, cv::FILLED, cv::LINE_AA);
  };
  ellipse(3.0, 4.0, 16.0);   // the barrel, reaching into the far border
  ellipse(-11.5, 8.0, 2.5);  // the crossbar (trail), just short of the near border
  cv::GaussianBlur(img, img, {0, 0}, 1.0);
  StandDetectorOptions opt;
  opt.base_height_mm = 0.0;
  const StandDetection d = DetectStands(img, view, Colors(), catalog, opt);
  ASSERT_EQ(d.stands.size(), 1u);
  EXPECT_LT(InchesToMm(Distance(d.stands[0].stand.footprint.center, gun.rect.center)), 1.0);
  EXPECT_NEAR(InchesToMm(d.stands[0].stand.footprint.width_in), 40.0, 1.5);
  EXPECT_NEAR(InchesToMm(d.stands[0].stand.footprint.depth_in), 40.0, 1.5);
}

// Two 40 x 30 bases touching along their depth sides, blurred and noisy: the seam between them
// is still two borders between straight lines, so the pair is cut into its two bases.
TEST_F(StandDetectorTest, SplitsABlurredTouchingPair) {
  cv::RNG rng(12);
  const cv::Scalar blue(192, 75, 42);
  const std::vector<DrawnBase> bases =
      TouchingBlock({30.0, 12.0}, MmToInches(40), MmToInches(30), -21.0, 2, 1, blue);
  for (const auto& b : bases) DrawBase(img, view, b, 3.0, rng);
  cv::GaussianBlur(img, img, {0, 0}, 1.2);
  cv::Mat noise(img.size(), CV_8UC3);
  rng.fill(noise, cv::RNG::NORMAL, cv::Scalar::all(0), cv::Scalar::all(4));
  cv::Mat noisy;
  img.convertTo(noisy, CV_16SC3);
  cv::Mat n16;
  noise.convertTo(n16, CV_16SC3);
  noisy += n16;
  noisy.convertTo(img, CV_8UC3);
  StandDetectorOptions opt;
  opt.base_height_mm = 0.0;
  const StandDetection d = DetectStands(img, view, Colors(), catalog, opt);
  ASSERT_EQ(d.stands.size(), 2u);
  for (const auto& b : bases) {
    const DetectedStand* s = Nearest(d, b.rect.center);
    EXPECT_LT(InchesToMm(Distance(s->stand.footprint.center, b.rect.center)), 1.0);
    EXPECT_NEAR(InchesToMm(s->stand.footprint.width_in), 40.0, 1.5);
    EXPECT_NEAR(InchesToMm(s->stand.footprint.depth_in), 30.0, 1.5);
  }
}

TEST_F(StandDetectorTest, IgnoresARedRoofAndRedFigures) {
  const cv::Scalar red(42, 48, 192);
  // A solid red roof 60 x 45 mm and a scatter of red specks: no base explains them.
  OrientedRect roof{{30, 10}, MmToInches(60), MmToInches(45), 20};
  std::vector<cv::Point> pts;
  for (const Vec2& k : roof.Corners()) pts.push_back(view.RectifiedFromTable(k));
  cv::fillPoly(img, std::vector<std::vector<cv::Point>>{pts}, red);
  for (int i = 0; i < 10; ++i)
    cv::circle(img, view.RectifiedFromTable({5.0 + 2 * i, 28.0}), 5, red, cv::FILLED);
  const StandDetection d = DetectStands(img, view, Colors(), catalog);
  EXPECT_TRUE(d.stands.empty());
}

// Tungsten-like light on one half, daylight-blue on the other, and the whole view dimmer toward
// one corner: per-channel gains that change across the table. Fixed RGB thresholds fail here.
TEST_F(StandDetectorTest, FindsBasesUnderAWhiteBalanceThatChangesAcrossTheTable) {
  cv::RNG rng(9);
  const cv::Scalar red(42, 48, 192), blue(192, 75, 42);
  std::vector<DrawnBase> bases;
  for (int i = 0; i < 6; ++i) {
    bases.push_back(
        {{{4.0 + 8.0 * i, 6.0 + 3.0 * (i % 2)}, MmToInches(40), MmToInches(20), 10.0 * i},
         i % 2 ? blue : red,
         false});
    bases.push_back({{{4.0 + 8.0 * i, 24.0}, MmToInches(40), MmToInches(30), -7.0 * i},
                     i % 2 ? red : blue,
                     false});
  }
  for (const auto& b : bases) DrawBase(img, view, b, 3.0, rng);
  cv::Mat lit;
  img.convertTo(lit, CV_32FC3);
  for (int y = 0; y < lit.rows; ++y) {
    for (int x = 0; x < lit.cols; ++x) {
      const double t = static_cast<double>(x) / lit.cols;  // 0 warm .. 1 cool
      const double dim = 1.0 - 0.3 * static_cast<double>(y) / lit.rows;
      cv::Vec3f& p = lit.at<cv::Vec3f>(y, x);
      p[0] *= static_cast<float>(dim * (0.65 + 0.6 * t));  // B
      p[1] *= static_cast<float>(dim * 0.95);              // G
      p[2] *= static_cast<float>(dim * (1.3 - 0.5 * t));   // R
    }
  }
  lit.convertTo(img, CV_8UC3);
  StandDetectorOptions opt;
  opt.base_height_mm = 0.0;
  const StandDetection d = DetectStands(img, view, Colors(), catalog, opt);
  EXPECT_EQ(d.stands.size(), bases.size());
  for (const auto& b : bases) {
    const DetectedStand* s = Nearest(d, b.rect.center);
    ASSERT_NE(s, nullptr);
    EXPECT_LT(InchesToMm(Distance(s->stand.footprint.center, b.rect.center)), 1.0);
    EXPECT_EQ(s->stand.side, b.side_bgr == red ? "red" : "blue");
  }
}

// The front stripe painted just inside the border (not over it), on a pale mat under bright
// light: the stripe is barely brighter than the mat, so whiteness must be judged against the
// base's own border, not the mat. Facing comes from the stripe; bases without one claim none.
TEST_F(StandDetectorTest, FacingFromAStripeInsideTheBorderOnAPaleMat) {
  img.setTo(cv::Scalar(178, 198, 212));  // pale tan mat (BGR), as bright as the stripe's ratio
  cv::RNG rng(11);
  const cv::Scalar red(42, 48, 192), blue(192, 75, 42);
  struct Case {
    OrientedRect rect;
    cv::Scalar side;
    bool stripe;
  };
  const std::vector<Case> cases = {
      {{{6.0, 6.0}, MmToInches(40), MmToInches(20), 200.0}, red, true},
      {{{18.0, 6.0}, MmToInches(40), MmToInches(30), 20.0}, blue, true},
      {{{30.0, 18.0}, MmToInches(40), MmToInches(40), 95.0}, red, true},
      {{{42.0, 26.0}, MmToInches(40), MmToInches(20), 160.0}, blue, false},
  };
  const double border_mm = 3.5, stripe_mm = 2.5;
  for (const auto& c : cases) {
    DrawBase(img, view, {c.rect, c.side, false}, border_mm, rng);
    if (!c.stripe) continue;
    // A white band from the border's inner edge inward, along the front (-AxisY) edge.
    OrientedRect band = c.rect;
    band.width_in -= 2 * MmToInches(border_mm);
    band.depth_in = MmToInches(stripe_mm);
    band.center =
        c.rect.center +
        (-0.5 * c.rect.depth_in + MmToInches(border_mm + 0.5 * stripe_mm)) * c.rect.AxisY();
    std::vector<cv::Point> pts;
    for (const Vec2& k : band.Corners()) {
      const cv::Point2d p = view.RectifiedFromTable(k);
      pts.emplace_back(cvRound(p.x * 16), cvRound(p.y * 16));
    }
    cv::fillPoly(img, std::vector<std::vector<cv::Point>>{pts}, cv::Scalar(238, 240, 242),
                 cv::LINE_AA, 4);
  }
  StandDetectorOptions opt;
  opt.base_height_mm = 0.0;
  const StandDetection d = DetectStands(img, view, Colors(), catalog, opt);
  ASSERT_EQ(d.stands.size(), cases.size());
  for (const auto& c : cases) {
    const DetectedStand* s = Nearest(d, c.rect.center);
    ASSERT_NE(s, nullptr);
    EXPECT_LT(InchesToMm(Distance(s->stand.footprint.center, c.rect.center)), 0.5);
    EXPECT_EQ(s->stand.facing_known, c.stripe) << s->stand.id;
    if (!c.stripe) continue;
    double da = std::fmod(std::abs(s->stand.footprint.angle_deg - c.rect.angle_deg), 360.0);
    da = std::min(da, 360.0 - da);
    EXPECT_LT(da, 1.5) << s->stand.id;
  }
}

// A side sampled from the camera (a border in the top view) is balanced like the image it is
// compared with, so the model it gives finds the same bases as the board file's colour.
TEST_F(StandDetectorTest, ASideSampledFromTheTopViewFindsItsBases) {
  cv::RNG rng(4);
  const cv::Scalar red(42, 48, 192);
  const DrawnBase b{{{10.0, 10.0}, MmToInches(40), MmToInches(20), 0.0}, red, false};
  DrawBase(img, view, b, 3.5, rng);
  DrawBase(img, view, {{{30.0, 20.0}, MmToInches(40), MmToInches(30), 30.0}, red, false}, 3.5, rng);
  // The user drags over the left border of the first base.
  cv::Mat mask(img.size(), CV_8U, cv::Scalar(0));
  const cv::Point2d left = view.RectifiedFromTable({10.0 - MmToInches(18.5), 10.0});
  cv::rectangle(mask, cv::Rect(cvRound(left.x) - 1, cvRound(left.y) - 5, 2, 10), cv::Scalar(255),
                cv::FILLED);
  SideColorModel sampled;
  ASSERT_TRUE(sampled.AddSideFromTopView("red", img, view.px_per_inch(), mask));
  EXPECT_FALSE(sampled.AddSideFromTopView("none", img, view.px_per_inch(),
                                          cv::Mat(img.size(), CV_8U, cv::Scalar(0))));
  StandDetectorOptions opt;
  opt.base_height_mm = 0.0;
  const StandDetection d = DetectStands(img, view, sampled, catalog, opt);
  EXPECT_EQ(d.stands.size(), 2u);
}

// Bases the colour blobs alone miss (seen on generated napoleonic and hard scenes): a tree
// canopy over half of one base, a base whose border is cut in three places by dark figures
// leaning over it, and a base whose thin border is washed half-way into a grey mat by blur.
// Each is fitted as a ring of its catalogue size to the border that is visible; a pond-blue
// disc and a speckled brown road beside them are no base.
TEST_F(StandDetectorTest, FindsBasesFromPartialAndWashedOutBorders) {
  cv::RNG rng(21);
  const cv::Scalar red(42, 48, 192), blue(192, 75, 42);
  const DrawnBase canopied{{{10.0, 10.0}, MmToInches(40), MmToInches(30), 20.0}, red, false};
  const DrawnBase cut{{{26.0, 10.0}, MmToInches(40), MmToInches(20), -15.0}, blue, false};
  DrawBase(img, view, canopied, 3.0, rng);
  DrawBase(img, view, cut, 3.0, rng);
  // The canopy: a dark green disc over the +x half of the first base.
  const Vec2 canopy_at =
      canopied.rect.center + 0.45 * canopied.rect.width_in * canopied.rect.AxisX();
  cv::circle(img, view.RectifiedFromTable(canopy_at), static_cast<int>(0.7 * view.px_per_inch()),
             cv::Scalar(30, 70, 35), cv::FILLED, cv::LINE_AA);
  // Dark figures leaning over the second base's border: one long side and both ends.
  for (const Vec2& k : {cut.rect.center + 0.5 * cut.rect.depth_in * cut.rect.AxisY(),
                        cut.rect.center + 0.5 * cut.rect.width_in * cut.rect.AxisX(),
                        cut.rect.center - 0.5 * cut.rect.width_in * cut.rect.AxisX()}) {
    cv::circle(img, view.RectifiedFromTable(k), static_cast<int>(0.18 * view.px_per_inch()),
               cv::Scalar(25, 25, 30), cv::FILLED, cv::LINE_AA);
  }
  // A washed-out base on a grey patch of mat: border colour half-way to the grey, blurred.
  const cv::Rect grey_patch(view.RectifiedFromTable({32.5, 17.0}),
                            view.RectifiedFromTable({47.5, 31.0}));
  img(grey_patch).setTo(cv::Scalar(128, 128, 128));
  cv::Mat washed = img(grey_patch).clone();
  const DrawnBase faint{{{38.0, 22.0}, MmToInches(40), MmToInches(40), 33.0},
                        0.5 * blue + 0.5 * cv::Scalar(128, 128, 128),
                        false};
  cv::Mat full = img.clone();
  DrawBase(full, view, faint, 3.0, rng);
  full(grey_patch).copyTo(washed);
  cv::GaussianBlur(washed, washed, {0, 0}, 2.0);
  washed.copyTo(img(grey_patch));
  // Not bases: a blue pond and a speckled brown road.
  cv::circle(img, view.RectifiedFromTable({40.0, 8.0}), static_cast<int>(1.0 * view.px_per_inch()),
             cv::Scalar(130, 80, 40), cv::FILLED, cv::LINE_AA);
  for (int y = 0; y < static_cast<int>(0.8 * view.px_per_inch()); ++y) {
    for (int x = 0; x < static_cast<int>(6.0 * view.px_per_inch()); ++x) {
      const cv::Point p = cv::Point(view.RectifiedFromTable({4.0, 26.0})) + cv::Point(x, y);
      const double f = rng.uniform(0.0, 1.0);
      img.at<cv::Vec3b>(p) =
          cv::Vec3b(static_cast<uchar>(60 + 30 * f), static_cast<uchar>(95 + 20 * f),
                    static_cast<uchar>(150 + 30 * f));
    }
  }
  StandDetectorOptions opt;
  opt.base_height_mm = 0.0;
  const StandDetection d = DetectStands(img, view, Colors(), catalog, opt);
  for (const DrawnBase* b : {&canopied, &cut, &faint}) {
    const DetectedStand* s = Nearest(d, b->rect.center);
    ASSERT_NE(s, nullptr);
    EXPECT_LT(InchesToMm(Distance(s->stand.footprint.center, b->rect.center)), 1.5)
        << "base at " << b->rect.center.x << ", " << b->rect.center.y;
    EXPECT_NEAR(InchesToMm(s->stand.footprint.width_in), InchesToMm(b->rect.width_in), 2.0);
    EXPECT_NEAR(InchesToMm(s->stand.footprint.depth_in), InchesToMm(b->rect.depth_in), 2.0);
  }
  EXPECT_EQ(d.stands.size(), 3u);
  EXPECT_EQ(Nearest(d, faint.rect.center)->stand.side, "blue");
  EXPECT_EQ(Nearest(d, canopied.rect.center)->stand.kind, "line_cavalry");
}

// A wood's canopy hides more than half of a base's ring (a whole end and half of both long
// sides, with a figure leaning over the other end): too little ring for a base anywhere, but
// the board says a wood stands there, and the ring seen beside it is strong. A red roof's
// corner beside the same kind of canopy is the colour throughout the part seen: no base.
TEST_F(StandDetectorTest, FindsABaseHalfUnderACanopyWhereTheBoardHasAWood) {
  cv::RNG rng(5);
  const cv::Scalar red(42, 48, 192);
  const DrawnBase hidden{{{10.0, 22.0}, MmToInches(40), MmToInches(30), 20.0}, red, false};
  DrawBase(img, view, hidden, 3.0, rng);
  const OrientedRect& r = hidden.rect;
  // A figure leaning over the middle of the end left in view.
  cv::circle(img, view.RectifiedFromTable(r.center - 0.5 * r.width_in * r.AxisX()),
             static_cast<int>(MmToInches(6) * view.px_per_inch()), cv::Scalar(25, 25, 30),
             cv::FILLED, cv::LINE_AA);
  // A red roof (filled, 45 mm square) whose corner shows beside a second canopy.
  const OrientedRect roof{{30.0, 22.0}, MmToInches(45), MmToInches(45), -10.0};
  std::vector<cv::Point> roof_px;
  for (const Vec2& c : roof.Corners()) roof_px.emplace_back(view.RectifiedFromTable(c));
  cv::fillConvexPoly(img, roof_px, red, cv::LINE_AA);
  Board board;
  board.grid = view.calibration().board;
  // Canopies: from just short of each shape's middle to well past its +x end.
  int n = 0;
  for (const OrientedRect* under : {&r, &roof}) {
    const double from_in = -MmToInches(2), to_in = 0.5 * under->width_in + MmToInches(15);
    const double half_d = 0.5 * under->depth_in + MmToInches(12);
    Polygon canopy;
    std::vector<cv::Point> px;
    for (const Vec2 q : {Vec2{from_in, -half_d}, Vec2{to_in, -half_d}, Vec2{to_in, half_d},
                         Vec2{from_in, half_d}}) {
      const Vec2 p = under->center + q.x * under->AxisX() + q.y * under->AxisY();
      canopy.vertices.push_back(p);
      px.emplace_back(view.RectifiedFromTable(p));
    }
    cv::fillConvexPoly(img, px, cv::Scalar(30, 70, 35), cv::LINE_AA);
    board.features.push_back({"woods-" + std::to_string(++n), Terrain::kWoods, canopy});
  }
  StandDetectorOptions opt;
  opt.base_height_mm = 0.0;
  EXPECT_EQ(DetectStands(img, view, Colors(), catalog, opt).stands.size(), 0u)
      << "without the board nothing says a canopy hides the rest of the ring";
  const StandDetection d = DetectStands(img, view, Colors(), catalog, opt, &board);
  ASSERT_EQ(d.stands.size(), 1u);
  const Stand& s = d.stands[0].stand;
  EXPECT_LT(InchesToMm(Distance(s.footprint.center, r.center)), 1.5);
  EXPECT_NEAR(InchesToMm(s.footprint.width_in), 40.0, 2.0);
  EXPECT_NEAR(InchesToMm(s.footprint.depth_in), 30.0, 2.0);
  EXPECT_EQ(s.side, "red");
}

// A soft, dim camera over a dark brown mat (as hard seed 7 scene 9 renders it): every blue
// border keeps only about a quarter of its colour's distance from the mat, far outside the
// nominal colour's gate, so the side's mask was empty and its bases were missed (4 of 6 found
// before vision/side_washout's frame washout search). Beside
// them, things a washed colour also passes: a sheet of paper (neutral, filled) and a pond in
// the full blue (whose blurred edge is a ring of the washed colour). No red side is present.
// Two 40 x 20 bases touching along their 40 mm sides, under a blur wider than their borders:
// the rectangle holding both is a 40 x 40 catalogue base whose blurred ring fits all round,
// but the line between them carries two borders side by side, so neither is grown into it
// (GrowShortBasesOnBlurredBand's seam test).
TEST_F(StandDetectorTest, TwoTouching40x20BasesUnderAHeavyBlurAreNotGrownIntoOne) {
  cv::RNG rng(23);
  const cv::Scalar blue(192, 75, 42);
  const std::vector<DrawnBase> bases =
      TouchingBlock({20.0, 14.0}, MmToInches(40), MmToInches(20), 14.0, 1, 2, blue);
  for (const auto& b : bases) DrawBase(img, view, b, 3.0, rng);
  cv::GaussianBlur(img, img, {0, 0}, 4.0);
  StandDetectorOptions opt;
  opt.base_height_mm = 0.0;
  const StandDetection d = DetectStands(img, view, Colors(), catalog, opt);
  for (const auto& ds : d.stands) {
    EXPECT_LT(InchesToMm(ds.stand.footprint.depth_in), 30.0)
        << ds.stand.id << " at " << ds.stand.footprint.center.x << ", "
        << ds.stand.footprint.center.y;
  }
  for (const auto& b : bases) {
    const DetectedStand* s = Nearest(d, b.rect.center);
    ASSERT_NE(s, nullptr);
    EXPECT_LT(InchesToMm(Distance(s->stand.footprint.center, b.rect.center)), 2.0);
  }
}

// A red 40 x 40 mm base whose figures are painted blue over a 37 x 18 mm block (leaning a
// little over the border), near a 40 x 20 mm base's size and found as one: the blue block is
// those figures, inside the red border, not a blue base (bases cannot overlap; `hard` 103 scene
// 5 read such figures as a 37 x 16 mm blue base).
TEST_F(StandDetectorTest, FiguresOfTheOtherSidesColourInsideABaseAreNotABase) {
  cv::RNG rng(31);
  const cv::Scalar red(42, 48, 192), blue(192, 75, 42);
  const OrientedRect base{{24.0, 16.0}, MmToInches(40), MmToInches(40), 8.0};
  DrawBase(img, view, {base, red, false}, 3.0, rng);
  OrientedRect figures = base;
  figures.width_in = MmToInches(37);
  figures.depth_in = MmToInches(18);
  std::vector<cv::Point> pts;
  for (const Vec2& c : figures.Corners()) pts.emplace_back(view.RectifiedFromTable(c));
  cv::fillConvexPoly(img, pts, blue, cv::LINE_AA);
  cv::GaussianBlur(img, img, {0, 0}, 1.5);
  StandDetectorOptions opt;
  opt.base_height_mm = 0.0;
  const StandDetection d = DetectStands(img, view, Colors(), catalog, opt);
  ASSERT_EQ(d.stands.size(), 1u);
  EXPECT_EQ(d.stands[0].stand.side, "red");
  EXPECT_LT(InchesToMm(Distance(d.stands[0].stand.footprint.center, base.center)), 1.5);
}

// A base-like card of a side's colour (a unit card, a printed frame) lay on the table before
// the armies were deployed: given that view of the empty table it is no base, while the stand
// deployed since is found through a lighting change and fresh sensor noise.
TEST_F(StandDetectorTest, AShapeThatLayOnTheEmptyTableIsNoBase) {
  cv::RNG rng(41);
  const cv::Scalar red(42, 48, 192);
  const OrientedRect card{{10.0, 9.0}, MmToInches(40), MmToInches(30), 20.0};
  const OrientedRect stand{{30.0, 20.0}, MmToInches(40), MmToInches(20), -12.0};
  DrawBase(img, view, {card, red, false}, 3.5, rng);
  cv::Mat empty = img.clone();
  DrawBase(img, view, {stand, red, false}, 3.5, rng);
  cv::Mat now;
  img.convertTo(now, -1, 0.85);  // the room darker than when the table was seen empty
  cv::Mat noise(now.size(), CV_8UC3);
  rng.fill(noise, cv::RNG::NORMAL, 0, 3);
  cv::add(now, noise, now);
  rng.fill(noise, cv::RNG::NORMAL, 0, 3);
  cv::add(empty, noise, empty);
  StandDetectorOptions opt;
  opt.base_height_mm = 0.0;
  // Without the empty table's view the card is a base like any other.
  const StandDetection alone = DetectStands(now, view, Colors(), catalog, opt);
  ASSERT_EQ(alone.stands.size(), 2u);
  const StandDetection d = DetectStands(now, view, Colors(), catalog, opt, nullptr, empty);
  ASSERT_EQ(d.stands.size(), 1u);
  EXPECT_LT(InchesToMm(Distance(d.stands[0].stand.footprint.center, stand.center)), 1.5);
}

TEST_F(StandDetectorTest, FindsBasesOfASideTheCameraWashesTowardTheMat) {
  cv::RNG rng(17);
  const cv::Scalar mat(40, 58, 75), blue(192, 75, 42);
  const cv::Scalar washed = 0.25 * blue + 0.75 * mat;
  img.setTo(mat);
  for (int c = 0; c <= 12; ++c) {
    cv::line(img, view.RectifiedFromTable({c * 4.0, 0}), view.RectifiedFromTable({c * 4.0, 32}),
             cv::Scalar(25, 35, 45), 2);
  }
  for (int r = 0; r <= 8; ++r) {
    cv::line(img, view.RectifiedFromTable({0, r * 4.0}), view.RectifiedFromTable({48, r * 4.0}),
             cv::Scalar(25, 35, 45), 2);
  }
  std::vector<DrawnBase> bases;
  bases.reserve(6);
  for (int i = 0; i < 6; ++i) {
    bases.push_back({{{5.0 + 7.0 * i, 6.0 + 12.0 * (i % 2)},
                      MmToInches(40),
                      MmToInches(i % 3 == 0 ? 20 : 30),
                      12.0 * i - 25.0},
                     washed,
                     false});
  }
  for (const auto& b : bases) DrawBase(img, view, b, 3.0, rng);
  const auto at = [&](Vec2 p) { return cv::Point(view.RectifiedFromTable(p)); };
  cv::rectangle(img, at({8.0, 24.0}), at({16.0, 29.5}), cv::Scalar(225, 228, 230), cv::FILLED);
  cv::rectangle(img, at({30.0, 25.0}), at({32.0, 26.5}), blue, cv::FILLED);
  cv::GaussianBlur(img, img, {0, 0}, 2.2);
  cv::Mat noise(img.size(), CV_16SC3);
  cv::randn(noise, cv::Scalar::all(0), cv::Scalar::all(4));
  cv::Mat dim;
  img.convertTo(dim, CV_16SC3, 0.75);
  cv::add(dim, noise, dim);
  dim.convertTo(img, CV_8UC3);
  StandDetectorOptions opt;
  opt.base_height_mm = 0.0;
  const StandDetection d = DetectStands(img, view, Colors(), catalog, opt);
  for (const auto& b : bases) {
    const DetectedStand* s = Nearest(d, b.rect.center);
    ASSERT_NE(s, nullptr);
    EXPECT_LT(InchesToMm(Distance(s->stand.footprint.center, b.rect.center)), 1.5)
        << "base at " << b.rect.center.x << ", " << b.rect.center.y;
    EXPECT_EQ(s->stand.side, "blue");
  }
  EXPECT_EQ(d.stands.size(), bases.size());
}

// A border mixed a quarter of the way from the mat toward blue departs 0.25 toward blue; the
// mat inside departs nothing; the same colour filling the whole rectangle departs 0.25 inside
// too (paper or a road of the washed colour is no ring).
TEST(RingDepartureTest, MeasuresHowFarABorderAndItsInsideLieTowardASide) {
  const cv::Vec3b mat(60, 120, 150), blue(192, 75, 42);
  cv::Vec3b mix;
  for (int c = 0; c < 3; ++c) {
    // Mixed in log-chroma (where washing toward the mat is a straight line): geometric mean.
    mix[c] = cv::saturate_cast<uchar>(
        std::exp(0.75 * std::log(mat[c] + 8.0) + 0.25 * std::log(blue[c] + 8.0)) - 8.0);
  }
  cv::Mat img(200, 200, CV_8UC3, cv::Scalar(mat));
  const PxRect r{{100, 100}, {1, 0}, 80, 50, {}};
  cv::fillConvexPoly(img, GrownCorners(r, 0), cv::Scalar(mix));
  cv::fillConvexPoly(img, GrownCorners(r, -8), cv::Scalar(mat));
  cv::Mat chroma, valid;
  LogChroma(img, 10, chroma, valid);
  const cv::Vec2f mat_c(LogChromaOf(mat)), blue_c(LogChromaOf(blue));
  const RingDeparture ring = MeasureRingDeparture(chroma, valid, mat_c, blue_c, r, 6, 12);
  EXPECT_NEAR(ring.border, 0.25, 0.03);
  EXPECT_NEAR(ring.inside, 0.0, 0.02);
  cv::fillConvexPoly(img, GrownCorners(r, 0), cv::Scalar(mix));
  LogChroma(img, 10, chroma, valid);
  const RingDeparture patch = MeasureRingDeparture(chroma, valid, mat_c, blue_c, r, 6, 12);
  EXPECT_NEAR(patch.inside, patch.border, 0.02);
}

// Hard seed 7 scene 8 as the generator renders it: a soft camera keeps every border at about a
// quarter of its colour's distance from the mat, below the washout ladder's lowest rung (0.4).
// The red commander at (29.36, 25.61) was missed before the frame's washout was measured from
// the bases the ladder found (WashoutOptions::measured_below); nothing may be claimed where no
// base stands.
TEST(StandDetectorWashoutRenderTest, MeasuredWashoutFindsABaseBelowTheLadder) {
  const RenderedDetection r = DetectInScene("hard.json", 8, 7);
  const StandDetection& d = r.found;
  const auto found_near = [&](Vec2 p, const std::string& side) {
    return std::any_of(d.stands.begin(), d.stands.end(), [&](const DetectedStand& s) {
      return s.stand.side == side && Distance(s.stand.footprint.center, p) < MmToInches(5);
    });
  };
  EXPECT_TRUE(found_near({29.36, 25.61}, "red"));
  ExpectNoFalseBases(r, 10.0);
}

// Hard seed 31 scene 0 rendered: the washed class at the measured factor finds a red field gun
// (40x40 mm) whole where the washout ladder had found half of it (40x20); both were kept, one
// a false base, until a base overlapping one already found was skipped.
TEST(StandDetectorWashoutRenderTest, NoTwoBasesOverlap) {
  const StandDetection d = DetectInScene("hard.json", 0, 31).found;
  ASSERT_GT(d.stands.size(), 10u);
  for (size_t i = 0; i < d.stands.size(); ++i) {
    for (size_t j = i + 1; j < d.stands.size(); ++j) {
      const OrientedRect& a = d.stands[i].stand.footprint;
      const OrientedRect& b = d.stands[j].stand.footprint;
      const auto poly = [](const OrientedRect& r) {
        std::vector<cv::Point2f> p;
        for (const Vec2 c : r.Corners()) p.emplace_back(c.x, c.y);
        return p;
      };
      std::vector<cv::Point2f> meet;
      const double shared = cv::intersectConvexConvex(poly(a), poly(b), meet);
      EXPECT_LT(shared, 0.1 * std::min(a.width_in * a.depth_in, b.width_in * b.depth_in))
          << d.stands[i].stand.id << " at " << a.center.x << ", " << a.center.y << " and "
          << d.stands[j].stand.id << " at " << b.center.x << ", " << b.center.y;
    }
  }
}

}  // namespace
}  // namespace referee
