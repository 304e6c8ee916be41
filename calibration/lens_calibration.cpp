#include "calibration/lens_calibration.hpp"

#include <opencv2/aruco/charuco.hpp>
#include <opencv2/calib3d.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "engine/input_error.hpp"

namespace referee {

namespace {

// The image in grey; every image of one calibration must have the first one's size (`size`
// is set by the first).
cv::Mat ReadGraySameSize(const std::filesystem::path& p, cv::Size& size) {
  cv::Mat img = cv::imread(p.string(), cv::IMREAD_GRAYSCALE);
  if (img.empty()) throw InputError(p.string(), "", "cannot read the image");
  if (size.area() == 0) size = img.size();
  if (img.size() != size)
    throw InputError(p.string(), "", "image size differs from the first image");
  return img;
}

void Calibrate(LensCalibrationReport& rep, const std::vector<std::vector<cv::Point3f>>& obj,
               const std::vector<std::vector<cv::Point2f>>& img, cv::Size size) {
  if (obj.size() < 3) {
    throw InputError(rep.skipped.empty() ? "" : rep.skipped.front(), "",
                     "the pattern was found in only " + std::to_string(obj.size()) +
                         " images; at least 3 are needed");
  }
  cv::Mat k, d, per_view;
  std::vector<cv::Mat> rv, tv;
  cv::Mat std_in, std_ex;
  rep.lens.rms_px = cv::calibrateCamera(obj, img, size, k, d, rv, tv, std_in, std_ex, per_view, 0);
  rep.lens.image_size = size;
  rep.lens.camera_matrix = cv::Matx33d(k);
  for (int i = 0; i < 5; ++i) rep.lens.distortion[i] = d.at<double>(i);
  for (int i = 0; i < per_view.rows; ++i) rep.per_view_rms_px.push_back(per_view.at<double>(i));
}

}  // namespace

LensCalibrationReport CalibrateLensChessboard(const std::vector<std::filesystem::path>& images,
                                              cv::Size inner_corners, double square_size) {
  LensCalibrationReport rep;
  std::vector<cv::Point3f> board;
  for (int y = 0; y < inner_corners.height; ++y) {
    for (int x = 0; x < inner_corners.width; ++x) {
      board.emplace_back(static_cast<float>(x * square_size), static_cast<float>(y * square_size),
                         0.f);
    }
  }
  std::vector<std::vector<cv::Point3f>> obj;
  std::vector<std::vector<cv::Point2f>> img;
  cv::Size size;
  for (const auto& p : images) {
    const cv::Mat gray = ReadGraySameSize(p, size);
    std::vector<cv::Point2f> corners;
    // The sector-based detector localises corners more accurately than the classic one plus
    // cornerSubPix; the classic one is the fallback for hard views.
    bool found = cv::findChessboardCornersSB(gray, inner_corners, corners,
                                             cv::CALIB_CB_EXHAUSTIVE | cv::CALIB_CB_ACCURACY);
    if (!found) {
      found =
          cv::findChessboardCorners(gray, inner_corners, corners,
                                    cv::CALIB_CB_ADAPTIVE_THRESH | cv::CALIB_CB_NORMALIZE_IMAGE);
      if (found) {
        cv::cornerSubPix(
            gray, corners, {11, 11}, {-1, -1},
            cv::TermCriteria(cv::TermCriteria::EPS + cv::TermCriteria::COUNT, 30, 0.01));
      }
    }
    if (!found) {
      rep.skipped.push_back(p.string());
      continue;
    }
    rep.used.push_back(p.string());
    obj.push_back(board);
    img.push_back(corners);
  }
  Calibrate(rep, obj, img, size);
  return rep;
}

LensCalibrationReport CalibrateLensCharuco(const std::vector<std::filesystem::path>& images,
                                           cv::Size squares, double square_size,
                                           double marker_size) {
  LensCalibrationReport rep;
  const auto dict = cv::aruco::getPredefinedDictionary(cv::aruco::DICT_4X4_50);
  const auto board = cv::aruco::CharucoBoard::create(squares.width, squares.height,
                                                     static_cast<float>(square_size),
                                                     static_cast<float>(marker_size), dict);
  std::vector<std::vector<cv::Point3f>> obj;
  std::vector<std::vector<cv::Point2f>> img;
  cv::Size size;
  for (const auto& p : images) {
    const cv::Mat gray = ReadGraySameSize(p, size);
    std::vector<std::vector<cv::Point2f>> mcorners;
    std::vector<int> ids;
    cv::aruco::detectMarkers(gray, dict, mcorners, ids);
    std::vector<cv::Point2f> cc;
    std::vector<int> cid;
    if (!ids.empty()) cv::aruco::interpolateCornersCharuco(mcorners, ids, gray, board, cc, cid);
    if (cc.size() < 6) {
      rep.skipped.push_back(p.string());
      continue;
    }
    std::vector<cv::Point3f> o;
    o.reserve(cid.size());
    for (int id : cid) o.push_back(board->chessboardCorners[static_cast<size_t>(id)]);
    rep.used.push_back(p.string());
    obj.push_back(o);
    img.push_back(cc);
  }
  Calibrate(rep, obj, img, size);
  return rep;
}

}  // namespace referee
