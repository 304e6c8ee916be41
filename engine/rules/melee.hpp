// Melee resolution by the MDI cards, exactly as the two texts word it (Napoleonic 5C-5H,
// Ancient MELEE PROCEDURE). Works on points; turning point losses into stands is
// loss_allocation's job.
#pragma once

#include <string>

#include "engine/rules/ruleset_data.hpp"

namespace referee::rules {

enum class Who { kNone, kAttacker, kDefender, kBoth };
std::string WhoName(Who w);

// How the two cards compare.
enum class MdiRelation {
  kEqual,              // same card (or two withdrawals fought as equal deployments)
  kAttackerSuperior,   // includes a defender's failed withdrawal
  kDefenderSuperior,   // includes an attacker's failed withdrawal
  kAttackerWithdraws,  // attacker's withdrawal succeeds
  kDefenderWithdraws,
  kBothWithdraw,  // Ancient: equal WITHDRAWAL cards succeed for both
};
MdiRelation CompareMdi(const MdiRules& rules, Mdi attacker, Mdi defender);
std::string MdiRelationName(MdiRelation r);

struct MeleeInput {
  double attacker_strength = 0;  // points in the contact square plus supports
  double defender_strength = 0;
  Mdi attacker_mdi = Mdi::kLine;
  Mdi defender_mdi = Mdi::kLine;
  bool protected_contact = false;  // the contact square is a protected square
};

struct MeleeOutcome {
  double attacker_strength_used = 0;  // after the Ancient protected-square point
  double defender_strength_used = 0;
  double attacker_loss = 0;  // points
  double defender_loss = 0;
  Who retreats = Who::kNone;
  Who destroyed = Who::kNone;
  Who captures_equipment = Who::kNone;  // the side that takes the other's equipment
  MdiRelation relation = MdiRelation::kEqual;
  std::string clause;       // stable id: equal_deployments, unequal_deployments, ...
  std::string explanation;  // one sentence with the numbers, citing the rule text
};

// Throws std::invalid_argument for non-positive strengths.
MeleeOutcome ResolveMelee(const RulesetData& rules, const MeleeInput& in);

}  // namespace referee::rules
