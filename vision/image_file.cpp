#include "vision/image_file.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <utility>

#include <opencv2/imgcodecs.hpp>

#include "engine/input_error.hpp"

namespace referee {

namespace {

bool StartsWith(const std::vector<unsigned char>& bytes, std::initializer_list<unsigned char> m) {
  return bytes.size() >= m.size() && std::equal(m.begin(), m.end(), bytes.begin());
}

enum class JpegWalk { kReachesEnd, kRunsOut, kUnclear };

// Walks a JPEG's segments from its start marker: each segment by its length (a thumbnail inside
// EXIF is skipped whole), each scan's entropy-coded data up to the next marker (inside it 0xFF
// is followed only by 0x00, a restart marker or more 0xFF), until the end-of-image marker.
// Data after that marker (a phone's trailer) is never read. kUnclear: the bytes are not laid
// out as segments, so the decoder is left to judge them.
JpegWalk WalkJpeg(const std::vector<unsigned char>& b) {
  const auto is_rst = [](unsigned char m) { return m >= 0xD0 && m <= 0xD7; };
  size_t i = 2;
  while (i + 1 < b.size()) {
    if (b[i] != 0xFF) return JpegWalk::kUnclear;
    const unsigned char m = b[i + 1];
    if (m == 0xFF) {  // fill byte before a marker
      ++i;
      continue;
    }
    i += 2;
    if (m == 0xD9) return JpegWalk::kReachesEnd;
    if (m == 0x01 || is_rst(m)) continue;  // markers without a length
    if (i + 1 >= b.size()) return JpegWalk::kRunsOut;
    const size_t len = (static_cast<size_t>(b[i]) << 8) | b[i + 1];
    if (len < 2) return JpegWalk::kUnclear;
    i += len;
    if (m != 0xDA) continue;
    while (i + 1 < b.size() &&
           !(b[i] == 0xFF && b[i + 1] != 0x00 && b[i + 1] != 0xFF && !is_rst(b[i + 1]))) {
      ++i;
    }
  }
  return JpegWalk::kRunsOut;
}

}  // namespace

std::string ImageCutShort(const std::vector<unsigned char>& bytes) {
  if (StartsWith(bytes, {0xFF, 0xD8, 0xFF})) {
    if (WalkJpeg(bytes) == JpegWalk::kRunsOut) {
      return "the JPEG is cut short (it ends before its end-of-image marker): the file was not "
             "written or copied completely";
    }
    return "";
  }
  if (StartsWith(bytes, {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'})) {
    // IEND is the last chunk: 4 bytes of length, "IEND", 4 bytes of CRC; allow a little
    // trailing data after it.
    constexpr size_t kTail = 64;
    const auto from = bytes.size() > kTail ? bytes.end() - kTail : bytes.begin();
    static constexpr std::array<unsigned char, 4> kIend{'I', 'E', 'N', 'D'};
    if (std::search(from, bytes.end(), kIend.begin(), kIend.end()) == bytes.end()) {
      return "the PNG is cut short (no IEND chunk at its end): the file was not written or "
             "copied completely";
    }
  }
  return "";
}

ImageFile ReadImageFile(const std::filesystem::path& path) {
  ImageFile out;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    out.problem = "cannot open the file";
    return out;
  }
  const std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)),
                                         std::istreambuf_iterator<char>());
  if (bytes.empty()) {
    out.problem = "the file is empty";
    return out;
  }
  out.problem = ImageCutShort(bytes);
  if (!out.problem.empty()) return out;
  out.image = cv::imdecode(bytes, cv::IMREAD_COLOR);
  if (out.image.empty()) out.problem = "not an image OpenCV can decode";
  return out;
}

std::string ImageBlank(const cv::Mat& image) {
  if (image.empty()) return "";
  cv::Scalar mean, spread;
  cv::meanStdDev(image, mean, spread);
  double widest = 0;
  for (int c = 0; c < image.channels(); ++c) widest = std::max(widest, spread[c]);
  // Sensor noise alone spreads a real frame by more; a table's grid and mat by tens of levels.
  constexpr double kMinSpread = 2.0;
  if (widest >= kMinSpread) return "";
  char buf[200];
  std::snprintf(buf, sizeof buf,
                "the image shows nothing (its pixels spread %.1f levels about a mean of %.0f): no "
                "table in view (lens cap on, camera covered, or the wrong camera?)",
                widest, mean[0]);
  return buf;
}

cv::Mat ReadImageFileOrThrow(const std::filesystem::path& path, const std::string& what) {
  ImageFile file = ReadImageFile(path);
  if (!file.problem.empty()) throw InputError(path.string(), "", what + ": " + file.problem);
  return std::move(file.image);
}

}  // namespace referee
