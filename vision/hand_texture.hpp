// What a hand of the table's own colour still changes: the texture under it. A hand or sleeve
// nearly the colour of the mat hardly changes a cell's mean colour, but it hides the grid lines
// and the mat's grain under it, draws its own outline across the mat, and casts a shadow.
// Texture here is a cell's mean gradient magnitude divided by its mean brightness, so a global
// exposure change or a soft shadow (which scale both) leave it as it was.
#pragma once

#include <opencv2/core.hpp>

namespace referee {

// Edge contrast of each cell: the mean |d/dx| + |d/dy| of the grey level of `fine_bgr` (the
// picture at twice the cells' resolution each way, CV_8UC3) over the cell's 2x2 pixels,
// divided by the cell's mean grey level + 4 (dark cells' noise does not blow up): CV_32F of
// `fine_bgr`'s size halved.
cv::Mat EdgeContrastCells(const cv::Mat& fine_bgr);

// Cells whose edge contrast changed by at least `level` and by a factor of at least 1.5 (both
// from EdgeContrastCells, same size): CV_8U, 0 or 255. Typical contrasts: plain mat 0.1-0.4,
// a grid line 1-2.
cv::Mat TextureChangedCells(const cv::Mat& before, const cv::Mat& after, double level);

}  // namespace referee
