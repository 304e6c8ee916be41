#include "ui/live/gl_image.hpp"

#include <stdexcept>

#include <GL/gl.h>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

namespace referee::live {

GlTexture::GlTexture() {
  GLuint id = 0;
  glGenTextures(1, &id);
  id_ = id;
  glBindTexture(GL_TEXTURE_2D, id_);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
}

GlTexture::~GlTexture() {
  GLuint id = id_;
  if (id) glDeleteTextures(1, &id);
}

void GlTexture::Upload(const cv::Mat& bgr) {
  if (bgr.empty()) return;
  cv::Mat rgba;
  cv::cvtColor(bgr, rgba, bgr.channels() == 1 ? cv::COLOR_GRAY2RGBA : cv::COLOR_BGR2RGBA);
  glBindTexture(GL_TEXTURE_2D, id_);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, rgba.cols, rgba.rows, 0, GL_RGBA, GL_UNSIGNED_BYTE,
               rgba.data);
  size_ = rgba.size();
}

// ImGui takes a texture as a pointer-sized handle; a GL name is an integer, so the cast is the API.
void* GlTexture::id() const {
  return reinterpret_cast<void*>(static_cast<intptr_t>(id_));  // NOLINT(performance-no-int-to-ptr)
}

cv::Mat ReadFramebuffer(int width, int height) {
  cv::Mat rgba(height, width, CV_8UC4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data);
  cv::Mat bgr;
  cv::cvtColor(rgba, bgr, cv::COLOR_RGBA2BGR);
  cv::flip(bgr, bgr, 0);  // GL's first row is the bottom one
  return bgr;
}

void SavePng(const cv::Mat& bgr, const std::filesystem::path& path) {
  if (!cv::imwrite(path.string(), bgr)) {
    throw std::runtime_error(path.string() + ": cannot write the screenshot");
  }
}

}  // namespace referee::live
