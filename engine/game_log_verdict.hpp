// The "verdict" log event of an adjudicated shot, from the engine's Verdict.
#pragma once

#include <string>

#include "engine/game_log.hpp"
#include "engine/verdict.hpp"

namespace referee {

// impact_in = the verdict's point; hit_stand_ids = its casualty candidates plus destroyed
// equipment and crew (empty for a void shot or one over water); verdict = VerdictToJson.
ShotVerdict ShotVerdictFrom(const std::string& shot_id, const Verdict& verdict,
                            const std::string& after_frame, const std::string& evidence = "");

}  // namespace referee
