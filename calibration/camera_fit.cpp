#include "calibration/camera_fit.hpp"

#include <cmath>
#include <opencv2/calib3d.hpp>

namespace referee {

namespace {

// Focal length from one plane-to-image homography, principal point known, square pixels
// (Zhang's two constraints, solved for 1/f^2 in least squares). nullopt if not determined.
std::optional<double> FocalFromHomography(const cv::Matx33d& h, cv::Point2d pp) {
  const cv::Matx33d shift(1, 0, -pp.x, 0, 1, -pp.y, 0, 0, 1);
  const cv::Matx33d g = shift * h;
  const double h11 = g(0, 0), h12 = g(0, 1), h21 = g(1, 0), h22 = g(1, 1), h31 = g(2, 0),
               h32 = g(2, 1);
  // a * w + b = 0 with w = 1/f^2
  const double a1 = h11 * h12 + h21 * h22, b1 = h31 * h32;
  const double a2 = h11 * h11 + h21 * h21 - h12 * h12 - h22 * h22, b2 = h31 * h31 - h32 * h32;
  const double den = a1 * a1 + a2 * a2;
  if (den <= 0) return std::nullopt;
  const double w = -(a1 * b1 + a2 * b2) / den;
  if (!(w > 0)) return std::nullopt;
  return 1.0 / std::sqrt(w);
}

double TiltDeg(const cv::Vec3d& rvec) {
  cv::Matx33d r;
  cv::Rodrigues(rvec, r);
  // Angle between the camera's optical axis and the table normal.
  return std::acos(std::min(1.0, std::abs(r(2, 2)))) * 180.0 / 3.14159265358979323846;
}

void Residuals(CameraFit& fit, const std::vector<cv::Point3d>& obj,
               const std::vector<cv::Point2d>& px) {
  std::vector<cv::Point2d> proj;
  cv::projectPoints(obj, fit.camera.rvec_cam_from_table, fit.camera.tvec_cam_from_table,
                    fit.camera.camera_matrix, fit.camera.distortion, proj);
  fit.residual_px.resize(px.size());
  double ss = 0;
  for (size_t i = 0; i < px.size(); ++i) {
    fit.residual_px[i] = std::hypot(proj[i].x - px[i].x, proj[i].y - px[i].y);
    ss += fit.residual_px[i] * fit.residual_px[i];
  }
  fit.rms_px = px.empty() ? 0 : std::sqrt(ss / static_cast<double>(px.size()));
}

}  // namespace

std::optional<CameraFit> FitCamera(const std::vector<cv::Point2d>& table_in,
                                   const std::vector<cv::Point2d>& px, cv::Size image_size,
                                   const std::optional<LensModel>& lens,
                                   const CameraFitOptions& options) {
  if (table_in.size() != px.size() || table_in.size() < 6) return std::nullopt;
  std::vector<cv::Point3d> obj;
  obj.reserve(table_in.size());
  for (const auto& p : table_in) obj.emplace_back(p.x, p.y, 0.0);
  CameraFit fit;
  fit.camera.image_size = image_size;
  if (lens) {
    fit.camera.camera_matrix = lens->camera_matrix;
    fit.camera.distortion = lens->distortion;
    cv::Mat rvec, tvec;
    if (!cv::solvePnP(obj, px, lens->camera_matrix, lens->distortion, rvec, tvec, false,
                      cv::SOLVEPNP_IPPE)) {
      return std::nullopt;
    }
    cv::solvePnPRefineLM(obj, px, lens->camera_matrix, lens->distortion, rvec, tvec);
    fit.camera.rvec_cam_from_table = cv::Vec3d(rvec);
    fit.camera.tvec_cam_from_table = cv::Vec3d(tvec);
    Residuals(fit, obj, px);
    return fit;
  }

  const cv::Point2d pp(image_size.width / 2.0, image_size.height / 2.0);
  const cv::Mat h = cv::findHomography(table_in, px, 0);
  if (h.empty()) return std::nullopt;
  const double prior = options.focal_prior_fraction_of_width * image_size.width;
  double f = prior;
  if (auto fh = FocalFromHomography(cv::Matx33d(h), pp)) {
    if (*fh > 0.3 * image_size.width && *fh < 4.0 * image_size.width) f = *fh;
  }
  // Pose from the homography with this focal length, to judge whether the tilt is enough.
  cv::Matx33d k(f, 0, pp.x, 0, f, pp.y, 0, 0, 1);
  cv::Mat rvec, tvec;
  cv::solvePnP(obj, px, k, cv::noArray(), rvec, tvec, false, cv::SOLVEPNP_IPPE);
  bool fix_focal = TiltDeg(cv::Vec3d(rvec)) < options.min_tilt_for_focal_deg;
  if (fix_focal) {
    f = prior;
    k = cv::Matx33d(f, 0, pp.x, 0, f, pp.y, 0, 0, 1);
  }

  std::vector<std::vector<cv::Point3f>> objs(1);
  std::vector<std::vector<cv::Point2f>> imgs(1);
  for (size_t i = 0; i < obj.size(); ++i) {
    objs[0].emplace_back(static_cast<float>(obj[i].x), static_cast<float>(obj[i].y), 0.f);
    imgs[0].emplace_back(static_cast<float>(px[i].x), static_cast<float>(px[i].y));
  }
  int flags = cv::CALIB_USE_INTRINSIC_GUESS | cv::CALIB_FIX_PRINCIPAL_POINT |
              cv::CALIB_FIX_ASPECT_RATIO | cv::CALIB_ZERO_TANGENT_DIST | cv::CALIB_FIX_K3;
  if (fix_focal) flags |= cv::CALIB_FIX_FOCAL_LENGTH;
  if (static_cast<int>(px.size()) < options.min_points_for_k2) {
    flags |= cv::CALIB_FIX_K2;
  } else if (options.free_principal_point) {
    // Many crossings over a tilted board: let the principal point and tangential terms absorb
    // what a centred, purely radial lens cannot (real lenses are decentred).
    flags &= ~(cv::CALIB_FIX_PRINCIPAL_POINT | cv::CALIB_ZERO_TANGENT_DIST);
  }
  if (!options.estimate_distortion) flags |= cv::CALIB_FIX_K1 | cv::CALIB_FIX_K2;
  cv::Mat kmat(k), dist = cv::Mat::zeros(1, 5, CV_64F);
  std::vector<cv::Mat> rvecs, tvecs;
  const cv::Mat k_start = kmat.clone();
  const bool many = static_cast<int>(px.size()) >= options.min_points_for_k2;
  const bool fit_aspect = many && options.max_aspect_deviation > 0;
  // Tilted view: fx and fy are fitted freely. Square-on (focal fixed): searched below.
  if (fit_aspect && !fix_focal) flags &= ~cv::CALIB_FIX_ASPECT_RATIO;
  double aspect = 1.0;  // fy / fx of the start (kept when the aspect ratio is fixed)
  auto calibrate = [&](int f) {
    k_start.copyTo(kmat);
    kmat.at<double>(1, 1) = aspect * kmat.at<double>(0, 0);
    dist = cv::Mat::zeros(1, 5, CV_64F);
    return cv::calibrateCamera(
        objs, imgs, image_size, kmat, dist, rvecs, tvecs, f,
        cv::TermCriteria(cv::TermCriteria::COUNT + cv::TermCriteria::EPS, 100, 1e-12));
  };
  try {
    calibrate(flags);
    // A principal point far from the centre means the single view could not pin it down.
    const double off = std::hypot(kmat.at<double>(0, 2) - pp.x, kmat.at<double>(1, 2) - pp.y);
    // Tangential terms mimic a shifted distortion centre, so together with a free principal
    // point they are degenerate in a near square-on view: next try the centre alone free (a
    // decentred radial lens), and only then the image centre.
    if (!(flags & cv::CALIB_FIX_PRINCIPAL_POINT) && !(off < 0.05 * image_size.width)) {
      flags |= cv::CALIB_ZERO_TANGENT_DIST;
      calibrate(flags);
      const double off2 = std::hypot(kmat.at<double>(0, 2) - pp.x, kmat.at<double>(1, 2) - pp.y);
      if (!(off2 < 0.05 * image_size.width)) {
        flags |= cv::CALIB_FIX_PRINCIPAL_POINT;
        calibrate(flags);
      }
    }
    // Square-on, the focal length is unobservable but the aspect ratio is not (the squares
    // are square): a 1-D golden-section search on fy/fx with everything else fitted.
    auto search_aspect = [&] {
      const double g = (std::sqrt(5.0) - 1) / 2;
      double lo = 1 - options.max_aspect_deviation, hi = 1 + options.max_aspect_deviation;
      double x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo);
      aspect = x1;
      double f1 = calibrate(flags);
      aspect = x2;
      double f2 = calibrate(flags);
      for (int it = 0; it < 16; ++it) {
        if (f1 < f2) {
          hi = x2;
          x2 = x1;
          f2 = f1;
          x1 = hi - g * (hi - lo);
          aspect = x1;
          f1 = calibrate(flags);
        } else {
          lo = x1;
          x1 = x2;
          f1 = f2;
          x2 = lo + g * (hi - lo);
          aspect = x2;
          f2 = calibrate(flags);
        }
      }
      aspect = 0.5 * (lo + hi);
      calibrate(flags);
    };
    if (fit_aspect && fix_focal) {
      search_aspect();
      const double off3 = std::hypot(kmat.at<double>(0, 2) - pp.x, kmat.at<double>(1, 2) - pp.y);
      if (!(flags & cv::CALIB_FIX_PRINCIPAL_POINT) && !(off3 < 0.05 * image_size.width)) {
        flags |= cv::CALIB_FIX_PRINCIPAL_POINT | cv::CALIB_ZERO_TANGENT_DIST;
        search_aspect();
      }
    }
  } catch (const cv::Exception&) {
    return std::nullopt;
  }
  fit.camera.camera_matrix = cv::Matx33d(kmat);
  for (int i = 0; i < 5; ++i) fit.camera.distortion[i] = dist.at<double>(i);
  // Polish the pose in double precision (calibrateCamera works on float points).
  cv::Mat r = rvecs[0], t = tvecs[0];
  cv::solvePnPRefineLM(obj, px, fit.camera.camera_matrix, fit.camera.distortion, r, t);
  fit.camera.rvec_cam_from_table = cv::Vec3d(r);
  fit.camera.tvec_cam_from_table = cv::Vec3d(t);
  Residuals(fit, obj, px);
  return fit;
}

}  // namespace referee
