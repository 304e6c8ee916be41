#include "engine/gun_shot_kind.hpp"

namespace referee {

std::optional<ShotKind> ShotKindOfGun(const StandKind& kind) {
  if (kind.category == StandCategory::kCatapult) return ShotKind::kCatapult;
  if (kind.category != StandCategory::kGun) return std::nullopt;
  if (kind.name == "howitzer") return ShotKind::kHowitzer;
  if (kind.name == "horse_gun") return ShotKind::kHorse;
  if (kind.name == "field_gun") return ShotKind::kField;
  return std::nullopt;
}

}  // namespace referee
