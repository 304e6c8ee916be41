// How the camera placed an impact it could not see the mark of: a shell whose dot was unseen is
// put at its square's centre, a Q-tip whose painted head could not be told from the mat has its
// tip put one head length past the white stick. Such a point is looser than one on its mark, and
// the players are told so wherever the point is shown (evidence PNG, live verdict panel).
#pragma once

#include <string>

#include "vision/projectile_detector.hpp"

namespace referee {

enum class UnseenMark { kNone, kShellDot, kQtipHead };

// Which mark, if any, the camera placed `projectile` without seeing.
UnseenMark UnseenMarkOf(const ProjectileObservation& projectile);

// A few words for under the impact ("dot unseen: centre used"); empty when placed on its mark.
std::string ImpactPlacedNote(const ProjectileObservation& projectile);

}  // namespace referee
