#include "engine/rules/ruleset_data.hpp"

#include <array>
#include <stdexcept>

namespace referee::rules {

namespace {
constexpr std::array<const char*, kMdiCount> kMdiNames = {"line",     "column",  "square",
                                                          "flanking", "pincers", "withdrawal"};
}

std::string MdiName(Mdi m) { return kMdiNames[static_cast<int>(m)]; }

std::optional<Mdi> ParseMdi(const std::string& name) {
  for (int i = 0; i < kMdiCount; ++i)
    if (name == kMdiNames[i]) return static_cast<Mdi>(i);
  return std::nullopt;
}

int UnitType::StandCount() const {
  int n = 0;
  for (const auto& [kind, count] : stands) n += count;
  return n;
}

const StandValue& RulesetData::Stand(const std::string& kind) const {
  auto it = stand_values.find(kind);
  if (it == stand_values.end()) throw std::out_of_range(name + ": no stand kind '" + kind + "'");
  return it->second;
}

const UnitType& RulesetData::Unit(const std::string& type) const {
  auto it = unit_types.find(type);
  if (it == unit_types.end()) throw std::out_of_range(name + ": no unit type '" + type + "'");
  return it->second;
}

double RulesetData::UnitPoints(const std::string& type, std::optional<int> stands) const {
  const UnitType& u = Unit(type);
  double total = 0;
  for (const auto& [kind, count] : u.stands) {
    // A stand-count override applies to single-kind units (crews bought by the stand).
    const int n = stands && u.stands.size() == 1 ? *stands : count;
    total += n * Stand(kind).points;
  }
  return total;
}

double RulesetData::ArmyPoints(const ArmyList& army) const {
  double total = 0;
  for (const auto& e : army.units) total += e.count * UnitPoints(e.type, e.stands);
  return total;
}

double RulesetData::PrintedEntriesPoints(const ArmyList& army) const {
  double total = 0;
  for (const auto& e : army.units)
    if (e.printed) total += e.count * UnitPoints(e.type, e.stands);
  return total;
}

}  // namespace referee::rules
