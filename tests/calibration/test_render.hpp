// A small, independent renderer for calibration tests: a gridded mat (dark lines of a given
// width) with clutter around it and flat occluders on it, seen through a CameraModel with lens
// distortion, uneven light and noise. Truth is the camera itself.
#pragma once

#include <cmath>
#include <opencv2/calib3d.hpp>
#include <opencv2/imgproc.hpp>
#include <random>
#include <vector>

#include "calibration/camera_model.hpp"
#include "engine/grid.hpp"

namespace referee::test {

struct RenderSpec {
  Grid board;
  double line_mm = 2.0;
  int occluders = 0;             // dark/coloured blobs lying on the board
  double occluder_in = 1.6;      // occluder length, inches
  bool markers = false;          // not drawn here (see the marker test)
  double light_gradient = 0.35;  // brightness falls by this fraction across the image
  double noise_sigma = 2.0;
  uint32_t seed = 1;
};

inline CameraModel TestCamera(cv::Size size, double tilt_deg, double k1, double yaw_deg = 4.0,
                              double height_in = 52.0, const Grid& board = {}) {
  CameraModel cam;
  cam.image_size = size;
  const double f = 0.78 * size.width;
  cam.camera_matrix = cv::Matx33d(f, 0, size.width / 2.0 + 7, 0, f, size.height / 2.0 - 5, 0, 0, 1);
  cam.distortion = cv::Vec<double, 5>(k1, 0.3 * k1 * k1, 0, 0, 0);
  // Camera looks along +z of the table (down), tilted about the table x axis.
  const double t = tilt_deg * CV_PI / 180, y = yaw_deg * CV_PI / 180;
  const cv::Matx33d rz(std::cos(y), -std::sin(y), 0, std::sin(y), std::cos(y), 0, 0, 0, 1);
  const cv::Matx33d rx(1, 0, 0, 0, std::cos(t), -std::sin(t), 0, std::sin(t), std::cos(t));
  const cv::Matx33d r = rx * rz;  // cam_from_table rotation
  // Place the camera so that its optical axis meets the board centre, height_in above it.
  const cv::Vec3d axis = r.t() * cv::Vec3d(0, 0, 1);
  const cv::Vec3d centre_table =
      cv::Vec3d(board.Width() / 2, board.Height() / 2, 0) - (height_in / axis[2]) * axis;
  const cv::Vec3d tvec = -(r * centre_table);
  cv::Vec3d rvec;
  cv::Rodrigues(r, rvec);
  cam.rvec_cam_from_table = rvec;
  cam.tvec_cam_from_table = tvec;
  return cam;
}

// Renders the scene as the camera would see it (BGR 8-bit).
inline cv::Mat RenderGrid(const CameraModel& cam, const RenderSpec& spec) {
  std::mt19937 rng(spec.seed);
  const Grid& b = spec.board;
  const double ppi = 40.0, margin_in = 30.0;  // texture resolution and room around the mat
  const cv::Size tex_size(static_cast<int>((b.Width() + 2 * margin_in) * ppi),
                          static_cast<int>((b.Height() + 2 * margin_in) * ppi));
  cv::Mat tex(tex_size, CV_8UC3, cv::Scalar(70, 60, 55));  // floor / room
  auto to_tex = [&](double x, double y) {
    return cv::Point2d((x + margin_in) * ppi, (y + margin_in) * ppi);
  };
  std::uniform_real_distribution<double> u(0, 1);
  // Clutter around the table: boxes and straight edges at random angles.
  for (int k = 0; k < 60; ++k) {
    const cv::Point2d c = to_tex(-margin_in + u(rng) * (b.Width() + 2 * margin_in),
                                 -margin_in + u(rng) * (b.Height() + 2 * margin_in));
    const cv::Size2f sz(static_cast<float>(40 + 400 * u(rng)),
                        static_cast<float>(20 + 300 * u(rng)));
    cv::RotatedRect rr(c, sz, static_cast<float>(360 * u(rng)));
    cv::Point2f pts[4];
    rr.points(pts);
    std::vector<cv::Point> poly(pts, pts + 4);
    const int g = static_cast<int>(255 * u(rng));
    cv::fillConvexPoly(tex, poly, cv::Scalar(g, 255 - g, static_cast<int>(128 * u(rng))));
  }
  // The table top (brown) and the mat (green), 6" of table and 2" of mat around the grid.
  cv::rectangle(tex, to_tex(-8, -8), to_tex(b.Width() + 8, b.Height() + 8), cv::Scalar(40, 70, 110),
                -1);
  cv::rectangle(tex, to_tex(-2, -2), to_tex(b.Width() + 2, b.Height() + 2), cv::Scalar(80, 150, 95),
                -1);
  const int shift = 4;
  const double lw = spec.line_mm / 25.4 * ppi;
  auto fx = [&](cv::Point2d p) {
    return cv::Point(static_cast<int>(std::lround(p.x * (1 << shift))),
                     static_cast<int>(std::lround(p.y * (1 << shift))));
  };
  // Lines drawn as filled polygons for exact width.
  auto bar = [&](cv::Point2d a, cv::Point2d z, double w) {
    const cv::Point2d d = (z - a) * (1.0 / cv::norm(z - a));
    const cv::Point2d n(-d.y * w / 2, d.x * w / 2);
    const cv::Point2d e = d * (w / 2);
    std::vector<cv::Point> poly{fx(a - e + n), fx(z + e + n), fx(z + e - n), fx(a - e - n)};
    cv::fillConvexPoly(tex, poly, cv::Scalar(35, 40, 35), cv::LINE_AA, shift);
  };
  for (int c = 0; c <= b.cols; ++c) {
    bar(to_tex(c * b.square_size_in, 0), to_tex(c * b.square_size_in, b.Height()), lw);
  }
  for (int r = 0; r <= b.rows; ++r) {
    bar(to_tex(0, r * b.square_size_in), to_tex(b.Width(), r * b.square_size_in), lw);
  }
  // Occluders on the board: stand-like rectangles and blobs.
  for (int k = 0; k < spec.occluders; ++k) {
    const cv::Point2d c = to_tex(u(rng) * b.Width(), u(rng) * b.Height());
    const cv::Size2f sz(static_cast<float>(spec.occluder_in * ppi * (0.8 + u(rng))),
                        static_cast<float>(0.75 * spec.occluder_in * ppi * (0.8 + u(rng))));
    cv::RotatedRect rr(c, sz, static_cast<float>(180 * u(rng)));
    cv::Point2f pts[4];
    rr.points(pts);
    std::vector<cv::Point> poly(pts, pts + 4);
    const bool red = u(rng) < 0.5;
    cv::fillConvexPoly(tex, poly, red ? cv::Scalar(42, 48, 192) : cv::Scalar(192, 75, 42));
    cv::circle(tex, c, static_cast<int>(0.4 * ppi), cv::Scalar(20 + 60 * u(rng), 30, 30), -1);
  }
  // Camera pixels -> table points -> texture coordinates.
  const cv::Size size = cam.image_size;
  std::vector<cv::Point2d> pix;
  pix.reserve(static_cast<size_t>(size.area()));
  for (int v = 0; v < size.height; ++v) {
    for (int x = 0; x < size.width; ++x) pix.emplace_back(x, v);
  }
  std::vector<cv::Point2d> norm;
  cv::undistortPoints(pix, norm, cam.camera_matrix, cam.distortion, cv::noArray(), cv::noArray(),
                      cv::TermCriteria(cv::TermCriteria::COUNT | cv::TermCriteria::EPS, 50, 1e-10));
  cv::Matx33d r;
  cv::Rodrigues(cam.rvec_cam_from_table, r);
  const cv::Matx33d rt = r.t();
  const cv::Vec3d c = cam.CameraCenterTable();
  cv::Mat map(size, CV_32FC2);
  for (int v = 0; v < size.height; ++v) {
    auto* row = map.ptr<cv::Vec2f>(v);
    for (int x = 0; x < size.width; ++x) {
      const cv::Point2d& nm = norm[static_cast<size_t>(v) * size.width + x];
      const cv::Vec3d d = rt * cv::Vec3d(nm.x, nm.y, 1.0);
      const double s = -c[2] / d[2];
      const cv::Point2d t = to_tex(c[0] + s * d[0], c[1] + s * d[1]);
      row[x] = cv::Vec2f(static_cast<float>(t.x), static_cast<float>(t.y));
    }
  }
  // Pre-blur the texture roughly to the camera's footprint to avoid aliasing.
  cv::Mat tex_blur;
  cv::GaussianBlur(tex, tex_blur, {0, 0}, 0.6);
  cv::Mat img;
  cv::remap(tex_blur, img, map, cv::noArray(), cv::INTER_LINEAR, cv::BORDER_CONSTANT,
            cv::Scalar(60, 60, 60));
  // Uneven light and sensor noise.
  cv::Mat f;
  img.convertTo(f, CV_32FC3);
  for (int v = 0; v < size.height; ++v) {
    auto* row = f.ptr<cv::Vec3f>(v);
    for (int x = 0; x < size.width; ++x) {
      const double g = 1.0 - spec.light_gradient * (0.6 * x / size.width + 0.4 * v / size.height);
      row[x] *= static_cast<float>(g);
    }
  }
  cv::Mat noise(size, CV_32FC3);
  cv::randn(noise, 0, spec.noise_sigma);
  f += noise;
  cv::GaussianBlur(f, f, {0, 0}, 0.5);
  f.convertTo(img, CV_8UC3);
  return img;
}

}  // namespace referee::test
