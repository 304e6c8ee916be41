// Sub-pixel position of what the renderer draws against the truth, on the clean render (no
// lighting, blur, noise or JPEG; shadows off) so nothing but the rasteriser is measured:
// - a base's outer edge: the per-pixel coverage alpha is recovered exactly from the images with
//   and without the stand (before = empty * (1 - alpha) + side colour * alpha) and its 0.5
//   crossing along the image normal is compared with the projected truth edge;
// - the Q-tip's painted tip: the rendered coverage is compared with an ideal coverage computed
//   independently here by casting 8x8 rays per pixel through the lens onto the head's spheroid.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <optional>

#include <opencv2/calib3d.hpp>
#include <opencv2/imgproc.hpp>

#include "datasets/scenario.hpp"
#include "datasets/scene_layout.hpp"
#include "datasets/scene_renderer.hpp"
#include "datasets/scene_truth.hpp"
#include "engine/data_paths.hpp"

namespace referee {
namespace {

Scenario PlainScenario() {
  Scenario sc = LoadScenario(DatasetsDir() / "scenarios" / "napoleonic.json");
  sc.terrain_counts.clear();
  sc.terrain_squares.clear();
  sc.figure_probability = 0.0;
  sc.across_base_probability = 0.0;
  sc.projectile = "qtip";
  sc.difficulty.hand_probability = 0.0;
  sc.difficulty.tilt_deg = {10, 25};  // oblique views: the harder case for edges
  return sc;
}

// Coverage alpha of `colour` over `background` at each pixel of `img`.
cv::Mat Alpha(const cv::Mat& img, const cv::Mat& background, cv::Scalar colour) {
  cv::Mat a(img.size(), CV_64F);
  for (int y = 0; y < img.rows; ++y) {
    for (int x = 0; x < img.cols; ++x) {
      const cv::Vec3b& p = img.at<cv::Vec3b>(y, x);
      const cv::Vec3b& b = background.at<cv::Vec3b>(y, x);
      const cv::Vec3d d(colour[0] - b[0], colour[1] - b[1], colour[2] - b[2]);
      const cv::Vec3d q(p[0] - b[0], p[1] - b[1], p[2] - b[2]);
      const double n2 = d.dot(d);
      a.at<double>(y, x) = n2 < 900.0 ? std::nan("") : q.dot(d) / n2;
    }
  }
  return a;
}

double Sample(const cv::Mat& alpha, cv::Point2d p) {
  const int x = static_cast<int>(std::floor(p.x)), y = static_cast<int>(std::floor(p.y));
  const double fx = p.x - x, fy = p.y - y;
  const auto at = [&](int yy, int xx) { return alpha.at<double>(yy, xx); };
  return (1 - fy) * ((1 - fx) * at(y, x) + fx * at(y, x + 1)) +
         fy * ((1 - fx) * at(y + 1, x) + fx * at(y + 1, x + 1));
}

// Where alpha, sampled outward from `origin` along the unit image direction `dir`, first drops
// below 0.5 (pixels along dir; linear between 0.01 px samples). nullopt if it never does or the
// profile is not a clean 1 -> 0 step.
std::optional<double> HalfCrossing(const cv::Mat& alpha, cv::Point2d origin, cv::Point2d dir,
                                   double from_px, double to_px) {
  double prev = Sample(alpha, origin + from_px * dir);
  if (!(prev > 0.9)) return std::nullopt;
  for (double s = from_px + 0.01; s <= to_px; s += 0.01) {
    const double a = Sample(alpha, origin + s * dir);
    if (std::isnan(a)) return std::nullopt;
    if (a < 0.5) {
      if (Sample(alpha, origin + to_px * dir) > 0.1) return std::nullopt;
      return s - 0.01 + 0.01 * (prev - 0.5) / (prev - a);
    }
    prev = a;
  }
  return std::nullopt;
}

struct Rendered {
  LaidOutScene laid;
  cv::Mat empty, before, after;
};

Rendered RenderPlain(const Scenario& sc, uint64_t seed, int index) {
  Rendered r{
      LayOutScene(sc, SynthOptions{seed, cv::Size(1920, 1080), 2, false}, index), {}, {}, {}};
  r.laid.layout.shadow_strength = 0.0;
  const SceneLayout& L = r.laid.layout;
  const SceneRenderer renderer(L, 2);
  r.empty = renderer.RenderClean(StaticSolids(L, false));
  auto solids = StaticSolids(L, true);
  r.before = renderer.RenderClean(solids);
  const auto q = QtipSolids(L.qtip, L.paint_bgr);
  solids.insert(solids.end(), q.begin(), q.end());
  r.after = renderer.RenderClean(solids);
  return r;
}

TEST(SynthEdgePosition, BaseEdgesSitOnTheTruthToASubPixel) {
  const Scenario sc = PlainScenario();
  std::vector<double> errors_px;
  for (int index = 0; index < 2; ++index) {
    const Rendered r = RenderPlain(sc, 41, index);
    const SceneLayout& L = r.laid.layout;
    const CameraModel& cam = L.camera;
    const cv::Vec3d cam_c = cam.CameraCenterTable();
    for (const StandLook& look : L.stands) {
      const OrientedRect& fp = look.stand.footprint;
      const cv::Mat alpha = Alpha(r.before, r.empty, look.side_bgr);
      const auto cs = fp.Corners();
      for (int e = 0; e < 4; ++e) {
        const Vec2 a = cs[e], b = cs[(e + 1) % 4];
        const Vec2 mid = 0.5 * (a + b);
        Vec2 n = mid - fp.center;
        n = (1.0 / std::hypot(n.x, n.y)) * n;
        // Walls facing the lens show below the top edge: there the silhouette is the bottom edge.
        if (Dot(Vec2{cam_c[0], cam_c[1]} - mid, n) > 0) continue;
        for (const double t : {0.3, 0.4, 0.5, 0.6, 0.7}) {
          const Vec2 q = a + t * (b - a);
          const cv::Point2d px = cam.ImageFromTable(q, look.thickness_in);
          if (px.x < 10 || px.y < 10 || px.x > r.before.cols - 10 || px.y > r.before.rows - 10) {
            continue;
          }
          // The image normal of the projected edge (perpendicular to its image direction).
          cv::Point2d along = cam.ImageFromTable(q + 0.05 * (b - a), look.thickness_in) - px;
          along *= 1.0 / cv::norm(along);
          cv::Point2d normal(-along.y, along.x);
          if (normal.dot(cam.ImageFromTable(q + 0.05 * n, look.thickness_in) - px) < 0) {
            normal = -normal;
          }
          // Stay inside the 3-5 mm border (>= 1.9 px at this scale) and out of other stands.
          const auto cross = HalfCrossing(alpha, px, normal, -1.4, 2.0);
          if (!cross) continue;
          errors_px.push_back(*cross);
        }
      }
    }
  }
  ASSERT_GE(errors_px.size(), 60u);
  double sum = 0, worst = 0;
  for (const double e : errors_px) {
    sum += e;
    worst = std::max(worst, std::abs(e));
  }
  const double mean = sum / static_cast<double>(errors_px.size());
  std::printf("base edges: %zu profiles, mean %+.3f px, worst %.3f px (+: outward)\n",
              errors_px.size(), mean, worst);
  // Measured with exact-area coverage: mean 0.000 px, worst 0.088 px (cv::fillPoly: +0.285 mean,
  // 0.685 worst).
  EXPECT_LT(std::abs(mean), 0.03) << "systematic outward/inward bias of base edges";
  EXPECT_LT(worst, 0.12);
}

// Ideal coverage of the painted head: fraction of 8x8 rays per pixel (through the lens model,
// distortion included) that hit the spheroid of the paint.
cv::Mat IdealTipAlpha(const CameraModel& cam, const QtipPose& pose, cv::Rect window) {
  const cv::Vec3d tip(pose.painted_end.x, pose.painted_end.y, pose.painted_end.z);
  const cv::Vec3d plain(pose.plain_end.x, pose.plain_end.y, pose.plain_end.z);
  const cv::Vec3d axis = cv::normalize(tip - plain);
  const cv::Vec3d centre = tip - 0.5 * kQtipHeadLenIn * axis;
  const double semi_a = 0.5 * kQtipHeadLenIn, semi_b = 0.5 * kQtipHeadDiaIn * 1.01;
  constexpr int kSub = 8;
  std::vector<cv::Point2d> rays;
  for (int y = window.y; y < window.br().y; ++y) {
    for (int x = window.x; x < window.br().x; ++x) {
      for (int j = 0; j < kSub; ++j) {
        for (int i = 0; i < kSub; ++i) {
          rays.emplace_back(x - 0.5 + (i + 0.5) / kSub, y - 0.5 + (j + 0.5) / kSub);
        }
      }
    }
  }
  std::vector<cv::Point2d> norm;
  cv::undistortPoints(
      rays, norm, cam.camera_matrix, cam.distortion, cv::noArray(), cv::noArray(),
      cv::TermCriteria(cv::TermCriteria::COUNT | cv::TermCriteria::EPS, 100, 1e-12));
  cv::Matx33d rot;
  cv::Rodrigues(cam.rvec_cam_from_table, rot);
  const cv::Vec3d c = cam.CameraCenterTable();
  const double k = 1.0 / (semi_a * semi_a) - 1.0 / (semi_b * semi_b);
  const double ib2 = 1.0 / (semi_b * semi_b);
  const cv::Vec3d w = c - centre;
  cv::Mat alpha = cv::Mat::zeros(window.size(), CV_64F);
  size_t r = 0;
  for (int y = 0; y < window.height; ++y) {
    for (int x = 0; x < window.width; ++x) {
      int hits = 0;
      for (int s = 0; s < kSub * kSub; ++s, ++r) {
        const cv::Vec3d d = rot.t() * cv::Vec3d(norm[r].x, norm[r].y, 1.0);
        const double da = d.dot(axis), wa = w.dot(axis);
        const double qa = da * da * k + d.dot(d) * ib2;
        const double qb = 2.0 * (wa * da * k + w.dot(d) * ib2);
        const double qc = wa * wa * k + w.dot(w) * ib2 - 1.0;
        if (qb * qb - 4 * qa * qc >= 0) ++hits;
      }
      alpha.at<double>(y, x) = static_cast<double>(hits) / (kSub * kSub);
    }
  }
  return alpha;
}

TEST(SynthEdgePosition, PaintedTipMatchesAnIdealRayCastRender) {
  const Scenario sc = PlainScenario();
  int measured = 0;
  double worst = 0.0;
  for (int index = 0; index < 12 && measured < 5; ++index) {
    const Rendered r = RenderPlain(sc, 43, index);
    const SceneLayout& L = r.laid.layout;
    if (!L.resting_on.empty()) continue;
    const CameraModel& cam = L.camera;
    const QtipPose& pose = L.qtip;
    const Vec2 tip{pose.painted_end.x, pose.painted_end.y};
    const Vec2 plain{pose.plain_end.x, pose.plain_end.y};
    const double h = -pose.painted_end.z;
    const Vec2 axis = (1.0 / Distance(tip, plain)) * (tip - plain);
    const cv::Point2d tip_px = cam.ImageFromTable(tip, h);
    const cv::Rect window(cvRound(tip_px.x) - 8, cvRound(tip_px.y) - 8, 17, 17);
    if ((window & cv::Rect(0, 0, r.after.cols, r.after.rows)) != window) continue;
    cv::Point2d dir = cam.ImageFromTable(tip + MmToInches(1.0) * axis, h) - tip_px;
    dir *= 1.0 / cv::norm(dir);
    // Rendered coverage of the paint over the scene without the Q-tip.
    const cv::Mat rendered = Alpha(r.after, r.before, L.paint_bgr)(window).clone();
    const cv::Mat ideal = IdealTipAlpha(cam, pose, window);
    const cv::Point2d local = tip_px - cv::Point2d(window.x, window.y);
    const auto got = HalfCrossing(rendered, local, dir, -2.0, 3.0);
    const auto want = HalfCrossing(ideal, local, dir, -2.0, 3.0);
    ASSERT_TRUE(got && want) << "index " << index;
    std::printf("tip %d: rendered %+.3f px, ideal %+.3f px from the projected truth tip\n", index,
                *got, *want);
    // The truth tip is the geometric end of the head; a rounded end covers half a pixel a little
    // inside it, in the ideal render as in a real camera.
    EXPECT_LT(std::abs(*want), 0.6);
    worst = std::max(worst, std::abs(*got - *want));
    ++measured;
  }
  EXPECT_GE(measured, 3);
  // Measured: worst 0.03 px (cv::fillPoly and sparse rings: 0.49 px).
  EXPECT_LT(worst, 0.06) << "rendered tip vs ideal ray-cast tip (px)";
}

}  // namespace
}  // namespace referee
