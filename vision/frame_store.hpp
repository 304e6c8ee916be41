// Frames referenced by a game log, stored beside it as files named by the hash of their
// encoded bytes (content-addressed): the same frame is stored once, and a file that no longer
// matches its name is known to be damaged. The log holds only the file name.
#pragma once

#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

namespace referee {

// FNV-1a 64-bit of `bytes` as 16 lowercase hex digits. Not cryptographic: it names frames of
// one game (a few thousand files), where an accidental collision is ~1e-12.
std::string Fnv1a64Hex(std::span<const unsigned char> bytes);

class FrameStore {
 public:
  explicit FrameStore(std::filesystem::path dir) : dir_(std::move(dir)) {}
  // The store of a game log: FramesDirFor(log_path) ("<log folder>/frames").
  static FrameStore ForLog(const std::filesystem::path& log_path);

  // Encodes a BGR (or grey) frame as JPEG and stores it as "<hash>.jpg"; the file is on disk
  // (fsynced, renamed into place) before this returns, so a log event may then refer to it.
  // jpeg_quality: 0-100, default 90 (raise for evidence you expect to zoom into).
  // Throws std::runtime_error if the frame cannot be encoded or written.
  std::string PutJpeg(const cv::Mat& frame, int jpeg_quality = 90) const;
  // Stores already-encoded bytes (e.g. an evidence PNG) as "<hash>.<ext>".
  std::string PutEncoded(std::span<const unsigned char> bytes, const std::string& ext) const;

  std::filesystem::path PathOf(const std::string& name) const { return dir_ / name; }
  // The stored bytes, or nothing when the file is missing or no longer matches its name.
  std::optional<std::vector<unsigned char>> ReadVerified(const std::string& name) const;
  // The decoded frame, or an empty Mat when missing or damaged.
  cv::Mat Load(const std::string& name) const;
  const std::filesystem::path& dir() const { return dir_; }

 private:
  std::filesystem::path dir_;
};

}  // namespace referee
