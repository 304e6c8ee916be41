// The ways to complete a base found short of its catalogue size: keep one of its sides' lengths
// and extend it across the other axis to a catalogue size (GrowShortBases,
// GrowShortBasesOnBlurredBand and ExtendIntoShadow grow a base so).
#pragma once

#include <vector>

#include "vision/px_rect.hpp"

namespace referee {

// One way to complete a short base r to a catalogue size: keep one of its sides' lengths and
// extend it across the other axis. `added` is the strip added alone;
// `far` (the strip's outer side) and `flank0`, `flank0 + 1` are its sides as BandFraction
// numbers them.
struct CatalogueExtension {
  PxRect grown, added;
  int far, flank0;
};

// Every catalogue completion of r (mm: mm per top-view px; tol: how far its kept side may be
// from the catalogue size, mm) that extends it by ext_mm in [min_ext_mm, max_ext_mm], in a
// fixed order (axis kept, size, orientation, direction) so ties pick the same one.
std::vector<CatalogueExtension> CatalogueExtensions(const PxRect& r, double mm,
                                                    const std::vector<BaseSize>& sizes, double tol,
                                                    double min_ext_mm, double max_ext_mm);

}  // namespace referee
