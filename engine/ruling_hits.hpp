// Which stands a shot's ruling hits, as a function of where the shot lies: how a check asks
// whether another point (another height, a millimetre over) would change the ruling.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "engine/shot_adjudication.hpp"

namespace referee {

// `ids` sorted, each once: rulings compared as sets.
std::vector<std::string> SortedIds(std::vector<std::string> ids);

// The ids the ruling takes from the table: its candidates and the equipment it destroys.
std::vector<std::string> HitIds(const Verdict& v);

// `shot` ruled again with its point at `p`, on `stands`: HitIds of that ruling. Holds `board`,
// `catalog` and `rules` by reference (they must outlive it) and copies the stands and the shot.
std::function<std::vector<std::string>(Vec2)> RulingHitsAt(const Board& board,
                                                           std::vector<Stand> stands, Shot shot,
                                                           const StandKindCatalog& catalog,
                                                           const ShotOptions& rules);

}  // namespace referee
