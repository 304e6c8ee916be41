#include "vision/impact_placement.hpp"

namespace referee {

std::string ImpactPlacedNote(const ProjectileObservation& projectile) {
  if (projectile.kind == "shell" && !projectile.dot_seen) return "dot unseen: centre used";
  if (projectile.kind == "qtip" && !projectile.tip_from_edge) return "tip put one head past stick";
  return {};
}

}  // namespace referee
