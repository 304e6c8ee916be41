#include "engine/game_log_verdict.hpp"

#include <algorithm>

namespace referee {

ShotVerdict ShotVerdictFrom(const std::string& shot_id, const Verdict& verdict,
                            const std::string& after_frame, const std::string& evidence) {
  ShotVerdict e;
  e.shot_id = shot_id;
  e.after_frame = after_frame;
  e.impact_in = verdict.point;
  e.evidence = evidence;
  e.verdict = VerdictToJson(verdict);
  if (verdict.shot_void || verdict.over_water) return e;
  auto add = [&e](const std::string& id) {
    if (std::find(e.hit_stand_ids.begin(), e.hit_stand_ids.end(), id) == e.hit_stand_ids.end())
      e.hit_stand_ids.push_back(id);
  };
  for (const auto& id : verdict.candidates) add(id);
  for (const auto& id : verdict.destroyed_equipment) add(id);
  for (const auto& id : verdict.destroyed_crew) add(id);
  return e;
}

}  // namespace referee
