#include "engine/rules/retreat.hpp"

#include <algorithm>
#include <cmath>

namespace referee::rules {

RetreatPlan PlanRetreat(const Grid& grid, const RetreatQuery& q) {
  RetreatPlan plan;
  Square cur = q.start;
  double left = q.budget;
  const double dlen = std::hypot(q.direction.x, q.direction.y);
  if (dlen <= 0) return plan;
  while (true) {
    struct Cand {
      Square s;
      double cos;
      double cost;
    };
    std::vector<Cand> cands;
    for (int dc = -1; dc <= 1; ++dc)
      for (int dr = -1; dr <= 1; ++dr) {
        if (!dc && !dr) continue;
        const double cost = (dc && dr) ? q.diagonal_cost : 1.0;
        if (cost > left + 1e-9) continue;
        const double c = (dc * q.direction.x + dr * q.direction.y) / (dlen * std::hypot(dc, dr));
        if (c <= 1e-9)
          continue;  // never backwards or sideways-only: "as much as possible in the correct
                     // direction"
        cands.push_back({{cur.col + dc, cur.row + dr}, c, cost});
      }
    std::stable_sort(cands.begin(), cands.end(),
                     [](const Cand& a, const Cand& b) { return a.cos > b.cos; });
    bool stepped = false;
    for (const auto& c : cands) {
      if (!grid.Contains(c.s)) {
        // The best remaining way leads over the edge: the unit leaves the board (10).
        plan.kind = RetreatPlan::Kind::kOffBoard;
        plan.end = cur;
        return plan;
      }
      if (!q.passable(c.s) || (c.s.col != cur.col && c.s.row != cur.row && q.gap_blocked(cur, c.s)))
        continue;
      const bool last = left - c.cost < 1.0 - 1e-9;
      if (last && !q.can_end(c.s)) continue;
      cur = c.s;
      left -= c.cost;
      plan.path.push_back(cur);
      stepped = true;
      break;
    }
    if (!stepped) break;
    if (left < 1.0 - 1e-9) break;
  }
  if (plan.path.empty() || !q.can_end(cur)) {
    plan.kind = RetreatPlan::Kind::kBlocked;
    return plan;
  }
  plan.kind = RetreatPlan::Kind::kMoved;
  plan.end = cur;
  return plan;
}

}  // namespace referee::rules
