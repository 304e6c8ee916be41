#include "vision/impact_placement.hpp"

namespace referee {

UnseenMark UnseenMarkOf(const ProjectileObservation& projectile) {
  if (projectile.kind == "shell" && !projectile.dot_seen) return UnseenMark::kShellDot;
  if (projectile.kind == "qtip" && !projectile.tip_from_edge) return UnseenMark::kQtipHead;
  return UnseenMark::kNone;
}

std::string ImpactPlacedNote(const ProjectileObservation& projectile) {
  switch (UnseenMarkOf(projectile)) {
    case UnseenMark::kShellDot:
      return "dot unseen: centre used";
    case UnseenMark::kQtipHead:
      return "tip put one head past stick";
    case UnseenMark::kNone:
      break;
  }
  return {};
}

}  // namespace referee
