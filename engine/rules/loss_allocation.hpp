// Turning a melee loss in points into stands (Napoleonic 5E/5F, Ancient MELEE PROCEDURE): the
// first stand goes from the contact square, then clockwise round the units involved, spread as
// evenly as possible; a part-stand left over is settled by a logged coin flip.
#pragma once

#include <string>
#include <vector>

#include "engine/rules/dice.hpp"

namespace referee::rules {

struct LossUnit {
  std::string id;
  std::vector<double> stand_values;  // melee value of each stand, removed front to back
};

struct LossRemoval {
  int unit = 0;   // index into the units given
  int stand = 0;  // index into that unit's stand_values
};

struct LossResult {
  std::vector<LossRemoval> removed;
  double removed_points = 0;
  bool coin_flipped = false;
  bool coin_heads = false;
};

// `units` in order: the unit in the contact square first, then the others clockwise.
LossResult AllocateLosses(const std::vector<LossUnit>& units, double loss_points, DiceSource& dice,
                          const std::string& purpose);

}  // namespace referee::rules
