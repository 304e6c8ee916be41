#include "engine/rules/ruleset.hpp"

#include <stdexcept>

#include "engine/rules/ruleset_loader.hpp"

namespace referee::rules {

namespace {
Square NeedSquare(const Placement& p) {
  if (!p.square) throw std::invalid_argument("a gridded ruleset needs placements by square");
  return *p.square;
}
}  // namespace

double DeGreSweetRuleset::Range(const Placement& from, const Placement& to) const {
  return RangeSquares(NeedSquare(from), NeedSquare(to));
}

bool DeGreSweetRuleset::InFireArc(const std::string& unit_type, const Placement& from,
                                  const Placement& to) const {
  const UnitType& u = data_.Unit(unit_type);
  switch (u.fire_arc) {
    case FireArc::kNone:
      return false;
    case FireArc::kStraight:
      return StraightAhead(NeedSquare(from), from.facing, NeedSquare(to));
    case FireArc::kArc45:
      return InArc(NeedSquare(from), from.facing, NeedSquare(to));
  }
  return false;
}

std::vector<std::string> DeGreSweetRuleset::ArmyNames() const {
  std::vector<std::string> out;
  for (const auto& [name, a] : data_.armies) out.push_back(name);
  return out;
}

double DeGreSweetRuleset::ArmyPoints(const std::string& army) const {
  return data_.ArmyPoints(data_.armies.at(army));
}
double DeGreSweetRuleset::PrintedArmyPoints(const std::string& army) const {
  return data_.armies.at(army).printed_points;
}

std::unique_ptr<DeGreSweetRuleset> MakeRuleset(const std::string& name_or_path) {
  return std::make_unique<DeGreSweetRuleset>(LoadRuleset(name_or_path));
}

}  // namespace referee::rules
