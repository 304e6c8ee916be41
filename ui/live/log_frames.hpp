// What a live game keeps beside its log (the log's frame store, FramesDirFor(log)): the camera
// frames that events refer to (calibration, snapshots, the armed shot's before and after) and
// each verdict's evidence picture (vision/shot_evidence.hpp), so a report or a replay of a live
// game shows what the referee saw.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>
#include <opencv2/core.hpp>

#include "calibration/table_calibration.hpp"
#include "engine/stand.hpp"
#include "engine/verdict.hpp"
#include "vision/frame_store.hpp"
#include "vision/shot_analysis.hpp"
#include "vision/shot_evidence.hpp"
#include "vision/top_view.hpp"

namespace referee::live {

// The evidence picture of a live shot: both camera frames rectified through `view`, the stands
// the ruling was made on outlined, and what `found` holds of the shot drawn (its projectile,
// none when the players placed the impact by hand, and the checks raised on its ruling). Same
// drawing as `referee adjudicate --evidence`; `found`'s frames and stands are not used.
cv::Mat RenderLiveEvidence(const TopView& view, const cv::Mat& before_bgr, const cv::Mat& after_bgr,
                           const std::vector<Stand>& stands, const Verdict& verdict,
                           ShotAnalysis found = ShotAnalysis(),
                           const EvidenceOptions& options = {});

// The calibration a live game's log states in a calibration event (board, image_size,
// camera_matrix, distortion, rvec_cam_from_table, tvec_cam_from_table, as LiveSession writes
// them): enough to map table inches onto that game's stored frames. nullopt, with the reason
// in `why`, when a field is missing or malformed (older logs, hand-written logs).
std::optional<TableCalibration> CalibrationFromLog(const nlohmann::json& calibration,
                                                   std::string* why = nullptr);
// The inverse: a calibration as a calibration event holds it (the fields above plus quality).
nlohmann::json CalibrationToLog(const TableCalibration& calibration);

class LogFrames {
 public:
  explicit LogFrames(const std::filesystem::path& log_path)
      : store_(FrameStore::ForLog(log_path)) {}

  // Stores a camera frame (JPEG), returns its name for the log. "" when there is no frame or
  // the disk refuses it: the game goes on and the log says the frame was not recorded (the
  // reason goes to `last_error`).
  std::string PutFrame(const cv::Mat& bgr);
  // Renders and stores the evidence PNG of a verdict; "" when a frame is missing or the disk
  // refuses (reason in `last_error`).
  std::string PutEvidence(const TableCalibration& calibration, const cv::Mat& before_bgr,
                          const cv::Mat& after_bgr, const std::vector<Stand>& stands,
                          const Verdict& verdict, const ShotAnalysis& found = ShotAnalysis());
  const std::string& last_error() const { return last_error_; }
  const FrameStore& store() const { return store_; }

 private:
  const TopView& ViewFor(const TableCalibration& calibration);
  void Fail(std::string why);

  FrameStore store_;
  // Built once per calibration (its remap tables take a moment at 1080p).
  std::optional<TopView> view_;
  std::string view_key_;
  std::string last_error_;
};

}  // namespace referee::live
