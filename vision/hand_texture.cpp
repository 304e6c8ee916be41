#include "vision/hand_texture.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include <opencv2/core/hal/intrin.hpp>
#include <opencv2/imgproc.hpp>

namespace referee {

namespace {

// Index i reflected into [0, n) without repeating the edge (OpenCV's BORDER_REFLECT_101).
int Reflect101(int i, int n) {
  if (n == 1) return 0;
  if (i < 0) return -i;
  if (i >= n) return 2 * n - 2 - i;
  return i;
}

// One grey row's |Sobel x| + |Sobel y| (unscaled, at most 2040) from its rows above (u), at
// (c) and below (d): vs is the vertical [1 2 1] sum, vd the vertical difference.
void SobelEnergyRow(const uchar* u, const uchar* c, const uchar* d, int w, int16_t* vs, int16_t* vd,
                    uint16_t* energy) {
  int x = 0;
#if CV_SIMD128
  for (; x <= w - 8; x += 8) {
    const cv::v_int16x8 uu = cv::v_reinterpret_as_s16(cv::v_load_expand(u + x));
    const cv::v_int16x8 cc = cv::v_reinterpret_as_s16(cv::v_load_expand(c + x));
    const cv::v_int16x8 dd = cv::v_reinterpret_as_s16(cv::v_load_expand(d + x));
    cv::v_store(vs + x, uu + dd + cc + cc);
    cv::v_store(vd + x, dd - uu);
  }
#endif
  for (; x < w; ++x) {
    vs[x] = static_cast<int16_t>(u[x] + 2 * c[x] + d[x]);
    vd[x] = static_cast<int16_t>(d[x] - u[x]);
  }
  const auto at = [&](int i) {
    const int l = Reflect101(i - 1, w), r = Reflect101(i + 1, w);
    return static_cast<uint16_t>(std::abs(vs[r] - vs[l]) + std::abs(vd[l] + 2 * vd[i] + vd[r]));
  };
  energy[0] = at(0);
  x = 1;
#if CV_SIMD128
  for (; x <= w - 9; x += 8) {
    const cv::v_int16x8 sl = cv::v_load(vs + x - 1), sr = cv::v_load(vs + x + 1);
    const cv::v_int16x8 dl = cv::v_load(vd + x - 1), dc = cv::v_load(vd + x);
    const cv::v_int16x8 dr = cv::v_load(vd + x + 1);
    const cv::v_uint16x8 gx = cv::v_abs(sr - sl);
    const cv::v_uint16x8 gy = cv::v_abs(dl + dr + dc + dc);
    cv::v_store(energy + x, gx + gy);
  }
#endif
  for (; x < w; ++x) energy[x] = at(x);
}

}  // namespace

cv::Mat EdgeContrastCells(const cv::Mat& fine_bgr) {
  const cv::Size cells(fine_bgr.cols / 2, fine_bgr.rows / 2);
  if (cells.area() == 0) return cv::Mat(cells, CV_32F, cv::Scalar(0));
  cv::Mat gray;
  cv::cvtColor(fine_bgr, gray, cv::COLOR_BGR2GRAY);
  // One pass over the grey picture (no gradient images): each cell sums its 2x2 pixels'
  // gradient energy and grey levels.
  const int w = gray.cols, h = gray.rows;
  std::vector<int16_t> vs(static_cast<size_t>(w)), vd(static_cast<size_t>(w));
  std::vector<uint16_t> energy(static_cast<size_t>(w));
  std::vector<int> energy_sum(static_cast<size_t>(cells.width));
  std::vector<int> gray_sum(static_cast<size_t>(cells.width));
  cv::Mat out(cells, CV_32F);
  for (int cy = 0; cy < cells.height; ++cy) {
    std::fill(energy_sum.begin(), energy_sum.end(), 0);
    std::fill(gray_sum.begin(), gray_sum.end(), 0);
    for (int y = 2 * cy; y < 2 * cy + 2; ++y) {
      const uchar* c = gray.ptr<uchar>(y);
      SobelEnergyRow(gray.ptr<uchar>(Reflect101(y - 1, h)), c,
                     gray.ptr<uchar>(Reflect101(y + 1, h)), w, vs.data(), vd.data(), energy.data());
      for (size_t cx = 0; cx < energy_sum.size(); ++cx) {
        energy_sum[cx] += energy[2 * cx] + energy[2 * cx + 1];
        gray_sum[cx] += c[2 * cx] + c[2 * cx + 1];
      }
    }
    auto* o = out.ptr<float>(cy);
    for (int cx = 0; cx < cells.width; ++cx) {
      // Sobel's 1/4 (grey levels per pixel) and the mean over 4 pixels; the cell's grey level
      // rounded as OpenCV's 2x area resize rounds it (halves up).
      const float mean_energy = static_cast<float>(energy_sum[static_cast<size_t>(cx)]) / 16.0f;
      const auto mean_gray = static_cast<float>((gray_sum[static_cast<size_t>(cx)] + 2) >> 2);
      o[cx] = mean_energy / (mean_gray + 4.0f);
    }
  }
  return out;
}

cv::Mat TextureChangedCells(const cv::Mat& before, const cv::Mat& after, double level) {
  if (before.empty() || before.size() != after.size()) return cv::Mat(after.size(), CV_8U, 0.0);
  // By `level` and by a third of the larger: an exposure change moves every cell's contrast a
  // little (the grey offset, rounding), a hidden grid line or grain takes most of it away.
  constexpr double kMinRatio = 1.5;
  cv::Mat diff, low, high;
  cv::absdiff(before, after, diff);
  cv::min(before, after, low);
  cv::max(before, after, high);
  return (diff >= level) & (high >= kMinRatio * low);
}

}  // namespace referee
