#include "vision/frame_source.hpp"

#include <algorithm>
#include <cctype>
#include <limits>
#include <sstream>

#include <opencv2/imgcodecs.hpp>

#include "engine/input_error.hpp"
#include "vision/image_file.hpp"

namespace referee {

namespace {

// The last run of digits in a file stem, or -1.
long long LastNumber(const std::string& stem) {
  long long value = -1;
  size_t i = stem.size();
  while (i > 0 && !std::isdigit(static_cast<unsigned char>(stem[i - 1]))) --i;
  size_t end = i;
  while (i > 0 && std::isdigit(static_cast<unsigned char>(stem[i - 1]))) --i;
  if (end > i) value = std::stoll(stem.substr(i, std::min<size_t>(end - i, 18)));
  return value;
}

bool IsImageFile(const std::filesystem::path& p) {
  std::string ext = p.extension().string();
  std::ranges::transform(ext, ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext == ".jpg" || ext == ".jpeg" || ext == ".png" || ext == ".bmp" || ext == ".tif" ||
         ext == ".tiff";
}

std::string Fixed(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

// Tries one property and records what the device says afterwards.
void TrySet(cv::VideoCapture& cap, int prop, double value, const std::string& what,
            std::vector<std::string>& report) {
  const bool accepted = cap.set(prop, value);
  report.push_back(what + ": asked " + Fixed(value) + ", device " +
                   (accepted ? "accepted" : "refused") + ", now " + Fixed(cap.get(prop)));
}

// Asks the device for `settings`; unlock: switch the unlocked controls back to automatic.
std::vector<std::string> SetCameraProperties(cv::VideoCapture& cap, const CameraSettings& settings,
                                             bool unlock) {
  std::vector<std::string> report;
  if (settings.mjpeg) {
    TrySet(cap, cv::CAP_PROP_FOURCC, cv::VideoWriter::fourcc('M', 'J', 'P', 'G'), "fourcc MJPG",
           report);
  }
  if (settings.width_px > 0)
    TrySet(cap, cv::CAP_PROP_FRAME_WIDTH, settings.width_px, "width", report);
  if (settings.height_px > 0) {
    TrySet(cap, cv::CAP_PROP_FRAME_HEIGHT, settings.height_px, "height", report);
  }
  if (settings.fps > 0) TrySet(cap, cv::CAP_PROP_FPS, settings.fps, "fps", report);
  // V4L2 encodes "manual" as 1 and "aperture priority auto" as 3; other backends use 0.25/0.75.
  const bool v4l2 = cap.getBackendName() == "V4L2";
  if (settings.lock_exposure) {
    const double current = cap.get(cv::CAP_PROP_EXPOSURE);
    TrySet(cap, cv::CAP_PROP_AUTO_EXPOSURE, v4l2 ? 1.0 : 0.25, "auto exposure off", report);
    TrySet(cap, cv::CAP_PROP_EXPOSURE, settings.exposure >= 0 ? settings.exposure : current,
           "exposure", report);
  } else if (unlock) {
    TrySet(cap, cv::CAP_PROP_AUTO_EXPOSURE, v4l2 ? 3.0 : 0.75, "auto exposure on", report);
  }
  if (settings.lock_white_balance) {
    TrySet(cap, cv::CAP_PROP_AUTO_WB, 0, "auto white balance off", report);
  } else if (unlock) {
    TrySet(cap, cv::CAP_PROP_AUTO_WB, 1, "auto white balance on", report);
  }
  if (settings.lock_focus) {
    TrySet(cap, cv::CAP_PROP_AUTOFOCUS, 0, "autofocus off", report);
  } else if (unlock) {
    TrySet(cap, cv::CAP_PROP_AUTOFOCUS, 1, "autofocus on", report);
  }
  return report;
}

}  // namespace

const std::vector<std::string>& FrameSource::ApplySettings(const CameraSettings& settings) {
  if (kind_ != Kind::kCamera || !capture_) {
    settings_report_ = {"not a camera (" + Describe() + "): no settings to change"};
    return settings_report_;
  }
  settings_report_ = SetCameraProperties(*capture_, settings, /*unlock=*/true);
  settings_ = settings;
  const double fps = capture_->get(cv::CAP_PROP_FPS);
  if (fps > 0) fps_ = fps;
  return settings_report_;
}

std::vector<std::filesystem::path> NumberedImages(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.is_regular_file() && IsImageFile(entry.path())) files.push_back(entry.path());
  }
  std::ranges::sort(files, [](const auto& a, const auto& b) {
    // Files without a number play after the numbered ones.
    const auto key = [](const std::filesystem::path& p) {
      const long long n = LastNumber(p.stem().string());
      return n < 0 ? std::numeric_limits<long long>::max() : n;
    };
    const long long na = key(a);
    const long long nb = key(b);
    if (na != nb) return na < nb;
    return a.filename() < b.filename();
  });
  return files;
}

FrameSource::FrameSource(FrameSource&&) noexcept = default;
FrameSource& FrameSource::operator=(FrameSource&&) noexcept = default;
FrameSource::~FrameSource() = default;

FrameSource FrameSource::OpenCamera(int index, const CameraSettings& settings) {
  const std::string name = "camera " + std::to_string(index);
  FrameSource src;
  src.kind_ = Kind::kCamera;
  src.name_ = name;
  src.capture_ = std::make_unique<cv::VideoCapture>();
  // V4L2 first (it honours the manual-control properties on Linux), then whatever works.
  if (!src.capture_->open(index, cv::CAP_V4L2) && !src.capture_->open(index, cv::CAP_ANY)) {
    throw InputError(name, "", "cannot open the camera (is it plugged in and free?)");
  }
  auto& cap = *src.capture_;
  // At start-up an unlocked control is left as the device has it.
  src.settings_report_ = SetCameraProperties(cap, settings, /*unlock=*/false);
  src.settings_ = settings;
  const double fps = cap.get(cv::CAP_PROP_FPS);
  src.fps_ = fps > 0 ? fps : 30.0;
  return src;
}

FrameSource FrameSource::OpenVideo(const std::filesystem::path& file) {
  if (!std::filesystem::is_regular_file(file)) {
    throw InputError(file.string(), "", "no such video file");
  }
  FrameSource src;
  src.kind_ = Kind::kVideo;
  src.name_ = file.string();
  src.capture_ = std::make_unique<cv::VideoCapture>(file.string(), cv::CAP_ANY);
  if (!src.capture_->isOpened()) throw InputError(file.string(), "", "cannot decode the video");
  const double fps = src.capture_->get(cv::CAP_PROP_FPS);
  src.fps_ = fps > 0 && fps < 1000 ? fps : 30.0;
  src.frame_count_ = static_cast<int>(src.capture_->get(cv::CAP_PROP_FRAME_COUNT));
  return src;
}

FrameSource FrameSource::OpenImages(const std::filesystem::path& dir) {
  if (!std::filesystem::is_directory(dir)) {
    throw InputError(dir.string(), "", "not a folder of images");
  }
  FrameSource src;
  src.kind_ = Kind::kImages;
  src.name_ = dir.string();
  src.image_files_ = NumberedImages(dir);
  if (src.image_files_.empty()) {
    throw InputError(dir.string(), "", "holds no .jpg/.png/.bmp/.tif images");
  }
  src.frame_count_ = static_cast<int>(src.image_files_.size());
  return src;
}

bool FrameSource::Read(cv::Mat& frame) {
  if (kind_ == Kind::kImages) {
    while (next_image_ < image_files_.size()) {
      const auto& path = image_files_[next_image_++];
      frame = ReadImageFileOrThrow(path, "cannot decode the image");
      ++frames_read_;
      return true;
    }
    return false;
  }
  if (!capture_->read(frame) || frame.empty()) return false;
  ++frames_read_;
  return true;
}

void FrameSource::Rewind() {
  if (kind_ == Kind::kImages) {
    next_image_ = 0;
  } else if (kind_ == Kind::kVideo) {
    capture_->set(cv::CAP_PROP_POS_FRAMES, 0);
  }
}

std::string FrameSource::Describe() const {
  std::ostringstream s;
  switch (kind_) {
    case Kind::kCamera:
      s << name_ << " (" << capture_->get(cv::CAP_PROP_FRAME_WIDTH) << "x"
        << capture_->get(cv::CAP_PROP_FRAME_HEIGHT) << " @ " << fps_ << " fps)";
      break;
    case Kind::kVideo:
      s << "video " << name_ << " (" << frame_count_ << " frames)";
      break;
    case Kind::kImages:
      s << "images " << name_ << " (" << frame_count_ << " frames)";
      break;
  }
  return s.str();
}

}  // namespace referee
