#include "datasets/scene_renderer.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include <opencv2/calib3d.hpp>
#include <opencv2/imgproc.hpp>

#include "datasets/polygon_coverage.hpp"
#include "datasets/solid_shadows.hpp"
#include "datasets/table_texture.hpp"

namespace referee {

namespace {

constexpr int kMapStep = 8;  // exact inverse mapping every kMapStep output pixels

cv::Vec3d FaceCentroid(const Solid::Face& face) {
  cv::Vec3d c(0, 0, 0);
  for (const auto& p : face.polygon) c += cv::Vec3d(p.x, p.y, p.z);
  return c * (1.0 / static_cast<double>(std::max<size_t>(1, face.polygon.size())));
}

// Supersampled pixel coordinate (pixel centres at integers) of an output pixel coordinate.
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

// One solid's pixels before they go onto the layer: its coverage (the union of its parts, exact
// area per pixel) and the colour of what shows there. Parts are combined inside the solid first so
// a face that shares the silhouette's edge (a base's top over its walls, the paint over the tip of
// the head) replaces the colour under it instead of adding coverage: stacking partial coverages
// there would push every such edge outward by a fraction of a pixel.
class SolidPatch {
 public:
  void Add(PolygonCoverage part, const cv::Scalar& bgr) {
    if (part.roi.empty()) return;
    roi_ = roi_.empty() ? part.roi : (roi_ | part.roi);
    parts_.push_back({std::move(part), bgr});
  }

  // A region of the solid's visible faces the lamp does not reach: whatever colour shows there
  // is darkened by `strength`. Overlapping shadows darken once, as one lamp's do. No penumbra:
  // the region is clipped to the face, and blurring it would fade the shadow at the face's own
  // edge (a shadowed border would lighten toward the base's edge).
  void AddShade(PolygonCoverage region, float strength) {
    if (region.roi.empty()) return;
    shade_strength_ = strength;
    shades_.push_back(std::move(region));
  }

  // layer (CV_8UC3, premultiplied by coverage) and cover (CV_8U) "over" this solid.
  void CompositeOver(cv::Mat& layer, cv::Mat& cover) const {
    if (roi_.empty()) return;
    cv::Mat alpha = cv::Mat::zeros(roi_.size(), CV_32F);
    cv::Mat colour = cv::Mat::zeros(roi_.size(), CV_32FC3);
    for (const auto& [part, bgr] : parts_) {
      const cv::Vec3f c(static_cast<float>(bgr[0]), static_cast<float>(bgr[1]),
                        static_cast<float>(bgr[2]));
      const cv::Point o = part.roi.tl() - roi_.tl();
      for (int y = 0; y < part.roi.height; ++y) {
        const float* a = part.alpha.ptr<float>(y);
        float* al = alpha.ptr<float>(y + o.y) + o.x;
        auto* co = colour.ptr<cv::Vec3f>(y + o.y) + o.x;
        for (int x = 0; x < part.roi.width; ++x) {
          if (a[x] <= 0.0f) continue;
          const float covered = std::max(al[x], a[x]);
          const float share = std::min(1.0f, a[x] / covered);  // of the solid's covered area
          co[x] += share * (c - co[x]);
          al[x] = covered;
        }
      }
    }
    Darken(alpha, colour);
    for (int y = 0; y < roi_.height; ++y) {
      const float* al = alpha.ptr<float>(y);
      const auto* co = colour.ptr<cv::Vec3f>(y);
      auto* l = layer.ptr<cv::Vec3b>(y + roi_.y) + roi_.x;
      uchar* cov = cover.ptr<uchar>(y + roi_.y) + roi_.x;
      for (int x = 0; x < roi_.width; ++x) {
        const float a = al[x];
        if (a <= 0.0f) continue;
        for (int k = 0; k < 3; ++k) {
          l[x][k] = cv::saturate_cast<uchar>(static_cast<float>(l[x][k]) * (1 - a) + co[x][k] * a);
        }
        cov[x] = cv::saturate_cast<uchar>(static_cast<float>(cov[x]) * (1 - a) + 255.0f * a);
      }
    }
  }

 private:
  void Darken(const cv::Mat& alpha, cv::Mat& colour) const {
    if (shades_.empty()) return;
    cv::Mat shade = cv::Mat::zeros(roi_.size(), CV_32F);
    for (const auto& s : shades_) {
      const cv::Rect r = s.roi & roi_;
      if (r.empty()) continue;
      cv::Mat dst = shade(r - roi_.tl());
      cv::max(dst, s.alpha(r - s.roi.tl()), dst);
    }
    for (int y = 0; y < roi_.height; ++y) {
      const float* sh = shade.ptr<float>(y);
      const float* al = alpha.ptr<float>(y);
      auto* co = colour.ptr<cv::Vec3f>(y);
      for (int x = 0; x < roi_.width; ++x) {
        if (sh[x] <= 0.0f || al[x] <= 0.0f) continue;
        co[x] *= 1.0f - shade_strength_ * std::min(1.0f, sh[x] / al[x]);
      }
    }
  }

  cv::Rect roi_;
  std::vector<std::pair<PolygonCoverage, cv::Scalar>> parts_;
  std::vector<PolygonCoverage> shades_;
  float shade_strength_ = 0.0f;
};

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

  // 1. Exact inverse mapping (pixel -> table plane) on a lattice every kMapStep output pixels.
  const int nx = (out_size_.width - 1) / kMapStep + 2;
  const int ny = (out_size_.height - 1) / kMapStep + 2;
  const CameraGeometry geo = Geometry(cam);
  const cv::Matx33d rt = geo.r.t();
  const auto table_of = [&](const std::vector<cv::Point2d>& pixels) {
    std::vector<cv::Point2d> norm;
    cv::undistortPoints(pixels, norm, cam.camera_matrix, cam.distortion, cv::noArray(),
                        cv::noArray(), cv::TermCriteria(cv::TermCriteria::COUNT, 40, 0));
    std::vector<cv::Vec2d> out(pixels.size());
    for (size_t k = 0; k < pixels.size(); ++k) {
      const cv::Vec3d d = rt * cv::Vec3d(norm[k].x, norm[k].y, 1.0);
      out[k] = {1e6, 1e6};  // looking above the horizon: far away
      if (d[2] > 1e-6) {
        const double s = -geo.c[2] / d[2];
        out[k] = {geo.c[0] + s * d[0], geo.c[1] + s * d[1]};
      }
    }
    return out;
  };
  std::vector<cv::Point2d> px(static_cast<size_t>(nx) * ny);
  for (int j = 0; j < ny; ++j) {
    for (int i = 0; i < nx; ++i)
      px[static_cast<size_t>(j) * nx + i] = {1.0 * i * kMapStep, 1.0 * j * kMapStep};
  }
  const std::vector<cv::Vec2d> lattice = table_of(px);
  cv::Mat coarse(ny, nx, CV_64FC2);
  double min_in_per_px = 1e9;
  double bx0 = 1e9, by0 = 1e9, bx1 = -1e9, by1 = -1e9;
  for (int j = 0; j < ny; ++j) {
    for (int i = 0; i < nx; ++i) {
      const cv::Vec2d& p = lattice[static_cast<size_t>(j) * nx + i];
      coarse.at<cv::Vec2d>(j, i) = p;
      bx0 = std::min(bx0, p[0]);
      by0 = std::min(by0, p[1]);
      bx1 = std::max(bx1, p[0]);
      by1 = std::max(by1, p[1]);
      if (i > 0 && j > 0) {
        const double dx = cv::norm(p - coarse.at<cv::Vec2d>(j, i - 1));
        const double dy = cv::norm(p - coarse.at<cv::Vec2d>(j - 1, i));
        min_in_per_px = std::min({min_in_per_px, dx / kMapStep, dy / kMapStep});
      }
    }
  }
  // Check the interpolated mapping where it is worst, half-way between lattice points, by
  // projecting its table point forward through the camera (distortion included).
  {
    std::vector<cv::Point2d> mid;
    std::vector<cv::Point3d> obj;
    for (int j = 0; j + 1 < ny; j += 5) {
      for (int i = 0; i + 1 < nx; i += 5) {
        const cv::Vec2d p =
            0.25 * (coarse.at<cv::Vec2d>(j, i) + coarse.at<cv::Vec2d>(j, i + 1) +
                    coarse.at<cv::Vec2d>(j + 1, i) + coarse.at<cv::Vec2d>(j + 1, i + 1));
        if (std::abs(p[0]) > 1e5) continue;
        mid.emplace_back((i + 0.5) * kMapStep, (j + 0.5) * kMapStep);
        obj.emplace_back(p[0], p[1], 0.0);
      }
    }
    std::vector<cv::Point2d> back;
    if (!obj.empty()) {
      cv::projectPoints(obj, cam.rvec_cam_from_table, cam.tvec_cam_from_table, cam.camera_matrix,
                        cam.distortion, back);
    }
    for (size_t k = 0; k < back.size(); ++k) {
      max_map_error_px_ = std::max(max_map_error_px_, cv::norm(back[k] - mid[k]));
    }
  }

  // 2. Paint the visible table plane: the floor and table at a quarter of the density (they only
  // need to look like a room), the mat and everything on it at 1.25x the finest density the
  // camera samples it at, so bilinear sampling integrates each pixel without aliasing.
  const Grid& g = layout.board.grid;
  const double lim = 80.0;
  bx0 = std::max(bx0, -lim) - 1;
  by0 = std::max(by0, -lim) - 1;
  bx1 = std::min(bx1, g.Width() + lim) + 1;
  by1 = std::min(by1, g.Height() + lim) + 1;
  double ppi = 1.25 / std::max(min_in_per_px, 1e-4);
  const double m = layout.mat_margin_in;
  const double mx0 = std::max(bx0, -m), my0 = std::max(by0, -m);
  const double mx1 = std::min(bx1, g.Width() + m), my1 = std::min(by1, g.Height() + m);
  const double max_px = 30e6;
  ppi = std::min(ppi, std::sqrt(max_px / std::max(1.0, (mx1 - mx0) * (my1 - my0))));
  const double low_ppi = std::min(0.25 * ppi, std::sqrt(max_px / ((bx1 - bx0) * (by1 - by0))));
  const TableTexture room = PaintTable(layout, bx0, by0, bx1, by1, low_ppi, true);
  const bool mat_visible = mx1 > mx0 && my1 > my0;
  const TableTexture mat = mat_visible ? PaintTable(layout, mx0, my0, mx1, my1, ppi, false) : room;

  // 3. Per-pixel maps: bilinear between lattice points, then remap.
  cv::Mat map_room(out_size_, CV_32FC2), map_mat(out_size_, CV_32FC2);
  cv::parallel_for_(cv::Range(0, out_size_.height), [&](const cv::Range& rows) {
    for (int y = rows.start; y < rows.end; ++y) {
      const int j = y / kMapStep;
      const double fy = static_cast<double>(y % kMapStep) / kMapStep;
      auto* out_room = map_room.ptr<cv::Vec2f>(y);
      auto* out_mat = map_mat.ptr<cv::Vec2f>(y);
      const auto* r0 = coarse.ptr<cv::Vec2d>(j);
      const auto* r1 = coarse.ptr<cv::Vec2d>(j + 1);
      for (int x = 0; x < out_size_.width; ++x) {
        const int i = x / kMapStep;
        const double fx = static_cast<double>(x % kMapStep) / kMapStep;
        const cv::Vec2d p = (1 - fy) * ((1 - fx) * r0[i] + fx * r0[i + 1]) +
                            fy * ((1 - fx) * r1[i] + fx * r1[i + 1]);
        const cv::Point2d a = room.PixelOf(p[0], p[1]);
        const cv::Point2d b = mat.PixelOf(p[0], p[1]);
        out_room[x] = cv::Vec2f(static_cast<float>(a.x), static_cast<float>(a.y));
        out_mat[x] = cv::Vec2f(static_cast<float>(b.x), static_cast<float>(b.y));
      }
    }
  });
  cv::remap(room.bgr, ground_, map_room, cv::noArray(), cv::INTER_LINEAR, cv::BORDER_CONSTANT,
            layout.floor_bgr);
  if (mat_visible) {
    cv::remap(mat.bgr, ground_, map_mat, cv::noArray(), cv::INTER_LINEAR, cv::BORDER_TRANSPARENT);
  }

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
  cv::Mat img = ground_.clone();

  // Projects table points to fixed-point pixels at `scale` x the output size; false if any
  // point is behind the lens.
  const auto project = [&](const std::vector<cv::Point3d>& pts, int scale,
                           std::vector<cv::Point2d>& out) {
    for (const auto& p : pts) {
      const cv::Vec3d pc = geo.r * (cv::Vec3d(p.x, p.y, p.z) - geo.c);
      if (pc[2] < 1.0) return false;
    }
    cv::projectPoints(pts, cam.rvec_cam_from_table, cam.tvec_cam_from_table, cam.camera_matrix,
                      cam.distortion, out);
    for (auto& q : out) q = {SsFromOut(q.x, scale), SsFromOut(q.y, scale)};
    return true;
  };

  // Shadows of every solid from the lamp, cast onto the table plane (soft, so 1x suffices).
  // `contact` collects where solids stand on the mat: no shadow shows there (the solid covers
  // it), and a pixel half-covered by a base's edge is half lit mat, not half shadow.
  cv::Mat shadow = cv::Mat::zeros(out_size_, CV_8U);
  cv::Mat contact = cv::Mat::zeros(out_size_, CV_8U);
  const cv::Vec3d lamp(layout_.lamp.x, layout_.lamp.y, layout_.lamp.z);
  bool any_shadow = false;
  std::vector<cv::Point2d> px;
  for (const auto& s : solids) {
    if (!s.casts_shadow) continue;
    std::vector<cv::Point3d> on_table, standing;
    for (const auto& p : s.points) {
      const cv::Vec3d v(p.x, p.y, p.z);
      if (v[2] >= -1e-9) {
        on_table.emplace_back(v[0], v[1], 0.0);
        standing.emplace_back(v[0], v[1], 0.0);
        continue;
      }
      const double t = -lamp[2] / (v[2] - lamp[2]);
      if (t <= 0) continue;
      const cv::Vec3d q = lamp + t * (v - lamp);
      on_table.emplace_back(q[0], q[1], 0.0);
    }
    if (on_table.size() < 3 || !project(on_table, 1, px)) continue;
    BlendCoverage(shadow, CoverPolygon(ConvexHull(px), shadow.size()), cv::Scalar(255));
    any_shadow = true;
    if (standing.size() >= 3 && project(standing, 1, px)) {
      BlendCoverage(contact, CoverPolygon(ConvexHull(px), contact.size()), cv::Scalar(255));
    }
  }
  if (any_shadow) {
    // Penumbra of a room lamp, but only inside the geometric shadow: a shadow starts sharp where
    // a solid touches the mat, so blurring it outward would draw a dark halo around every base
    // on its lit side too (and move the base's apparent edge outward by ~0.15 px).
    const double sigma = 1.2 * out_size_.width / 1920.0;
    cv::Mat sharp = shadow - contact;  // saturating
    cv::GaussianBlur(shadow, shadow, cv::Size(0, 0), std::max(0.8, sigma));
    shadow = cv::min(shadow, sharp);
    const float k = static_cast<float>(layout_.shadow_strength / 255.0);
    cv::parallel_for_(cv::Range(0, img.rows), [&](const cv::Range& rows) {
      for (int y = rows.start; y < rows.end; ++y) {
        auto* p = img.ptr<cv::Vec3b>(y);
        const uchar* m = shadow.ptr<uchar>(y);
        for (int x = 0; x < img.cols; ++x) {
          if (!m[x]) continue;
          const float f = 1.0f - k * static_cast<float>(m[x]);
          for (int c = 0; c < 3; ++c) {
            p[x][c] = cv::saturate_cast<uchar>(static_cast<float>(p[x][c]) * f);
          }
        }
      }
    });
  }

  // Solids on a supersampled layer with its coverage, far solids first (painter's algorithm by
  // distance from the lens to the solid's centroid); the box-filtered layer is then composited.
  if (solids.empty()) return img;
  cv::Mat layer = cv::Mat::zeros(ss_size_, CV_8UC3);
  cv::Mat cover = cv::Mat::zeros(ss_size_, CV_8U);
  std::vector<double> depth(solids.size());
  for (size_t i = 0; i < solids.size(); ++i) {
    cv::Vec3d c(0, 0, 0);
    for (const auto& p : solids[i].points) c += cv::Vec3d(p.x, p.y, p.z);
    c *= 1.0 / static_cast<double>(std::max<size_t>(1, solids[i].points.size()));
    depth[i] = cv::norm(c - geo.c) + solids[i].sort_bias_in;
  }
  std::vector<size_t> order(solids.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return depth[a] > depth[b]; });
  const std::vector<std::vector<ShadowPolygon>> on_solids =
      layout_.shadows_on_solids ? ShadowsOnSolids(solids, layout_.lamp, geo.c)
                                : std::vector<std::vector<ShadowPolygon>>{};
  for (const size_t i : order) {
    const Solid& s = solids[i];
    SolidPatch patch;
    if (s.points.size() >= 3 && project(s.points, ss_, px)) {
      patch.Add(CoverPolygon(ConvexHull(px), ss_size_), s.side_bgr);
      for (const auto& o : s.overlays) {
        if (o.points.size() < 3 || !project(o.points, ss_, px)) continue;
        patch.Add(CoverPolygon(ConvexHull(px), ss_size_), o.bgr);
      }
    }
    // Faces far-to-near so the visible roof plane ends on top. Faces in one plane (a base's
    // border, stripe and interior) are layers, not depths: they keep their listed order.
    std::vector<std::pair<double, size_t>> faces;
    for (size_t f = 0; f < s.faces.size(); ++f) {
      const size_t g = FirstCoplanarFace(s.faces, f);
      faces.emplace_back(-cv::norm(FaceCentroid(s.faces[g]) - geo.c), f);
    }
    std::stable_sort(faces.begin(), faces.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [d, f] : faces) {
      if (!project(s.faces[f].polygon, ss_, px)) continue;
      patch.Add(CoverPolygon(px, ss_size_), s.faces[f].bgr);
    }
    if (!on_solids.empty()) {
      for (const ShadowPolygon& poly : on_solids[i]) {
        if (!project(poly, ss_, px)) continue;
        patch.AddShade(CoverPolygon(px, ss_size_), static_cast<float>(layout_.shadow_strength));
      }
    }
    patch.CompositeOver(layer, cover);
  }
  cv::Mat layer_small, cover_small;
  cv::resize(layer, layer_small, out_size_, 0, 0, cv::INTER_AREA);  // premultiplied by coverage
  cv::resize(cover, cover_small, out_size_, 0, 0, cv::INTER_AREA);
  cv::parallel_for_(cv::Range(0, img.rows), [&](const cv::Range& rows) {
    for (int y = rows.start; y < rows.end; ++y) {
      auto* p = img.ptr<cv::Vec3b>(y);
      const auto* l = layer_small.ptr<cv::Vec3b>(y);
      const uchar* a = cover_small.ptr<uchar>(y);
      for (int x = 0; x < img.cols; ++x) {
        if (!a[x]) continue;
        const float keep = 1.0f - static_cast<float>(a[x]) / 255.0f;
        for (int c = 0; c < 3; ++c) {
          p[x][c] = cv::saturate_cast<uchar>(static_cast<float>(p[x][c]) * keep +
                                             static_cast<float>(l[x][c]));
        }
      }
    }
  });
  return img;
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
