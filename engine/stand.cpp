#include "engine/stand.hpp"

#include <array>
#include <cmath>
#include <cstdio>
#include <utility>

namespace referee {

namespace {
constexpr std::array<std::pair<StandCategory, const char*>, 10> kCategoryNames = {{
    {StandCategory::kInfantry, "infantry"},
    {StandCategory::kCavalry, "cavalry"},
    {StandCategory::kChariot, "chariot"},
    {StandCategory::kElephant, "elephant"},
    {StandCategory::kGun, "gun"},
    {StandCategory::kCatapult, "catapult"},
    {StandCategory::kWagon, "wagon"},
    {StandCategory::kFootCrew, "foot_crew"},
    {StandCategory::kMountedCrew, "mounted_crew"},
    {StandCategory::kCommander, "commander"},
}};
}  // namespace

std::string CategoryName(StandCategory c) {
  for (const auto& [value, name] : kCategoryNames) {
    if (value == c) return name;
  }
  return "infantry";
}

std::optional<StandCategory> ParseCategory(const std::string& name) {
  for (const auto& [value, n] : kCategoryNames) {
    if (name == n) return value;
  }
  return std::nullopt;
}

bool IsEquipment(StandCategory c) {
  return c == StandCategory::kGun || c == StandCategory::kCatapult || c == StandCategory::kWagon;
}

bool IsCrew(StandCategory c) {
  return c == StandCategory::kFootCrew || c == StandCategory::kMountedCrew;
}

const StandKind* StandKindCatalog::Find(const std::string& name) const {
  const auto it = kinds.find(name);
  return it == kinds.end() ? nullptr : &it->second;
}

bool SameBaseSize(const StandKind& a, const StandKind& b) {
  const auto eq = [](double x, double y) { return std::abs(x - y) < 0.5; };
  return (eq(a.width_mm, b.width_mm) && eq(a.depth_mm, b.depth_mm)) ||
         (eq(a.width_mm, b.depth_mm) && eq(a.depth_mm, b.width_mm));
}

bool SameBase(const StandKindCatalog& catalog, const std::string& kind_a,
              const std::string& kind_b) {
  if (kind_a == kind_b) return true;
  const StandKind* a = catalog.Find(kind_a);
  const StandKind* b = catalog.Find(kind_b);
  return a != nullptr && b != nullptr && SameBaseSize(*a, *b);
}

bool AdoptOutlineOf(Stand& stand, const std::string& kind, const StandKindCatalog& catalog) {
  if (SameBase(catalog, kind, stand.kind)) return false;  // the size reported: nothing to adopt
  for (const OtherOutline& o : stand.other_outlines) {
    if (!SameBase(catalog, kind, o.kind)) continue;
    stand.footprint = o.footprint;
    stand.kind = kind;
    stand.other_outlines.clear();
    return true;
  }
  return false;
}

std::vector<Stand> OutlinesOf(const Stand& s) {
  std::vector<Stand> out{s};
  for (const OtherOutline& other : s.other_outlines) {
    Stand t = s;
    t.kind = other.kind;
    t.footprint = other.footprint;
    out.push_back(std::move(t));
  }
  for (Stand& t : out) t.other_outlines.clear();
  return out;
}

std::string OutlineName(const Stand& s) {
  char buf[128];
  std::snprintf(buf, sizeof buf, "%s %.0f x %.0f mm", s.kind.c_str(),
                InchesToMm(s.footprint.width_in), InchesToMm(s.footprint.depth_in));
  return buf;
}

}  // namespace referee
