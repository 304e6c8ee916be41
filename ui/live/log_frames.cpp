#include "ui/live/log_frames.hpp"

#include <cstdio>
#include <exception>

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

}  // namespace

cv::Mat RenderLiveEvidence(const TopView& view, const cv::Mat& before_bgr, const cv::Mat& after_bgr,
                           const std::vector<Stand>& stands, const Verdict& verdict,
                           const EvidenceOptions& options) {
  ShotAnalysis analysis;
  analysis.top_before = view.Rectify(before_bgr);
  analysis.top_after = view.Rectify(after_bgr);
  for (const Stand& s : stands) {
    DetectedStand d;
    d.stand = s;
    analysis.stands.stands.push_back(std::move(d));
  }
  return DrawShotEvidence(view, analysis, verdict, options);
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
                                   const Verdict& verdict) {
  const cv::Size size = calibration.camera.image_size;
  if (before_bgr.size() != size || after_bgr.size() != size) {
    Fail("evidence: before/after frame missing or not the calibrated size");
    return "";
  }
  try {
    const cv::Mat evidence =
        RenderLiveEvidence(ViewFor(calibration), before_bgr, after_bgr, stands, verdict);
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
