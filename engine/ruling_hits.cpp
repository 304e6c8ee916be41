#include "engine/ruling_hits.hpp"

#include <algorithm>
#include <utility>

namespace referee {

std::vector<std::string> SortedIds(std::vector<std::string> ids) {
  std::ranges::sort(ids);
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

std::vector<std::string> HitIds(const Verdict& v) {
  std::vector<std::string> ids = v.candidates;
  ids.insert(ids.end(), v.destroyed_equipment.begin(), v.destroyed_equipment.end());
  return ids;
}

std::function<std::vector<std::string>(Vec2)> RulingHitsAt(const Board& board,
                                                           std::vector<Stand> stands, Shot shot,
                                                           const StandKindCatalog& catalog,
                                                           const ShotOptions& rules) {
  return [&board, &catalog, &rules, stands = std::move(stands),
          shot = std::move(shot)](Vec2 p) mutable {
    shot.point = p;
    return HitIds(AdjudicateShot(board, stands, shot, catalog, rules));
  };
}

}  // namespace referee
