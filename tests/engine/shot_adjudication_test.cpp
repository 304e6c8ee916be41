// One test per clause of the shot rules (issue 2 item 5), each built from the rule text it
// quotes, on real geometry in table inches with the shipped rule data.
#include "engine/shot_adjudication.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "engine/front_edge_facing.hpp"
#include "engine/input_error.hpp"
#include "engine/stand_kind_catalog_loader.hpp"

namespace referee {
namespace {

class ShotRules : public ::testing::Test {
 protected:
  void SetUp() override {
    catalog_ = LoadStandKinds();
    napoleonic_ = LoadShotOptions("napoleonic");
    ancient_ = LoadShotOptions("ancient");
    board_.grid = Grid{12, 8, 4.0};
  }

  // A stand with its kind's default base, centre (x, y), angle in degrees.
  Stand Add(const std::string& id, const std::string& side, const std::string& kind, double x,
            double y, double angle_deg = 0.0) {
    const StandKind* k = catalog_.Find(kind);
    EXPECT_NE(k, nullptr) << kind;
    Stand s{id,   side, kind, {{x, y}, MmToInches(k->width_mm), MmToInches(k->depth_mm), angle_deg},
            true, {}};
    stands_.push_back(s);
    return s;
  }

  Verdict Fire(ShotKind kind, Vec2 p, const std::string& side = "blue",
               std::optional<std::string> gun_id = std::nullopt) {
    Shot shot{kind, p, side, gun_id, std::nullopt};
    if (gun_id) {
      for (const auto& s : stands_) {
        if (s.id == *gun_id) shot.gun_center = s.footprint.center;
      }
    }
    const ShotOptions& o = kind == ShotKind::kCatapult ? ancient_ : napoleonic_;
    return AdjudicateShot(board_, stands_, shot, catalog_, o);
  }

  static bool Has(const std::vector<std::string>& v, const std::string& id) {
    return std::find(v.begin(), v.end(), id) != v.end();
  }
  static bool Cites(const Verdict& v, const std::string& clause) {
    return std::any_of(v.explanation.begin(), v.explanation.end(),
                       [&](const std::string& l) { return l.find(clause) != std::string::npos; });
  }

  StandKindCatalog catalog_;
  ShotOptions napoleonic_, ancient_;
  Board board_;
  std::vector<Stand> stands_;
};

// Infantry base 40x20 mm: half width 0.787402", half depth 0.393701".
constexpr double kInfHalfW = 20.0 / 25.4;
constexpr double kInfHalfD = 10.0 / 25.4;

// 2F "a 1" radius circle is placed with its center on the tip of the Q-tip": the circle is
// closed at exactly 1.0" and open beyond it.
TEST_F(ShotRules, FieldGunCircleIsOneInchOnTheTip) {
  Add("r1", "red", "line_infantry", 10.0, 10.0);
  const Verdict at = Fire(ShotKind::kField, {10.0 + kInfHalfW + 1.0, 10.0});
  ASSERT_EQ(at.stands_near.size(), 1u);
  EXPECT_NEAR(at.stands_near[0].distance_in, 1.0, 1e-12);
  EXPECT_TRUE(Has(at.candidates, "r1"));
  const Verdict beyond = Fire(ShotKind::kField, {10.0 + kInfHalfW + 1.0 + 1e-6, 10.0});
  EXPECT_FALSE(Has(beyond.candidates, "r1"));
  EXPECT_LT(beyond.stands_near[0].margin_in, 0.0);
  EXPECT_TRUE(Cites(at, "Napoleonic 2F"));
  // Horse guns fire the same Q-tip.
  EXPECT_TRUE(Has(Fire(ShotKind::kHorse, {10.0 + kInfHalfW + 0.5, 10.0}).candidates, "r1"));
}

// 2F "Any one stand which has any part of it within the circle is a casualty": a rotated base
// whose centre is 1.5" away but whose corner is 0.5" away is hit.
TEST_F(ShotRules, AnyPartOfTheStandWithinTheCircle) {
  Add("r1", "red", "line_cavalry", 20.0, 12.0, 45.0);
  const auto corners = stands_[0].footprint.Corners();
  const Vec2 outward = (1.0 / Norm(corners[2] - stands_[0].footprint.center)) *
                       (corners[2] - stands_[0].footprint.center);
  const Vec2 tip = corners[2] + 0.5 * outward;
  const Verdict v = Fire(ShotKind::kField, tip);
  EXPECT_GT(Distance(tip, stands_[0].footprint.center), 1.0);
  EXPECT_TRUE(Has(v.candidates, "r1"));
  EXPECT_NEAR(v.stands_near[0].distance_in, 0.5, 1e-12);
  EXPECT_NEAR(v.stands_near[0].distance_mm, 12.7, 1e-9);
}

// 2F "Any one stand ... is a casualty": one casualty, firer's choice; the other reading of the
// ruleset option removes every stand in the circle.
TEST_F(ShotRules, OneStandFirersChoiceOrEveryStand) {
  Add("r1", "red", "line_infantry", 10.0, 10.0);
  Add("r2", "red", "line_infantry", 10.0, 11.0);
  const Verdict one = Fire(ShotKind::kField, {10.0, 10.5});
  EXPECT_EQ(one.candidates.size(), 2u);
  EXPECT_EQ(one.casualties_required, 1);
  napoleonic_.reading = CasualtyReading::kEveryStandInCircle;
  const Verdict every = Fire(ShotKind::kField, {10.0, 10.5});
  EXPECT_EQ(every.casualties_required, 2);
}

// 2G "To fire a howitzer ... measure the circle from the center of the projectile".
TEST_F(ShotRules, HowitzerCircleOnTheShellCentre) {
  Add("r1", "red", "line_infantry", 10.0, 10.0);
  const Verdict v = Fire(ShotKind::kHowitzer, {10.0, 10.0 + kInfHalfD + 0.9});
  EXPECT_TRUE(Has(v.candidates, "r1"));
  EXPECT_TRUE(Cites(v, "Napoleonic 2G"));
  EXPECT_EQ(v.screening, Screening::kNotApplicable);
}

// 2F "To destroy a gun or wagon, the tip of the Q-tip must be touching it. If a gun or a wagon
// is destroyed, its crew (1 stand) is destroyed with it."
TEST_F(ShotRules, GunDiesOnlyWhenTouchedAndTakesOneCrewStand) {
  Add("g1", "blue", "field_gun", 20.0, 20.0);
  Add("c_near", "blue", "foot_crew", 20.0, 21.3);
  Add("c_far", "blue", "foot_crew", 21.9, 21.3);
  const double edge = 20.0 + 20.0 / 25.4;  // gun's right edge x
  const Verdict touched = Fire(ShotKind::kField, {edge + MmToInches(0.9), 20.0}, "red");
  EXPECT_EQ(touched.destroyed_equipment, std::vector<std::string>{"g1"});
  EXPECT_EQ(touched.destroyed_crew, std::vector<std::string>{"c_near"});
  EXPECT_FALSE(Has(touched.candidates, "g1"));
  EXPECT_FALSE(Has(touched.candidates, "c_near"));  // already dead with its gun
  const Verdict near_miss = Fire(ShotKind::kField, {edge + MmToInches(1.1), 20.0}, "red");
  EXPECT_TRUE(near_miss.destroyed_equipment.empty());
  EXPECT_TRUE(near_miss.destroyed_crew.empty());
  EXPECT_FALSE(Has(near_miss.candidates, "g1"));  // inside the circle but not touched
  // The tolerance is an option: 2 mm makes the 1.1 mm shot a touch.
  napoleonic_.equipment_touch_tolerance_mm = 2.0;
  EXPECT_EQ(Fire(ShotKind::kField, {edge + MmToInches(1.1), 20.0}, "red").destroyed_equipment,
            std::vector<std::string>{"g1"});
}

TEST_F(ShotRules, WagonDiesWhenTouchedAndSaysWhenNoCrewIsThere) {
  Add("w1", "blue", "supply_wagon", 30.0, 6.0);
  const Verdict v = Fire(ShotKind::kHowitzer, {30.0, 6.0}, "red");
  EXPECT_EQ(v.destroyed_equipment, std::vector<std::string>{"w1"});
  EXPECT_TRUE(v.destroyed_crew.empty());
  EXPECT_TRUE(Cites(v, "no crew stand"));
}

// 2F "If the tip of the Q-tip comes to rest over water, the shell is presumed to have landed in
// it and does no damage."
TEST_F(ShotRules, ShellOverWaterDoesNothing) {
  board_.terrain[{3, 5}] = Terrain::kWater;
  Add("r1", "red", "line_infantry", 14.0, 19.3);
  Add("g1", "red", "field_gun", 13.0, 21.0);
  const Verdict v = Fire(ShotKind::kField, {13.0, 21.0});  // on the gun, in the water square
  EXPECT_TRUE(v.over_water);
  EXPECT_TRUE(v.candidates.empty());
  EXPECT_TRUE(v.destroyed_equipment.empty());
  EXPECT_FALSE(v.fire_roll);
  // A water outline drawn as a feature counts too; a bridge over it does not.
  Board b;
  b.grid = board_.grid;
  b.features.push_back({"river", Terrain::kWater, {{{0, 0}, {48, 0}, {48, 2}, {0, 2}}}});
  b.features.push_back({"bridge", Terrain::kBridge, {{{10, -1}, {12, -1}, {12, 3}, {10, 3}}}});
  stands_.clear();
  const Shot in_river{ShotKind::kField, {5, 1}, "blue", {}, {}};
  const Shot on_bridge{ShotKind::kField, {11, 1}, "blue", {}, {}};
  EXPECT_TRUE(AdjudicateShot(b, stands_, in_river, catalog_, napoleonic_).over_water);
  const Verdict bridge = AdjudicateShot(b, stands_, on_bridge, catalog_, napoleonic_);
  EXPECT_FALSE(bridge.over_water);
  EXPECT_TRUE(bridge.fire_roll);  // bridges are inflammable (6D)
}

// 6A "For artillery ... to destroy units in a protected square the tip ... must be in the square
// and be within 1" of a stand; otherwise no stands are destroyed."
TEST_F(ShotRules, ProtectedSquareNeedsTheTipInsideIt) {
  board_.terrain[{5, 2}] = Terrain::kWoods;  // x 20-24, y 8-12
  Add("b1", "blue", "line_infantry", 22.0, 11.3);
  const Verdict outside = Fire(ShotKind::kField, {22.0, 12.3}, "red");  // 0.61" away, in F4
  EXPECT_TRUE(outside.stands_near[0].inside_circle);
  EXPECT_FALSE(Has(outside.candidates, "b1"));
  EXPECT_TRUE(outside.protected_square);
  EXPECT_TRUE(Cites(outside, "Napoleonic 6A"));
  const Verdict inside = Fire(ShotKind::kField, {22.0, 11.9}, "red");  // in F3, 0.21" away
  EXPECT_TRUE(Has(inside.candidates, "b1"));
  // Rocks and houses protect the same way.
  board_.terrain[{5, 2}] = Terrain::kRocks;
  EXPECT_FALSE(Has(Fire(ShotKind::kField, {22.0, 12.3}, "red").candidates, "b1"));
  board_.terrain[{5, 2}] = Terrain::kHouse;
  EXPECT_FALSE(Has(Fire(ShotKind::kHowitzer, {22.0, 12.3}, "red").candidates, "b1"));
}

TEST_F(ShotRules, ProtectingFeatureOutlineMakesItsSquareProtected) {
  board_.features.push_back({"copse", Terrain::kWoods, {{{20.5, 8.5}, {21.5, 8.5}, {21, 9.5}}}});
  Add("b1", "blue", "line_infantry", 22.0, 11.3);
  EXPECT_FALSE(Has(Fire(ShotKind::kField, {22.0, 12.3}, "red").candidates, "b1"));
}

// 6C "Bridges are not considered protection."
TEST_F(ShotRules, BridgeIsNotProtection) {
  board_.terrain[{5, 2}] = Terrain::kBridge;
  Add("b1", "blue", "line_infantry", 22.0, 11.3);
  EXPECT_TRUE(Has(Fire(ShotKind::kField, {22.0, 12.3}, "red").candidates, "b1"));
}

// 6D "If the tip ... is touching a tree, house, bridge, or other inflammable object, roll 2
// dice."
TEST_F(ShotRules, TipTouchingSomethingInflammableCallsTheFireRoll) {
  board_.terrain[{7, 1}] = Terrain::kWoods;
  const Verdict woods = Fire(ShotKind::kField, {30.5, 7.4});
  EXPECT_TRUE(woods.fire_roll);
  ASSERT_TRUE(woods.fire_square.has_value());
  EXPECT_EQ(*woods.fire_square, (Square{7, 1}));
  EXPECT_TRUE(Cites(woods, "Napoleonic 6D"));
  // On the grid line next to the woods the tip touches them too; 1 mm off it does not.
  EXPECT_TRUE(Fire(ShotKind::kField, {28.0, 6.0}).fire_roll);
  EXPECT_FALSE(Fire(ShotKind::kField, {28.0 - MmToInches(1.0), 6.0}).fire_roll);
  // A house outline: within the 1 mm touch tolerance yes, 2 mm away no.
  board_.features.push_back(
      {"farm", Terrain::kHouse, {{{33, 17}, {35, 17}, {35, 18.5}, {33, 18.5}}}});
  EXPECT_TRUE(Fire(ShotKind::kField, {35.0 + MmToInches(0.5), 18.0}).fire_roll);
  EXPECT_FALSE(Fire(ShotKind::kField, {35.0 + MmToInches(2.0), 18.0}).fire_roll);
  // Rocks protect but do not burn.
  board_.terrain[{0, 0}] = Terrain::kRocks;
  EXPECT_FALSE(Fire(ShotKind::kField, {2.0, 2.0}).fire_roll);
}

// 2E "a hit on a friendly stand destroys it"; Ancient catapult 2 "It is entirely possible to
// hit one's own troops accidentally!"
TEST_F(ShotRules, FriendlyStandsAreHitLikeEnemies) {
  Add("b1", "blue", "line_infantry", 30.0, 22.0);
  Add("r1", "red", "line_infantry", 30.0, 23.6);
  const Verdict v = Fire(ShotKind::kField, {30.4, 22.8}, "blue");
  EXPECT_TRUE(Has(v.candidates, "b1"));
  EXPECT_TRUE(Has(v.candidates, "r1"));
  EXPECT_TRUE(v.stands_near[0].friendly || v.stands_near[1].friendly);
  EXPECT_TRUE(Cites(v, "Napoleonic 2E"));
}

// 2E "Squares occupied by friendly troops adjacent to a gun screen it ... Friendly troops two or
// more squares away do not screen." 2G "A howitzer cannot be screened."
TEST_F(ShotRules, FieldGunsAreScreenedByAdjacentFriendsOnTheLineHowitzersNever) {
  Add("gun", "blue", "field_gun", 2.0, 30.0);    // A8
  Add("r1", "red", "line_infantry", 2.0, 14.0);  // A4
  const Vec2 tip{2.3, 14.6};
  EXPECT_EQ(Fire(ShotKind::kField, tip).screening, Screening::kNotEvaluated);
  EXPECT_EQ(Fire(ShotKind::kField, tip, "blue", "gun").screening, Screening::kClear);
  // A friend two squares away (A6) does not screen.
  Add("far", "blue", "line_infantry", 2.0, 22.0);
  EXPECT_EQ(Fire(ShotKind::kField, tip, "blue", "gun").screening, Screening::kClear);
  // An enemy adjacent on the line does not screen; a friend adjacent off the line does not.
  Add("enemy", "red", "line_infantry", 2.0, 26.0);    // A7
  Add("beside", "blue", "line_infantry", 6.0, 30.0);  // B8, beside the gun
  EXPECT_EQ(Fire(ShotKind::kField, tip, "blue", "gun").screening, Screening::kClear);
  // A friend adjacent on the line (B7 on the diagonal toward the target? no: A7) screens.
  stands_.erase(std::remove_if(stands_.begin(), stands_.end(),
                               [](const Stand& s) { return s.id == "enemy"; }),
                stands_.end());
  Add("screen", "blue", "light_infantry", 2.0, 26.0);  // A7
  const Verdict screened = Fire(ShotKind::kField, tip, "blue", "gun");
  EXPECT_EQ(screened.screening, Screening::kScreened);
  EXPECT_EQ(screened.screened_by, std::vector<std::string>{"screen"});
  EXPECT_TRUE(screened.shot_void);
  EXPECT_TRUE(screened.candidates.empty());
  EXPECT_TRUE(Cites(screened, "Napoleonic 2E"));
  // Horse guns are guns too; howitzers are never screened.
  EXPECT_EQ(Fire(ShotKind::kHorse, tip, "blue", "gun").screening, Screening::kScreened);
  const Verdict how = Fire(ShotKind::kHowitzer, tip, "blue", "gun");
  EXPECT_EQ(how.screening, Screening::kNotApplicable);
  EXPECT_TRUE(Has(how.candidates, "r1"));
}

TEST_F(ShotRules, DiagonalLineOfFireIsScreenedByEitherSquareAtACorner) {
  Add("gun", "blue", "field_gun", 2.0, 30.0);       // A8 (0,7)
  Add("r1", "red", "line_infantry", 14.0, 18.0);    // D5 (3,4): exact diagonal
  Add("side", "blue", "line_infantry", 6.0, 30.0);  // B8 (1,7) shares the corner
  EXPECT_EQ(Fire(ShotKind::kField, {14.0, 18.0}, "blue", "gun").screening, Screening::kScreened);
}

// Ancient catapult 4: "Any ONE valid target stand (front axle for chariots and catapults,
// either front leg for Elephants) within 1" of the center of the shell is hit".
TEST_F(ShotRules, AncientMeasuresChariotsAndElephantsToTheirFront) {
  board_.grid = Grid{10, 8, 3.0};
  Add("ch", "red", "light_chariot", 10.0, 10.0);    // front edge y = 10 - 0.787
  Add("el", "red", "elephant", 20.0, 10.0, 180.0);  // faces +y: front edge y = 10.787
  Add("inf", "red", "heavy_infantry", 10.0, 20.0);
  // 0.3" behind the chariot's rear edge: the base is close, the front axle 1.87" away.
  const Verdict behind = Fire(ShotKind::kCatapult, {10.0, 10.0 + 20.0 / 25.4 + 0.3});
  EXPECT_FALSE(Has(behind.candidates, "ch"));
  // 0.9" in front of it: a hit.
  EXPECT_TRUE(Has(Fire(ShotKind::kCatapult, {10.0, 10.0 - 20.0 / 25.4 - 0.9}).candidates, "ch"));
  // The elephant turned around has its front legs toward +y.
  EXPECT_TRUE(Has(Fire(ShotKind::kCatapult, {20.0, 10.0 + 20.0 / 25.4 + 0.9}).candidates, "el"));
  EXPECT_FALSE(Has(Fire(ShotKind::kCatapult, {20.0, 10.0 - 20.0 / 25.4 - 0.3}).candidates, "el"));
  // Infantry: any part of the base.
  const Verdict inf = Fire(ShotKind::kCatapult, {10.0, 20.0 + 10.0 / 25.4 + 0.95});
  EXPECT_TRUE(Has(inf.candidates, "inf"));
  EXPECT_TRUE(Cites(inf, "Ancient catapult 4"));
  EXPECT_EQ(inf.screening, Screening::kNotApplicable);  // catapult 2: overhead fire allowed
}

// Measured from the front edge, a base with no front stripe seen may face any of its sides (a
// square elephant base all four): when that decides the hit, the verdict says so and names the
// facings, instead of measuring silently from whichever edge the camera's outline put first.
TEST_F(ShotRules, UnseenFacingThatDecidesAHitIsConfirmedByThePlayers) {
  board_.grid = Grid{10, 8, 3.0};
  const double half_in = 20.0 / 25.4;
  Stand el = Add("el", "red", "elephant", 20.0, 10.0, 90.0);  // outline says it faces east
  stands_.back().facing_known = false;
  // 0.85" north of the north edge: within 1" of that edge only (1.16" from the east and west
  // front edges' nearest ends, 2.42" from the south one).
  const Vec2 p{20.0, 10.0 - half_in - 0.85};
  const Verdict v = Fire(ShotKind::kCatapult, p);
  ASSERT_EQ(v.stands_near.size(), 1u);
  EXPECT_TRUE(v.stands_near[0].facing_decides);
  EXPECT_EQ(v.stands_near[0].hit_if_facing, std::vector<std::string>{"N"});
  EXPECT_EQ(v.facing_to_confirm, std::vector<std::string>{"el"});
  EXPECT_NE(VerdictToText(v).find("CONFIRM FACING: el"), std::string::npos);
  EXPECT_TRUE(VerdictToJson(v).contains("facing_to_confirm"));
  // Seen facing east (a stripe found), the same shot misses and nothing is asked.
  stands_.back().facing_known = true;
  const Verdict seen = Fire(ShotKind::kCatapult, p);
  EXPECT_TRUE(seen.facing_to_confirm.empty());
  EXPECT_FALSE(Has(seen.candidates, "el"));
  // Unseen, but within 1" of every front edge it could present: a hit whichever way it faces.
  stands_.back().facing_known = false;
  const Verdict any = Fire(ShotKind::kCatapult, el.footprint.center);
  EXPECT_TRUE(any.facing_to_confirm.empty());
  EXPECT_TRUE(Has(any.candidates, "el"));
}

// The players' answer to CONFIRM FACING: the base turned to the facing they name is measured
// from that front edge alone, and nothing more is asked. A base cannot be turned to a front it
// does not have (a 40 x 20 mm base lying east-west faces north or south only).
TEST_F(ShotRules, ThePlayersAnswerToAnUnseenFacingSettlesTheRuling) {
  board_.grid = Grid{10, 8, 3.0};
  const double half_in = 20.0 / 25.4;
  Stand el = Add("el", "red", "elephant", 20.0, 10.0, 90.0);  // the outline faces east
  el.facing_known = false;
  const Vec2 p{20.0, 10.0 - half_in - 0.85};  // within 1" of the north edge only
  const StandKind* elephant = catalog_.Find("elephant");
  EXPECT_EQ(FacingsItMayPresent(el, elephant),
            (std::vector<Facing>{Facing::kE, Facing::kS, Facing::kW, Facing::kN}));
  for (const auto& [answer, hit] : {std::pair{Facing::kN, true}, std::pair{Facing::kE, false},
                                    std::pair{Facing::kS, false}, std::pair{Facing::kW, false}}) {
    SCOPED_TRACE(FacingName(answer));
    const std::optional<Stand> told = TurnedToFace(el, elephant, answer);
    ASSERT_TRUE(told.has_value());
    EXPECT_TRUE(told->facing_known);
    EXPECT_EQ(FacingOf(told->footprint), answer);
    // The same base: a turn about its centre.
    EXPECT_NEAR(Dot(told->footprint.center - el.footprint.center,
                    told->footprint.center - el.footprint.center),
                0.0, 1e-12);
    stands_.back() = *told;
    const Verdict v = Fire(ShotKind::kCatapult, p);
    EXPECT_TRUE(v.facing_to_confirm.empty());
    EXPECT_EQ(Has(v.candidates, "el"), hit);
  }
  const Stand inf = Add("inf", "red", "line_infantry", 5.0, 5.0, 90.0);  // faces east
  EXPECT_FALSE(TurnedToFace(inf, catalog_.Find("line_infantry"), Facing::kN).has_value());
  EXPECT_TRUE(TurnedToFace(inf, catalog_.Find("line_infantry"), Facing::kW).has_value());

  // The answer holds while the base stands where it stood: a nudge keeps it; a move of a
  // quarter inch or more, or a wheel, does not. The outline may come back either way round.
  const ToldFacing told{Facing::kN, {{20.0, 10.0}, 2 * half_in, 2 * half_in, 0.0}};
  EXPECT_TRUE(StillWhereTold(told, {{20.1, 10.05}, 2 * half_in, 2 * half_in, 90.0}));
  EXPECT_TRUE(StillWhereTold(told, {{20.0, 10.0}, 2 * half_in, 2 * half_in, 273.0}));
  EXPECT_FALSE(StillWhereTold(told, {{20.3, 10.0}, 2 * half_in, 2 * half_in, 0.0}));
  EXPECT_FALSE(StillWhereTold(told, {{20.0, 10.0}, 2 * half_in, 2 * half_in, 30.0}));
  const ToldFacing told_inf{Facing::kE, inf.footprint};
  EXPECT_TRUE(StillWhereTold(told_inf, {{5.0, 5.0}, 40 / 25.4, 20 / 25.4, 270.0}));
  EXPECT_FALSE(StillWhereTold(told_inf, {{5.0, 5.0}, 40 / 25.4, 20 / 25.4, 0.0}));
}

// A base whose blurred border the camera could not size (Stand::other_outlines): measured at
// every size it allows; when they disagree, the verdict keeps the size reported and names the
// stand for the players, instead of ruling silently on the reported size.
TEST_F(ShotRules, UncertainSizeThatDecidesAHitIsConfirmedByThePlayers) {
  // Reported as 40 x 20 mm infantry at (20, 10) facing -y; the band also fits 40 x 30 mm
  // cavalry and a 40 x 40 mm gun sharing its front edge (their centres 5 and 10 mm behind).
  Add("inf", "red", "line_infantry", 20.0, 10.0);
  const auto other = [](const std::string& kind, double depth_mm) {
    OtherOutline o;
    o.kind = kind;
    o.footprint = {{20.0, 10.0 - MmToInches(10.0) + MmToInches(0.5 * depth_mm)},
                   MmToInches(40.0),
                   MmToInches(depth_mm),
                   0.0};
    return o;
  };
  stands_.back().other_outlines = {other("line_cavalry", 30.0)};
  const double back_in = 10.0 + MmToInches(10.0);
  // 1.2" behind the infantry's back edge: 0.81" behind the cavalry's.
  const Vec2 p{20.0, back_in + 1.2};
  const Verdict v = Fire(ShotKind::kField, p);
  ASSERT_EQ(v.stands_near.size(), 1u);
  EXPECT_FALSE(v.stands_near[0].inside_circle);
  EXPECT_TRUE(v.stands_near[0].size_decides);
  EXPECT_EQ(v.stands_near[0].hit_if_outline, std::vector<std::string>{"line_cavalry 40 x 30 mm"});
  EXPECT_EQ(v.size_to_confirm, std::vector<std::string>{"inf"});
  EXPECT_FALSE(Has(v.candidates, "inf"));  // taken at the size reported
  EXPECT_NE(VerdictToText(v).find("CONFIRM SIZE: inf"), std::string::npos);
  EXPECT_EQ(VerdictToJson(v).at("size_to_confirm"), nlohmann::json::array({"inf"}));
  EXPECT_TRUE(Cites(v, "could not tell inf's base size"));
  // A gun's outline 1.55" from the reported base (past the 1.5" report radius) is still
  // measured: 0.76" from the gun's back edge, but a gun dies only when touched.
  stands_.back().other_outlines = {other("line_cavalry", 30.0), other("field_gun", 40.0)};
  const Verdict far = Fire(ShotKind::kField, {20.0, back_in + 1.55});
  ASSERT_EQ(far.stands_near.size(), 1u);
  EXPECT_TRUE(far.size_to_confirm.empty());
  // 0.1" (2.5 mm) behind the gun's back edge: infantry or cavalry are hit, a gun (touched
  // only within 1 mm) is not, so the size decides.
  const Verdict near_gun = Fire(ShotKind::kField, {20.0, back_in + MmToInches(20.0) + 0.1});
  ASSERT_EQ(near_gun.stands_near.size(), 1u);
  EXPECT_TRUE(Has(near_gun.candidates, "inf"));
  EXPECT_EQ(near_gun.stands_near[0].hit_if_outline.size(), 2u);
  EXPECT_EQ(near_gun.size_to_confirm, std::vector<std::string>{"inf"});
  // Inside every outline: a hit whatever its size, nothing asked.
  const Verdict all = Fire(ShotKind::kField, {20.0, 10.0});
  EXPECT_TRUE(all.size_to_confirm.empty());
  EXPECT_TRUE(Has(all.candidates, "inf"));
  // Without other outlines nothing is asked and nothing changes.
  stands_.back().other_outlines.clear();
  EXPECT_TRUE(Fire(ShotKind::kField, p).size_to_confirm.empty());
}

// Ancient catapult 4: "If the target is in a Protected Square, the center of the shell must
// also be within the target square". Catapults are ordinary targets there (no touch rule).
TEST_F(ShotRules, AncientProtectedSquareAndCatapultsAsTargets) {
  board_.grid = Grid{10, 8, 3.0};
  board_.terrain[{4, 3}] = Terrain::kWoods;  // x 12-15, y 9-12
  Add("inf", "red", "heavy_infantry", 13.5, 11.4);
  EXPECT_FALSE(Has(Fire(ShotKind::kCatapult, {13.5, 12.3}).candidates, "inf"));
  EXPECT_TRUE(Has(Fire(ShotKind::kCatapult, {13.5, 11.95}).candidates, "inf"));
  Add("cat", "red", "heavy_catapult", 25.0, 20.0);
  // 0.5" in front of the catapult's front edge: hit, though the shell does not touch it.
  const Verdict v = Fire(ShotKind::kCatapult, {25.0, 20.0 - 20.0 / 25.4 - 0.5});
  EXPECT_TRUE(Has(v.candidates, "cat"));
  EXPECT_TRUE(v.destroyed_equipment.empty());
}

TEST_F(ShotRules, ShotKindMustBelongToTheRuleset) {
  const Shot catapult{ShotKind::kCatapult, {5, 5}, "blue", {}, {}};
  EXPECT_THROW(AdjudicateShot(board_, stands_, catapult, catalog_, napoleonic_), InputError);
  const Shot field{ShotKind::kField, {5, 5}, "blue", {}, {}};
  EXPECT_THROW(AdjudicateShot(board_, stands_, field, catalog_, ancient_), InputError);
}

TEST_F(ShotRules, ReportListsStandsToOneAndAHalfInchesSortedByDistance) {
  Add("a", "red", "line_infantry", 10.0, 10.0);
  Add("b", "red", "line_infantry", 10.0, 12.0);
  Add("c", "red", "line_infantry", 10.0, 14.0);
  const Verdict v = Fire(ShotKind::kField, {10.0, 11.0});
  // a and b are 0.606" away, c is 2.606": not listed.
  ASSERT_EQ(v.stands_near.size(), 2u);
  EXPECT_EQ(v.stands_near[0].id, "a");
  EXPECT_EQ(v.stands_near[1].id, "b");
  const auto j = VerdictToJson(v);
  for (const char* key : {"candidates", "destroyed_equipment", "over_water", "fire_roll",
                          "distances", "stands_near", "explanation", "casualties_required"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
  EXPECT_DOUBLE_EQ(j["distances"]["a"].get<double>(), 1.0 - kInfHalfD);
  EXPECT_NE(VerdictToText(v).find("CANDIDATE"), std::string::npos);
}

TEST(ShotOptionsFile, UnknownRulesetIsAnInputError) {
  EXPECT_THROW(LoadShotOptions("cordery"), InputError);
  const ShotOptions o = LoadShotOptions("napoleonic");
  EXPECT_DOUBLE_EQ(o.hit_radius_in, 1.0);
  EXPECT_DOUBLE_EQ(o.equipment_touch_tolerance_mm, 1.0);
  EXPECT_EQ(o.reading, CasualtyReading::kOneStandFirersChoice);
}

}  // namespace
}  // namespace referee
