// Kinds the base size cannot tell apart, chosen by the ruleset's unit organisations: the
// detector calls every 40 x 40 base a field gun and every 40 x 20 base line infantry
// (vision/stand_detector GuessKind with the Napoleonic kind preference); a square holding a
// foot battery must read as one.
#include "engine/kind_resolution.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "engine/game_log.hpp"
#include "engine/rules/ruleset_loader.hpp"
#include "engine/stand_fold.hpp"
#include "engine/stand_kind_catalog_loader.hpp"

namespace referee {
namespace {

GameEvent LogEvent(int64_t seq, EventPayload p) {
  GameEvent e;
  e.seq = seq;
  e.payload = std::move(p);
  return e;
}

constexpr double kMmPerIn = 25.4;

class KindResolutionTest : public ::testing::Test {
 protected:
  // The detector's size guess for a base of w x d mm at (x, y).
  void Add(const std::string& id, const std::string& side, const std::string& kind, double x,
           double y, KindSource source = KindSource::kSize) {
    const StandKind* k = catalog_.Find(kind);
    ASSERT_NE(k, nullptr) << kind;
    stands_.push_back(
        {id, side, kind, {{x, y}, k->width_mm / kMmPerIn, k->depth_mm / kMmPerIn, 0}, true, {}});
    sources_.push_back(source);
  }
  KindResolution Resolve(const std::string& ruleset_name,
                         const std::vector<std::string>& preference = {}) {
    const rules::RulesetData ruleset = rules::LoadRuleset(ruleset_name);
    return ResolveKindsByOrganisation(grid_, stands_, sources_, catalog_, ruleset,
                                      LoadSquareStacking(ruleset_name), preference);
  }
  static std::map<std::string, std::string> KindById(const KindResolution& r) {
    std::map<std::string, std::string> out;
    for (const auto& s : r.stands) out[s.id] = s.kind;
    return out;
  }
  static std::map<std::string, int> Counts(const KindResolution& r, const std::string& side) {
    std::map<std::string, int> out;
    for (const auto& s : r.stands) {
      if (s.side == side) ++out[s.kind];
    }
    return out;
  }
  // A foot battery as the detector sees it, in square C2 (x 8-12, y 4-8): four crews taken
  // for line infantry, the mounted crew for line cavalry, gun, howitzer and wagon for guns.
  void AddFootBatteryAsGuessed(const std::string& side, double x0, double y0) {
    for (int i = 0; i < 4; ++i) {
      Add(side + "-crew" + std::to_string(i), side, "line_infantry", x0 + 0.4 + 0.8 * i, y0 + 3.4);
    }
    Add(side + "-mounted", side, "line_cavalry", x0 + 3.2, y0 + 2.4);
    Add(side + "-a", side, "field_gun", x0 + 0.9, y0 + 1.0);  // leftmost 40 x 40
    Add(side + "-b", side, "field_gun", x0 + 2.0, y0 + 1.2);
    Add(side + "-c", side, "field_gun", x0 + 3.1, y0 + 0.9);
  }

  Grid grid_{12, 8, 4.0};
  StandKindCatalog catalog_ = LoadStandKinds();
  std::vector<Stand> stands_;
  std::vector<KindSource> sources_;
};

TEST_F(KindResolutionTest, FootBatteryGunsAreGunHowitzerAndWagonLeftToRight) {
  AddFootBatteryAsGuessed("red", 8.0, 4.0);
  const KindResolution r = Resolve("napoleonic");
  const std::map<std::string, int> want = {{"foot_crew", 4},
                                           {"mounted_crew", 1},
                                           {"field_gun", 1},
                                           {"howitzer", 1},
                                           {"supply_wagon", 1}};
  EXPECT_EQ(Counts(r, "red"), want);
  const auto kind = KindById(r);
  EXPECT_EQ(kind.at("red-a"), "field_gun");
  EXPECT_EQ(kind.at("red-b"), "howitzer");
  EXPECT_EQ(kind.at("red-c"), "supply_wagon");
  for (size_t i = 0; i < r.stands.size(); ++i) {
    EXPECT_EQ(r.sources[i], KindSource::kOrganisation) << r.stands[i].id;
  }
  ASSERT_EQ(r.readings.size(), 1u);
  EXPECT_EQ(r.readings[0], "red C2: foot_battery");
}

TEST_F(KindResolutionTest, HorseBatteryIsAMountedCrewAndAHorseGun) {
  Add("blue-1", "blue", "line_cavalry", 21.0, 22.5);
  Add("blue-2", "blue", "field_gun", 22.0, 21.0);
  const auto kind = KindById(Resolve("napoleonic"));
  EXPECT_EQ(kind.at("blue-1"), "mounted_crew");
  EXPECT_EQ(kind.at("blue-2"), "horse_gun");
}

TEST_F(KindResolutionTest, AncientCatapultWithItsCrewIsNotAChariotAndInfantry) {
  // Ancient kind preference (vision KindPreference("ancient")): 40 x 40 -> chariot, 40 x 20 ->
  // heavy infantry. A chariot shares its square with no crew; a catapult and two crews do.
  const std::vector<std::string> pref = {"heavy_infantry", "heavy_cavalry", "chariot",
                                         "light_catapult"};
  Add("red-1", "red", "chariot", 6.0, 5.0);
  Add("red-2", "red", "heavy_infantry", 5.0, 7.0);
  Add("red-3", "red", "heavy_infantry", 7.0, 7.0);
  const KindResolution r = Resolve("ancient", pref);
  const auto kind = KindById(r);
  EXPECT_EQ(kind.at("red-1"), "light_catapult");
  EXPECT_EQ(kind.at("red-2"), "foot_crew");
  EXPECT_EQ(kind.at("red-3"), "foot_crew");
  ASSERT_EQ(r.readings.size(), 1u);
  EXPECT_EQ(r.readings[0], "red B2: foot_crew + light_catapult");
  // A heavy infantry regiment sharing the square with a catapult (MOVEMENT 2) stays infantry.
  for (int i = 0; i < 2; ++i) Add("red-i" + std::to_string(i), "red", "heavy_infantry", 5.5, 6.0);
  const auto kind2 = KindById(Resolve("ancient", pref));
  EXPECT_EQ(kind2.at("red-1"), "light_catapult");
  for (const auto& id : {"red-2", "red-3", "red-i0", "red-i1"}) {
    EXPECT_EQ(kind2.at(id), "heavy_infantry") << id;
  }
}

TEST_F(KindResolutionTest, TroopUnitsKeepTheirGuessAndCountsPickTheType) {
  for (int i = 0; i < 4; ++i)
    Add("r" + std::to_string(i), "red", "line_infantry", 1.0 + i * 0.8, 2);
  // Three 40 x 20 bases alone: a light infantry unit's count, not a line regiment's.
  for (int i = 0; i < 3; ++i)
    Add("b" + std::to_string(i), "blue", "line_infantry", 29 + 0.8 * i, 30);
  const KindResolution r = Resolve("napoleonic");
  const auto counts_red = Counts(r, "red");
  EXPECT_EQ(counts_red, (std::map<std::string, int>{{"line_infantry", 4}}));
  EXPECT_EQ(Counts(r, "blue"), (std::map<std::string, int>{{"light_infantry", 3}}));
}

TEST_F(KindResolutionTest, PlayersKindsAreKeptAndTheRestFollowThem) {
  AddFootBatteryAsGuessed("red", 8.0, 4.0);
  // The players said the leftmost 40 x 40 base is the wagon.
  stands_[5].kind = "supply_wagon";
  sources_[5] = KindSource::kUser;
  const KindResolution r = Resolve("napoleonic");
  const auto kind = KindById(r);
  EXPECT_EQ(kind.at("red-a"), "supply_wagon");
  EXPECT_EQ(r.sources[5], KindSource::kUser);
  EXPECT_EQ(kind.at("red-b"), "field_gun");
  EXPECT_EQ(kind.at("red-c"), "howitzer");
}

TEST_F(KindResolutionTest, KindsChosenBeforeSurviveLosses) {
  // A foot battery read before, then its wagon destroyed: gun and howitzer stay where they were.
  for (int i = 0; i < 4; ++i) {
    Add("c" + std::to_string(i), "red", "foot_crew", 8.4 + 0.8 * i, 7.4, KindSource::kOrganisation);
  }
  Add("m", "red", "mounted_crew", 11.2, 6.4, KindSource::kOrganisation);
  Add("h", "red", "howitzer", 8.9, 5.0, KindSource::kOrganisation);
  Add("g", "red", "field_gun", 10.0, 5.2, KindSource::kOrganisation);
  // A horse battery that lost its gun: the crew stays a mounted crew, not a commander.
  Add("hm", "blue", "mounted_crew", 30.0, 30.0, KindSource::kOrganisation);
  const auto kind = KindById(Resolve("napoleonic"));
  EXPECT_EQ(kind.at("h"), "howitzer");
  EXPECT_EQ(kind.at("g"), "field_gun");
  EXPECT_EQ(kind.at("m"), "mounted_crew");
  EXPECT_EQ(kind.at("hm"), "mounted_crew");
}

TEST_F(KindResolutionTest, SameTableInAnyOrderGivesTheSameKinds) {
  AddFootBatteryAsGuessed("red", 8.0, 4.0);
  AddFootBatteryAsGuessed("blue", 28.0, 20.0);
  const auto first = KindById(Resolve("napoleonic"));
  std::ranges::reverse(stands_);
  std::ranges::reverse(sources_);
  EXPECT_EQ(KindById(Resolve("napoleonic")), first);
}

TEST_F(KindResolutionTest, KindsOfSameBaseAreTheRulesetsKindsOfThatSize) {
  const rules::RulesetData napoleonic = rules::LoadRuleset("napoleonic");
  EXPECT_EQ(KindsOfSameBase("field_gun", catalog_, napoleonic),
            (std::vector<std::string>{"field_gun", "horse_gun", "howitzer", "supply_wagon"}));
  EXPECT_EQ(KindsOfSameBase("no_such_kind", catalog_, napoleonic), std::vector<std::string>{});
  EXPECT_EQ(ParseKindSource(KindSourceName(KindSource::kOrganisation)), KindSource::kOrganisation);
  EXPECT_FALSE(ParseKindSource("camera").has_value());
}

TEST(StandKindCorrection, FoldsIntoTheStandAndUndoTakesItBack) {
  const SnapshotStand gun{"red-6", "red", "field_gun", "", {{9, 5}, 1.575, 1.575, 0}, true};
  std::vector<GameEvent> log = {
      LogEvent(1, Snapshot{{gun}, ""}),
      LogEvent(2, Correction{"stand_kind",
                             0,
                             {{"stand", "red-6"}, {"kind", "supply_wagon"}, {"from", "field_gun"}},
                             "stand kind set by hand"}),
  };
  EXPECT_EQ(FoldGameLog(log).stands.at("red-6").kind, "supply_wagon");
  log.push_back(LogEvent(3, Undo{2, "wrong base"}));
  EXPECT_EQ(FoldGameLog(log).stands.at("red-6").kind, "field_gun");
}

// What `referee live --resume` gives the stand tracker back: the players' kinds (as theirs)
// under the ids the players last gave, without the stands taken off.
TEST(StandKindCorrection, AResumedLogGivesBackThePlayersKindsUnderTheirIds) {
  const SnapshotStand a{"red-6", "red", "field_gun", "", {{9, 5}, 1.575, 1.575, 0}, true};
  const SnapshotStand b{"red-7", "red", "howitzer", "", {{11, 5}, 1.575, 1.575, 0}, true};
  const SnapshotStand c{"blue-1", "blue", "line_infantry", "", {{9, 21}, 1.575, 0.787, 0}, true};
  const std::vector<GameEvent> log = {
      LogEvent(1, Snapshot{{a, b, c}, ""}),
      LogEvent(2, Correction{"stand_kind",
                             0,
                             {{"stand", "red-6"}, {"kind", "supply_wagon"}, {"from", "field_gun"}},
                             ""}),
      // The players: the wagon is really red-7 (the two swap ids).
      LogEvent(3, Correction{"stand_identity", 0, {{"stand", "red-6"}, {"is", "red-7"}}, ""}),
      LogEvent(4, CasualtiesRemoved{"blue", "", {"blue-1"}, 3, "red", "shot", 0}),
      // A later snapshot keeps the players' kind theirs.
      LogEvent(5, Snapshot{{SnapshotStand{"red-7", "red", "supply_wagon", "", a.footprint, true},
                            SnapshotStand{"red-6", "red", "howitzer", "", b.footprint, true}},
                           ""}),
      LogEvent(6, Correction{"stand_kind",
                             0,
                             {{"stand", "red-6"}, {"kind", "field_gun"}, {"from", "howitzer"}},
                             ""}),
      LogEvent(7, Undo{6, "wrong base"}),
  };
  const auto stands = FoldStands(log);
  ASSERT_EQ(stands.size(), 2u);
  EXPECT_EQ(stands[0].stand.id, "red-6");
  EXPECT_EQ(stands[0].stand.kind, "howitzer");
  EXPECT_EQ(stands[0].stand.footprint.center.x, 11);
  EXPECT_EQ(stands[0].kind_source, KindSource::kSize) << "its correction was undone";
  EXPECT_EQ(stands[1].stand.id, "red-7");
  EXPECT_EQ(stands[1].stand.kind, "supply_wagon");
  EXPECT_EQ(stands[1].stand.footprint.center.x, 9);
  EXPECT_EQ(stands[1].kind_source, KindSource::kUser);
}

}  // namespace
}  // namespace referee
