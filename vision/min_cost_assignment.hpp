// Minimum-cost one-to-one assignment (the Hungarian method, O(n^3)) for the stand tracker.
#pragma once

#include <vector>

namespace referee {

// Cost of a pair that must never be chosen.
inline constexpr double kForbiddenCost = 1e18;

// cost[r][c] for r rows and c columns (rows need not equal columns; every row has the same
// length). Returns, per row, the column assigned to it or -1: every row gets a column when
// there are enough columns and the total cost is the least possible; a row whose only
// possibilities are forbidden pairs gets -1. Pairs at kForbiddenCost or above are never
// returned.
std::vector<int> MinCostAssignment(const std::vector<std::vector<double>>& cost);

}  // namespace referee
