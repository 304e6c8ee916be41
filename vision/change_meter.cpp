#include "vision/change_meter.hpp"

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include <opencv2/core/hal/intrin.hpp>
#include <opencv2/imgproc.hpp>

namespace referee {

namespace {

// Per-channel gain with after * gain ~ before across the picture: a plane in log gain over the
// picture, a webcam's exposure and white balance (its level) and a bystander's shadow or a
// lamp's light falling off across the table (its slopes). Fitted to block means, square blocks
// of a whole number of cells, about 16 across (the cells past the last whole block are left
// out; an integer factor keeps cv::resize on its block-average path). Robust to a hand, a
// shadow or a projectile over part of the table: started from the median over blocks, and each
// of a few refits keeps only the blocks that agree best with the last one. Clamped to [0.5, 2].
class GainField {
 public:
  GainField(const cv::Mat& before, const cv::Mat& after) {
    block_ = std::max(1, before.cols / 16);
    const int cols = std::max(1, before.cols / block_);
    const int rows = std::max(1, before.rows / block_);
    const cv::Rect whole(0, 0, std::min(before.cols, cols * block_),
                         std::min(before.rows, rows * block_));
    cv::Mat b, a;
    cv::resize(before(whole), b, {cols, rows}, 0, 0, cv::INTER_AREA);
    cv::resize(after(whole), a, {cols, rows}, 0, 0, cv::INTER_AREA);
    std::vector<cv::Point3f> ratios;  // block centre x, y (cells) and log(before / after)
    ratios.reserve(b.total());
    for (int c = 0; c < 3; ++c) {
      ratios.clear();
      for (int y = 0; y < rows; ++y) {
        for (int x = 0; x < cols; ++x) {
          const float bv = b.at<cv::Vec3b>(y, x)[c], av = a.at<cv::Vec3b>(y, x)[c];
          if (bv > 8 && av > 8)  // black fill outside the camera: no info
            ratios.emplace_back((static_cast<float>(x) + 0.5f) * static_cast<float>(block_),
                                (static_cast<float>(y) + 0.5f) * static_cast<float>(block_),
                                std::log(bv / av));
        }
      }
      plane_[c] = FitPlane(ratios);
    }
  }
  // Gain of each channel at cell (x, y).
  cv::Vec3f At(float x, float y) const {
    cv::Vec3f g;
    for (int c = 0; c < 3; ++c) {
      g[c] = std::clamp(std::exp(plane_[c][0] + plane_[c][1] * x + plane_[c][2] * y), 0.5f, 2.0f);
    }
    return g;
  }
  int block() const { return block_; }

 private:
  // log gain = p0 + p1 x + p2 y through the points that agree with it best.
  static cv::Vec3f FitPlane(std::vector<cv::Point3f>& pts) {
    if (pts.empty()) return {0, 0, 0};
    std::vector<float> z;
    z.reserve(pts.size());
    for (const auto& p : pts) z.push_back(p.z);
    std::nth_element(z.begin(), z.begin() + static_cast<long>(z.size() / 2), z.end());
    cv::Vec3f plane(z[z.size() / 2], 0, 0);
    // Share of the blocks each refit keeps. A hand, a stand moved or a person's shadow covers
    // less than that; a light falling off across the table covers all of it.
    constexpr double kKept = 0.6;
    constexpr int kRefits = 3;
    const auto kept = static_cast<size_t>(kKept * static_cast<double>(pts.size()));
    if (kept < 8) return plane;
    std::vector<std::pair<float, size_t>> residual(pts.size());
    for (int it = 0; it < kRefits; ++it) {
      for (size_t i = 0; i < pts.size(); ++i) {
        const auto& p = pts[i];
        residual[i] = {std::abs(p.z - (plane[0] + plane[1] * p.x + plane[2] * p.y)), i};
      }
      std::nth_element(residual.begin(), residual.begin() + static_cast<long>(kept),
                       residual.end());
      cv::Matx33d ata = cv::Matx33d::zeros();
      cv::Vec3d atb(0, 0, 0);
      for (size_t k = 0; k < kept; ++k) {
        const auto& p = pts[residual[k].second];
        const cv::Vec3d row(1.0, p.x, p.y);
        ata += row * row.t();
        atb += row * static_cast<double>(p.z);
      }
      cv::Vec3d sol;
      if (!cv::solve(ata, atb, sol, cv::DECOMP_CHOLESKY)) break;  // blocks on one line
      plane = cv::Vec3f(static_cast<float>(sol[0]), static_cast<float>(sol[1]),
                        static_cast<float>(sol[2]));
    }
    return plane;
  }

  int block_ = 1;
  cv::Vec3f plane_[3];
};

// Whether one cell changed: by at least `level` in the channel that changed most after the
// gain, and not as a shadow (every channel darker by about the same ratio).
bool CellChanged(const cv::Vec3b& b, const cv::Vec3b& a, const cv::Vec3f& g, float level) {
  const std::array<float, 3> bc{static_cast<float>(b[0]), static_cast<float>(b[1]),
                                static_cast<float>(b[2])};
  const std::array<float, 3> ac{static_cast<float>(a[0]) * g[0], static_cast<float>(a[1]) * g[1],
                                static_cast<float>(a[2]) * g[2]};
  const float d =
      std::max({std::abs(ac[0] - bc[0]), std::abs(ac[1] - bc[1]), std::abs(ac[2] - bc[2])});
  if (d < level) return false;
  std::array<float, 3> r{};
  for (int c = 0; c < 3; ++c) r[c] = (ac[c] + 4.0f) / (bc[c] + 4.0f);
  const float rmax = std::max({r[0], r[1], r[2]}), rmin = std::min({r[0], r[1], r[2]});
  const bool shadow = rmax < 0.92f && rmin > 0.3f && rmax / rmin < 1.15f;
  return !shadow;
}

// Marks (255) the cells of one row that may have changed by `level`: the gain in fixed point
// (1/128), so the test is a superset of the exact one (its error is below one level, the
// threshold is lowered by one) and runs 16 cells at a time. Every mark is checked exactly after.
void MarkCandidates(const uchar* b, const uchar* a, uchar* out, int cols, const cv::Vec3f& g,
                    float level) {
  std::array<int, 3> gq{};
  for (int c = 0; c < 3; ++c) gq[c] = static_cast<int>(std::lround(g[c] * 128.0f));  // 64..256
  const int threshold = std::max(0, static_cast<int>(std::floor(level * 128.0f)) - 128);
  int x = 0;
#if CV_SIMD128
  const cv::v_uint16x8 g0 = cv::v_setall_u16(static_cast<ushort>(gq[0]));
  const cv::v_uint16x8 g1 = cv::v_setall_u16(static_cast<ushort>(gq[1]));
  const cv::v_uint16x8 g2 = cv::v_setall_u16(static_cast<ushort>(gq[2]));
  const cv::v_uint16x8 t = cv::v_setall_u16(static_cast<ushort>(std::min(threshold, 65535)));
  // |a * g - b * 128| for one channel, low and high 8 cells (a * g <= 255 * 256 fits 16 bits).
  const auto diff = [](const cv::v_uint8x16& bv, const cv::v_uint8x16& av, const cv::v_uint16x8& gv,
                       cv::v_uint16x8& lo, cv::v_uint16x8& hi) {
    cv::v_uint16x8 b_lo, b_hi, a_lo, a_hi;
    cv::v_expand(bv, b_lo, b_hi);
    cv::v_expand(av, a_lo, a_hi);
    lo = cv::v_absdiff(cv::v_mul_wrap(a_lo, gv), cv::v_shl<7>(b_lo));
    hi = cv::v_absdiff(cv::v_mul_wrap(a_hi, gv), cv::v_shl<7>(b_hi));
  };
  for (; x <= cols - 16; x += 16) {
    cv::v_uint8x16 b0, b1, b2, a0, a1, a2;
    const ptrdiff_t at = static_cast<ptrdiff_t>(x) * 3;
    cv::v_load_deinterleave(b + at, b0, b1, b2);
    cv::v_load_deinterleave(a + at, a0, a1, a2);
    cv::v_uint16x8 d0l, d0h, d1l, d1h, d2l, d2h;
    diff(b0, a0, g0, d0l, d0h);
    diff(b1, a1, g1, d1l, d1h);
    diff(b2, a2, g2, d2l, d2h);
    const cv::v_uint16x8 lo = cv::v_max(d0l, cv::v_max(d1l, d2l)) >= t;
    const cv::v_uint16x8 hi = cv::v_max(d0h, cv::v_max(d1h, d2h)) >= t;
    cv::v_store(out + x, cv::v_pack(lo, hi));
  }
#endif
  for (; x < cols; ++x) {
    int d = 0;
    for (int c = 0; c < 3; ++c)
      d = std::max(d, std::abs(a[3 * x + c] * gq[c] - b[3 * x + c] * 128));
    out[x] = d >= threshold ? 255 : 0;
  }
}

}  // namespace

ChangeMeter::ChangeMeter(const TopView& view, ChangeOptions options) : options_(options) {
  mm_per_px_ = view.MmPerPx();
  factor_ = std::max(1, static_cast<int>(std::lround(options_.cell_mm / mm_per_px_)));
  cell_area_mm2_ = std::pow(factor_ * view.MmPerPx(), 2);
  full_ = view.size();
  cells_ = {std::max(1, full_.width / factor_), std::max(1, full_.height / factor_)};
  // A cell is seen when all of it samples the camera image; the edge band is the seen cells
  // within two cells of the view border or of the unseen fill (where an arm must come in).
  cv::Mat seen = view.seen_mask();
  if (seen.empty()) seen = cv::Mat(full_, CV_8U, cv::Scalar(255));
  cv::Mat seen_cells;
  cv::resize(seen(cv::Rect(0, 0, cells_.width * factor_, cells_.height * factor_)), seen_cells,
             cells_, 0, 0, cv::INTER_AREA);
  seen_cells = seen_cells == 255;
  cv::Mat inner;
  cv::erode(seen_cells, inner, cv::getStructuringElement(cv::MORPH_RECT, {5, 5}), {-1, -1}, 1,
            cv::BORDER_CONSTANT, cv::Scalar(0));
  edge_ = seen_cells & ~inner;
  coarse_ = view.Coarse(factor_);
}

cv::Mat ChangeMeter::Shrink(const cv::Mat& top_bgr) const {
  cv::Mat out;
  const cv::Rect whole(0, 0, cells_.width * factor_, cells_.height * factor_);
  // An exact integer factor keeps cv::resize on its fast block-average path.
  cv::resize(top_bgr(whole & cv::Rect({0, 0}, top_bgr.size())), out, cells_, 0, 0, cv::INTER_AREA);
  return out;
}

cv::Mat ChangeMeter::ShrinkFrame(const cv::Mat& camera_bgr) const {
  cv::Mat out;
  coarse_.Rectify(camera_bgr, out);
  return out;
}

cv::Mat ChangeMeter::Changed(const cv::Mat& before, const cv::Mat& after) const {
  return ChangedCells(before, after, options_.level);
}

cv::Mat ChangedCells(const cv::Mat& before, const cv::Mat& after, double level_8bit) {
  cv::Mat out(before.size(), CV_8U, cv::Scalar(0));
  if (before.empty() || before.size() != after.size() || before.type() != CV_8UC3 ||
      after.type() != CV_8UC3) {
    return out;
  }
  const GainField field(before, after);
  const auto level = static_cast<float>(level_8bit);
  // The gain is taken constant over spans of a row a whole number of SIMD widths long, about a
  // block: a light falling off by a third across the table changes by ~2 % within one.
  const int span = std::max(16, (field.block() + 15) / 16 * 16);
  for (int y = 0; y < before.rows; ++y) {
    const auto* b = before.ptr<cv::Vec3b>(y);
    const auto* a = after.ptr<cv::Vec3b>(y);
    auto* o = out.ptr<uchar>(y);
    for (int x0 = 0; x0 < before.cols; x0 += span) {
      const int x1 = std::min(before.cols, x0 + span);
      const cv::Vec3f g =
          field.At(0.5f * static_cast<float>(x0 + x1), static_cast<float>(y) + 0.5f);
      const auto first = 3 * static_cast<std::ptrdiff_t>(x0);
      MarkCandidates(before.ptr<uchar>(y) + first, after.ptr<uchar>(y) + first, o + x0, x1 - x0, g,
                     level);
      for (int x = x0; x < x1; ++x) {
        // Candidates are few: skip runs of 8 unmarked cells at a time.
        uint64_t word = 0;
        if (x + 8 <= x1) {
          std::memcpy(&word, o + x, sizeof word);
          if (word == 0) {
            x += 7;
            continue;
          }
        }
        if (o[x] != 0 && !CellChanged(b[x], a[x], g, level)) o[x] = 0;
      }
    }
  }
  return out;
}

double ChangeMeter::AreaMm2(const cv::Mat& changed) const {
  return changed.empty() ? 0.0 : cv::countNonZero(changed) * cell_area_mm2_;
}

std::vector<ChangeRegion> ChangeMeter::Regions(const cv::Mat& changed) const {
  std::vector<ChangeRegion> out;
  if (changed.empty()) return out;
  // Labelled only inside the bounding box of the changed cells (usually a small part of the
  // view), with the areas, boxes and edge contacts gathered in one pass.
  const cv::Rect roi = cv::boundingRect(changed);
  if (roi.area() == 0) return out;
  cv::Mat labels;
  const int n = cv::connectedComponents(changed(roi), labels, 8, CV_32S);
  struct Extent {
    int cells = 0, x0 = INT_MAX, y0 = INT_MAX, x1 = -1, y1 = -1;
    bool touches = false;
  };
  std::vector<Extent> ext(static_cast<size_t>(n));
  const bool has_edge = edge_.size() == changed.size();
  for (int y = 0; y < labels.rows; ++y) {
    const auto* l = labels.ptr<int>(y);
    const uchar* e = has_edge ? edge_.ptr<uchar>(y + roi.y) + roi.x : nullptr;
    for (int x = 0; x < labels.cols; ++x) {
      if (l[x] <= 0) continue;
      Extent& r = ext[static_cast<size_t>(l[x])];
      ++r.cells;
      r.x0 = std::min(r.x0, x);
      r.x1 = std::max(r.x1, x);
      r.y0 = std::min(r.y0, y);
      r.y1 = std::max(r.y1, y);
      r.touches = r.touches || (e != nullptr && e[x] != 0);
    }
  }
  for (int i = 1; i < n; ++i) {
    const Extent& e = ext[static_cast<size_t>(i)];
    ChangeRegion r;
    r.box_px = cv::Rect((roi.x + e.x0) * factor_, (roi.y + e.y0) * factor_,
                        (e.x1 - e.x0 + 1) * factor_, (e.y1 - e.y0 + 1) * factor_);
    r.area_mm2 = e.cells * cell_area_mm2_;
    r.touches_edge = e.touches;
    out.push_back(r);
  }
  std::sort(out.begin(), out.end(),
            [](const ChangeRegion& a, const ChangeRegion& b) { return a.area_mm2 > b.area_mm2; });
  return out;
}

cv::Rect ChangeMeter::Bounds(const cv::Mat& changed) const {
  if (changed.empty()) return {};
  const cv::Rect cells = cv::boundingRect(changed);
  if (cells.area() == 0) return {};
  return {cells.x * factor_, cells.y * factor_, cells.width * factor_, cells.height * factor_};
}

cv::Rect ChangeMeter::Around(const cv::Mat& changed, double min_region_mm2,
                             double margin_mm) const {
  cv::Rect box;
  for (const ChangeRegion& r : Regions(changed)) {
    if (r.area_mm2 >= min_region_mm2) box |= r.box_px;
  }
  if (box.empty()) return {};
  const int m = factor_ + static_cast<int>(std::ceil(margin_mm / mm_per_px_));
  return cv::Rect(box.x - m, box.y - m, box.width + 2 * m, box.height + 2 * m) &
         cv::Rect({0, 0}, full_);
}

}  // namespace referee
