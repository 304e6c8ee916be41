#include "engine/shot_adjudication.hpp"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <set>

#include "engine/front_edge_facing.hpp"
#include "engine/input_error.hpp"
#include "engine/json_input.hpp"
#include "engine/terrain_contact.hpp"

namespace referee {

namespace {

std::string In(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f\"", v);
  return buf;
}

std::string Mm(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f mm", v);
  return buf;
}

std::string SquareLabel(const std::optional<Square>& s) { return s ? SquareName(*s) : "off board"; }

bool Contains(const std::vector<StandCategory>& v, StandCategory c) {
  return std::find(v.begin(), v.end(), c) != v.end();
}

TargetReference ReferenceFor(StandCategory c, const ShotOptions& o) {
  for (const auto& [cat, ref] : o.target_reference) {
    if (cat == c) return ref;
  }
  return TargetReference::kFootprint;
}

StandCategory CategoryOf(const Stand& s, const StandKindCatalog& catalog) {
  const StandKind* k = catalog.Find(s.kind);
  if (k == nullptr)
    throw InputError("", "stand " + s.id + ".kind", "unknown kind '" + s.kind + "'");
  return k->category;
}

std::vector<StandCategory> ParseCategories(const nlohmann::json& arr, const std::string& file,
                                           const std::string& field) {
  RequireArray(arr, file, field);
  std::vector<StandCategory> out;
  for (size_t i = 0; i < arr.size(); ++i) {
    const std::string name = AsString(arr[i], file, FieldPath(field, i));
    const auto c = ParseCategory(name);
    if (!c) throw InputError(file, FieldPath(field, i), "unknown category '" + name + "'");
    out.push_back(*c);
  }
  return out;
}

// Is the stand, taken at this outline and kind, hit: equipment touched, a target inside the
// circle (measured as the rules measure it: its footprint or its front edge as seen)?
double MeasuredDistance(Vec2 p, const Stand& s, const StandKindCatalog& catalog,
                        const ShotOptions& o) {
  const StandCategory cat = CategoryOf(s, catalog);
  return Contains(o.touch_only, cat) ? DistanceToRect(p, s.footprint)
                                     : TargetDistance(p, s, cat, o);
}

bool HitUnder(Vec2 p, const Stand& s, const StandKindCatalog& catalog, const ShotOptions& o) {
  const bool equipment = Contains(o.touch_only, CategoryOf(s, catalog));
  const double limit_in = equipment ? MmToInches(o.equipment_touch_tolerance_mm) : o.hit_radius_in;
  return MeasuredDistance(p, s, catalog, o) <= limit_in + kWithinSlackIn;
}

// A base whose size the camera could not tell: measured at every size it allows; when they
// disagree the verdict keeps the size reported and names the stand for the players to confirm.
void AskSizeIfItDecides(Vec2 p, const Stand& s, StandNearShot& n, const StandKindCatalog& catalog,
                        const ShotOptions& o, Verdict& v) {
  const std::vector<Stand> outlines = OutlinesOf(s);
  std::string hit, miss;
  for (const Stand& t : outlines) {
    const std::string name = OutlineName(t);
    const bool is_hit = HitUnder(p, t, catalog, o);
    if (is_hit) n.hit_if_outline.push_back(name);
    std::string& to = is_hit ? hit : miss;
    to += (to.empty() ? "" : ", ") + name;
  }
  n.size_decides = !n.hit_if_outline.empty() && n.hit_if_outline.size() < outlines.size();
  if (!n.size_decides) return;
  v.size_to_confirm.push_back(n.id);
  std::string line = o.clause_circle + ": the camera could not tell " + n.id + "'s base size: ";
  line += "hit if it is ";
  line += hit;
  line += "; not hit if it is ";
  line += miss;
  line += ": the players say which (taken as ";
  line += OutlineName(outlines.front());
  line += " here)";
  v.explanation.push_back(std::move(line));
}

}  // namespace

ShotOptions LoadShotOptions(const std::string& ruleset, const std::filesystem::path& path) {
  const std::string file = path.string();
  const nlohmann::json j = ReadJsonFile(path);
  RequireObject(j, file, "(top level)");
  if (!j.contains(ruleset) || !j.at(ruleset).is_object() || ruleset == "source") {
    throw InputError(file, ruleset, "unknown ruleset '" + ruleset + "' (napoleonic, ancient)");
  }
  const auto& r = j.at(ruleset);
  const std::string& f = ruleset;
  ShotOptions o;
  o.ruleset = ruleset;
  o.hit_radius_in = GetFiniteNumber(r, "hit_radius_in", file, f);
  o.report_radius_in = GetFiniteNumber(r, "report_radius_in", file, f);
  o.equipment_touch_tolerance_mm = GetFiniteNumber(r, "equipment_touch_tolerance_mm", file, f);
  if (o.hit_radius_in <= 0.0) throw InputError(file, f + ".hit_radius_in", "must be positive");
  if (o.report_radius_in < o.hit_radius_in) {
    throw InputError(file, f + ".report_radius_in", "must be at least hit_radius_in");
  }
  if (o.equipment_touch_tolerance_mm < 0.0) {
    throw InputError(file, f + ".equipment_touch_tolerance_mm", "must not be negative");
  }
  const std::string reading = GetString(r, "casualty_reading", file, f);
  const auto parsed_reading = ParseCasualtyReading(reading);
  if (!parsed_reading) {
    throw InputError(file, f + ".casualty_reading",
                     "unknown reading '" + reading + "' (one_stand_firers_choice, every_stand)");
  }
  o.reading = *parsed_reading;
  o.allowed_kinds.clear();
  const auto& kinds = RequireKey(r, "shot_kinds", file, f);
  RequireArray(kinds, file, f + ".shot_kinds");
  for (size_t i = 0; i < kinds.size(); ++i) {
    const std::string name = AsString(kinds[i], file, FieldPath(f + ".shot_kinds", i));
    const auto k = ParseShotKind(name);
    if (!k) throw InputError(file, FieldPath(f + ".shot_kinds", i), "unknown shot kind " + name);
    o.allowed_kinds.push_back(*k);
  }
  o.touch_only = ParseCategories(RequireKey(r, "touch_only_categories", file, f), file,
                                 f + ".touch_only_categories");
  o.crew_lost_with_equipment = GetInt(r, "crew_lost_with_equipment", file, f);
  if (o.crew_lost_with_equipment < 0) {
    throw InputError(file, f + ".crew_lost_with_equipment", "must not be negative");
  }
  const auto& refs = RequireKey(r, "target_reference", file, f);
  RequireObject(refs, file, f + ".target_reference");
  for (const auto& [cat_name, ref] : refs.items()) {
    std::string field = f + ".target_reference.";
    field += cat_name;
    const auto c = ParseCategory(cat_name);
    if (!c) throw InputError(file, field, "unknown category");
    const std::string ref_name = AsString(ref, file, field);
    if (ref_name == "footprint") {
      o.target_reference.emplace_back(*c, TargetReference::kFootprint);
    } else if (ref_name == "front_edge") {
      o.target_reference.emplace_back(*c, TargetReference::kFrontEdge);
    } else {
      throw InputError(file, field, "expected footprint or front_edge");
    }
  }
  o.water_absorbs_shell =
      AsBool(RequireKey(r, "water_absorbs_shell", file, f), file, f + ".water_absorbs_shell");
  o.fire_roll_rule = AsBool(RequireKey(r, "fire_roll", file, f), file, f + ".fire_roll");
  o.field_guns_screened =
      AsBool(RequireKey(r, "field_guns_screened", file, f), file, f + ".field_guns_screened");
  const auto& clauses = RequireKey(r, "clauses", file, f);
  const std::string cf = f + ".clauses";
  o.clause_circle = GetString(clauses, "circle", file, cf);
  o.clause_howitzer = GetString(clauses, "howitzer", file, cf);
  o.clause_equipment = GetString(clauses, "equipment", file, cf);
  o.clause_water = GetString(clauses, "water", file, cf);
  o.clause_protected = GetString(clauses, "protected", file, cf);
  o.clause_bridge = GetString(clauses, "bridge", file, cf);
  o.clause_fire = GetString(clauses, "fire", file, cf);
  o.clause_screen = GetString(clauses, "screen", file, cf);
  o.clause_friendly = GetString(clauses, "friendly", file, cf);
  o.clause_choice = GetString(clauses, "choice", file, cf);
  return o;
}

double TargetDistance(Vec2 p, const Stand& stand, StandCategory category,
                      const ShotOptions& options) {
  if (ReferenceFor(category, options) == TargetReference::kFrontEdge) {
    const auto c = stand.footprint.Corners();  // front-left, front-right first
    return DistanceToSegment(p, c[0], c[1]);
  }
  return DistanceToRect(p, stand.footprint);
}

Verdict AdjudicateShot(const Board& board, const std::vector<Stand>& stands, const Shot& shot,
                       const StandKindCatalog& catalog, const ShotOptions& o) {
  if (std::find(o.allowed_kinds.begin(), o.allowed_kinds.end(), shot.kind) ==
      o.allowed_kinds.end()) {
    std::string allowed;
    for (const ShotKind k : o.allowed_kinds)
      allowed += (allowed.empty() ? "" : ", ") + ShotKindName(k);
    throw InputError("", "shot.kind",
                     "'" + ShotKindName(shot.kind) + "' is not a shot of the " + o.ruleset +
                         " rules (" + allowed + ")");
  }
  if (!IsFinite(shot.point)) throw InputError("", "shot.point", "not finite");

  Verdict v;
  v.ruleset = o.ruleset;
  v.kind = shot.kind;
  v.point = shot.point;
  v.firer_side = shot.firer_side;
  v.impact_square = board.grid.SquareOf(shot.point);
  v.impact_terrain = v.impact_square ? board.TerrainAt(*v.impact_square) : Terrain::kOpen;
  v.protected_square = v.impact_square && SquareIsProtected(board, *v.impact_square);
  v.hit_radius_in = o.hit_radius_in;
  v.report_radius_in = o.report_radius_in;
  v.touch_tolerance_mm = o.equipment_touch_tolerance_mm;
  v.reading = o.reading;
  const double touch_in = MmToInches(o.equipment_touch_tolerance_mm);
  const bool qtip = IsQtipShot(shot.kind);
  const std::string what = qtip ? "the Q-tip's tip" : "the shell's centre mark";
  const std::string circle_clause =
      shot.kind == ShotKind::kHowitzer ? o.clause_howitzer : o.clause_circle;
  auto& why = v.explanation;

  why.push_back(circle_clause + ": a " + In(o.hit_radius_in) + " circle centred on " + what +
                " at (" + In(shot.point.x) + ", " + In(shot.point.y) + ") in " +
                SquareLabel(v.impact_square) + " (" + TerrainName(v.impact_terrain) + ")");

  // Everything near the impact, with its exact distance.
  std::vector<StandCategory> categories;
  categories.reserve(stands.size());
  for (const auto& s : stands) categories.push_back(CategoryOf(s, catalog));
  for (size_t i = 0; i < stands.size(); ++i) {
    const Stand& s = stands[i];
    const StandCategory cat = categories[i];
    const bool equipment = Contains(o.touch_only, cat);
    const double d =
        equipment ? DistanceToRect(shot.point, s.footprint) : TargetDistance(shot.point, s, cat, o);
    // Measured from a front edge nobody has seen: every edge the base may present counts.
    std::vector<FrontEdgeOption> facings;
    if (!equipment && !s.facing_known && ReferenceFor(cat, o) == TargetReference::kFrontEdge) {
      facings = FrontEdgeOptions(shot.point, s, catalog.Find(s.kind));
    }
    double nearest_in = d;
    for (const auto& f : facings) nearest_in = std::min(nearest_in, f.distance_in);
    // A size the camera could not rule out may reach nearer.
    if (!s.other_outlines.empty()) {
      for (const Stand& t : OutlinesOf(s))
        nearest_in = std::min(nearest_in, MeasuredDistance(shot.point, t, catalog, o));
    }
    if (nearest_in > o.report_radius_in) continue;
    StandNearShot n;
    n.id = s.id;
    n.side = s.side;
    n.kind = s.kind;
    n.category = cat;
    n.square = board.grid.SquareOf(s.footprint.center);
    n.distance_in = d;
    n.distance_mm = InchesToMm(d);
    n.inside_circle = d <= o.hit_radius_in + kWithinSlackIn;
    n.margin_in = o.hit_radius_in - d;
    n.friendly = s.side == shot.firer_side;
    n.equipment = equipment;
    n.touched = equipment && d <= touch_in + kWithinSlackIn;
    for (const auto& f : facings) {
      if (f.distance_in <= o.hit_radius_in + kWithinSlackIn)
        n.hit_if_facing.push_back(FacingName(f.facing));
    }
    n.facing_decides = !n.hit_if_facing.empty() && n.hit_if_facing.size() < facings.size();
    if (n.facing_decides) {
      std::string hit, miss;
      for (const auto& f : facings) {
        std::string& to = f.distance_in <= o.hit_radius_in + kWithinSlackIn ? hit : miss;
        to += (to.empty() ? "" : ", ") + FacingName(f.facing) + " (" + In(f.distance_in) + ")";
      }
      v.facing_to_confirm.push_back(n.id);
      std::string line = o.clause_circle + ": " + n.id;
      line +=
          " shows no front stripe and is measured from its front edge: inside the circle if it "
          "faces ";
      line += hit;
      line += ", outside if it faces ";
      line += miss;
      line += ": the players say which way it faces (taken as ";
      line += FacingName(facings.front().facing);
      line += " here)";
      why.push_back(std::move(line));
    }
    if (!s.other_outlines.empty()) AskSizeIfItDecides(shot.point, s, n, catalog, o, v);
    if (!equipment && ReferenceFor(cat, o) == TargetReference::kFrontEdge) {
      const double base_in = DistanceToRect(shot.point, s.footprint);
      n.note = o.clause_circle +
               ": measured to the front edge (front axle / front legs); the base is " +
               In(base_in) + " away";
      if (base_in <= o.hit_radius_in + kWithinSlackIn && !n.inside_circle) {
        v.explanation.push_back(n.id + ": " + n.note + ": not a valid target");
      }
    }
    v.stands_near.push_back(n);
  }
  std::sort(v.stands_near.begin(), v.stands_near.end(), [](const auto& a, const auto& b) {
    return a.distance_in != b.distance_in ? a.distance_in < b.distance_in : a.id < b.id;
  });

  // Screening: only field/horse guns, and only when we know where the gun stands.
  if (!qtip) {
    v.screening = Screening::kNotApplicable;
    why.push_back((shot.kind == ShotKind::kHowitzer ? o.clause_howitzer : o.clause_screen) + ": " +
                  (shot.kind == ShotKind::kHowitzer ? "a howitzer cannot be screened"
                                                    : "overhead fire is allowed"));
  } else if (!o.field_guns_screened) {
    v.screening = Screening::kNotApplicable;
  } else if (!shot.gun_center) {
    v.screening = Screening::kNotEvaluated;
    why.push_back(o.clause_screen +
                  ": screening not evaluated (the firing gun's position was not given)");
  } else {
    const auto gun_sq = board.grid.SquareOf(*shot.gun_center);
    std::vector<Square> line;
    if (gun_sq && v.impact_square && *gun_sq != *v.impact_square) {
      line = SquaresBetween(*gun_sq, *v.impact_square);
      line.push_back(*v.impact_square);
    }
    std::set<Square> screening_squares;
    for (const Square s : line) {
      if (AreAdjacent(*gun_sq, s)) screening_squares.insert(s);
    }
    for (const auto& s : stands) {
      if (s.side != shot.firer_side || (shot.gun_id && s.id == *shot.gun_id)) continue;
      const auto sq = board.grid.SquareOf(s.footprint.center);
      if (sq && screening_squares.count(*sq)) v.screened_by.push_back(s.id);
    }
    if (v.screened_by.empty()) {
      v.screening = Screening::kClear;
      why.push_back(o.clause_screen + ": no friendly troops in the squares next to the gun (" +
                    SquareLabel(gun_sq) + ") on the line of fire: not screened");
    } else {
      v.screening = Screening::kScreened;
      v.shot_void = true;
      std::string ids;
      for (const auto& id : v.screened_by) ids += (ids.empty() ? "" : ", ") + id;
      why.push_back(o.clause_screen + ": friendly " + ids + " in a square adjacent to the gun (" +
                    SquareLabel(gun_sq) +
                    ") on the line of fire screen it: the gun may not fire this way, shot void");
    }
  }

  // Water swallows the shell (a bridge over it does not).
  if (!v.shot_void && o.water_absorbs_shell && board.IsOverWater(shot.point) &&
      !IsOnBridge(board, shot.point)) {
    v.over_water = true;
    why.push_back(o.clause_water + ": " + what +
                  " is at rest over water: the shell landed in it and does no damage");
  }
  const bool effective = !v.shot_void && !v.over_water;

  // A stand in a protected square can only die if the impact is in that square too.
  auto protection_ok = [&](StandNearShot& n) {
    if (!n.square || !SquareIsProtected(board, *n.square)) return true;
    v.protected_square = true;
    if (board.grid.DistanceToSquare(shot.point, *n.square) == 0.0) {
      n.note = o.clause_protected + ": in protected square " + SquareName(*n.square) + " and " +
               what + " is in that square";
      return true;
    }
    n.note = o.clause_protected + ": in protected square " + SquareName(*n.square) + " but " +
             what + " is not in that square: safe";
    why.push_back(n.id + ": " + n.note);
    return false;
  };

  std::set<std::string> dead;
  if (effective) {
    // Equipment first: it dies only when touched, and takes its crew with it.
    for (auto& n : v.stands_near) {
      if (!n.equipment) continue;
      if (!n.touched) {
        n.note = o.clause_equipment + ": equipment dies only when " + what + " touches it (" +
                 In(n.distance_in) + " = " + Mm(n.distance_mm) + " away, tolerance " +
                 Mm(o.equipment_touch_tolerance_mm) + ")";
        if (n.inside_circle) why.push_back(n.id + ": " + n.note);
        continue;
      }
      if (!protection_ok(n)) continue;
      n.destroyed = true;
      dead.insert(n.id);
      v.destroyed_equipment.push_back(n.id);
      n.note =
          o.clause_equipment + ": " + what + " touches it (" + Mm(n.distance_mm) + "): destroyed";
      why.push_back(n.id + " (" + n.kind + "): " + n.note);
    }
    for (const auto& eq_id : v.destroyed_equipment) {
      const auto eq =
          std::find_if(stands.begin(), stands.end(), [&](const Stand& s) { return s.id == eq_id; });
      const auto eq_sq = board.grid.SquareOf(eq->footprint.center);
      for (int k = 0; k < o.crew_lost_with_equipment; ++k) {
        // The crew serving it: same side, same square first, else an adjacent one; nearest.
        const Stand* best = nullptr;
        double best_key = 1e300;
        for (size_t i = 0; i < stands.size(); ++i) {
          const Stand& s = stands[i];
          if (!IsCrew(categories[i]) || s.side != eq->side || dead.count(s.id)) continue;
          const auto sq = board.grid.SquareOf(s.footprint.center);
          if (!sq || !eq_sq || (*sq != *eq_sq && !AreAdjacent(*sq, *eq_sq))) continue;
          const double key =
              (*sq == *eq_sq ? 0.0 : 1e6) + Distance(s.footprint.center, eq->footprint.center);
          if (key < best_key) {
            best_key = key;
            best = &s;
          }
        }
        if (best == nullptr) {
          why.push_back(eq_id + ": no crew stand of side " + eq->side +
                        " in or next to its square to lose with it");
          break;
        }
        dead.insert(best->id);
        v.destroyed_crew.push_back(best->id);
        why.push_back(o.clause_equipment + ": crew " + best->id + " is destroyed with " + eq_id);
        for (auto& n : v.stands_near) {
          if (n.id == best->id) {
            n.destroyed = true;
            n.note = "destroyed with " + eq_id + " (" + o.clause_equipment + ")";
          }
        }
      }
    }
    // Troops: any part within the circle.
    for (auto& n : v.stands_near) {
      if (n.equipment || dead.count(n.id)) continue;
      if (!n.inside_circle) {
        n.note =
            (n.note.empty() ? "" : n.note + "; ") + "outside the circle by " + In(-n.margin_in);
        continue;
      }
      if (!protection_ok(n)) continue;
      n.candidate = true;
      if (n.note.empty()) {
        n.note = circle_clause + ": part of it within the circle (" + In(n.distance_in) +
                 ", margin " + In(n.margin_in) + ")";
      }
      v.candidates.push_back(n.id);
    }
    for (const auto& n : v.stands_near) {
      if ((n.candidate || n.destroyed) && n.friendly) {
        why.push_back(o.clause_friendly + ": " + n.id + " is the firer's own (" + n.side +
                      ") and is hit like an enemy");
      }
    }
  } else {
    for (auto& n : v.stands_near) n.note = v.shot_void ? "shot void (screened)" : "shell in water";
  }

  const int n_cand = static_cast<int>(v.candidates.size());
  v.casualties_required =
      o.reading == CasualtyReading::kEveryStandInCircle ? n_cand : std::min(1, n_cand);
  if (n_cand > 0) {
    std::string ids;
    for (const auto& id : v.candidates) ids += (ids.empty() ? "" : ", ") + id;
    if (o.reading == CasualtyReading::kEveryStandInCircle) {
      why.push_back(o.clause_choice + " (reading: every stand in the circle): " + ids +
                    " are casualties");
    } else if (n_cand == 1) {
      why.push_back(o.clause_choice + ": " + ids + " is the casualty");
    } else {
      why.push_back(o.clause_choice + ": one stand is a casualty, firer's choice of " + ids);
    }
  } else if (effective && v.destroyed_equipment.empty()) {
    why.push_back(circle_clause + ": no stand can be hit: no casualty");
  }

  // Fire: a tip touching trees, houses or bridges.
  if (effective && o.fire_roll_rule) {
    if (const auto fire = FindInflammableContact(board, shot.point, touch_in)) {
      v.fire_roll = true;
      v.fire_square = fire->square;
      v.fire_source = fire->source;
      why.push_back(o.clause_fire + ": " + what + " touches " + fire->source +
                    ": roll 2 dice; one 1 = " + SquareName(fire->square) +
                    " burns (vacate 1, impassable), double 1 = everything in it destroyed");
    }
  }
  if (effective && v.impact_terrain == Terrain::kBridge) {
    why.push_back(o.clause_bridge + ": a bridge is not protection");
  }
  return v;
}

}  // namespace referee
