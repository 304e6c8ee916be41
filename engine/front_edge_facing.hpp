// The front edges a base may present when its front stripe was not seen. Rules that measure a
// shot from the front edge (Ancient chariots, elephants, catapults) then depend on which way
// the stand faces, which one overhead camera cannot tell from a plain base: the referee must
// say so and let the players answer, never pick an edge silently.
#pragma once

#include <optional>
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

// The nearest of the eight table facings to the way a footprint's front faces.
Facing FacingOf(const OrientedRect& footprint);

// The facings the base may present (FrontEdgeOptions' own, the seen one first): what the
// players choose from when they answer CONFIRM FACING.
std::vector<Facing> FacingsItMayPresent(const Stand& stand, const StandKind* kind);

// The stand turned to face `facing`, its facing now known (the players said so); nullopt when
// its base cannot present that front (a 40 x 20 base lying east-west cannot face east).
std::optional<Stand> TurnedToFace(const Stand& stand, const StandKind* kind, Facing facing);

// The players' answer to CONFIRM FACING, and where the base stood when they gave it.
struct ToldFacing {
  Facing facing = Facing::kN;
  OrientedRect at;
};

// Whether a base seen at `seen` still stands where the players told its facing: centre within
// 0.25" (a nudge) and its outline's axes within 10 degrees of the told ones, either way round
// (a square base also a quarter turn). A base moved or wheeled since must be asked again.
bool StillWhereTold(const ToldFacing& told, const OrientedRect& seen);

}  // namespace referee
