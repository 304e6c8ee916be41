// Whether a found rectangle is a catalogue base, and which of its sides is the frontage.
#pragma once

#include <vector>

#include "vision/px_rect.hpp"

namespace referee {

// Does (a, b) in mm match a catalogue base either way round? Returns the error, or -1.
double MatchError(double a_mm, double b_mm, const BaseSize& s, double tol);

bool IsCatalogueSize(const PxRect& r, double mm, const std::vector<BaseSize>& sizes, double tol);

// Which side of a found rectangle is the width (frontage)? The catalogue size that fits best.
bool AIsWidth(double a_mm, double b_mm, const std::vector<BaseSize>& sizes);

}  // namespace referee
