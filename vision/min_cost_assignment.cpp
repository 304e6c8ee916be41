#include "vision/min_cost_assignment.hpp"

#include <algorithm>
#include <limits>

namespace referee {

std::vector<int> MinCostAssignment(const std::vector<std::vector<double>>& cost) {
  const int rows = static_cast<int>(cost.size());
  if (rows == 0) return {};
  const int cols = static_cast<int>(cost[0].size());
  // Square problem of size n: padding cells cost 0, forbidden cells a big finite number so the
  // potentials stay finite; such pairs are removed from the answer afterwards.
  const int n = std::max(rows, cols);
  double big = 1.0;
  for (const auto& row : cost) {
    for (double c : row) {
      if (c < kForbiddenCost) big = std::max(big, std::abs(c));
    }
  }
  big = big * (n + 1) * 4.0;
  auto at = [&](int r, int c) {
    if (r >= rows || c >= cols) return 0.0;
    const double v = cost[static_cast<size_t>(r)][static_cast<size_t>(c)];
    return v >= kForbiddenCost ? big : v;
  };
  // Shortest augmenting paths with potentials (1-based arrays, column 0 is a sentinel).
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> u(static_cast<size_t>(n) + 1, 0.0), v(static_cast<size_t>(n) + 1, 0.0);
  std::vector<int> row_of_col(static_cast<size_t>(n) + 1, 0), way(static_cast<size_t>(n) + 1, 0);
  for (int r = 1; r <= n; ++r) {
    row_of_col[0] = r;
    int c0 = 0;
    std::vector<double> min_v(static_cast<size_t>(n) + 1, inf);
    std::vector<bool> used(static_cast<size_t>(n) + 1, false);
    do {
      used[static_cast<size_t>(c0)] = true;
      const int r0 = row_of_col[static_cast<size_t>(c0)];
      double delta = inf;
      int c1 = 0;
      for (int c = 1; c <= n; ++c) {
        if (used[static_cast<size_t>(c)]) continue;
        const double cur =
            at(r0 - 1, c - 1) - u[static_cast<size_t>(r0)] - v[static_cast<size_t>(c)];
        if (cur < min_v[static_cast<size_t>(c)]) {
          min_v[static_cast<size_t>(c)] = cur;
          way[static_cast<size_t>(c)] = c0;
        }
        if (min_v[static_cast<size_t>(c)] < delta) {
          delta = min_v[static_cast<size_t>(c)];
          c1 = c;
        }
      }
      for (int c = 0; c <= n; ++c) {
        if (used[static_cast<size_t>(c)]) {
          u[static_cast<size_t>(row_of_col[static_cast<size_t>(c)])] += delta;
          v[static_cast<size_t>(c)] -= delta;
        } else {
          min_v[static_cast<size_t>(c)] -= delta;
        }
      }
      c0 = c1;
    } while (row_of_col[static_cast<size_t>(c0)] != 0);
    do {
      const int c1 = way[static_cast<size_t>(c0)];
      row_of_col[static_cast<size_t>(c0)] = row_of_col[static_cast<size_t>(c1)];
      c0 = c1;
    } while (c0 != 0);
  }
  std::vector<int> out(static_cast<size_t>(rows), -1);
  for (int c = 1; c <= n; ++c) {
    const int r = row_of_col[static_cast<size_t>(c)] - 1;
    if (r < 0 || r >= rows || c - 1 >= cols) continue;
    if (cost[static_cast<size_t>(r)][static_cast<size_t>(c - 1)] >= kForbiddenCost) continue;
    out[static_cast<size_t>(r)] = c - 1;
  }
  return out;
}

}  // namespace referee
