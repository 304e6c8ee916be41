// What a gun stand fires: the shot type follows the kind of the base chosen as the battery.
#pragma once

#include <optional>

#include "engine/scene.hpp"
#include "engine/stand.hpp"

namespace referee {

// field_gun -> field (a Q-tip), horse_gun -> horse (a Q-tip), howitzer -> howitzer (a shell),
// any catapult-category kind -> catapult (a shell); nullopt for every other stand. The kind
// names are the stand_kinds.json keys the rulesets' organisations use.
std::optional<ShotKind> ShotKindOfGun(const StandKind& kind);

}  // namespace referee
