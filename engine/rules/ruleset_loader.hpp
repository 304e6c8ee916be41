// Loads and validates a ruleset JSON (engine/rulesets/<name>.json or a club's own file).
// Every problem is an InputError naming the file and the field.
#pragma once

#include <filesystem>
#include <string>

#include "engine/rules/ruleset_data.hpp"

namespace referee::rules {

RulesetData LoadRulesetFile(const std::filesystem::path& path);
// "napoleonic" or "ancient" from RulesetDir(); a path (containing '/' or ending .json) is
// loaded as a file.
RulesetData LoadRuleset(const std::string& name_or_path);
// Parse one fire table cell as printed ("1, 2 or 3", "Double 1's", "Triple 1 or Triple 2").
// Throws InputError(file, field, ...) when the text is not understood.
FireCell ParseFireCell(const std::string& text, const std::string& file, const std::string& field);

}  // namespace referee::rules
