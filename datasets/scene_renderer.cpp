#include "datasets/scene_renderer.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include <opencv2/calib3d.hpp>
#include <opencv2/imgproc.hpp>

#include "datasets/table_texture.hpp"

namespace referee {

namespace {

constexpr int kShift = 4;
constexpr double kOne = 1 << kShift;
constexpr int kMapStep = 8;  // exact inverse mapping every kMapStep supersampled pixels

// Output-pixel coordinate of the centre of supersampled pixel i (and back).
double OutFromSs(double i, int ss) { return (i + 0.5) / ss - 0.5; }
double SsFromOut(double u, int ss) { return (u + 0.5) * ss - 0.5; }

struct CameraGeometry {
  cv::Matx33d r;
  cv::Vec3d c;  // centre, table inches
};

CameraGeometry Geometry(const CameraModel& cam) {
  CameraGeometry g;
  cv::Rodrigues(cam.rvec_cam_from_table, g.r);
  g.c = cam.CameraCenterTable();
  return g;
}

}  // namespace

std::vector<Solid> StaticSolids(const SceneLayout& L, bool with_stands) {
  std::vector<Solid> out = L.terrain_solids;
  if (with_stands) {
    for (const auto& s : L.stands) {
      auto v = StandSolids(s);
      out.insert(out.end(), v.begin(), v.end());
    }
  }
  return out;
}

SceneRenderer::SceneRenderer(const SceneLayout& layout, int supersample)
    : layout_(layout), ss_(std::max(1, supersample)) {
  const CameraModel& cam = layout.camera;
  out_size_ = cam.image_size;
  ss_size_ = cv::Size(out_size_.width * ss_, out_size_.height * ss_);

  // 1. Exact inverse mapping (pixel -> table plane) on a coarse lattice of supersampled pixels.
  const int nx = (ss_size_.width - 1) / kMapStep + 2;
  const int ny = (ss_size_.height - 1) / kMapStep + 2;
  std::vector<cv::Point2d> px(static_cast<size_t>(nx) * ny), norm;
  for (int j = 0; j < ny; ++j) {
    for (int i = 0; i < nx; ++i) {
      px[static_cast<size_t>(j) * nx + i] = {OutFromSs(i * kMapStep, ss_),
                                             OutFromSs(j * kMapStep, ss_)};
    }
  }
  cv::undistortPoints(
      px, norm, cam.camera_matrix, cam.distortion, cv::noArray(), cv::noArray(),
      cv::TermCriteria(cv::TermCriteria::COUNT | cv::TermCriteria::EPS, 100, 1e-14));
  const CameraGeometry geo = Geometry(cam);
  const cv::Matx33d rt = geo.r.t();
  cv::Mat coarse(ny, nx, CV_64FC2);
  double min_in_per_ss = 1e9;
  double bx0 = 1e9, by0 = 1e9, bx1 = -1e9, by1 = -1e9;
  for (int j = 0; j < ny; ++j) {
    for (int i = 0; i < nx; ++i) {
      const cv::Point2d n = norm[static_cast<size_t>(j) * nx + i];
      const cv::Vec3d d = rt * cv::Vec3d(n.x, n.y, 1.0);
      cv::Vec2d p(1e6, 1e6);  // looking above the horizon: far away
      if (d[2] > 1e-6) {
        const double s = -geo.c[2] / d[2];
        p = {geo.c[0] + s * d[0], geo.c[1] + s * d[1]};
      }
      coarse.at<cv::Vec2d>(j, i) = p;
      bx0 = std::min(bx0, p[0]);
      by0 = std::min(by0, p[1]);
      bx1 = std::max(bx1, p[0]);
      by1 = std::max(by1, p[1]);
      if (i > 0) {
        const cv::Vec2d q = coarse.at<cv::Vec2d>(j, i - 1);
        min_in_per_ss = std::min(min_in_per_ss, cv::norm(p - q) / kMapStep);
      }
    }
  }
  // Check the inverse by projecting the lattice back (distortion included).
  {
    std::vector<cv::Point3d> obj;
    std::vector<cv::Point2d> back;
    for (int j = 0; j < ny; j += 7) {
      for (int i = 0; i < nx; i += 7) {
        const cv::Vec2d p = coarse.at<cv::Vec2d>(j, i);
        obj.emplace_back(p[0], p[1], 0.0);
      }
    }
    cv::projectPoints(obj, cam.rvec_cam_from_table, cam.tvec_cam_from_table, cam.camera_matrix,
                      cam.distortion, back);
    size_t k = 0;
    for (int j = 0; j < ny; j += 7) {
      for (int i = 0; i < nx; i += 7, ++k) {
        const cv::Point2d e = back[k] - px[static_cast<size_t>(j) * nx + i];
        max_map_error_px_ = std::max(max_map_error_px_, std::hypot(e.x, e.y));
      }
    }
  }

  // 2. Paint the visible part of the table plane at a bit above the finest sampling density.
  const Grid& g = layout.board.grid;
  const double lim = 80.0;
  bx0 = std::max(bx0, -lim) - 1;
  by0 = std::max(by0, -lim) - 1;
  bx1 = std::min(bx1, g.Width() + lim) + 1;
  by1 = std::min(by1, g.Height() + lim) + 1;
  double ppi = 1.25 / std::max(min_in_per_ss, 1e-4);
  const double max_px = 40e6;
  ppi = std::min(ppi, std::sqrt(max_px / ((bx1 - bx0) * (by1 - by0))));
  const TableTexture tex = PaintTable(layout, bx0, by0, bx1, by1, ppi);

  // 3. Per-pixel map: bilinear between lattice points (smooth, sub-0.01 px), then remap.
  cv::Mat map(ss_size_, CV_32FC2);
  cv::parallel_for_(cv::Range(0, ss_size_.height), [&](const cv::Range& rows) {
    for (int y = rows.start; y < rows.end; ++y) {
      const int j = y / kMapStep;
      const double fy = static_cast<double>(y % kMapStep) / kMapStep;
      auto* out = map.ptr<cv::Vec2f>(y);
      const auto* r0 = coarse.ptr<cv::Vec2d>(j);
      const auto* r1 = coarse.ptr<cv::Vec2d>(j + 1);
      for (int x = 0; x < ss_size_.width; ++x) {
        const int i = x / kMapStep;
        const double fx = static_cast<double>(x % kMapStep) / kMapStep;
        const cv::Vec2d p = (1 - fy) * ((1 - fx) * r0[i] + fx * r0[i + 1]) +
                            fy * ((1 - fx) * r1[i] + fx * r1[i + 1]);
        const cv::Point2d t = tex.PixelOf(p[0], p[1]);
        out[x] = cv::Vec2f(static_cast<float>(t.x), static_cast<float>(t.y));
      }
    }
  });
  cv::remap(tex.bgr, ground_ss_, map, cv::noArray(), cv::INTER_LINEAR, cv::BORDER_CONSTANT,
            layout.floor_bgr);

  // 4. Lighting gain at output size: a broad lamp gradient, vignetting and a colour cast.
  const PhotoParams& ph = layout.photo;
  gain_.create(out_size_, CV_32FC3);
  const double cx = cam.camera_matrix(0, 2), cy = cam.camera_matrix(1, 2);
  const double rmax =
      std::hypot(std::max(cx, out_size_.width - cx), std::max(cy, out_size_.height - cy));
  const double half_diag = 0.5 * std::hypot(out_size_.width, out_size_.height);
  for (int y = 0; y < out_size_.height; ++y) {
    auto* gp = gain_.ptr<cv::Vec3f>(y);
    for (int x = 0; x < out_size_.width; ++x) {
      const double ramp = ((x - 0.5 * out_size_.width) * ph.bright_dir.x +
                           (y - 0.5 * out_size_.height) * ph.bright_dir.y) /
                          half_diag;  // -1..1
      const double light = 1.0 - ph.unevenness * 0.5 * (1.0 - ramp);
      const double r2 = std::pow(std::hypot(x - cx, y - cy) / rmax, 2);
      const double vig = 1.0 - ph.vignetting * r2 * (0.6 + 0.4 * r2);
      const double gval = ph.exposure * light * vig;
      gp[x] = cv::Vec3f(static_cast<float>(gval * (1 - ph.warmth)), static_cast<float>(gval),
                        static_cast<float>(gval * (1 + ph.warmth)));
    }
  }
}

cv::Mat SceneRenderer::RenderClean(const std::vector<Solid>& solids) const {
  const CameraModel& cam = layout_.camera;
  const CameraGeometry geo = Geometry(cam);
  cv::Mat img = ground_ss_.clone();

  // Projects table points to fixed-point supersampled pixels; false if any is behind the lens.
  const auto project = [&](const std::vector<cv::Point3d>& pts, std::vector<cv::Point>& out) {
    for (const auto& p : pts) {
      const cv::Vec3d pc = geo.r * (cv::Vec3d(p.x, p.y, p.z) - geo.c);
      if (pc[2] < 1.0) return false;
    }
    std::vector<cv::Point2d> px;
    cv::projectPoints(pts, cam.rvec_cam_from_table, cam.tvec_cam_from_table, cam.camera_matrix,
                      cam.distortion, px);
    out.clear();
    for (const auto& q : px) {
      out.emplace_back(cvRound(SsFromOut(q.x, ss_) * kOne), cvRound(SsFromOut(q.y, ss_) * kOne));
    }
    return true;
  };

  // Shadows of every solid from the lamp, cast onto the table plane.
  cv::Mat shadow = cv::Mat::zeros(ss_size_, CV_8U);
  const cv::Vec3d lamp(layout_.lamp.x, layout_.lamp.y, layout_.lamp.z);
  bool any_shadow = false;
  for (const auto& s : solids) {
    if (!s.casts_shadow) continue;
    std::vector<cv::Point3d> on_table;
    for (const auto& p : s.points) {
      const cv::Vec3d v(p.x, p.y, p.z);
      if (v[2] >= -1e-9) {
        on_table.emplace_back(v[0], v[1], 0.0);
        continue;
      }
      const double t = -lamp[2] / (v[2] - lamp[2]);
      if (t <= 0) continue;
      const cv::Vec3d q = lamp + t * (v - lamp);
      on_table.emplace_back(q[0], q[1], 0.0);
    }
    std::vector<cv::Point> px, hull;
    if (on_table.size() < 3 || !project(on_table, px)) continue;
    cv::convexHull(px, hull);
    cv::fillConvexPoly(shadow, hull, cv::Scalar(255), cv::LINE_AA, kShift);
    any_shadow = true;
  }
  if (any_shadow) {
    const double sigma = 1.2 * ss_ * out_size_.width / 1920.0;  // soft penumbra
    cv::GaussianBlur(shadow, shadow, cv::Size(0, 0), std::max(1.0, sigma));
    const float k = static_cast<float>(layout_.shadow_strength / 255.0);
    cv::parallel_for_(cv::Range(0, img.rows), [&](const cv::Range& rows) {
      for (int y = rows.start; y < rows.end; ++y) {
        auto* p = img.ptr<cv::Vec3b>(y);
        const uchar* m = shadow.ptr<uchar>(y);
        for (int x = 0; x < img.cols; ++x) {
          if (!m[x]) continue;
          const float f = 1.0f - k * m[x];
          for (int c = 0; c < 3; ++c) p[x][c] = cv::saturate_cast<uchar>(p[x][c] * f);
        }
      }
    });
  }

  // Painter's algorithm: far solids first (distance from the lens to the solid's centroid).
  std::vector<double> depth(solids.size());
  for (size_t i = 0; i < solids.size(); ++i) {
    cv::Vec3d c(0, 0, 0);
    for (const auto& p : solids[i].points) c += cv::Vec3d(p.x, p.y, p.z);
    c *= 1.0 / std::max<size_t>(1, solids[i].points.size());
    depth[i] = cv::norm(c - geo.c) + solids[i].sort_bias_in;
  }
  std::vector<size_t> order(solids.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return depth[a] > depth[b]; });
  std::vector<cv::Point> px, hull;
  for (const size_t i : order) {
    const Solid& s = solids[i];
    if (s.points.size() >= 3 && project(s.points, px)) {
      cv::convexHull(px, hull);
      cv::fillConvexPoly(img, hull, s.side_bgr, cv::LINE_8, kShift);
    }
    // Faces far-to-near so the visible roof plane ends on top.
    std::vector<std::pair<double, size_t>> faces;
    for (size_t f = 0; f < s.faces.size(); ++f) {
      cv::Vec3d c(0, 0, 0);
      for (const auto& p : s.faces[f].polygon) c += cv::Vec3d(p.x, p.y, p.z);
      c *= 1.0 / std::max<size_t>(1, s.faces[f].polygon.size());
      faces.emplace_back(-cv::norm(c - geo.c) - 1e-6 * f, f);  // later faces win ties
    }
    std::stable_sort(faces.begin(), faces.end());
    for (const auto& [d, f] : faces) {
      if (!project(s.faces[f].polygon, px)) continue;
      const std::vector<std::vector<cv::Point>> polys{px};
      cv::fillPoly(img, polys, s.faces[f].bgr, cv::LINE_8, kShift);
    }
  }
  cv::Mat out;
  cv::resize(img, out, out_size_, 0, 0, cv::INTER_AREA);
  return out;
}

cv::Mat SceneRenderer::ApplyPhoto(const cv::Mat& clean, SynthRandom& rng) const {
  const PhotoParams& ph = layout_.photo;
  cv::Mat f;
  clean.convertTo(f, CV_32FC3);
  // Lens first (defocus, camera shake), then the light falling on the sensor, then its noise.
  if (ph.defocus_sigma_px > 0.25) cv::GaussianBlur(f, f, cv::Size(0, 0), ph.defocus_sigma_px);
  if (ph.motion_px > 1.0) {
    const int n = static_cast<int>(std::ceil(ph.motion_px)) | 1;
    cv::Mat k = cv::Mat::zeros(n, n, CV_32F);
    const double a = DegToRad(ph.motion_angle_deg);
    const double c = (n - 1) / 2.0;
    for (int i = 0; i < 4 * n; ++i) {
      const double t = (i / (4.0 * n - 1) - 0.5) * ph.motion_px;
      const int r = std::clamp(cvRound(c + t * std::sin(a)), 0, n - 1);
      const int q = std::clamp(cvRound(c + t * std::cos(a)), 0, n - 1);
      k.at<float>(r, q) += 1.0f;
    }
    k /= cv::sum(k)[0];
    cv::filter2D(f, f, -1, k, cv::Point(-1, -1), 0, cv::BORDER_REFLECT);
  }
  cv::multiply(f, gain_, f);
  if (ph.noise_sigma > 0) {
    cv::Mat noise(f.size(), CV_32FC3);
    cv::RNG cvrng(rng.Bits());
    cvrng.fill(noise, cv::RNG::NORMAL, 0.0, 1.0);
    // Shot noise grows with the signal: sigma * sqrt(level / 128).
    cv::parallel_for_(cv::Range(0, f.rows), [&](const cv::Range& rows) {
      for (int y = rows.start; y < rows.end; ++y) {
        auto* p = f.ptr<float>(y);
        const float* nz = noise.ptr<float>(y);
        for (int x = 0; x < f.cols * 3; ++x) {
          p[x] +=
              static_cast<float>(ph.noise_sigma) * std::sqrt(std::max(p[x], 4.0f) / 128.0f) * nz[x];
        }
      }
    });
  }
  cv::Mat out;
  f.convertTo(out, CV_8UC3);
  return out;
}

}  // namespace referee
