#include "engine/order_statistics.hpp"

#include <algorithm>
#include <cstddef>
#include <utility>

namespace referee {

double Percentile(std::vector<double> values, double q) {
  if (values.empty()) return 0;
  const double clamped = std::clamp(q, 0.0, 1.0);
  const size_t k = std::min(values.size() - 1,
                            static_cast<size_t>(clamped * static_cast<double>(values.size())));
  const auto at = values.begin() + static_cast<std::ptrdiff_t>(k);
  std::nth_element(values.begin(), at, values.end());
  return *at;
}

double Median(std::vector<double> values) { return Percentile(std::move(values), 0.5); }

}  // namespace referee
