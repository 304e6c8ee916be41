#include "vision/floor_colours.hpp"

#include <algorithm>
#include <array>

#include "vision/stand_surface.hpp"

namespace referee {

namespace {

// The mat test of the shell support: no brightening, 15 % of the colour (at least 25 levels).
bool LikeFlat(const cv::Vec3b& bgr, const cv::Vec3d& colour) {
  return LikeColour(bgr, colour, 1.0, 0.15, 25.0);
}

// Blends tried between two floor colours: an eighth apart, so neighbouring blends overlap
// within LikeFlat's tolerance.
constexpr int kBlendSteps = 8;

}  // namespace

std::vector<cv::Vec3d> FlatArtColours(const cv::Mat& before, const cv::Mat& where,
                                      const cv::Vec3d& mat, double min_share, int max_colours) {
  std::vector<cv::Vec3b> left;
  int n = 0;
  for (int y = 0; y < before.rows; ++y) {
    for (int x = 0; x < before.cols; ++x) {
      if (!where.at<uchar>(y, x)) continue;
      ++n;
      const cv::Vec3b& v = before.at<cv::Vec3b>(y, x);
      if (!LikeFlat(v, mat)) left.push_back(v);
    }
  }
  std::vector<cv::Vec3d> out;
  while (static_cast<int>(out.size()) < max_colours && !left.empty()) {
    // The most common colour left (32 levels a channel), refined to the median of the pixels
    // near it, as a base's bare top is read (StandSurface).
    std::vector<int> bins(kColourBins, 0);
    for (const cv::Vec3b& v : left) ++bins[ColourBin(v)];
    const int mode = static_cast<int>(std::max_element(bins.begin(), bins.end()) - bins.begin());
    const cv::Vec3d centre = BinCentre(mode);
    std::array<std::vector<int>, 3> ch;
    for (const cv::Vec3b& v : left) {
      if (cv::norm(cv::Vec3d(v[0], v[1], v[2]) - centre) > kBinReach) continue;
      for (int c = 0; c < 3; ++c) ch[c].push_back(v[c]);
    }
    if (ch[0].empty()) break;
    cv::Vec3d colour;
    for (int c = 0; c < 3; ++c) {
      auto mid = ch[c].begin() + static_cast<long>(ch[c].size() / 2);
      std::nth_element(ch[c].begin(), mid, ch[c].end());
      colour[c] = *mid;
    }
    const auto like = [&](const cv::Vec3b& v) { return LikeFlat(v, colour); };
    const auto members = std::count_if(left.begin(), left.end(), like);
    if (static_cast<double>(members) < min_share * n) break;
    out.push_back(colour);
    left.erase(std::remove_if(left.begin(), left.end(), like), left.end());
  }
  return out;
}

bool LikeFloor(const cv::Vec3b& bgr, const std::vector<cv::Vec3d>& colours) {
  for (size_t i = 0; i < colours.size(); ++i) {
    if (LikeFlat(bgr, colours[i])) return true;
    for (size_t j = i + 1; j < colours.size(); ++j) {
      for (int k = 1; k < kBlendSteps; ++k) {
        const double a = static_cast<double>(k) / kBlendSteps;
        if (LikeFlat(bgr, a * colours[i] + (1 - a) * colours[j])) return true;
      }
    }
  }
  return false;
}

}  // namespace referee
