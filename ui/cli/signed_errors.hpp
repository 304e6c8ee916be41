// Signed errors (outward +, mm) summarised as the edge benches print them: mean, spread and the
// 90th percentile of their size (the value at rank 0.9 n of the sorted sizes).
#pragma once

#include <cstddef>
#include <vector>

namespace referee::cli {

struct SignedErrorFigures {
  size_t n = 0;
  double mean = 0, sd = 0, p90_abs = 0;  // all 0 when there is nothing to summarise
};

SignedErrorFigures SummariseSignedErrors(const std::vector<double>& errors);

}  // namespace referee::cli
