#include "engine/verdict.hpp"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

namespace referee {

std::string CasualtyReadingName(CasualtyReading r) {
  return r == CasualtyReading::kEveryStandInCircle ? "every_stand" : "one_stand_firers_choice";
}

std::optional<CasualtyReading> ParseCasualtyReading(const std::string& name) {
  if (name == "one_stand_firers_choice" || name == "one") {
    return CasualtyReading::kOneStandFirersChoice;
  }
  if (name == "every_stand" || name == "every") return CasualtyReading::kEveryStandInCircle;
  return std::nullopt;
}

std::string ScreeningName(Screening s) {
  switch (s) {
    case Screening::kNotApplicable:
      return "not_applicable";
    case Screening::kNotEvaluated:
      return "not_evaluated";
    case Screening::kClear:
      return "clear";
    case Screening::kScreened:
      return "screened";
  }
  return "not_evaluated";
}

namespace {

nlohmann::json SquareJson(const std::optional<Square>& s) {
  if (!s) return nullptr;
  return nlohmann::json{{"col", s->col}, {"row", s->row}, {"name", SquareName(*s)}};
}

std::string Join(const std::vector<std::string>& v) {
  if (v.empty()) return "none";
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : ", ") + s;
  return out;
}

}  // namespace

nlohmann::json VerdictToJson(const Verdict& v) {
  nlohmann::json j;
  j["ruleset"] = v.ruleset;
  j["shot"] = {{"kind", ShotKindName(v.kind)},
               {"point", {v.point.x, v.point.y}},
               {"firer_side", v.firer_side},
               {"square", SquareJson(v.impact_square)},
               {"terrain", TerrainName(v.impact_terrain)}};
  j["hit_radius_in"] = v.hit_radius_in;
  j["report_radius_in"] = v.report_radius_in;
  j["touch_tolerance_mm"] = v.touch_tolerance_mm;
  j["candidates"] = v.candidates;
  j["facing_to_confirm"] = v.facing_to_confirm;
  j["size_to_confirm"] = v.size_to_confirm;
  j["casualty_reading"] = CasualtyReadingName(v.reading);
  j["casualties_required"] = v.casualties_required;
  j["destroyed_equipment"] = v.destroyed_equipment;
  j["destroyed_crew"] = v.destroyed_crew;
  j["over_water"] = v.over_water;
  j["fire_roll"] = v.fire_roll;
  j["fire_square"] = SquareJson(v.fire_square);
  j["fire_source"] = v.fire_source;
  j["protected_square"] = v.protected_square;
  j["screening"] = ScreeningName(v.screening);
  j["screened_by"] = v.screened_by;
  j["shot_void"] = v.shot_void;
  nlohmann::json distances = nlohmann::json::object();
  nlohmann::json near = nlohmann::json::array();
  for (const auto& n : v.stands_near) {
    distances[n.id] = n.distance_in;
    near.push_back({{"id", n.id},
                    {"side", n.side},
                    {"kind", n.kind},
                    {"category", CategoryName(n.category)},
                    {"square", SquareJson(n.square)},
                    {"distance_in", n.distance_in},
                    {"distance_mm", n.distance_mm},
                    {"inside_circle", n.inside_circle},
                    {"margin_in", n.margin_in},
                    {"friendly", n.friendly},
                    {"equipment", n.equipment},
                    {"touched", n.touched},
                    {"candidate", n.candidate},
                    {"destroyed", n.destroyed},
                    {"note", n.note},
                    {"facing_decides", n.facing_decides},
                    {"hit_if_facing", n.hit_if_facing},
                    {"size_decides", n.size_decides},
                    {"hit_if_outline", n.hit_if_outline}});
  }
  j["distances"] = distances;
  j["stands_near"] = near;
  j["explanation"] = v.explanation;
  return j;
}

std::string VerdictToText(const Verdict& v) {
  std::ostringstream out;
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "%s shot (%s rules) at (%.3f, %.3f) in, square %s (%s), fired by %s\n",
                ShotKindName(v.kind).c_str(), v.ruleset.c_str(), v.point.x, v.point.y,
                v.impact_square ? SquareName(*v.impact_square).c_str() : "off board",
                TerrainName(v.impact_terrain).c_str(), v.firer_side.c_str());
  out << buf;
  std::snprintf(buf, sizeof buf, "hit circle radius %.3f in; stands within %.3f in:\n",
                v.hit_radius_in, v.report_radius_in);
  out << buf;
  if (v.stands_near.empty()) out << "  (none)\n";
  for (const auto& n : v.stands_near) {
    const char* status = n.destroyed       ? "DESTROYED"
                         : n.candidate     ? "CANDIDATE"
                         : n.inside_circle ? "inside, spared"
                                           : "outside";
    std::snprintf(buf, sizeof buf,
                  "  %-12s %-6s %-22s %-4s %8.4f in %7.2f mm  margin %+8.4f in  %s%s\n",
                  n.id.c_str(), n.side.c_str(), n.kind.c_str(),
                  n.square ? SquareName(*n.square).c_str() : "-", n.distance_in, n.distance_mm,
                  n.margin_in, status, n.friendly ? " (friendly)" : "");
    out << buf;
  }
  out << "candidates: " << Join(v.candidates);
  if (!v.candidates.empty()) {
    out << (v.reading == CasualtyReading::kEveryStandInCircle
                ? "  -> all of them are casualties"
                : "  -> " + std::to_string(v.casualties_required) + " casualty, firer's choice");
  }
  out << "\n";
  if (!v.facing_to_confirm.empty())
    out << "CONFIRM FACING: " << Join(v.facing_to_confirm)
        << " (no front stripe seen; which way each faces decides whether it is hit)\n";
  if (!v.size_to_confirm.empty())
    out << "CONFIRM SIZE: " << Join(v.size_to_confirm)
        << " (the camera could not tell the base's size; which it is decides whether it is hit)\n";
  out << "destroyed equipment: " << Join(v.destroyed_equipment)
      << "; crew lost with it: " << Join(v.destroyed_crew) << "\n";
  out << "over water: " << (v.over_water ? "yes" : "no")
      << "; fire roll: " << (v.fire_roll ? "YES (" + v.fire_source + ")" : "no")
      << "; screening: " << ScreeningName(v.screening);
  if (v.shot_void) out << " (shot void)";
  out << "\nwhy:\n";
  for (const auto& line : v.explanation) out << "  - " << line << "\n";
  return out.str();
}

}  // namespace referee
