#include "vision/frame_store.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include <opencv2/imgcodecs.hpp>

#include "engine/game_log.hpp"

namespace referee {
namespace {

void WriteDurably(const std::filesystem::path& path, std::span<const unsigned char> bytes) {
  // Write to a temporary name, fsync, then rename: a crash never leaves a half file under a
  // content name.
  const auto tmp = path.string() + ".tmp" + std::to_string(::getpid());
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw std::runtime_error(tmp + ": cannot create: " + std::strerror(errno));
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const std::string why = std::strerror(errno);
      ::close(fd);
      ::unlink(tmp.c_str());
      throw std::runtime_error(std::string(tmp).append(": cannot write: ").append(why));
    }
    done += static_cast<size_t>(n);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    ::unlink(tmp.c_str());
    throw std::runtime_error(tmp + ": cannot sync");
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    ::unlink(tmp.c_str());
    throw std::runtime_error(path.string() + ": cannot rename into place");
  }
  const int dir = ::open(path.parent_path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
}

}  // namespace

std::string Fnv1a64Hex(std::span<const unsigned char> bytes) {
  uint64_t h = 14695981039346656037ull;  // FNV-1a 64 offset basis
  for (unsigned char b : bytes) {
    h ^= b;
    h *= 1099511628211ull;  // FNV-1a 64 prime
  }
  char out[17];
  std::snprintf(out, sizeof out, "%016llx", static_cast<unsigned long long>(h));
  return out;
}

FrameStore FrameStore::ForLog(const std::filesystem::path& log_path) {
  return FrameStore(FramesDirFor(log_path));
}

std::string FrameStore::PutEncoded(std::span<const unsigned char> bytes,
                                   const std::string& ext) const {
  std::string name = Fnv1a64Hex(bytes) + "." + ext;
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  if (ec) throw std::runtime_error(dir_.string() + ": cannot create: " + ec.message());
  const auto path = PathOf(name);
  // Already stored (same bytes, same name) and intact: nothing to do.
  if (std::filesystem::exists(path) && ReadVerified(name)) return name;
  WriteDurably(path, bytes);
  return name;
}

std::string FrameStore::PutJpeg(const cv::Mat& frame, int jpeg_quality) const {
  if (frame.empty()) throw std::runtime_error("frame store: empty frame");
  std::vector<unsigned char> jpeg;
  if (!cv::imencode(".jpg", frame, jpeg, {cv::IMWRITE_JPEG_QUALITY, jpeg_quality}))
    throw std::runtime_error("frame store: JPEG encoding failed");
  return PutEncoded(jpeg, "jpg");
}

std::optional<std::vector<unsigned char>> FrameStore::ReadVerified(const std::string& name) const {
  std::ifstream in(PathOf(name), std::ios::binary);
  if (!in) return std::nullopt;
  std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)),
                                   std::istreambuf_iterator<char>());
  const auto dot = name.find('.');
  if (Fnv1a64Hex(bytes) != name.substr(0, dot)) return std::nullopt;
  return bytes;
}

cv::Mat FrameStore::Load(const std::string& name) const {
  const auto bytes = ReadVerified(name);
  if (!bytes) return {};
  return cv::imdecode(*bytes, cv::IMREAD_COLOR);
}

}  // namespace referee
