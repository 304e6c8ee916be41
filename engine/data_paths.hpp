// Where shipped data lives: $REFEREE_DATA_DIR if set, else the source tree this was built from.
#pragma once

#include <filesystem>

namespace referee {

std::filesystem::path DataRoot();
inline std::filesystem::path RulesetDir() { return DataRoot() / "engine" / "rulesets"; }
inline std::filesystem::path DatasetsDir() { return DataRoot() / "datasets"; }

}  // namespace referee
