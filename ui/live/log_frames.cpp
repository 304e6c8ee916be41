#include "ui/live/log_frames.hpp"

#include <array>
#include <cstdio>
#include <exception>

#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>

#include "vision/shot_analysis.hpp"

namespace referee::live {

namespace {

// Identifies a calibration by its camera model: a new pose or new intrinsics need a new view.
std::string CalibrationKey(const TableCalibration& cal) {
  std::string key;
  char buf[64];
  auto add = [&](double v) {
    std::snprintf(buf, sizeof buf, "%.9g,", v);
    key += buf;
  };
  for (int i = 0; i < 9; ++i) add(cal.camera.camera_matrix.val[i]);
  for (int i = 0; i < 5; ++i) add(cal.camera.distortion[i]);
  for (int i = 0; i < 3; ++i) add(cal.camera.rvec_cam_from_table[i]);
  for (int i = 0; i < 3; ++i) add(cal.camera.tvec_cam_from_table[i]);
  add(cal.camera.image_size.width);
  add(cal.camera.image_size.height);
  add(cal.board.cols);
  add(cal.board.rows);
  add(cal.board.square_size_in);
  return key;
}

// Reads `n` numbers from the array j[key]; false when it is not exactly that.
template <size_t N>
bool Numbers(const nlohmann::json& j, const char* key, std::array<double, N>& out) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_array() || it->size() != N) return false;
  for (size_t i = 0; i < N; ++i) {
    if (!(*it)[i].is_number()) return false;
    out[i] = (*it)[i].get<double>();
  }
  return true;
}

}  // namespace

std::optional<TableCalibration> CalibrationFromLog(const nlohmann::json& j, std::string* why) {
  std::string bad;  // the first field that is missing or malformed
  auto numbers = [&](const char* key, auto& out) {
    if (bad.empty() && !Numbers(j, key, out)) bad = key;
  };
  TableCalibration cal;
  std::array<double, 2> size{};
  std::array<double, 9> k{};
  std::array<double, 5> d{};
  std::array<double, 3> r{}, t{};
  try {
    const auto board = j.is_object() ? j.find("board") : j.end();
    if (board == j.end() || !board->is_object()) {
      bad = "board";
    } else {
      cal.board.cols = board->value("cols", 0);
      cal.board.rows = board->value("rows", 0);
      cal.board.square_size_in = board->value("square_size", 0.0);
      if (cal.board.cols <= 0 || cal.board.rows <= 0 || !(cal.board.square_size_in > 0))
        bad = "board";
    }
    numbers("image_size", size);
    numbers("camera_matrix", k);
    numbers("distortion", d);
    numbers("rvec_cam_from_table", r);
    numbers("tvec_cam_from_table", t);
    if (bad.empty() && (size[0] < 1 || size[1] < 1)) bad = "image_size";
    if (bad.empty() && (!(k[0] > 0) || !(k[4] > 0))) bad = "camera_matrix";
    if (bad.empty()) {
      cal.quality.rms_px = j.value("rms_px", 0.0);
      cal.quality.rms_mm = j.value("rms_mm", 0.0);
      cal.markers_used = j.value("markers_used", false);
      cal.lens_from_file = j.value("lens_from_file", false);
    }
  } catch (const nlohmann::json::exception&) {  // a field of the wrong type
    bad = bad.empty() ? "board" : bad;
  }
  if (!bad.empty()) {
    if (why) *why = "no valid '" + bad + "'";
    return std::nullopt;
  }
  cal.camera.image_size = {static_cast<int>(size[0]), static_cast<int>(size[1])};
  for (size_t i = 0; i < k.size(); ++i) cal.camera.camera_matrix.val[i] = k[i];
  for (size_t i = 0; i < d.size(); ++i) cal.camera.distortion[static_cast<int>(i)] = d[i];
  cal.camera.rvec_cam_from_table = {r[0], r[1], r[2]};
  cal.camera.tvec_cam_from_table = {t[0], t[1], t[2]};
  return cal;
}

nlohmann::json CalibrationToLog(const TableCalibration& cal) {
  const auto& k = cal.camera.camera_matrix;
  const auto& d = cal.camera.distortion;
  const auto& r = cal.camera.rvec_cam_from_table;
  const auto& t = cal.camera.tvec_cam_from_table;
  return {{"board",
           {{"cols", cal.board.cols},
            {"rows", cal.board.rows},
            {"square_size", cal.board.square_size_in}}},
          {"image_size", {cal.camera.image_size.width, cal.camera.image_size.height}},
          {"camera_matrix",
           {k(0, 0), k(0, 1), k(0, 2), k(1, 0), k(1, 1), k(1, 2), k(2, 0), k(2, 1), k(2, 2)}},
          {"distortion", {d[0], d[1], d[2], d[3], d[4]}},
          {"rvec_cam_from_table", {r[0], r[1], r[2]}},
          {"tvec_cam_from_table", {t[0], t[1], t[2]}},
          {"rms_px", cal.quality.rms_px},
          {"rms_mm", cal.quality.rms_mm},
          {"max_mm", cal.quality.max_mm},
          {"coverage", cal.quality.coverage},
          {"markers_used", cal.markers_used},
          {"lens_from_file", cal.lens_from_file}};
}

cv::Mat RenderLiveEvidence(const TopView& view, const cv::Mat& before_bgr, const cv::Mat& after_bgr,
                           const std::vector<Stand>& stands, const Verdict& verdict,
                           ShotAnalysis found, const EvidenceOptions& options) {
  found.top_before = view.Rectify(before_bgr);
  found.top_after = view.Rectify(after_bgr);
  found.stands.stands.clear();
  for (const Stand& s : stands) {
    DetectedStand d;
    d.stand = s;
    found.stands.stands.push_back(std::move(d));
  }
  return DrawShotEvidence(view, found, verdict, options);
}

std::string LogFrames::PutFrame(const cv::Mat& bgr) {
  if (bgr.empty()) return "";
  try {
    return store_.PutJpeg(bgr);
  } catch (const std::exception& e) {
    Fail(e.what());
    return "";
  }
}

const TopView& LogFrames::ViewFor(const TableCalibration& calibration) {
  std::string key = CalibrationKey(calibration);
  if (!view_ || key != view_key_) {
    view_.emplace(calibration);
    view_key_ = std::move(key);
  }
  return *view_;
}

std::string LogFrames::PutEvidence(const TableCalibration& calibration, const cv::Mat& before_bgr,
                                   const cv::Mat& after_bgr, const std::vector<Stand>& stands,
                                   const Verdict& verdict, const ShotAnalysis& found) {
  const cv::Size size = calibration.camera.image_size;
  if (before_bgr.size() != size || after_bgr.size() != size) {
    Fail("evidence: before/after frame missing or not the calibrated size");
    return "";
  }
  try {
    const cv::Mat evidence =
        RenderLiveEvidence(ViewFor(calibration), before_bgr, after_bgr, stands, verdict, found);
    std::vector<unsigned char> png;
    if (!cv::imencode(".png", evidence, png)) {
      Fail("evidence: PNG encoding failed");
      return "";
    }
    return store_.PutEncoded(png, "png");
  } catch (const std::exception& e) {
    Fail(e.what());
    return "";
  }
}

void LogFrames::Fail(std::string why) {
  // The game goes on without the picture; say so once per new reason, not every frame.
  if (why != last_error_) std::fprintf(stderr, "game log frames: %s\n", why.c_str());
  last_error_ = std::move(why);
}

}  // namespace referee::live
