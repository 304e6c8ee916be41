#include "engine/rules/melee.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace referee::rules {

namespace {

constexpr double kEps = 1e-9;

std::string Num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

bool MeetsRatio(double stronger, double weaker, double ratio, Comparison cmp) {
  if (weaker <= kEps) return stronger > kEps;  // nothing left facing something: gone
  return cmp == Comparison::kGreater ? stronger > ratio * weaker + kEps
                                     : stronger >= ratio * weaker - kEps;
}

Who Other(Who w) { return w == Who::kAttacker ? Who::kDefender : Who::kAttacker; }

// After losses: the weaker side retreats 2, or is destroyed when outnumbered past the ratio.
void RetreatOrDestroy(const RulesetData& rules, double a_left, double d_left, Who weaker,
                      Comparison cmp, MeleeOutcome& out) {
  const double weak_left = weaker == Who::kAttacker ? a_left : d_left;
  const double strong_left = weaker == Who::kAttacker ? d_left : a_left;
  if (MeetsRatio(strong_left, weak_left, rules.melee.destruction_ratio, cmp)) {
    out.destroyed = weaker;
    out.explanation += "; " + Num(strong_left) + " left against " + Num(weak_left) + " is " +
                       (cmp == Comparison::kGreater ? "more than " : "at least ") +
                       Num(rules.melee.destruction_ratio) + " times: the weaker side is destroyed";
  } else {
    out.retreats = weaker;
    out.explanation +=
        "; " + WhoName(weaker) + " retreats " + std::to_string(rules.melee.retreat_squares);
  }
}

}  // namespace

std::string WhoName(Who w) {
  switch (w) {
    case Who::kNone:
      return "none";
    case Who::kAttacker:
      return "attacker";
    case Who::kDefender:
      return "defender";
    case Who::kBoth:
      return "both";
  }
  return "none";
}

std::string MdiRelationName(MdiRelation r) {
  switch (r) {
    case MdiRelation::kEqual:
      return "equal";
    case MdiRelation::kAttackerSuperior:
      return "attacker_superior";
    case MdiRelation::kDefenderSuperior:
      return "defender_superior";
    case MdiRelation::kAttackerWithdraws:
      return "attacker_withdraws";
    case MdiRelation::kDefenderWithdraws:
      return "defender_withdraws";
    case MdiRelation::kBothWithdraw:
      return "both_withdraw";
  }
  return "equal";
}

MdiRelation CompareMdi(const MdiRules& rules, Mdi a, Mdi d) {
  const bool aw = a == Mdi::kWithdrawal, dw = d == Mdi::kWithdrawal;
  if (aw && dw)
    return rules.withdrawal_vs_withdrawal_both_withdraw ? MdiRelation::kBothWithdraw
                                                        : MdiRelation::kEqual;
  // "If withdrawal does not succeed, treat it as an inferior deployment."
  if (aw)
    return rules.withdrawal_succeeds[static_cast<int>(d)] ? MdiRelation::kAttackerWithdraws
                                                          : MdiRelation::kDefenderSuperior;
  if (dw)
    return rules.withdrawal_succeeds[static_cast<int>(a)] ? MdiRelation::kDefenderWithdraws
                                                          : MdiRelation::kAttackerSuperior;
  if (a == d) return MdiRelation::kEqual;
  return rules.superior[static_cast<int>(a)][static_cast<int>(d)] ? MdiRelation::kAttackerSuperior
                                                                  : MdiRelation::kDefenderSuperior;
}

MeleeOutcome ResolveMelee(const RulesetData& rules, const MeleeInput& in) {
  if (!(in.attacker_strength > 0) || !(in.defender_strength > 0))
    throw std::invalid_argument("melee strengths must be > 0");
  MeleeOutcome out;
  double a = in.attacker_strength, d = in.defender_strength;
  const bool ancient_protect =
      in.protected_contact && rules.melee.protected_contact == "attacker_worth_one_less";
  const bool napoleonic_protect =
      in.protected_contact && rules.melee.protected_contact == "attacker_destroys_one_less";
  if (ancient_protect) a = std::max(0.0, a - 1);  // "the attackers are worth one point less"
  out.attacker_strength_used = a;
  out.defender_strength_used = d;
  out.relation = CompareMdi(rules.mdi, in.attacker_mdi, in.defender_mdi);
  const std::string cards = MdiName(in.attacker_mdi) + " vs " + MdiName(in.defender_mdi);

  switch (out.relation) {
    case MdiRelation::kBothWithdraw:
      out.clause = "both_withdraw";
      out.retreats = Who::kBoth;
      out.explanation = cards + ": withdrawal succeeds for both; both retreat " +
                        std::to_string(rules.melee.retreat_squares) + " without loss";
      return out;
    case MdiRelation::kAttackerWithdraws:
    case MdiRelation::kDefenderWithdraws:
      out.clause = "withdrawal_succeeds";
      out.retreats =
          out.relation == MdiRelation::kAttackerWithdraws ? Who::kAttacker : Who::kDefender;
      out.explanation = cards + ": withdrawal succeeds; " + WhoName(out.retreats) + " retreats " +
                        std::to_string(rules.melee.retreat_squares) +
                        " without loss, taking its equipment";
      return out;
    default:
      break;
  }

  if (out.relation == MdiRelation::kEqual) {
    out.clause = "equal_deployments";
    const double weaker = std::min(a, d);
    if (weaker <= kEps) {  // Ancient protected square can leave an attacker worth nothing
      out.destroyed = Who::kAttacker;
      out.explanation = cards + ": attacker worth 0 after the protected-square point is destroyed";
      return out;
    }
    out.attacker_loss = out.defender_loss = weaker / 2;
    if (napoleonic_protect) out.defender_loss = std::max(0.0, out.defender_loss - 1);
    out.explanation =
        cards + " (equal deployments): each side loses half the weaker side's " + Num(weaker) +
        " = " + Num(weaker / 2) +
        (napoleonic_protect ? " (attacker destroys one less: protected contact square)" : "");
    const double a_left = a - out.attacker_loss, d_left = d - out.defender_loss;
    if (std::abs(a - d) <= kEps) {
      out.retreats = Who::kBoth;
      out.explanation +=
          "; equal numbers: both retreat " + std::to_string(rules.melee.retreat_squares);
    } else {
      RetreatOrDestroy(rules, a_left, d_left, a < d ? Who::kAttacker : Who::kDefender,
                       rules.melee.destruction_equal, out);
    }
    out.captures_equipment =
        std::abs(a - d) <= kEps ? Who::kNone : (a > d ? Who::kAttacker : Who::kDefender);
  } else {
    const bool withdrawal_failed =
        in.attacker_mdi == Mdi::kWithdrawal || in.defender_mdi == Mdi::kWithdrawal;
    out.clause = withdrawal_failed ? "withdrawal_fails" : "unequal_deployments";
    const Who sup =
        out.relation == MdiRelation::kAttackerSuperior ? Who::kAttacker : Who::kDefender;
    const Who inf = Other(sup);
    const double s = sup == Who::kAttacker ? a : d;
    const double i = inf == Who::kAttacker ? a : d;
    const double first = rules.melee.inferior_loss_first_point;
    double inf_loss =
        std::min(s, first) +
        std::max(0.0, s - first) * rules.melee.inferior_loss_per_remaining_superior_point;
    inf_loss = std::min(inf_loss, i);
    double sup_loss = std::min(s, inf_loss * rules.melee.superior_loss_per_inferior_loss);
    double& a_loss = out.attacker_loss;
    double& d_loss = out.defender_loss;
    a_loss = sup == Who::kAttacker ? sup_loss : inf_loss;
    d_loss = sup == Who::kAttacker ? inf_loss : sup_loss;
    if (napoleonic_protect) d_loss = std::max(0.0, d_loss - 1);
    out.explanation =
        cards + ": " + WhoName(sup) + " superior" +
        (withdrawal_failed ? " (withdrawal fails: inferior deployment)" : "") +
        "; inferior loses " + Num(std::min(s, first)) +
        " for the first point and half of the remaining " + Num(std::max(0.0, s - first)) + " = " +
        Num(inf_loss) + "; superior loses half that = " + Num(sup_loss) +
        (napoleonic_protect ? "; attacker destroys one less (protected contact square)" : "");
    const double a_left = a - a_loss, d_left = d - d_loss;
    Who weaker;
    if (std::abs(a_left - d_left) <= kEps) {
      weaker = inf;  // "if the numbers left are equal, then the inferior deployment retreats 2"
      out.explanation += "; numbers left equal";
    } else {
      weaker = a_left < d_left ? Who::kAttacker : Who::kDefender;
    }
    RetreatOrDestroy(rules, a_left, d_left, weaker, rules.melee.destruction_unequal, out);
    if (rules.melee.equipment_capture == "superior_deployment_else_stronger") {
      out.captures_equipment = out.destroyed == sup ? Who::kNone : sup;
    }
  }
  if (rules.melee.equipment_capture == "catapult_retreats_with_friends_else_captured") {
    // Equipment changes hands only where its side has no stand left and the enemy has one.
    out.captures_equipment = Who::kNone;
    if (out.destroyed == Who::kAttacker) out.captures_equipment = Who::kDefender;
    if (out.destroyed == Who::kDefender) out.captures_equipment = Who::kAttacker;
  }
  return out;
}

}  // namespace referee::rules
