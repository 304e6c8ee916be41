// Camera images read from disk. A JPEG or PNG cut short (a copy interrupted, a camera app still
// writing the file, a card pulled out) still decodes: libjpeg fills the missing rows with grey
// and only warns. The referee then saw a large change and ruled it a hand over the table; the
// user is told instead that the file is incomplete.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

namespace referee {

// What is wrong with `bytes` as a whole image file, "" when nothing is seen: a JPEG (FF D8 FF)
// whose segments and scans run out before its end-of-image marker (data a phone appends after
// the marker is never read), a PNG with no IEND chunk near its end. Other formats are not
// checked.
std::string ImageCutShort(const std::vector<unsigned char>& bytes);

// An image read whole (BGR), or `problem` saying why not, for a one-line message that the
// caller prefixes with the file's name: it cannot be opened, it is cut short, it is not an
// image OpenCV can decode.
struct ImageFile {
  cv::Mat image;
  std::string problem;
};
ImageFile ReadImageFile(const std::filesystem::path& path);

// What is wrong with a decoded camera image that shows nothing, "" when it has any picture: every
// channel within a couple of levels of one value (a lens cap, a covered or dark camera, a
// black frame saved by mistake). Such a pair was refused as "nothing changed" or as a hand.
std::string ImageBlank(const cv::Mat& image);

// The image, or an InputError naming the file: "<path>: <what> <problem>".
cv::Mat ReadImageFileOrThrow(const std::filesystem::path& path, const std::string& what);

}  // namespace referee
