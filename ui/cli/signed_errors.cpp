#include "ui/cli/signed_errors.hpp"

#include <algorithm>
#include <cmath>

namespace referee::cli {

SignedErrorFigures SummariseSignedErrors(const std::vector<double>& errors) {
  SignedErrorFigures f;
  f.n = errors.size();
  if (errors.empty()) return f;
  const double n = static_cast<double>(errors.size());
  double sum = 0;
  for (const double e : errors) sum += e;
  f.mean = sum / n;
  double ss = 0;
  std::vector<double> sizes;
  sizes.reserve(errors.size());
  for (const double e : errors) {
    ss += (e - f.mean) * (e - f.mean);
    sizes.push_back(std::abs(e));
  }
  f.sd = std::sqrt(ss / n);
  std::sort(sizes.begin(), sizes.end());
  f.p90_abs = sizes[std::min(sizes.size() - 1, static_cast<size_t>(0.9 * n))];
  return f;
}

}  // namespace referee::cli
