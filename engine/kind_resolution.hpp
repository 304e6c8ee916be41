// Stand kinds the base size cannot tell apart (TABLE_KIT gives field gun, horse gun, howitzer,
// catapult and supply wagon one 40 x 40 mm base; line, light and guards infantry and foot crew
// one 40 x 20 mm base), chosen so the stands of each side in each square make up the ruleset's
// unit organisations (unit_types.*.stands), counts included: three 40 x 40 bases beside four
// crews and a mounted crew are a foot battery's field gun, howitzer and supply wagon.
//
// Which physical base is which cannot be known from the camera: the choice is deterministic
// (kinds a stand already has are kept where the organisation allows; the rest go left to right
// in the ruleset's kind order) and such stands are marked KindSource::kOrganisation, so the
// players see the kind is inferred and can correct it (KindSource::kUser, never changed here).
//
// Pure engine code (no OpenCV): `referee adjudicate` and the live referee share it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/grid.hpp"
#include "engine/rules/ruleset_data.hpp"
#include "engine/stand.hpp"
#include "engine/unit_grouping.hpp"

namespace referee {

// Where a stand's kind came from. kSize: the detector's guess from the base size alone;
// kOrganisation: chosen among the kinds of that base size so its square forms a unit;
// kUser: the players said so.
enum class KindSource { kSize, kOrganisation, kUser };
std::string KindSourceName(KindSource s);  // "size", "organisation", "user"
std::optional<KindSource> ParseKindSource(const std::string& name);

// The kinds of the ruleset's unit organisations whose catalogue base has the size of `kind`'s
// (either orientation), `kind` itself included when the catalogue knows it; sorted by name.
// What the players may say a stand "is" (the camera cannot tell these apart).
std::vector<std::string> KindsOfSameBase(const std::string& kind, const StandKindCatalog& catalog,
                                         const rules::RulesetData& ruleset);

struct KindResolution {
  std::vector<Stand> stands;        // the input stands, same order, kinds chosen
  std::vector<KindSource> sources;  // parallel to stands
  // Per side and square, the unit types the stands were read as (e.g. "red C4: foot_battery").
  std::vector<std::string> readings;
};

// Chooses the kinds. `sources` is parallel to `stands` (empty: every kind is a size guess).
// kUser kinds are kept; kOrganisation kinds are kept unless the square then fits no
// organisation as well (a kind chosen before is not flipped by a stand lost in the game);
// kSize kinds change freely. A base alone in its square (no organisation to read), stands off
// the board and kinds the catalogue does not know are left as they are. `kind_preference`
// (optional) breaks ties between equally good readings, earlier kinds first (e.g. the detector's
// kind_preference); then kinds in name order.
//
// A square's stands are read as at most one troop unit, up to three artillery units
// (categories from `stacking`: Napoleonic batteries, Ancient catapults and their crews) and
// one commander. Among the readings, in order of importance: fewest stands no organisation
// holds (beyond its counts); fewest size-guessed crews without equipment in their square; fewest
// units; fewest stands missing from the organisations plus kinds chosen before changed; fewest
// kinds chosen before changed; fewest size guesses changed; the preferred kinds.
KindResolution ResolveKindsByOrganisation(const Grid& grid, const std::vector<Stand>& stands,
                                          const std::vector<KindSource>& sources,
                                          const StandKindCatalog& catalog,
                                          const rules::RulesetData& ruleset,
                                          const SquareStacking& stacking,
                                          const std::vector<std::string>& kind_preference = {});

// The same for stands whose kinds are all size guesses, with the ruleset `ruleset_name`'s
// organisations and stacking rules loaded from engine/rulesets/ (throws InputError naming the
// file when they cannot be read).
KindResolution ResolveKindsByOrganisation(const Grid& grid, const std::vector<Stand>& stands,
                                          const StandKindCatalog& catalog,
                                          const std::string& ruleset_name,
                                          const std::vector<std::string>& kind_preference = {});

}  // namespace referee
