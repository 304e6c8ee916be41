#include "calibration/calibration_file.hpp"

#include <cmath>
#include <opencv2/core/persistence.hpp>
#include <system_error>

#include "engine/input_error.hpp"

namespace referee {

namespace {

constexpr const char* kCalFormat = "referee-calibration";
constexpr const char* kLensFormat = "referee-lens";

cv::FileStorage OpenRead(const std::filesystem::path& path, const char* format) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    throw InputError(path.string(), "", "file not found");
  }
  cv::FileStorage fs;
  try {
    fs.open(path.string(), cv::FileStorage::READ | cv::FileStorage::FORMAT_YAML);
  } catch (const cv::Exception&) {
    throw InputError(path.string(), "", "not a readable YAML file");
  }
  if (!fs.isOpened()) throw InputError(path.string(), "", "not a readable YAML file");
  const cv::FileNode f = fs["format"];
  if (f.empty() || !f.isString()) throw InputError(path.string(), "format", "missing");
  if (f.string() != format) {
    throw InputError(path.string(), "format",
                     "is '" + f.string() + "', expected '" + std::string(format) + "'");
  }
  return fs;
}

cv::FileStorage OpenWrite(const std::filesystem::path& path) {
  cv::FileStorage fs;
  try {
    fs.open(path.string(), cv::FileStorage::WRITE | cv::FileStorage::FORMAT_YAML);
  } catch (const cv::Exception&) {
  }
  if (!fs.isOpened()) throw InputError(path.string(), "", "cannot write the file");
  return fs;
}

double ReadNumber(const cv::FileNode& parent, const std::string& key, const std::string& file,
                  const std::string& field) {
  const cv::FileNode n = parent[key];
  if (n.empty()) throw InputError(file, field, "missing");
  if (!n.isReal() && !n.isInt()) throw InputError(file, field, "must be a number");
  const double v = n.real();
  if (!std::isfinite(v)) throw InputError(file, field, "must be finite");
  return v;
}

cv::Mat ReadMat(const cv::FileNode& parent, const std::string& key, int rows, int cols,
                const std::string& file) {
  const cv::FileNode n = parent[key];
  if (n.empty()) throw InputError(file, key, "missing");
  cv::Mat m;
  try {
    n >> m;
  } catch (const cv::Exception&) {
    throw InputError(file, key, "must be an OpenCV matrix");
  }
  if (m.empty()) throw InputError(file, key, "must be an OpenCV matrix");
  if ((rows > 0 && m.rows != rows) || (cols > 0 && m.cols != cols)) {
    throw InputError(file, key,
                     "must be " + std::to_string(rows) + "x" + std::to_string(cols) + ", is " +
                         std::to_string(m.rows) + "x" + std::to_string(m.cols));
  }
  if (m.depth() != CV_8U) {
    m.convertTo(m, CV_64F);
    if (!cv::checkRange(m)) throw InputError(file, key, "has a non-finite value");
  }
  return m;
}

cv::Size ReadSize(const cv::FileStorage& fs, const std::string& file) {
  const double w = ReadNumber(fs.root(), "image_width", file, "image_width");
  const double h = ReadNumber(fs.root(), "image_height", file, "image_height");
  if (w < 1 || h < 1 || w > 100000 || h > 100000) {
    throw InputError(file, "image_width", "image size out of range");
  }
  return {static_cast<int>(w), static_cast<int>(h)};
}

void WriteIntrinsics(cv::FileStorage& fs, cv::Size size, const cv::Matx33d& k,
                     const cv::Vec<double, 5>& d) {
  fs << "image_width" << size.width << "image_height" << size.height;
  fs << "camera_matrix" << cv::Mat(k);
  fs << "distortion" << cv::Mat(d).reshape(1, 1);
}

void ReadIntrinsics(const cv::FileStorage& fs, const std::string& file, cv::Matx33d& k,
                    cv::Vec<double, 5>& d) {
  k = cv::Matx33d(ReadMat(fs.root(), "camera_matrix", 3, 3, file));
  if (k(0, 0) <= 0 || k(1, 1) <= 0) throw InputError(file, "camera_matrix", "focal length <= 0");
  cv::Mat dm = ReadMat(fs.root(), "distortion", 0, 0, file).reshape(1, 1);
  if (dm.cols < 4 || dm.cols > 5) {
    throw InputError(file, "distortion", "must hold 4 or 5 values (k1 k2 p1 p2 [k3])");
  }
  d = cv::Vec<double, 5>(0, 0, 0, 0, 0);
  for (int i = 0; i < dm.cols; ++i) d[i] = dm.at<double>(i);
}

}  // namespace

void SaveCalibration(const TableCalibration& cal, const std::filesystem::path& path) {
  cv::FileStorage fs = OpenWrite(path);
  fs << "format" << kCalFormat << "version" << 1 << "created_utc" << cal.created_utc;
  fs << "board"
     << "{"
     << "cols" << cal.board.cols << "rows" << cal.board.rows << "square_size_in"
     << cal.board.square_size_in << "}";
  WriteIntrinsics(fs, cal.camera.image_size, cal.camera.camera_matrix, cal.camera.distortion);
  fs << "rvec_cam_from_table" << cv::Mat(cal.camera.rvec_cam_from_table).reshape(1, 1);
  fs << "tvec_cam_from_table" << cv::Mat(cal.camera.tvec_cam_from_table).reshape(1, 1);
  fs << "undistorted_from_table" << cv::Mat(cal.undistorted_from_table);
  fs << "lens_from_file" << static_cast<int>(cal.lens_from_file);
  fs << "markers_used" << static_cast<int>(cal.markers_used);
  const CalibrationQuality& q = cal.quality;
  fs << "quality"
     << "{"
     << "rms_px" << q.rms_px << "rms_mm" << q.rms_mm << "max_mm" << q.max_mm << "coverage"
     << q.coverage << "intersections_found" << q.intersections_found << "intersections_total"
     << q.intersections_total << "}";
  cv::Mat xs(static_cast<int>(cal.intersections.size()), 4, CV_64F);
  cv::Mat res(static_cast<int>(cal.intersections.size()), 1, CV_64F);
  for (size_t i = 0; i < cal.intersections.size(); ++i) {
    const auto& f = cal.intersections[i];
    const int r = static_cast<int>(i);
    xs.at<double>(r, 0) = f.col;
    xs.at<double>(r, 1) = f.row;
    xs.at<double>(r, 2) = f.px.x;
    xs.at<double>(r, 3) = f.px.y;
    res.at<double>(r) = f.residual_px;
  }
  fs << "intersections" << xs << "residuals_px" << res;
  fs << "reference_gray" << cal.reference_gray;
}

TableCalibration LoadCalibration(const std::filesystem::path& path) {
  const std::string file = path.string();
  cv::FileStorage fs = OpenRead(path, kCalFormat);
  TableCalibration cal;
  const cv::FileNode created = fs["created_utc"];
  if (created.isString()) cal.created_utc = created.string();
  const cv::FileNode board = fs["board"];
  if (board.empty() || !board.isMap()) throw InputError(file, "board", "missing");
  cal.board.cols = static_cast<int>(ReadNumber(board, "cols", file, "board.cols"));
  cal.board.rows = static_cast<int>(ReadNumber(board, "rows", file, "board.rows"));
  cal.board.square_size_in = ReadNumber(board, "square_size_in", file, "board.square_size_in");
  if (cal.board.cols < 1 || cal.board.rows < 1 || cal.board.cols > 200 || cal.board.rows > 200) {
    throw InputError(file, "board", "cols and rows must be 1..200");
  }
  if (cal.board.square_size_in <= 0) throw InputError(file, "board.square_size_in", "must be > 0");
  cal.camera.image_size = ReadSize(fs, file);
  ReadIntrinsics(fs, file, cal.camera.camera_matrix, cal.camera.distortion);
  const cv::Mat rv = ReadMat(fs.root(), "rvec_cam_from_table", 0, 0, file).reshape(1, 1);
  const cv::Mat tv = ReadMat(fs.root(), "tvec_cam_from_table", 0, 0, file).reshape(1, 1);
  if (rv.cols != 3) throw InputError(file, "rvec_cam_from_table", "must hold 3 values");
  if (tv.cols != 3) throw InputError(file, "tvec_cam_from_table", "must hold 3 values");
  cal.camera.rvec_cam_from_table = cv::Vec3d(rv.at<double>(0), rv.at<double>(1), rv.at<double>(2));
  cal.camera.tvec_cam_from_table = cv::Vec3d(tv.at<double>(0), tv.at<double>(1), tv.at<double>(2));
  cal.undistorted_from_table =
      cv::Matx33d(ReadMat(fs.root(), "undistorted_from_table", 3, 3, file));
  cal.lens_from_file = ReadNumber(fs.root(), "lens_from_file", file, "lens_from_file") != 0;
  cal.markers_used = ReadNumber(fs.root(), "markers_used", file, "markers_used") != 0;
  const cv::FileNode q = fs["quality"];
  if (q.empty() || !q.isMap()) throw InputError(file, "quality", "missing");
  cal.quality.rms_px = ReadNumber(q, "rms_px", file, "quality.rms_px");
  cal.quality.rms_mm = ReadNumber(q, "rms_mm", file, "quality.rms_mm");
  cal.quality.max_mm = ReadNumber(q, "max_mm", file, "quality.max_mm");
  cal.quality.coverage = ReadNumber(q, "coverage", file, "quality.coverage");
  cal.quality.intersections_found =
      static_cast<int>(ReadNumber(q, "intersections_found", file, "quality.intersections_found"));
  cal.quality.intersections_total =
      static_cast<int>(ReadNumber(q, "intersections_total", file, "quality.intersections_total"));
  const cv::Mat xs = ReadMat(fs.root(), "intersections", 0, 4, file);
  const cv::Mat res = ReadMat(fs.root(), "residuals_px", xs.rows, 1, file);
  for (int r = 0; r < xs.rows; ++r) {
    IntersectionFix f;
    f.col = static_cast<int>(xs.at<double>(r, 0));
    f.row = static_cast<int>(xs.at<double>(r, 1));
    if (f.col < 0 || f.row < 0 || f.col > cal.board.cols || f.row > cal.board.rows) {
      throw InputError(file, "intersections", "row " + std::to_string(r) + " is off the board");
    }
    f.px = {xs.at<double>(r, 2), xs.at<double>(r, 3)};
    f.residual_px = res.at<double>(r);
    cal.intersections.push_back(f);
  }
  const cv::FileNode ref = fs["reference_gray"];
  if (ref.empty()) throw InputError(file, "reference_gray", "missing");
  try {
    ref >> cal.reference_gray;
  } catch (const cv::Exception&) {
    throw InputError(file, "reference_gray", "must be an 8-bit grey image");
  }
  if (cal.reference_gray.empty() || cal.reference_gray.type() != CV_8UC1) {
    throw InputError(file, "reference_gray", "must be an 8-bit grey image");
  }
  return cal;
}

void SaveLens(const LensModel& lens, const std::filesystem::path& path) {
  cv::FileStorage fs = OpenWrite(path);
  fs << "format" << kLensFormat;
  WriteIntrinsics(fs, lens.image_size, lens.camera_matrix, lens.distortion);
  fs << "rms_px" << lens.rms_px;
}

LensModel LoadLens(const std::filesystem::path& path) {
  const std::string file = path.string();
  cv::FileStorage fs = OpenRead(path, kLensFormat);
  LensModel lens;
  lens.image_size = ReadSize(fs, file);
  ReadIntrinsics(fs, file, lens.camera_matrix, lens.distortion);
  lens.rms_px = ReadNumber(fs.root(), "rms_px", file, "rms_px");
  return lens;
}

}  // namespace referee
