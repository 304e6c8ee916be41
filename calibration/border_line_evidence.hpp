// Whether the board's border lines show in a LineCoverage. A tilted camera sees the far side of
// the board smaller, more blurred (depth of field) and often dimmer, so the line evidence fades
// steadily across the board: there a true border line shows about as much as the lines beside
// it, and far less than the median line of the board. A border line that is not there (a board
// taken a square larger than the drawn grid) shows next to nothing however its neighbours look.
#pragma once

#include "calibration/line_coverage.hpp"

namespace referee {

// Each of the four border lines (column 0, column cols, row 0, row rows) shows in at least
// `min_of_reference` of the lesser of the median line's coverage and the mean coverage of the
// two lines next to it inside the board, and in at least `min_of_typical` of the median line's
// coverage whatever its neighbours show.
bool BorderLinesShowBesideNeighbours(const LineCoverage& lc, double min_of_reference,
                                     double min_of_typical);

}  // namespace referee
