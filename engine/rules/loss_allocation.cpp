#include "engine/rules/loss_allocation.hpp"

#include <cstdio>

namespace referee::rules {

namespace {
constexpr double kEps = 1e-9;
}

LossResult AllocateLosses(const std::vector<LossUnit>& units, double loss_points, DiceSource& dice,
                          const std::string& purpose) {
  LossResult r;
  const int n = static_cast<int>(units.size());
  std::vector<size_t> next(units.size(), 0);  // next stand to remove in each unit
  auto value = [&](int u) { return units[u].stand_values[next[u]]; };
  auto has = [&](int u) { return next[u] < units[u].stand_values.size(); };
  double remaining = loss_points;
  int p = 0;
  while (remaining > kEps && n > 0) {
    int found = -1;
    for (int k = 0; k < n; ++k) {
      const int u = (p + k) % n;
      if (has(u) && value(u) <= remaining + kEps) {
        found = u;
        break;
      }
    }
    if (found < 0) {
      // A part-stand is left: flip for the cheapest stand that could be taken (5F: "flips a
      // coin ... whether or not he loses a second line infantry stand").
      int cand = -1;
      for (int k = 0; k < n; ++k) {
        const int u = (p + k) % n;
        if (has(u) && (cand < 0 || value(u) < value(cand) - kEps)) cand = u;
      }
      if (cand < 0) break;  // nobody left to lose
      char buf[160];
      std::snprintf(buf, sizeof buf,
                    "%s: %.2g of a %.2g-point stand of %s left over; heads it is lost",
                    purpose.c_str(), remaining, value(cand), units[cand].id.c_str());
      r.coin_flipped = true;
      r.coin_heads = dice.FlipCoin(buf);
      if (r.coin_heads) {
        r.removed.push_back({cand, static_cast<int>(next[cand])});
        r.removed_points += value(cand);
        ++next[cand];
      }
      break;
    }
    r.removed.push_back({found, static_cast<int>(next[found])});
    r.removed_points += value(found);
    remaining -= value(found);
    ++next[found];
    p = (found + 1) % n;
  }
  return r;
}

}  // namespace referee::rules
