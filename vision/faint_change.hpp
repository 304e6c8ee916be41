// A projectile looked for in the faint change: where nothing, only specks or only a core of it
// cleared the plain change test (a white stick blurred on a mat of its brightness, a shell of
// its ground's colour under heavy blur), the change under a lowered threshold, matched only by
// the whole models.
#pragma once

#include <vector>

#include "vision/change_explanation.hpp"
#include "vision/change_regions.hpp"
#include "vision/projectile_detector.hpp"

namespace referee {

// The projectile in the faint change when nothing (or only specks) cleared the plain change
// test, or a refusal that says what was seen.
ProjectileResult LookFaint(const ChangeScene& s);

// `r`, the plain models' answer for `blobs[0]` (the largest region of change, the others small
// beside it), or, when that region is too small for either model, the projectile whose core it
// is, matched in the faint change around it.
ProjectileResult ExplainAroundCore(const ChangeScene& s, const std::vector<ChangeBlob>& blobs,
                                   ProjectileResult r);

}  // namespace referee
