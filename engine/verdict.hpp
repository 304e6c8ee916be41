// The ruling on one shot, as a value: what is near the impact, what may die and why.
// VerdictToJson keys `candidates`, `destroyed_equipment`, `over_water`, `fire_roll` and
// `distances` are a contract (issue 2); the rest may grow.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "engine/board.hpp"
#include "engine/scene.hpp"
#include "engine/stand.hpp"

namespace referee {

// How to read "Any one stand which has any part of it within the circle is a casualty".
enum class CasualtyReading {
  kOneStandFirersChoice,  // one stand dies; the firer picks it from the candidates (default)
  kEveryStandInCircle,    // every candidate dies
};
std::string CasualtyReadingName(CasualtyReading r);  // "one_stand_firers_choice" | "every_stand"
std::optional<CasualtyReading> ParseCasualtyReading(const std::string& name);

// Whether the firing gun was screened by friendly troops (Napoleonic 2E).
enum class Screening {
  kNotApplicable,  // howitzer or catapult: cannot be screened
  kNotEvaluated,   // field/horse gun but the gun's position was not given
  kClear,
  kScreened,
};
std::string ScreeningName(Screening s);  // "not_applicable", "not_evaluated", "clear", "screened"

// One stand within the report radius of the impact.
struct StandNearShot {
  std::string id;
  std::string side;
  std::string kind;
  StandCategory category = StandCategory::kInfantry;
  std::optional<Square> square;  // square of the stand's centre
  // Exact distance from the impact point to what the ruleset measures (the footprint, or the
  // front edge for Ancient chariots/elephants/catapults); 0 when the point is on or inside it.
  double distance_in = 0.0;
  double distance_mm = 0.0;
  bool inside_circle = false;  // distance_in <= hit radius
  double margin_in = 0.0;      // hit radius - distance: > 0 inside, < 0 outside
  bool friendly = false;       // on the firer's side
  bool equipment = false;      // dies only when touched (Napoleonic guns, wagons)
  bool touched = false;        // equipment: impact within the touch tolerance of the footprint
  bool candidate = false;      // may be removed as the shot's casualty
  bool destroyed = false;      // destroyed outright (touched equipment, or its crew)
  std::string note;            // why it is or is not a candidate, with the clause
  // Measured from a front edge with no front stripe seen: the facings (N, E, ...) under which
  // the stand is inside the circle, and whether the answer depends on which way it faces.
  std::vector<std::string> hit_if_facing;
  bool facing_decides = false;
  // The camera could not tell this base's size (Stand::other_outlines): the outlines ("kind
  // W x D mm") under which it is inside the circle, and whether the answer depends on which
  // size it truly is.
  std::vector<std::string> hit_if_outline;
  bool size_decides = false;
};

struct Verdict {
  std::string ruleset;  // "napoleonic" | "ancient"
  ShotKind kind = ShotKind::kField;
  Vec2 point;
  std::string firer_side;
  std::optional<Square> impact_square;
  Terrain impact_terrain = Terrain::kOpen;
  double hit_radius_in = 1.0;
  double report_radius_in = 1.5;
  double touch_tolerance_mm = 1.0;

  std::vector<StandNearShot> stands_near;  // sorted by distance, then id
  std::vector<std::string> candidates;     // stand ids the casualty is chosen from
  // Stands whose facing was not seen and decides whether they are hit: the verdict above takes
  // each as seen; the players confirm which way it faces.
  std::vector<std::string> facing_to_confirm;
  // Stands whose base size the camera could not tell, where the size decides whether they are
  // hit: the verdict takes each at the size reported; the players confirm which it is.
  std::vector<std::string> size_to_confirm;
  CasualtyReading reading = CasualtyReading::kOneStandFirersChoice;
  int casualties_required = 0;  // how many candidates die: min(1, n) or n

  std::vector<std::string> destroyed_equipment;  // ids of guns/wagons the tip touched
  std::vector<std::string> destroyed_crew;       // one crew stand per destroyed equipment

  bool over_water = false;            // the shell fell in water: no effect
  bool fire_roll = false;             // the tip touches something inflammable: roll 2 dice
  std::optional<Square> fire_square;  // the square that burns on a 1
  std::string fire_source;            // feature id or "square <name>"

  bool protected_square = false;  // the impact or a candidate lies in a protected square
  Screening screening = Screening::kNotApplicable;
  std::vector<std::string> screened_by;  // friendly stand ids in the screening squares
  bool shot_void = false;                // screened: the gun could not fire this way

  std::vector<std::string> explanation;  // one line per ruling, each citing its clause
};

nlohmann::json VerdictToJson(const Verdict& v);
std::string VerdictToText(const Verdict& v);

}  // namespace referee
