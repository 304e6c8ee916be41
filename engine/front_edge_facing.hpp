// The front edges a base may present when its front stripe was not seen. Rules that measure a
// shot from the front edge (Ancient chariots, elephants, catapults) then depend on which way
// the stand faces, which one overhead camera cannot tell from a plain base: the referee must
// say so and let the players answer, never pick an edge silently.
#pragma once

#include <vector>

#include "engine/geometry.hpp"
#include "engine/grid.hpp"
#include "engine/stand.hpp"

namespace referee {

struct FrontEdgeOption {
  OrientedRect footprint;      // the base turned to face this way
  Facing facing = Facing::kN;  // nearest of the eight table facings
  double distance_in = 0.0;    // from the point to this front edge
};

// The base as seen and the same base turned half round; a square base may also face either
// side. Square by its kind's catalogue base when `kind` is known (within 0.5 mm), else by the
// footprint as seen (within 0.05"). The seen footprint's own facing comes first.
std::vector<FrontEdgeOption> FrontEdgeOptions(Vec2 point, const Stand& stand,
                                              const StandKind* kind);

}  // namespace referee
