// How much of the board's grid a fitted camera's lines find in the picture: each board line is
// sampled where the camera puts it (as SampleGridLines does, away from the crossings) and a
// sample counts when a thin dark line is measured there. A blurred, noisy picture of a small
// board loses whole crossings (four arms must all measure) where the lines between them still
// show, so the lines say how much of the grid is seen when the crossings cannot. The lines one
// square beyond the border are sampled the same way, and so are the board's lines over the
// square past the border: a grid larger than the board, or labels a square off, shows a line
// there. Outside the border a step (the mat's own edge against a lighter table) is not taken for
// a line.
#pragma once

#include <vector>

#include <opencv2/core.hpp>

#include "calibration/camera_model.hpp"
#include "calibration/intersection_refine.hpp"
#include "engine/grid.hpp"

namespace referee {

struct LineCoverage {
  // Fraction of each board line's samples in view where a line is measured: column lines
  // 0..cols, then row lines 0..rows.
  std::vector<double> col_line, row_line;
  // All the board's samples in view together.
  double board = 0;
  // The four lines one square outside the border (column -1, column cols+1, row -1, row rows+1),
  // sampled over the board's length; 0 for a line wholly out of view.
  double beyond[4] = {0, 0, 0, 0};
  // The board's lines running on over the square past each border (the same four sides: the
  // row lines left of column 0 and right of column cols, the column lines above row 0 and below
  // row rows), all their samples in view together; 0 for a strip mostly out of view. A board
  // taken one square short of the drawn grid shows its lines running on there even where the
  // line past the border is hidden under terrain along most of its length.
  double extension[4] = {0, 0, 0, 0};
  // The four border lines (column 0, column cols, row 0, row rows) measured as the lines beyond
  // are, a step (the mat's own edge against the table) not taken for a line.
  double border_not_step[4] = {0, 0, 0, 0};
  // The board's lines across the square inside each border (the same four sides: the row lines
  // from column 0 to 1 and from cols-1 to cols, the column lines from row 0 to 1 and from rows-1
  // to rows), all their samples in view together; -1 for a strip mostly out of view. A board
  // taken a square larger than the drawn grid has bare mat there: its lines end a square short.
  double edge_strip[4] = {-1, -1, -1, -1};
};

// `gray` as RefineImage. A sample counts when the line centre is measured within
// max_offset_px of where `camera` puts it.
// The median coverage of the board's lines (columns and rows together); 0 without lines.
double TypicalLineCoverage(const LineCoverage& lc);

LineCoverage MeasureLineCoverage(const cv::Mat& gray, const Grid& board, const CameraModel& camera,
                                 int samples_per_square, double max_offset_px,
                                 const RefineOptions& refine);

}  // namespace referee
