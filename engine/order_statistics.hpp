// Order statistics of measured values (pixel offsets, change levels, timings): the value at a
// fraction of the sorted list, as robust summaries that one outlier cannot drag.
#pragma once

#include <vector>

namespace referee {

// The value at fraction q (0..1) of the sorted values: index min(n-1, floor(q*n)). 0 when empty.
double Percentile(std::vector<double> values, double q);

// Percentile(values, 0.5): the upper middle value for an even count. 0 when empty.
double Median(std::vector<double> values);

}  // namespace referee
