#include "vision/block_shrink.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <opencv2/core/hal/intrin.hpp>
#include <opencv2/imgproc.hpp>

namespace referee {

namespace {

// Block means of an 8-bit image by an odd factor 3..15 in one pass: OpenCV's area resize has
// no vector path for it. Columns are summed over the factor's rows, then each value with the
// same channel's values of the next factor - 1 pixels (vector adds both), then every block's
// sum is picked and divided in fixed point: exact rounding, as cv::resize (an odd factor's
// block mean is never half-way between two levels).
cv::Mat BlockMean8u(const cv::Mat& image, int factor, cv::Size out_size) {
  const int cn = image.channels();
  cv::Mat out(out_size, CV_MAKETYPE(CV_8U, cn));
  const int n = out_size.width * factor * cn;  // values summed per row
  const int pad = factor * cn;                 // the horizontal sums read past the last block
  std::vector<uint16_t> col(static_cast<size_t>(n + pad), 0), run(static_cast<size_t>(n), 0);
  std::vector<const uchar*> rows(static_cast<size_t>(factor));
  const uint64_t inv = ((uint64_t{1} << 32) / static_cast<uint64_t>(factor * factor)) + 1;
  for (int oy = 0; oy < out_size.height; ++oy) {
    for (int k = 0; k < factor; ++k)
      rows[static_cast<size_t>(k)] = image.ptr<uchar>(oy * factor + k);
    int i = 0;
#if CV_SIMD128
    for (; i <= n - 16; i += 16) {
      cv::v_uint16x8 lo, hi;
      cv::v_expand(cv::v_load(rows[0] + i), lo, hi);
      for (int k = 1; k < factor; ++k) {
        cv::v_uint16x8 l, h;
        cv::v_expand(cv::v_load(rows[static_cast<size_t>(k)] + i), l, h);
        lo += l;
        hi += h;
      }
      cv::v_store(col.data() + i, lo);
      cv::v_store(col.data() + i + 8, hi);
    }
#endif
    for (; i < n; ++i) {
      int sum = 0;
      for (int k = 0; k < factor; ++k) sum += rows[static_cast<size_t>(k)][i];
      col[static_cast<size_t>(i)] = static_cast<uint16_t>(sum);
    }
    i = 0;
#if CV_SIMD128
    for (; i <= n - 8; i += 8) {
      cv::v_uint16x8 sum = cv::v_load(col.data() + i);
      for (int k = 1; k < factor; ++k) {
        sum += cv::v_load(col.data() + i + static_cast<ptrdiff_t>(k) * cn);
      }
      cv::v_store(run.data() + i, sum);
    }
#endif
    for (; i < n; ++i) {
      int sum = 0;
      for (int k = 0; k < factor; ++k)
        sum += col[static_cast<size_t>(i) + static_cast<size_t>(k * cn)];
      run[static_cast<size_t>(i)] = static_cast<uint16_t>(sum);
    }
    auto* o = out.ptr<uchar>(oy);
    for (int ox = 0; ox < out_size.width; ++ox) {
      const uint16_t* block = run.data() + static_cast<ptrdiff_t>(ox) * factor * cn;
      for (int c = 0; c < cn; ++c) {
        o[ox * cn + c] = static_cast<uchar>((block[c] * inv + (uint64_t{1} << 31)) >> 32);
      }
    }
  }
  return out;
}

}  // namespace

cv::Mat ShrinkByBlocks(const cv::Mat& image, int factor) {
  factor = std::max(1, factor);
  const cv::Size out(image.cols / factor, image.rows / factor);
  cv::Mat m = image(cv::Rect(0, 0, out.width * factor, out.height * factor));
  if (factor == 1) return m;
  while (factor % 2 == 0) {
    cv::Mat half;
    cv::resize(m, half, {m.cols / 2, m.rows / 2}, 0, 0, cv::INTER_AREA);
    m = half;
    factor /= 2;
  }
  if (factor > 1) {
    if (m.depth() == CV_8U && factor <= 15) return BlockMean8u(m, factor, out);
    cv::Mat rest;
    cv::resize(m, rest, out, 0, 0, cv::INTER_AREA);
    m = rest;
  }
  return m;
}

}  // namespace referee
