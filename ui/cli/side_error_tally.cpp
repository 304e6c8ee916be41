#include "ui/cli/side_error_tally.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

namespace referee::cli {
namespace {

double Median(std::vector<double> v) {
  if (v.empty()) return 0.0;
  const auto mid = v.begin() + static_cast<long>(v.size() / 2);
  std::nth_element(v.begin(), mid, v.end());
  if (v.size() % 2 == 1) return *mid;
  return 0.5 * (*mid + *std::max_element(v.begin(), mid));
}

}  // namespace

void SideErrorTally::AddBase(const std::array<SideError, 4>& sides, bool has_other_sizes) {
  if (has_other_sizes) return;
  for (const SideError& e : sides) {
    if (std::abs(e.outward_mm) > 4.0) return;
  }
  frame_.push_back(sides);
}

void SideErrorTally::EndFrame() {
  std::vector<double> excess;
  for (const auto& b : frame_) {
    excess.push_back(0.5 * (b[0].outward_mm + b[1].outward_mm));
    excess.push_back(0.5 * (b[2].outward_mm + b[3].outward_mm));
  }
  const double bias = frame_.size() >= 4 ? Median(excess) : 0.0;
  for (const auto& b : frame_) {
    for (const SideError& e : b) {
      raw_.push_back(e);
      corrected_.push_back({e.outward_mm - bias, e.cos_to_camera});
    }
  }
  bases_ += frame_.size();
  ++frames_;
  frame_bias_mm_.push_back(bias);
  frame_.clear();
}

SideErrorTally::Figures SideErrorTally::Summarise(const std::vector<SideError>& v) {
  Figures f;
  f.sides = v.size();
  if (v.empty()) return f;
  std::vector<double> abs_mm;
  double sum = 0, sum2 = 0, facing = 0, away = 0;
  size_t n_facing = 0;
  for (const SideError& e : v) {
    sum += e.outward_mm;
    sum2 += e.outward_mm * e.outward_mm;
    abs_mm.push_back(std::abs(e.outward_mm));
    if (e.cos_to_camera > 0.5) {
      facing += e.outward_mm;
      ++n_facing;
    } else {
      away += e.outward_mm;
    }
  }
  const double n = static_cast<double>(v.size());
  f.mean = sum / n;
  f.sd = std::sqrt(std::max(0.0, sum2 / n - f.mean * f.mean));
  std::sort(abs_mm.begin(), abs_mm.end());
  f.p90_abs = abs_mm[std::min(abs_mm.size() - 1, static_cast<size_t>(0.9 * n))];
  f.facing_mean = n_facing > 0 ? facing / static_cast<double>(n_facing) : 0.0;
  f.away_mean = n_facing < v.size() ? away / static_cast<double>(v.size() - n_facing) : 0.0;
  return f;
}

std::string SideErrorTally::Summary() const {
  const Figures r = Raw(), c = FrameBiasRemoved();
  std::vector<double> biases = frame_bias_mm_;
  std::sort(biases.begin(), biases.end());
  char buf[512];
  std::snprintf(
      buf, sizeof buf,
      "side errors: %zu sides of %zu bases in %zu frames (no other size, every side within 4 mm): "
      "outward mean %+.2f mm, sd %.2f, |error| p90 %.2f, facing the camera %+.2f, away %+.2f | "
      "each frame's bias (median excess over the true sizes, halved: %+.2f, %+.2f to %+.2f) "
      "taken off: mean %+.2f, sd %.2f, |error| p90 %.2f, facing %+.2f, away %+.2f",
      r.sides, bases_, frames_, r.mean, r.sd, r.p90_abs, r.facing_mean, r.away_mean, Median(biases),
      biases.empty() ? 0.0 : biases.front(), biases.empty() ? 0.0 : biases.back(), c.mean, c.sd,
      c.p90_abs, c.facing_mean, c.away_mean);
  return buf;
}

}  // namespace referee::cli
