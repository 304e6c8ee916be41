#include "engine/unit_grouping.hpp"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <tuple>

#include "engine/input_error.hpp"
#include "engine/json_input.hpp"

namespace referee {

std::string UnitTypeName(UnitType t) {
  switch (t) {
    case UnitType::kTroops:
      return "troops";
    case UnitType::kArtillery:
      return "artillery";
    case UnitType::kCommander:
      return "commander";
  }
  return "troops";
}

namespace {

struct Cell {
  std::vector<const Stand*> troops, artillery, commanders;
};

}  // namespace

bool SquareStacking::IsArtillery(StandCategory c) const {
  return std::find(artillery.begin(), artillery.end(), c) != artillery.end();
}

SquareStacking LoadSquareStacking(const std::string& ruleset, const std::filesystem::path& path) {
  const std::string file = path.string();
  const nlohmann::json j = ReadJsonFile(path);
  RequireObject(j, file, "");
  const nlohmann::json& all = RequireKey(j, "rulesets", file, "");
  RequireObject(all, file, "rulesets");
  const std::string field = FieldPath("rulesets", ruleset);
  if (!all.contains(ruleset)) throw InputError(file, field, "no stacking rules for this ruleset");
  const nlohmann::json& r = all.at(ruleset);
  RequireObject(r, file, field);
  auto categories = [&](const nlohmann::json& arr, const std::string& f) {
    RequireArray(arr, file, f);
    std::vector<StandCategory> out;
    for (size_t i = 0; i < arr.size(); ++i) {
      const std::string name = AsString(arr[i], file, FieldPath(f, i));
      const auto c = ParseCategory(name);
      if (!c) throw InputError(file, FieldPath(f, i), "unknown stand category '" + name + "'");
      out.push_back(*c);
    }
    return out;
  };
  SquareStacking s;
  s.ruleset = ruleset;
  s.artillery = categories(RequireKey(r, "artillery_categories", file, field),
                           FieldPath(field, "artillery_categories"));
  s.one_troop_kind_per_square = GetBoolOr(r, "one_troop_kind_per_square", true, file, field);
  const std::string lf = FieldPath(field, "limits");
  const nlohmann::json& limits = RequireKey(r, "limits", file, field);
  RequireArray(limits, file, lf);
  for (size_t i = 0; i < limits.size(); ++i) {
    const std::string f = FieldPath(lf, i);
    RequireObject(limits[i], file, f);
    StackingLimit l;
    l.categories =
        categories(RequireKey(limits[i], "categories", file, f), FieldPath(f, "categories"));
    l.max = GetInt(limits[i], "max", file, f);
    if (l.max < 0) throw InputError(file, FieldPath(f, "max"), "must be 0 or more");
    l.what = GetString(limits[i], "what", file, f);
    s.limits.push_back(std::move(l));
  }
  return s;
}

UnitGrouping GroupStandsIntoUnits(const Grid& grid, const std::vector<Stand>& stands,
                                  const StandKindCatalog& catalog) {
  return GroupStandsIntoUnits(grid, stands, catalog, LoadSquareStacking("napoleonic"));
}

UnitGrouping GroupStandsIntoUnits(const Grid& grid, const std::vector<Stand>& stands,
                                  const StandKindCatalog& catalog, const SquareStacking& stacking) {
  UnitGrouping out;
  std::map<std::pair<std::string, Square>, Cell> cells;
  for (const auto& s : stands) {
    const auto sq = grid.SquareOf(s.footprint.center);
    const StandKind* kind = catalog.Find(s.kind);
    if (!sq || kind == nullptr) {
      out.off_board.push_back(s.id);
      continue;
    }
    Cell& cell = cells[{s.side, *sq}];
    if (kind->category == StandCategory::kCommander) {
      cell.commanders.push_back(&s);
    } else if (stacking.IsArtillery(kind->category)) {
      cell.artillery.push_back(&s);
    } else {
      cell.troops.push_back(&s);
    }
  }

  for (const auto& [key, cell] : cells) {
    // Named copies, not structured bindings: lambdas below capture them.
    const std::string& side = key.first;
    const Square square = key.second;
    auto issue = [&](const std::string& what) { out.issues.push_back({side, square, what}); };
    auto ids = [](const std::vector<const Stand*>& v) {
      std::vector<std::string> r;
      r.reserve(v.size());
      for (const Stand* s : v) r.push_back(s->id);
      std::sort(r.begin(), r.end());
      return r;
    };
    std::optional<std::string> commander;
    if (!cell.commanders.empty()) commander = ids(cell.commanders).front();
    // Stacking limits, per the ruleset.
    for (const auto& limit : stacking.limits) {
      int n = 0;
      for (const auto* group : {&cell.troops, &cell.artillery, &cell.commanders}) {
        for (const Stand* s : *group) {
          const auto c = catalog.Find(s->kind)->category;
          n += std::find(limit.categories.begin(), limit.categories.end(), c) !=
                       limit.categories.end()
                   ? 1
                   : 0;
        }
      }
      if (n > limit.max) {
        issue(std::to_string(n) + " " + limit.what + " in one square (at most " +
              std::to_string(limit.max) + ", " + stacking.ruleset + " stacking rules)");
      }
    }
    if (!cell.troops.empty()) {
      std::map<std::string, int> kinds;
      for (const Stand* s : cell.troops) ++kinds[s->kind];
      if (kinds.size() > 1 && stacking.one_troop_kind_per_square) {
        issue(
            "stands of different kinds in one square: two units of one side may not share a "
            "square (" +
            stacking.ruleset + " stacking rules)");
      }
      out.units.push_back({side, square, UnitType::kTroops, ids(cell.troops), commander});
      commander.reset();
    }
    if (!cell.artillery.empty()) {
      out.units.push_back({side, square, UnitType::kArtillery, ids(cell.artillery), commander});
      commander.reset();
    }
    if (commander) out.units.push_back({side, square, UnitType::kCommander, {}, commander});
    // Commanders beyond the first stand on their own (and were reported above).
    const auto all_commanders = ids(cell.commanders);
    for (size_t i = 1; i < all_commanders.size(); ++i) {
      out.units.push_back({side, square, UnitType::kCommander, {}, all_commanders[i]});
    }
  }
  std::sort(out.units.begin(), out.units.end(), [](const TableUnit& a, const TableUnit& b) {
    return std::tie(a.side, a.square, a.type) < std::tie(b.side, b.square, b.type);
  });
  std::sort(out.off_board.begin(), out.off_board.end());
  return out;
}

}  // namespace referee
