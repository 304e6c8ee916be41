// The GL side of pictures: a texture holding the latest camera (or top) view, and reading the
// rendered window back into a PNG for --screenshot-dir.
#pragma once

#include <filesystem>

#include <opencv2/core.hpp>

namespace referee::live {

class GlTexture {
 public:
  GlTexture();
  ~GlTexture();
  GlTexture(const GlTexture&) = delete;
  GlTexture& operator=(const GlTexture&) = delete;

  void Upload(const cv::Mat& bgr);  // 8-bit BGR (or grey)
  void* id() const;                 // as ImTextureID
  cv::Size size() const { return size_; }
  bool empty() const { return size_.area() == 0; }

 private:
  unsigned int id_ = 0;
  cv::Size size_;
};

// The current framebuffer (size w x h) as a BGR image, top row first.
cv::Mat ReadFramebuffer(int width, int height);
// Writes it as PNG; throws std::runtime_error if the file cannot be written.
void SavePng(const cv::Mat& bgr, const std::filesystem::path& path);

}  // namespace referee::live
