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
#include "vision/close_call_check.hpp"
#include "vision/frame_store.hpp"
#include "vision/projectile_detector.hpp"
#include "vision/rest_height_check.hpp"
#include "vision/shot_evidence.hpp"
#include "vision/top_view.hpp"
#include "vision/unfound_base_check.hpp"

namespace referee::live {

// What the camera found at a live shot and the checks raised on its ruling, drawn on its
// evidence as `referee adjudicate --evidence` draws them.
struct LiveShotMarks {
  // The camera's projectile, so a point placed without its mark seen says so; none when the
  // players placed the impact by hand (the height and close-call checks are then not asked).
  std::optional<ProjectileObservation> projectile;
  std::vector<UnfoundBaseCheck> unfound;
  std::optional<RestHeightCheck> height_check;
  std::optional<CloseCallCheck> close_call;
};

// The evidence picture of a live shot: both camera frames rectified through `view`, the stands
// the ruling was made on outlined, `marks` drawn. Same drawing as `referee adjudicate --evidence`.
cv::Mat RenderLiveEvidence(const TopView& view, const cv::Mat& before_bgr, const cv::Mat& after_bgr,
                           const std::vector<Stand>& stands, const Verdict& verdict,
                           const LiveShotMarks& marks = {}, const EvidenceOptions& options = {});

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
                          const Verdict& verdict, const LiveShotMarks& marks = {});
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
