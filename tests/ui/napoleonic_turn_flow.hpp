// The fixture the turn-flow tests share: a TurnFlow on the Napoleonic rules with the stand-kind
// catalogue, dice seeded 7 so every run draws the same rolls.
#pragma once

#include <gtest/gtest.h>

#include <memory>

#include "engine/rules/ruleset.hpp"
#include "engine/stand_kind_catalog_loader.hpp"
#include "ui/live/turn_flow.hpp"

namespace referee::live {

class NapoleonicTurnFlow : public ::testing::Test {
 protected:
  NapoleonicTurnFlow()
      : ruleset_(rules::MakeRuleset("napoleonic")),
        catalog_(LoadStandKinds()),
        flow_(*ruleset_, 7) {}

  std::unique_ptr<rules::DeGreSweetRuleset> ruleset_;
  StandKindCatalog catalog_;
  TurnFlow flow_;
};

}  // namespace referee::live
