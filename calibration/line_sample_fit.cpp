#include "calibration/line_sample_fit.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <opencv2/calib3d.hpp>

namespace referee {

namespace {

// Parameter vector: rvec(3) tvec(3) fx fy cx cy k1 k2 p1 p2. projectPoints' Jacobian has the
// same column order (plus k3, which stays zero).
constexpr int kParams = 14;
// Prior rows: principal point x y, tangential p1 p2, aspect, focal length.
constexpr int kPriors = 6;
using Params = std::array<double, kParams>;

Params FromCamera(const CameraModel& c) {
  return {c.rvec_cam_from_table[0], c.rvec_cam_from_table[1], c.rvec_cam_from_table[2],
          c.tvec_cam_from_table[0], c.tvec_cam_from_table[1], c.tvec_cam_from_table[2],
          c.camera_matrix(0, 0),    c.camera_matrix(1, 1),    c.camera_matrix(0, 2),
          c.camera_matrix(1, 2),    c.distortion[0],          c.distortion[1],
          c.distortion[2],          c.distortion[3]};
}

CameraModel ToCamera(const Params& p, const CameraModel& like) {
  CameraModel c = like;
  c.rvec_cam_from_table = {p[0], p[1], p[2]};
  c.tvec_cam_from_table = {p[3], p[4], p[5]};
  c.camera_matrix = cv::Matx33d(p[6], 0, p[8], 0, p[7], p[9], 0, 0, 1);
  c.distortion = {p[10], p[11], p[12], p[13], like.distortion[4]};
  return c;
}

struct Problem {
  Problem(const std::vector<cv::Point2d>& t, const std::vector<cv::Point2d>& p,
          const std::vector<LineSample>& s, bool fix)
      : table_in(t), px(p), samples(s), use_sample(s.size(), true), fix_intrinsics(fix) {}
  const std::vector<cv::Point2d>& table_in;
  const std::vector<cv::Point2d>& px;
  const std::vector<LineSample>& samples;
  std::vector<bool> use_sample;
  bool fix_intrinsics = false;
  cv::Point2d centre;
  double pp_weight = 0, tangential_weight = 0, aspect_weight = 0, focal_weight = 0;
  double focal_prior_px = 1;

  int Free() const { return fix_intrinsics ? 6 : kParams; }

  // Residuals (px) and, when jac is given, their Jacobian (rows x Free()).
  std::vector<double> Evaluate(const Params& p, const CameraModel& like, cv::Mat* jac) const {
    const CameraModel cam = ToCamera(p, like);
    // Where along its line each sample lies: back-project it onto the table.
    std::vector<cv::Point2d> spx, norm;
    for (size_t i = 0; i < samples.size(); ++i) {
      if (use_sample[i]) spx.push_back(samples[i].px);
    }
    if (!spx.empty()) cv::undistortPoints(spx, norm, cam.camera_matrix, cam.distortion);
    cv::Matx33d r;
    cv::Rodrigues(cam.rvec_cam_from_table, r);
    const cv::Matx33d rt = r.t();
    const cv::Vec3d c = -(rt * cam.tvec_cam_from_table);
    std::vector<cv::Point3d> obj, along;
    for (const auto& t : table_in) obj.emplace_back(t.x, t.y, 0.0);
    std::vector<cv::Point2d> line_dirs;
    size_t k = 0;
    for (size_t i = 0; i < samples.size(); ++i) {
      if (!use_sample[i]) continue;
      const cv::Vec3d d = rt * cv::Vec3d(norm[k].x, norm[k].y, 1.0);
      ++k;
      const double s = std::abs(d[2]) > 1e-12 ? -c[2] / d[2] : 0.0;
      const double x = c[0] + s * d[0], y = c[1] + s * d[1];
      const LineSample& ls = samples[i];
      if (ls.on_col_line) {
        obj.emplace_back(ls.line_in, y, 0.0);
        along.emplace_back(ls.line_in, y + 0.05, 0.0);
      } else {
        obj.emplace_back(x, ls.line_in, 0.0);
        along.emplace_back(x + 0.05, ls.line_in, 0.0);
      }
    }
    std::vector<cv::Point2d> proj, proj_along;
    cv::Mat full_jac;
    if (jac) {
      cv::projectPoints(obj, cam.rvec_cam_from_table, cam.tvec_cam_from_table, cam.camera_matrix,
                        cam.distortion, proj, full_jac);
    } else {
      cv::projectPoints(obj, cam.rvec_cam_from_table, cam.tvec_cam_from_table, cam.camera_matrix,
                        cam.distortion, proj);
    }
    if (!along.empty()) {
      cv::projectPoints(along, cam.rvec_cam_from_table, cam.tvec_cam_from_table, cam.camera_matrix,
                        cam.distortion, proj_along);
    }
    const int n_cross = static_cast<int>(table_in.size());
    const int n_samp = static_cast<int>(along.size());
    const int n_prior = fix_intrinsics ? 0 : kPriors;
    const int rows = 2 * n_cross + n_samp + n_prior;
    std::vector<double> res(static_cast<size_t>(rows), 0.0);
    if (jac) *jac = cv::Mat::zeros(rows, Free(), CV_64F);
    for (int i = 0; i < n_cross; ++i) {
      const auto row = 2 * static_cast<size_t>(i);
      res[row] = proj[i].x - px[i].x;
      res[row + 1] = proj[i].y - px[i].y;
      if (jac) {
        for (int q = 0; q < Free(); ++q) {
          jac->at<double>(2 * i, q) = full_jac.at<double>(2 * i, q);
          jac->at<double>(2 * i + 1, q) = full_jac.at<double>(2 * i + 1, q);
        }
      }
    }
    for (int i = 0; i < n_samp; ++i) {
      const int o = n_cross + i;
      cv::Point2d t = proj_along[i] - proj[o];
      const double tn = std::hypot(t.x, t.y);
      if (tn <= 0) continue;
      t *= 1.0 / tn;
      const cv::Point2d nrm(-t.y, t.x);
      const int row = 2 * n_cross + i;
      res[row] = nrm.dot(proj[o] - spx[i]);
      if (jac) {
        for (int q = 0; q < Free(); ++q) {
          jac->at<double>(row, q) =
              nrm.x * full_jac.at<double>(2 * o, q) + nrm.y * full_jac.at<double>(2 * o + 1, q);
        }
      }
    }
    if (n_prior) {
      const int b = 2 * n_cross + n_samp;
      res[b] = pp_weight * (p[8] - centre.x);
      res[b + 1] = pp_weight * (p[9] - centre.y);
      res[b + 2] = tangential_weight * p[12];
      res[b + 3] = tangential_weight * p[13];
      res[b + 4] = aspect_weight * (p[7] / p[6] - 1.0);
      if (jac) {
        jac->at<double>(b, 8) = pp_weight;
        jac->at<double>(b + 1, 9) = pp_weight;
        jac->at<double>(b + 2, 12) = tangential_weight;
        jac->at<double>(b + 3, 13) = tangential_weight;
        jac->at<double>(b + 4, 6) = -aspect_weight * p[7] / (p[6] * p[6]);
        jac->at<double>(b + 4, 7) = aspect_weight / p[6];
      }
      res[b + 5] = focal_weight * std::log(p[6] / focal_prior_px);
      if (jac) jac->at<double>(b + 5, 6) = focal_weight / p[6];
    }
    return res;
  }
};

double Cost(const std::vector<double>& r) {
  double s = 0;
  for (double v : r) s += v * v;
  return s;
}

// Levenberg-Marquardt from p; returns the final parameters.
Params Solve(const Problem& pr, Params p, const CameraModel& like) {
  double lambda = 1e-3;
  cv::Mat jac;
  std::vector<double> r = pr.Evaluate(p, like, &jac);
  double cost = Cost(r);
  const int n = pr.Free();
  for (int it = 0; it < 30; ++it) {
    const cv::Mat rm(static_cast<int>(r.size()), 1, CV_64F, r.data());
    const cv::Mat a = jac.t() * jac;
    const cv::Mat g = jac.t() * rm;
    bool improved = false;
    while (lambda < 1e8) {
      cv::Mat damped = a.clone();
      for (int q = 0; q < n; ++q) damped.at<double>(q, q) *= 1.0 + lambda;
      cv::Mat step;
      if (!cv::solve(damped, -g, step, cv::DECOMP_CHOLESKY)) {
        lambda *= 10;
        continue;
      }
      Params trial = p;
      for (int q = 0; q < n; ++q) trial[q] += step.at<double>(q);
      const std::vector<double> rt = pr.Evaluate(trial, like, nullptr);
      const double ct = Cost(rt);
      if (std::isfinite(ct) && ct < cost) {
        const double gain = (cost - ct) / std::max(cost, 1e-30);
        p = trial;
        cost = ct;
        lambda = std::max(1e-9, lambda / 10);
        improved = gain > 1e-10;
        break;
      }
      lambda *= 10;
    }
    if (!improved) break;
    r = pr.Evaluate(p, like, &jac);
    cost = Cost(r);
  }
  return p;
}

double MedianAbs(std::vector<double> v) {
  if (v.empty()) return 0;
  for (double& x : v) x = std::abs(x);
  const auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
  std::nth_element(v.begin(), mid, v.end());
  return *mid;
}

}  // namespace

std::vector<LineSample> SampleGridLines(const cv::Mat& gray, const Grid& board,
                                        const CameraModel& camera, const LineFitOptions& options) {
  const double s = board.square_size_in;
  const int per = std::max(2, options.samples_per_square);
  std::vector<LineSample> planned;
  std::vector<cv::Point3d> obj;  // per sample: the point, +along, +across
  auto plan = [&](bool on_col, int line, int squares) {
    for (int j = 0; j < squares; ++j) {
      for (int k = 0; k < per; ++k) {
        const double f = (j + 0.15 + 0.7 * k / (per - 1)) * s;
        const double a = line * s;
        planned.push_back({on_col, a, {}});
        if (on_col) {
          obj.emplace_back(a, f, 0.0);
          obj.emplace_back(a, f + 0.25 * s, 0.0);
          obj.emplace_back(a + 0.25 * s, f, 0.0);
        } else {
          obj.emplace_back(f, a, 0.0);
          obj.emplace_back(f + 0.25 * s, a, 0.0);
          obj.emplace_back(f, a + 0.25 * s, 0.0);
        }
      }
    }
  };
  for (int c = 0; c <= board.cols; ++c) plan(true, c, board.rows);
  for (int r = 0; r <= board.rows; ++r) plan(false, r, board.cols);
  std::vector<cv::Point2d> img;
  cv::projectPoints(obj, camera.rvec_cam_from_table, camera.tvec_cam_from_table,
                    camera.camera_matrix, camera.distortion, img);
  std::vector<LineSample> out;
  for (size_t i = 0; i < planned.size(); ++i) {
    const cv::Point2d q = img[3 * i], da = img[3 * i + 1] - q, dc = img[3 * i + 2] - q;
    const double spacing = 4.0 * std::min(cv::norm(da), cv::norm(dc));
    const double margin = std::clamp(0.18 * spacing, 5.0, 30.0) + 2;
    if (q.x < margin || q.y < margin || q.x >= gray.cols - margin || q.y >= gray.rows - margin) {
      continue;
    }
    const double len = std::hypot(da.x, da.y);
    if (len <= 0) continue;
    const cv::Point2d nrm(-da.y / len, da.x / len);
    // da spans a quarter square; the samples lie 0.7 of a square / (per - 1) apart.
    const double gap_px = 4.0 * len * 0.7 / (per - 1);
    RefineOptions refine = options.refine;
    refine.along_line_px = std::max(refine.along_line_px, options.along_fraction_of_gap * gap_px);
    const auto o = MeasureLineOffset(gray, q, nrm, spacing, refine);
    if (!o || std::abs(*o) > options.max_offset_px) continue;
    LineSample ls = planned[i];
    ls.px = q + *o * nrm;
    out.push_back(ls);
  }
  return out;
}

std::optional<CameraFit> RefineCameraOnLines(const CameraModel& start,
                                             const std::vector<cv::Point2d>& table_in,
                                             const std::vector<cv::Point2d>& px,
                                             const std::vector<LineSample>& samples,
                                             bool fix_intrinsics, const LineFitOptions& options) {
  if (table_in.size() != px.size() || static_cast<int>(samples.size()) < options.min_samples) {
    return std::nullopt;
  }
  Problem pr(table_in, px, samples, fix_intrinsics);
  const cv::Size size = start.image_size;
  pr.centre = {size.width / 2.0, size.height / 2.0};
  Params p = FromCamera(start);
  // Noise of one sample, for weighting the priors against the data.
  const std::vector<double> r0 = pr.Evaluate(p, start, nullptr);
  const double sigma_px =
      std::max(0.05, 1.4826 * MedianAbs({r0.begin() + 2 * static_cast<long>(table_in.size()),
                                         r0.end() - (fix_intrinsics ? 0 : kPriors)}));
  pr.pp_weight = sigma_px / (options.principal_point_sigma_fraction * size.width);
  pr.tangential_weight = sigma_px / options.tangential_sigma;
  pr.aspect_weight = sigma_px / options.aspect_sigma;
  pr.focal_weight = options.focal_log_sigma > 0 ? sigma_px / options.focal_log_sigma : 0.0;
  pr.focal_prior_px = options.focal_prior_fraction_of_width * size.width;
  // Solve, drop samples the fit cannot explain (edges of things lying on a line), solve again.
  for (int round = 0; round < 2; ++round) {
    p = Solve(pr, p, start);
    const std::vector<double> r = pr.Evaluate(p, start, nullptr);
    std::vector<double> sr(r.begin() + 2 * static_cast<long>(table_in.size()),
                           r.end() - (fix_intrinsics ? 0 : kPriors));
    const double cut = std::max(0.5, 3.5 * 1.4826 * MedianAbs(sr));
    size_t k = 0;
    int kept = 0;
    for (size_t i = 0; i < samples.size(); ++i) {
      if (!pr.use_sample[i]) continue;
      pr.use_sample[i] = std::abs(sr[k++]) <= cut;
      kept += pr.use_sample[i] ? 1 : 0;
    }
    if (kept < options.min_samples) return std::nullopt;
  }
  p = Solve(pr, p, start);
  CameraFit fit;
  fit.camera = ToCamera(p, start);
  const cv::Matx33d& k = fit.camera.camera_matrix;
  if (!(k(0, 0) > 0.2 * size.width && k(0, 0) < 10.0 * size.width) ||
      !(k(0, 2) > 0 && k(0, 2) < size.width && k(1, 2) > 0 && k(1, 2) < size.height)) {
    return std::nullopt;
  }
  std::vector<cv::Point3d> obj;
  obj.reserve(table_in.size());
  for (const auto& t : table_in) obj.emplace_back(t.x, t.y, 0.0);
  std::vector<cv::Point2d> proj;
  if (!obj.empty()) {
    cv::projectPoints(obj, fit.camera.rvec_cam_from_table, fit.camera.tvec_cam_from_table,
                      fit.camera.camera_matrix, fit.camera.distortion, proj);
  }
  double ss = 0;
  for (size_t i = 0; i < px.size(); ++i) {
    fit.residual_px.push_back(cv::norm(proj[i] - px[i]));
    ss += fit.residual_px.back() * fit.residual_px.back();
  }
  fit.rms_px = px.empty() ? 0 : std::sqrt(ss / static_cast<double>(px.size()));
  return fit;
}

}  // namespace referee
