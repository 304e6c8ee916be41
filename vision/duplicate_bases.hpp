// Rectangles found twice for one base, or found on another side's base, dropped.
#pragma once

#include <vector>

#include "vision/px_rect.hpp"

namespace referee {

// Two rectangles of one side that overlap (OverlapTooMuch) are two fits of one base: the later
// pass's is dropped (the passes run from the strictest evidence, whole colour blobs, to the
// loosest, rings of leftover evidence).
void DropDuplicates(std::vector<std::vector<PxRect>>& rects);

// A base of one side lying mostly inside a larger base of another side, its centre inside that
// base's border: bases cannot overlap and figures stand inside a base's border, so it is the
// larger base's figures painted in its side's colour (`hard` 103 scene 5: blue figures on a red
// commander's 40 x 30 mm base, read as a 37 x 16 mm blue base).
void DropFiguresOfAnotherSide(std::vector<std::vector<PxRect>>& rects, double border_px);

}  // namespace referee
