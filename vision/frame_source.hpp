// Where frames come from: a webcam (cv::VideoCapture on a device index), a video file, or a
// folder of numbered images played in number order. One interface so the live overlay, the
// demo and the tests read frames the same way.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <opencv2/core.hpp>
#include <opencv2/videoio.hpp>

namespace referee {

// What to ask a webcam for. Automatic exposure, white balance and focus change the picture on
// their own and ruin change detection, so they are locked by default; devices that refuse a
// setting keep working and say so in FrameSource::settings_report().
struct CameraSettings {
  int width_px = 1280;        // requested frame width; 0 = the device's default
  int height_px = 720;        // requested frame height; 0 = the device's default
  double fps = 30.0;          // requested frame rate; 0 = the device's default
  bool mjpeg = true;          // ask for MJPEG (most webcams give full resolution only in MJPEG)
  bool lock_exposure = true;  // manual exposure at the device's current value
  double exposure = -1;       // manual exposure value (device units); <0 keeps the current
  bool lock_white_balance = true;  // auto white balance off
  bool lock_focus = true;          // autofocus off
};

class FrameSource {
 public:
  enum class Kind { kCamera, kVideo, kImages };

  // Each throws InputError naming the device, file or folder when it cannot be opened.
  static FrameSource OpenCamera(int index, const CameraSettings& settings = {});
  static FrameSource OpenVideo(const std::filesystem::path& file);
  static FrameSource OpenImages(const std::filesystem::path& dir);

  FrameSource(FrameSource&&) noexcept;
  FrameSource& operator=(FrameSource&&) noexcept;
  ~FrameSource();

  // The next frame (BGR, 8-bit); false at the end of a file or folder or when a camera stops.
  bool Read(cv::Mat& frame);
  // Back to the first frame (files and folders; a camera just keeps streaming).
  void Rewind();

  Kind kind() const { return kind_; }
  bool live() const { return kind_ == Kind::kCamera; }
  std::string Describe() const;  // e.g. "camera 0 (1280x720 @ 30 fps)", "images dir (42 frames)"
  double fps() const { return fps_; }  // nominal; images play at 10 fps unless told otherwise
  int frames_read() const { return frames_read_; }
  int frame_count() const { return frame_count_; }  // -1 for a camera
  // Image folders: the file each frame came from, in play order.
  const std::vector<std::filesystem::path>& image_files() const { return image_files_; }
  // One line per camera setting: what was asked and what the device reports now.
  const std::vector<std::string>& settings_report() const { return settings_report_; }
  // Changes the camera's settings while it streams (cv::VideoCapture::set): an unlocked
  // exposure, white balance or focus is switched back to automatic. Returns the new report (also
  // kept in settings_report()); a video or image folder sets nothing and says so.
  const std::vector<std::string>& ApplySettings(const CameraSettings& settings);
  // What was last asked of the camera (the defaults for a file or folder).
  const CameraSettings& settings() const { return settings_; }

 private:
  FrameSource() = default;

  Kind kind_ = Kind::kVideo;
  std::string name_;
  std::unique_ptr<cv::VideoCapture> capture_;
  std::vector<std::filesystem::path> image_files_;
  size_t next_image_ = 0;
  double fps_ = 10.0;
  int frames_read_ = 0;
  int frame_count_ = -1;
  std::vector<std::string> settings_report_;
  CameraSettings settings_;
};

// The image files of a folder in play order: by the last number in the file name (so
// frame_2 comes before frame_10), then by name; files without a number last. Extensions: jpg, jpeg,
// png, bmp, tif, tiff.
std::vector<std::filesystem::path> NumberedImages(const std::filesystem::path& dir);

}  // namespace referee
