// Stand identities across snapshots: units advancing and wheeling keep their ids stand by
// stand, a jump beyond the ruleset's move is a new stand, a covered stand keeps its id, sides
// never swap ids, and the user's correction sticks. Move allowances come from the real
// ruleset files; the assignment solver is checked against brute force.
#include "vision/stand_tracker.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>

#include "engine/rules/ruleset_loader.hpp"
#include "engine/stand_kind_catalog_loader.hpp"
#include "vision/min_cost_assignment.hpp"

namespace referee {
namespace {

double BruteForceBest(const std::vector<std::vector<double>>& c) {
  std::vector<int> perm(c[0].size());
  for (size_t i = 0; i < perm.size(); ++i) perm[i] = static_cast<int>(i);
  double best = 1e300;
  do {
    double s = 0;
    for (size_t r = 0; r < c.size(); ++r) s += c[r][static_cast<size_t>(perm[r])];
    best = std::min(best, s);
  } while (std::next_permutation(perm.begin(), perm.end()));
  return best;
}

TEST(MinCostAssignment, MatchesBruteForceOnRandomMatrices) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(0.0, 100.0);
  for (int trial = 0; trial < 200; ++trial) {
    const size_t rows = 1 + trial % 6, cols = rows + (trial / 6) % 2;  // square or one spare
    std::vector<std::vector<double>> c(rows, std::vector<double>(cols));
    for (auto& row : c)
      for (double& x : row) x = std::round(u(rng));
    const std::vector<int> a = MinCostAssignment(c);
    ASSERT_EQ(a.size(), rows);
    double s = 0;
    std::vector<bool> used(cols, false);
    for (size_t r = 0; r < rows; ++r) {
      ASSERT_GE(a[r], 0);
      ASSERT_FALSE(used[static_cast<size_t>(a[r])]) << "column used twice, trial " << trial;
      used[static_cast<size_t>(a[r])] = true;
      s += c[r][static_cast<size_t>(a[r])];
    }
    EXPECT_DOUBLE_EQ(s, BruteForceBest(c)) << "trial " << trial;
  }
}

TEST(MinCostAssignment, NeverReturnsAForbiddenPair) {
  const std::vector<std::vector<double>> c = {{1.0, kForbiddenCost}, {2.0, kForbiddenCost}};
  const std::vector<int> a = MinCostAssignment(c);
  ASSERT_EQ(a.size(), 2u);
  EXPECT_EQ(a[0] == 0, a[1] == -1);  // only one row can have column 0, the other gets nothing
  EXPECT_EQ(std::count(a.begin(), a.end(), 0), 1);
  EXPECT_EQ(std::count(a.begin(), a.end(), 1), 0);
}

class Tracker : public ::testing::Test {
 protected:
  Tracker()
      : catalog_(LoadStandKinds()),
        ruleset_(rules::LoadRuleset("napoleonic")),
        grid_{12, 8, ruleset_.square_size_in} {}

  // A unit of n stands side by side (40 x 20 mm infantry), centred at c, front facing angle.
  static std::vector<Stand> Line(const std::string& side, const std::string& kind, Vec2 c, int n,
                                 double angle_deg) {
    std::vector<Stand> out;
    const double w = MmToInches(40), d = MmToInches(20);
    for (int i = 0; i < n; ++i) {
      const Vec2 off = Rotate({(i - 0.5 * (n - 1)) * w, 0.0}, DegToRad(angle_deg));
      out.push_back({"", side, kind, {c + off, w, d, angle_deg}, true, {}});
    }
    return out;
  }

  StandKindCatalog catalog_;
  rules::RulesetData ruleset_;
  Grid grid_;
};

TEST_F(Tracker, AllowanceComesFromTheRulesetForLookalikeBases) {
  const MoveAllowance a = MoveAllowanceFromRuleset(ruleset_, catalog_);
  const double retreat = ruleset_.melee.retreat_squares;
  // Line and light infantry share the 40 x 20 base: the camera allows the faster one's move.
  const double infantry =
      std::max(ruleset_.Unit("line_infantry").move, ruleset_.Unit("light_infantry").move);
  EXPECT_DOUBLE_EQ(a.SquaresFor("line_infantry"), infantry + retreat);
  EXPECT_DOUBLE_EQ(a.SquaresFor("light_infantry"), infantry + retreat);
  EXPECT_GE(a.SquaresFor("line_cavalry"), ruleset_.Unit("light_cavalry").move + retreat);
  EXPECT_DOUBLE_EQ(a.SquaresFor("not_a_kind"), 0.0);
  EXPECT_DOUBLE_EQ(MoveAllowanceFromRuleset(ruleset_, catalog_, 2).SquaresFor("line_infantry"),
                   2 * (infantry + retreat));
}

TEST_F(Tracker, AUnitAdvancingAndWheelingKeepsEachStandsId) {
  StandTracker tracker(grid_, catalog_, MoveAllowanceFromRuleset(ruleset_, catalog_));
  std::vector<Stand> snap = Line("red", "line_infantry", {10.0, 14.0}, 4, 0.0);
  const auto blue = Line("blue", "line_infantry", {30.0, 6.0}, 3, 180.0);
  snap.insert(snap.end(), blue.begin(), blue.end());
  const TrackingUpdate first = tracker.Update(snap);
  ASSERT_EQ(first.added.size(), 7u);
  std::vector<std::string> red_ids;
  red_ids.reserve(4);
  for (int i = 0; i < 4; ++i) red_ids.push_back(first.stands[static_cast<size_t>(i)].id);
  EXPECT_EQ(red_ids[0].rfind("red-", 0), 0u);

  // Red advances 2 squares (8") and wheels 20 degrees; blue stays. Input order shuffled.
  std::vector<Stand> next = Line("red", "line_infantry", {10.5, 6.0}, 4, 20.0);
  std::vector<Stand> obs = {next[2], blue[1], next[0], next[3], blue[0], next[1], blue[2]};
  const TrackingUpdate second = tracker.Update(obs);
  EXPECT_TRUE(second.added.empty());
  EXPECT_TRUE(second.missing.empty());
  EXPECT_EQ(second.stands[2].id, red_ids[0]);
  EXPECT_EQ(second.stands[5].id, red_ids[1]);
  EXPECT_EQ(second.stands[0].id, red_ids[2]);
  EXPECT_EQ(second.stands[3].id, red_ids[3]);
  EXPECT_EQ(second.stands[4].id, first.stands[4].id);
}

TEST_F(Tracker, AJumpBeyondTheMoveIsANewStandAndTheOldOneIsDroppedLater) {
  StandTrackerOptions opt;
  opt.keep_missing_snapshots = 1;
  StandTracker tracker(grid_, catalog_, MoveAllowanceFromRuleset(ruleset_, catalog_), opt);
  const Stand inf = Line("red", "line_infantry", {2.0, 2.0}, 1, 0.0)[0];
  const std::string id = tracker.Update({inf}).stands[0].id;
  // 10 squares along the row: far beyond 3 + 2 (retreat) + 1 (slack).
  Stand far = inf;
  far.footprint.center = {42.0, 2.0};
  const TrackingUpdate u = tracker.Update({far});
  EXPECT_NE(u.stands[0].id, id);
  EXPECT_EQ(u.added, std::vector<std::string>{u.stands[0].id});
  EXPECT_EQ(u.missing, std::vector<std::string>{id});
  const TrackingUpdate u2 = tracker.Update({far});
  EXPECT_EQ(u2.removed, std::vector<std::string>{id});
  EXPECT_EQ(tracker.tracks().size(), 1u);
}

TEST_F(Tracker, ACoveredStandKeepsItsIdAndSidesNeverSwap) {
  StandTracker tracker(grid_, catalog_, MoveAllowanceFromRuleset(ruleset_, catalog_));
  const Stand red = Line("red", "line_cavalry", {14.0, 14.0}, 1, 0.0)[0];
  const Stand blue = Line("blue", "line_cavalry", {22.0, 14.0}, 1, 0.0)[0];
  const TrackingUpdate a = tracker.Update({red, blue});
  // A hand covers red; blue charges into red's square.
  Stand blue2 = blue;
  blue2.footprint.center = {14.5, 14.5};
  const TrackingUpdate b = tracker.Update({blue2});
  EXPECT_EQ(b.stands[0].id, a.stands[1].id);
  EXPECT_EQ(b.missing, std::vector<std::string>{a.stands[0].id});
  ASSERT_EQ(tracker.VisibleStands().size(), 1u);
  // Red is seen again next to it: same id as before, nothing added.
  const TrackingUpdate c = tracker.Update({red, blue2});
  EXPECT_EQ(c.stands[0].id, a.stands[0].id);
  EXPECT_EQ(c.stands[1].id, a.stands[1].id);
  EXPECT_TRUE(c.added.empty());
}

TEST_F(Tracker, AddedStandsGetFreshIdsAndUserCorrectionsStick) {
  StandTracker tracker(grid_, catalog_, MoveAllowanceFromRuleset(ruleset_, catalog_));
  const auto unit = Line("blue", "line_infantry", {18.0, 22.0}, 2, 0.0);
  const TrackingUpdate a = tracker.Update(unit);
  const std::string left = a.stands[0].id, right = a.stands[1].id;
  // A third stand is put down: fresh id, the others unchanged.
  auto three = Line("blue", "line_infantry", {18.0 + MmToInches(20), 22.0}, 3, 0.0);
  const TrackingUpdate b = tracker.Update(three);
  EXPECT_EQ(b.stands[0].id, left);
  EXPECT_EQ(b.stands[1].id, right);
  ASSERT_EQ(b.added.size(), 1u);
  EXPECT_NE(b.added[0], left);
  EXPECT_NE(b.added[0], right);
  // The user says the left one is really `right` (they were swapped by hand): ids swap.
  EXPECT_TRUE(tracker.Reassign(left, right));
  const TrackingUpdate c = tracker.Update(three);
  EXPECT_EQ(c.stands[0].id, right);
  EXPECT_EQ(c.stands[1].id, left);
  // Naming one after a fresh label works too; unknown ids and cross-side swaps are refused.
  EXPECT_TRUE(tracker.Reassign(b.added[0], "blue-guard"));
  EXPECT_EQ(tracker.Update(three).stands[2].id, "blue-guard");
  EXPECT_FALSE(tracker.Reassign("red-99", "blue-1"));
  const TrackingUpdate d =
      tracker.Update({three[0], three[1], three[2], Line("red", "line_infantry", {2, 2}, 1, 0)[0]});
  EXPECT_FALSE(tracker.Reassign("blue-guard", d.stands[3].id));
  EXPECT_EQ(tracker.Update(three).stands[2].id, "blue-guard");
}

TEST_F(Tracker, AKindGivenByTheUserSurvivesTheSizeGuess) {
  StandTracker tracker(grid_, catalog_, MoveAllowanceFromRuleset(ruleset_, catalog_));
  Stand s = Line("red", "line_infantry", {6.0, 6.0}, 1, 0.0)[0];
  const std::string id = tracker.Update({s}).stands[0].id;
  ASSERT_TRUE(tracker.SetKind(id, "light_infantry"));
  s.footprint.center = {10.0, 6.0};  // the detector still guesses line_infantry from the size
  const TrackingUpdate u = tracker.Update({s});
  EXPECT_EQ(u.stands[0].id, id);
  EXPECT_EQ(u.stands[0].kind, "light_infantry");
  EXPECT_FALSE(tracker.SetKind("red-404", "light_infantry"));
}

// A base whose size the camera could not tell (reported 40 x 20 mm infantry, perhaps 40 x 30
// mm cavalry sharing its front edge): the players name it cavalry, and it takes the cavalry
// outline at once and at every re-detection that offers it again; a kind no outline fits
// leaves the base as seen.
TEST_F(Tracker, APlayersAnswerToAnUntoldSizePutsTheBaseAtThatOutline) {
  StandTracker tracker(grid_, catalog_, MoveAllowanceFromRuleset(ruleset_, catalog_));
  Stand s = Line("red", "line_infantry", {6.0, 6.0}, 1, 0.0)[0];
  OtherOutline cavalry;
  cavalry.kind = "line_cavalry";
  cavalry.footprint = {{6.0, 6.0 + MmToInches(5.0)}, MmToInches(40), MmToInches(30), 0.0};
  s.other_outlines = {cavalry};
  const std::string id = tracker.Update({s}).stands[0].id;
  const auto tracked = [&]() -> const Stand& {
    return std::find_if(tracker.tracks().begin(), tracker.tracks().end(),
                        [&](const auto& t) { return t.id == id; })
        ->stand;
  };
  ASSERT_TRUE(tracker.SetKind(id, "field_gun"));  // 40 x 40: no outline of that size
  EXPECT_DOUBLE_EQ(tracked().footprint.depth_in, MmToInches(20));
  EXPECT_EQ(tracked().other_outlines.size(), 1u);
  ASSERT_TRUE(tracker.SetKind(id, "line_cavalry"));
  EXPECT_DOUBLE_EQ(tracked().footprint.depth_in, MmToInches(30));
  EXPECT_DOUBLE_EQ(tracked().footprint.center.y, 6.0 + MmToInches(5.0));
  EXPECT_TRUE(tracked().other_outlines.empty());
  // Seen again with the same doubt: the answer holds.
  const TrackingUpdate u = tracker.Update({s});
  ASSERT_EQ(u.stands.size(), 1u);
  EXPECT_EQ(u.stands[0].id, id);
  EXPECT_EQ(u.stands[0].kind, "line_cavalry");
  EXPECT_DOUBLE_EQ(u.stands[0].footprint.depth_in, MmToInches(30));
  EXPECT_TRUE(u.stands[0].other_outlines.empty());
  EXPECT_EQ(tracker.KindSourceOf(id), KindSource::kUser);
}

// The players' answer to CONFIRM FACING: a square base the camera saw without a front stripe
// is turned to face the way they say, and stays so at every re-detection that again sees no
// stripe while it stands where it stood; moved a square on, the camera's outline is back. A
// front the base does not have (a 40 x 20 mm base lying east-west facing north) is refused.
TEST_F(Tracker, ThePlayersFacingIsKeptWhileTheBaseStaysWhereItWas) {
  StandTracker tracker(grid_, catalog_, MoveAllowanceFromRuleset(ruleset_, catalog_));
  Stand gun = Line("red", "field_gun", {6.0, 6.0}, 1, 90.0)[0];  // the outline faces east
  gun.footprint.depth_in = gun.footprint.width_in;
  gun.facing_known = false;
  Stand inf = Line("red", "line_infantry", {14.0, 6.0}, 1, 90.0)[0];
  inf.facing_known = false;
  const TrackingUpdate first = tracker.Update({gun, inf});
  const std::string id = first.stands[0].id, inf_id = first.stands[1].id;
  const auto faces = [](const Stand& s) { return FacingOf(s.footprint); };
  EXPECT_FALSE(tracker.SetFacing(inf_id, Facing::kN));
  EXPECT_FALSE(tracker.ToldFacingOf(inf_id).has_value());
  EXPECT_FALSE(tracker.SetFacing("red-99", Facing::kN));
  ASSERT_TRUE(tracker.SetFacing(id, Facing::kS));
  EXPECT_EQ(tracker.ToldFacingOf(id), Facing::kS);

  // Seen again, nudged, the outline facing east and no stripe: it faces south, known.
  Stand nudged = gun;
  nudged.footprint.center.x += 0.08;
  TrackingUpdate u = tracker.Update({nudged, inf});
  ASSERT_EQ(u.stands[0].id, id);
  EXPECT_EQ(faces(u.stands[0]), Facing::kS);
  EXPECT_TRUE(u.stands[0].facing_known);
  EXPECT_NEAR(u.stands[0].footprint.center.x, 6.08, 1e-12);
  EXPECT_EQ(faces(u.stands[1]), Facing::kE) << "the other base is not turned";
  EXPECT_FALSE(u.stands[1].facing_known);

  // Moved a square on: the camera's outline again, and the facing unknown.
  Stand moved = gun;
  moved.footprint.center.y += 4.0;
  u = tracker.Update({moved, inf});
  ASSERT_EQ(u.stands[0].id, id);
  EXPECT_EQ(faces(u.stands[0]), Facing::kE);
  EXPECT_FALSE(u.stands[0].facing_known);
  EXPECT_FALSE(tracker.ToldFacingOf(id).has_value());

  // A resumed game's answer (Restore) holds the same way.
  StandTracker resumed(grid_, catalog_, MoveAllowanceFromRuleset(ruleset_, catalog_));
  Stand kept = gun;
  kept.id = "red-1";
  ASSERT_TRUE(resumed.Restore(kept, KindSource::kSize, ToldFacing{Facing::kW, gun.footprint}));
  u = resumed.Update({gun});
  ASSERT_EQ(u.stands[0].id, "red-1");
  EXPECT_EQ(faces(u.stands[0]), Facing::kW);
}

TEST_F(Tracker, AKindsSourceStaysWithItsKindUntilTheBaseSizeChanges) {
  StandTracker tracker(grid_, catalog_, MoveAllowanceFromRuleset(ruleset_, catalog_));
  Stand s = Line("red", "line_infantry", {6.0, 6.0}, 1, 0.0)[0];
  s.kind = "field_gun";  // a 40 x 40 base, as the detector guesses it
  s.footprint.depth_in = s.footprint.width_in;
  const std::string id = tracker.Update({s}).stands[0].id;
  EXPECT_EQ(tracker.KindSourceOf(id), KindSource::kSize);
  ASSERT_TRUE(tracker.SetKind(id, "supply_wagon", KindSource::kOrganisation));
  EXPECT_EQ(tracker.Update({s}).stands[0].kind, "supply_wagon");
  EXPECT_EQ(tracker.KindSourceOf(id), KindSource::kOrganisation);
  // Another base size where that stand was (a crew put down in its place): a new size guess.
  Stand crew = Line("red", "foot_crew", {6.0, 6.0}, 1, 0.0)[0];
  const TrackingUpdate u = tracker.Update({crew});
  EXPECT_EQ(u.stands[0].id, id);
  EXPECT_EQ(u.stands[0].kind, "foot_crew");
  EXPECT_EQ(tracker.KindSourceOf(id), KindSource::kSize);
}

TEST_F(Tracker, TwoUnitsPassingEachOtherKeepTheirIds) {
  // Ancient ruleset: light cavalry (move 5) overtakes heavy infantry (move 2) along a row.
  const rules::RulesetData ancient = rules::LoadRuleset("ancient");
  StandTracker tracker(Grid{12, 8, ancient.square_size_in}, catalog_,
                       MoveAllowanceFromRuleset(ancient, catalog_));
  std::vector<Stand> s = {Line("red", "light_cavalry", {6.0, 10.0}, 1, 90.0)[0],
                          Line("red", "heavy_infantry", {14.0, 10.0}, 1, 90.0)[0]};
  const TrackingUpdate a = tracker.Update(s);
  s[0].footprint.center = {22.0, 10.0};  // cavalry now ahead
  s[1].footprint.center = {18.0, 10.0};
  const TrackingUpdate b = tracker.Update({s[1], s[0]});
  EXPECT_EQ(b.stands[1].id, a.stands[0].id);
  EXPECT_EQ(b.stands[0].id, a.stands[1].id);
}

}  // namespace
}  // namespace referee
