#include "engine/unit_grouping.hpp"

#include <algorithm>
#include <map>
#include <tuple>

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

bool IsArtillery(StandCategory c) { return IsEquipment(c) || IsCrew(c); }

// Limits of Napoleonic 1C for one side's artillery in one square.
constexpr int kMaxGunsPerSquare = 2;
constexpr int kMaxWagonsPerSquare = 1;
constexpr int kMaxCrewPerSquare = 6;
constexpr int kMaxCommandersPerSquare = 1;

struct Cell {
  std::vector<const Stand*> troops, artillery, commanders;
};

}  // namespace

UnitGrouping GroupStandsIntoUnits(const Grid& grid, const std::vector<Stand>& stands,
                                  const StandKindCatalog& catalog) {
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
    } else if (IsArtillery(kind->category)) {
      cell.artillery.push_back(&s);
    } else {
      cell.troops.push_back(&s);
    }
  }

  for (const auto& [key, cell] : cells) {
    const auto& [side, square] = key;
    auto issue = [&](const std::string& what) { out.issues.push_back({side, square, what}); };
    auto ids = [](const std::vector<const Stand*>& v) {
      std::vector<std::string> r;
      for (const Stand* s : v) r.push_back(s->id);
      std::sort(r.begin(), r.end());
      return r;
    };
    std::optional<std::string> commander;
    if (!cell.commanders.empty()) commander = ids(cell.commanders).front();
    if (static_cast<int>(cell.commanders.size()) > kMaxCommandersPerSquare) {
      issue(std::to_string(cell.commanders.size()) +
            " commanders in one square (at most 1, Napoleonic 1C)");
    }
    if (!cell.troops.empty()) {
      std::map<std::string, int> kinds;
      for (const Stand* s : cell.troops) ++kinds[s->kind];
      if (kinds.size() > 1) {
        issue(
            "stands of different kinds in one square: two units of one side may not share a "
            "square (Napoleonic 1C)");
      }
      out.units.push_back({side, square, UnitType::kTroops, ids(cell.troops), commander});
      commander.reset();
    }
    if (!cell.artillery.empty()) {
      int guns = 0, wagons = 0, crew = 0;
      for (const Stand* s : cell.artillery) {
        const auto c = catalog.Find(s->kind)->category;
        guns += (c == StandCategory::kGun || c == StandCategory::kCatapult) ? 1 : 0;
        wagons += c == StandCategory::kWagon ? 1 : 0;
        crew += IsCrew(c) ? 1 : 0;
      }
      if (guns > kMaxGunsPerSquare) {
        issue(std::to_string(guns) + " guns in one square (at most 2, Napoleonic 1C)");
      }
      if (wagons > kMaxWagonsPerSquare) {
        issue(std::to_string(wagons) + " supply wagons in one square (at most 1, Napoleonic 1C)");
      }
      if (crew > kMaxCrewPerSquare) {
        issue(std::to_string(crew) + " crew stands in one square (at most 6, Napoleonic 1C)");
      }
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
