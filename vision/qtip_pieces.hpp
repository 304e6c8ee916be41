// A Q-tip seen in pieces: blur and noise break up its white stick where it fades into a pale
// mat, while its heads still show.
#pragma once

#include <cstddef>
#include <vector>

#include "vision/change_regions.hpp"
#include "vision/projectile_detector.hpp"

namespace referee {

// Several regions that may be one Q-tip broken up by blur and noise (its white stick fading
// into a pale mat, its heads still showing): regions lying along one line no wider than a head,
// together about a Q-tip long. Their indices in `blobs`, the most regions first; empty when no
// two regions line up so. Whether they are one Q-tip is for the whole-model match to say.
std::vector<size_t> PiecesAlongAQtip(const std::vector<ChangeBlob>& blobs,
                                     const ProjectileOptions& opt, double mm_per_px);

}  // namespace referee
