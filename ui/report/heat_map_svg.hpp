// The heat map of impacts on the table as inline SVG: the board and its grid, a warm glow
// where shells landed (overlapping glows add up), each impact with its 1" circle, hits ringed.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "engine/game_log.hpp"
#include "ui/report/report_model.hpp"

namespace referee::report {

// Display colour of a side: TABLE_KIT colours for "red" and "blue", a fixed palette otherwise.
std::string SideColorHex(const std::string& side);

// px_per_in: drawing scale (default 14 px per inch, ~670 px for a 48" board).
std::string HeatMapSvg(const BoardExtent& board, const std::vector<ShotRecord>& shots,
                       const std::map<std::string, SnapshotStand>& stands, double px_per_in = 14.0);

}  // namespace referee::report
