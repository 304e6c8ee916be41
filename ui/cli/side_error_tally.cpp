#include "ui/cli/side_error_tally.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "ui/cli/signed_errors.hpp"

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
  std::vector<double> all, facing, away;
  for (const SideError& e : v) {
    all.push_back(e.outward_mm);
    (e.cos_to_camera > 0.5 ? facing : away).push_back(e.outward_mm);
  }
  const SignedErrorFigures f = SummariseSignedErrors(all);
  return {f.n,
          f.mean,
          f.sd,
          f.p90_abs,
          SummariseSignedErrors(facing).mean,
          SummariseSignedErrors(away).mean};
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
