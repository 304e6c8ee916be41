// Whether the board's border lines show in a LineCoverage. A tilted camera sees the far side of
// the board smaller, more blurred (depth of field) and often dimmer, so the line evidence fades
// steadily across the board: there a true border line shows about as much as the lines beside
// it, and far less than the median line of the board. A border line that is not there (a board
// taken a square larger than the drawn grid) shows next to nothing however its neighbours look.
#pragma once

#include <array>

#include "calibration/line_coverage.hpp"

namespace referee {

// Each of the four border lines (column 0, column cols, row 0, row rows) shows in at least
// `min_of_reference` of the lesser of the median line's coverage and the mean coverage of the
// two lines next to it inside the board, and in at least `min_of_typical` of the median line's
// coverage whatever its neighbours show.
bool BorderLinesShowBesideNeighbours(const LineCoverage& lc, double min_of_reference,
                                     double min_of_typical);

// A board taken a square larger than the drawn grid puts a border line on bare mat, often
// along the mat's own edge, and the square inside it holds no lines either. Each border line
// not marked in `shown_by_crossings` (no grid crossing measured on it) must show as a line, not
// a step (LineCoverage::border_not_step), in at least `min_of_reference` of the lesser of the
// median line's coverage and its two inner neighbours' mean, and the lines across the square
// inside it (LineCoverage::edge_strip, when in view) in at least `min_strip_of_board` of the
// whole board's coverage. False when one does not.
bool BorderLinesNotBareMat(const LineCoverage& lc, double min_of_reference,
                           double min_strip_of_board,
                           const std::array<bool, 4>& shown_by_crossings);

}  // namespace referee
