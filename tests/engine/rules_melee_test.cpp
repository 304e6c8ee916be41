// Melee by MDI cards, built from the rule texts: every pairing of the six MDIs in both
// rulesets, the 3:1 destruction wording of each text, protected contact squares, withdrawal,
// equipment capture, and the worked example of Napoleonic 5F.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "engine/rules/loss_allocation.hpp"
#include "engine/rules/melee.hpp"
#include "engine/rules/ruleset_loader.hpp"

namespace referee::rules {
namespace {

// The MDI list as printed (001 and the Ancient table agree on these lines).
const std::map<std::string, std::set<std::string>> kSuperiorTo = {
    {"column", {"flanking", "pincers"}}, {"line", {"column", "square"}},
    {"square", {"pincers", "column"}},   {"flanking", {"line", "square"}},
    {"pincers", {"flanking", "line"}},
};
const std::set<std::string> kWithdrawalSucceedsAgainst = {"line", "square"};  // default options
const char* kMdis[] = {"line", "column", "square", "flanking", "pincers", "withdrawal"};

struct Expected {
  double attacker_loss, defender_loss;
  Who retreats, destroyed;
  std::string clause;
};

// Attacker 4 points, defender 3 points, worked out by hand from the text (5C / MELEE PROCEDURE).
Expected ExpectedFor(const std::string& a, const std::string& d, bool ancient) {
  // Equal: both lose half the weaker (1.5); 2.5 vs 1.5 is not 3:1, the weaker defender retreats.
  Expected equal{1.5, 1.5, Who::kDefender, Who::kNone, "equal_deployments"};
  // Attacker superior: defender loses 1 + (4-1)/2 = 2.5, attacker half that, 1.25;
  // 2.75 left against 0.5 is 3:1 or more: the defender is destroyed.
  Expected att_sup{1.25, 2.5, Who::kNone, Who::kDefender, "unequal_deployments"};
  // Defender superior: attacker loses 1 + (3-1)/2 = 2, defender 1; 2 left each: the inferior
  // deployment (attacker) retreats.
  Expected def_sup{2, 1, Who::kAttacker, Who::kNone, "unequal_deployments"};
  const bool aw = a == "withdrawal", dw = d == "withdrawal";
  if (aw && dw) {
    if (ancient) return {0, 0, Who::kBoth, Who::kNone, "both_withdraw"};
    return equal;
  }
  if (aw) {
    if (kWithdrawalSucceedsAgainst.count(d))
      return {0, 0, Who::kAttacker, Who::kNone, "withdrawal_succeeds"};
    Expected e = def_sup;
    e.clause = "withdrawal_fails";
    return e;
  }
  if (dw) {
    if (kWithdrawalSucceedsAgainst.count(a))
      return {0, 0, Who::kDefender, Who::kNone, "withdrawal_succeeds"};
    Expected e = att_sup;
    e.clause = "withdrawal_fails";
    return e;
  }
  if (a == d) return equal;
  if (kSuperiorTo.at(a).count(d)) return att_sup;
  EXPECT_TRUE(kSuperiorTo.at(d).count(a)) << d << " should be superior to " << a;
  return def_sup;
}

class AllPairings : public ::testing::TestWithParam<std::string> {};

TEST_P(AllPairings, ThirtySixCasesMatchTheTable) {
  const RulesetData rules = LoadRuleset(GetParam());
  int cases = 0;
  for (const char* a : kMdis)
    for (const char* d : kMdis) {
      MeleeInput in{4, 3, *ParseMdi(a), *ParseMdi(d), false};
      const MeleeOutcome out = ResolveMelee(rules, in);
      const Expected e = ExpectedFor(a, d, GetParam() == "ancient");
      SCOPED_TRACE(std::string(a) + " vs " + d);
      EXPECT_DOUBLE_EQ(out.attacker_loss, e.attacker_loss);
      EXPECT_DOUBLE_EQ(out.defender_loss, e.defender_loss);
      EXPECT_EQ(WhoName(out.retreats), WhoName(e.retreats));
      EXPECT_EQ(WhoName(out.destroyed), WhoName(e.destroyed));
      EXPECT_EQ(out.clause, e.clause);
      ++cases;
    }
  EXPECT_EQ(cases, 36);
}
INSTANTIATE_TEST_SUITE_P(BothRulesets, AllPairings, ::testing::Values("napoleonic", "ancient"));

TEST(RulesMelee, EveryFightingPairHasExactlyOneSuperior) {
  const RulesetData rules = LoadRuleset("napoleonic");
  for (int a = 0; a < 5; ++a)
    for (int b = 0; b < 5; ++b)
      if (a != b) {
        EXPECT_NE(rules.mdi.superior[a][b], rules.mdi.superior[b][a]) << a << " " << b;
      }
}

TEST(RulesMelee, EqualDeploymentDestructionIsMoreThanThreeTimesInNapoleonic) {
  // 4 vs 2, same card: each loses 1; 3 left against 1 is exactly 3 times.
  const MeleeInput in{4, 2, Mdi::kLine, Mdi::kLine, false};
  const MeleeOutcome nap = ResolveMelee(LoadRuleset("napoleonic"), in);
  EXPECT_EQ(nap.destroyed, Who::kNone) << "5C: 'more than 3 times' - exactly 3 is not enough";
  EXPECT_EQ(nap.retreats, Who::kDefender);
  const MeleeOutcome anc = ResolveMelee(LoadRuleset("ancient"), in);
  EXPECT_EQ(anc.destroyed, Who::kDefender) << "Ancient: 'three times stronger (or more)'";
  // 5 vs 2: each loses 1; 4 > 3 x 1: destroyed in both.
  const MeleeOutcome nap5 =
      ResolveMelee(LoadRuleset("napoleonic"), {5, 2, Mdi::kSquare, Mdi::kSquare, false});
  EXPECT_EQ(nap5.destroyed, Who::kDefender);
  EXPECT_DOUBLE_EQ(nap5.attacker_loss, 1);
  EXPECT_DOUBLE_EQ(nap5.defender_loss, 1);
}

TEST(RulesMelee, UnequalDeploymentDestroysAtExactlyThreeToOne) {
  // Column (1) superior to pincers (2.5): pincers loses 1 for the first point = 1, column loses
  // 0.5; 1.5 left against 0.5 is '3 or more times': the (superior but weaker) attacker dies.
  for (const char* rs : {"napoleonic", "ancient"}) {
    const MeleeOutcome o =
        ResolveMelee(LoadRuleset(rs), {1, 2.5, Mdi::kColumn, Mdi::kPincers, false});
    EXPECT_DOUBLE_EQ(o.defender_loss, 1) << rs;
    EXPECT_DOUBLE_EQ(o.attacker_loss, 0.5) << rs;
    EXPECT_EQ(o.destroyed, Who::kAttacker) << rs;
  }
}

TEST(RulesMelee, EqualNumbersBothLoseHalfAndRetreat) {
  const MeleeOutcome o =
      ResolveMelee(LoadRuleset("napoleonic"), {3, 3, Mdi::kPincers, Mdi::kPincers, false});
  EXPECT_DOUBLE_EQ(o.attacker_loss, 1.5);
  EXPECT_DOUBLE_EQ(o.defender_loss, 1.5);
  EXPECT_EQ(o.retreats, Who::kBoth);
  EXPECT_EQ(o.captures_equipment, Who::kNone);
}

TEST(RulesMelee, ProtectedContactSquareFollowsEachText) {
  // Napoleonic 6A: the attacker destroys one less. Line (4) beats column (3): 2.5 - 1 = 1.5.
  const MeleeOutcome nap =
      ResolveMelee(LoadRuleset("napoleonic"), {4, 3, Mdi::kLine, Mdi::kColumn, true});
  EXPECT_DOUBLE_EQ(nap.defender_loss, 1.5);
  EXPECT_DOUBLE_EQ(nap.attacker_loss, 1.25);
  EXPECT_EQ(nap.destroyed, Who::kNone);  // 2.75 vs 1.5 is under 3:1 now
  EXPECT_EQ(nap.retreats, Who::kDefender);
  // Ancient 8: the attackers are worth one point less: 4 -> 3 against 3, equal numbers.
  const MeleeOutcome anc =
      ResolveMelee(LoadRuleset("ancient"), {4, 3, Mdi::kLine, Mdi::kLine, true});
  EXPECT_DOUBLE_EQ(anc.attacker_strength_used, 3);
  EXPECT_DOUBLE_EQ(anc.attacker_loss, 1.5);
  EXPECT_EQ(anc.retreats, Who::kBoth);
}

TEST(RulesMelee, WithdrawalOptionsAreData) {
  RulesetData rules = LoadRuleset("napoleonic");
  // Default: succeeds against SQUARE (001), fails against FLANKING (not listed).
  EXPECT_EQ(ResolveMelee(rules, {4, 3, Mdi::kWithdrawal, Mdi::kSquare, false}).clause,
            "withdrawal_succeeds");
  EXPECT_EQ(ResolveMelee(rules, {4, 3, Mdi::kWithdrawal, Mdi::kFlanking, false}).clause,
            "withdrawal_fails");
  // A club reading 000's 'fails against ... SQUARE' sets the option.
  rules.mdi.withdrawal_succeeds[static_cast<int>(Mdi::kSquare)] = false;
  const MeleeOutcome o = ResolveMelee(rules, {4, 3, Mdi::kWithdrawal, Mdi::kSquare, false});
  EXPECT_EQ(o.clause, "withdrawal_fails");
  EXPECT_EQ(o.relation, MdiRelation::kDefenderSuperior);
}

TEST(RulesMelee, SuperiorDeploymentCapturesEquipmentUnlessDestroyed) {
  const RulesetData rules = LoadRuleset("napoleonic");
  // Defender superior (line beats column) and survives: defender captures.
  EXPECT_EQ(ResolveMelee(rules, {4, 3, Mdi::kColumn, Mdi::kLine, false}).captures_equipment,
            Who::kDefender);
  // Column (1) superior but destroyed: nobody captures from the superior side.
  EXPECT_EQ(ResolveMelee(rules, {1, 2.5, Mdi::kColumn, Mdi::kPincers, false}).captures_equipment,
            Who::kNone);
  // Equal deployment: the stronger side captures.
  EXPECT_EQ(ResolveMelee(rules, {4, 3, Mdi::kLine, Mdi::kLine, false}).captures_equipment,
            Who::kAttacker);
}

TEST(RulesMelee, WorkedExampleNapoleonic5F) {
  // "A has 2 line infantry and 2 guards cavalry stands and is to lose 3.5. He loses 1 line
  // infantry and 1 guards cavalry stand and flips a coin with B to see whether or not he loses a
  // second line infantry stand."
  const RulesetData rules = LoadRuleset("napoleonic");
  const double li = rules.Stand("line_infantry").melee, gc = rules.Stand("guards_cavalry").melee;
  const std::vector<LossUnit> units = {{"line_infantry", {li, li}}, {"guards_cavalry", {gc, gc}}};
  for (int heads : {1, 0}) {
    PhysicalDice coin({}, {heads});
    const LossResult r = AllocateLosses(units, 3.5, coin, "5F example");
    ASSERT_TRUE(r.coin_flipped);
    ASSERT_EQ(coin.Events().size(), 1u);
    EXPECT_EQ(coin.Events()[0].kind, DiceEvent::Kind::kCoin);
    EXPECT_NE(coin.Events()[0].purpose.find("line_infantry"), std::string::npos)
        << coin.Events()[0].purpose;
    ASSERT_EQ(r.removed.size(), heads ? 3u : 2u);
    EXPECT_EQ(r.removed[0].unit, 0);  // first a line infantry stand (the contact square)
    EXPECT_EQ(r.removed[1].unit, 1);  // then a guards cavalry stand
    if (heads) {
      EXPECT_EQ(r.removed[2].unit, 0);  // the coin takes the second line infantry stand
    }
    EXPECT_DOUBLE_EQ(r.removed_points, heads ? 4.0 : 3.0);
  }
}

TEST(RulesMelee, LossesSpreadClockwiseAndExactLossesNeedNoCoin) {
  PhysicalDice none;  // any coin flip would throw DiceExhausted
  const LossResult r =
      AllocateLosses({{"a", {1, 1, 1}}, {"b", {1, 1}}, {"c", {0.5}}}, 3.5, none, "spread");
  ASSERT_EQ(r.removed.size(), 4u);
  EXPECT_EQ(r.removed[0].unit, 0);
  EXPECT_EQ(r.removed[1].unit, 1);
  EXPECT_EQ(r.removed[2].unit, 2);
  EXPECT_EQ(r.removed[3].unit, 0);
  EXPECT_FALSE(r.coin_flipped);
}

TEST(RulesMelee, RejectsNonPositiveStrength) {
  EXPECT_THROW(ResolveMelee(LoadRuleset("ancient"), {0, 3, Mdi::kLine, Mdi::kLine, false}),
               std::invalid_argument);
}

}  // namespace
}  // namespace referee::rules
