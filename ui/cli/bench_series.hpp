// A bench's measured values (errors, timings) and the summaries it prints. The quantile is the
// nearest rank of q over the sorted values, so p100 is the largest and p50 of two values the
// upper one, as every bench figure in README.md was printed.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace referee::cli {

struct BenchSeries {
  std::vector<double> v;
  void Add(double x) { v.push_back(x); }
  // NAN when nothing was measured, so an empty column prints as "nan", not as 0.
  double Q(double q) const {
    if (v.empty()) return NAN;
    std::vector<double> s = v;
    std::sort(s.begin(), s.end());
    return s[std::min(s.size() - 1,
                      static_cast<size_t>(std::lround(q * static_cast<double>(s.size() - 1))))];
  }
  double Mean() const {
    double s = 0;
    for (double x : v) s += x;
    return v.empty() ? NAN : s / static_cast<double>(v.size());
  }
};

}  // namespace referee::cli
