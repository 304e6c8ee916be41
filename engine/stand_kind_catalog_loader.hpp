// Loads and validates the stand-kind catalogue (engine/rulesets/stand_kinds.json).
#pragma once

#include <filesystem>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "engine/data_paths.hpp"
#include "engine/stand.hpp"

namespace referee {

// Format: {"kinds": {"<name>": {"category": "<StandCategory name>", "base_mm": [w, d]}}}.
// Throws InputError on an unknown category, a missing or non-positive base, or no kinds.
StandKindCatalog ParseStandKinds(const nlohmann::json& j, const std::string& file);
StandKindCatalog LoadStandKinds(const std::filesystem::path& path = RulesetDir() /
                                                                    "stand_kinds.json");

}  // namespace referee
