// Which of the board's symmetries takes the referee's calibrated table frame onto the frame a
// generated scene's truth is labelled in. Without corner markers TABLE_KIT puts the origin at
// the grid corner nearest the image's top-left, while the generator labels its truth from its
// own corner, so a markerless board seen "from the other side" is the same table in another
// frame. The benches map our results into the truth's frame before scoring them.
#pragma once

#include <vector>

#include <nlohmann/json.hpp>
#include <opencv2/core.hpp>

#include "calibration/table_calibration.hpp"
#include "engine/board.hpp"
#include "engine/geometry.hpp"
#include "engine/grid.hpp"

namespace referee::cli {

// One of the 8 symmetries of the grid's lattice, as a map from our labels to the truth's:
// bit 2 swaps col/row, then bit 0 mirrors the columns and bit 1 the rows (of the truth's grid).
// Id 3 is the half turn (the board seen from the other long side).
struct BoardSymmetry {
  int id = 0;
  Grid grid;  // the truth's grid (cols, rows, square size)

  bool IsIdentity() const { return id == 0; }
  // A crossing label (col, row) of ours -> the truth's label of the same crossing.
  cv::Point2i ToTruth(cv::Point2i crossing) const;
  // A table point, in inches: ours -> the truth's, and back.
  Vec2 ToTruth(Vec2 p_in) const;
  Vec2 FromTruth(Vec2 p_in) const;
  // A direction angle (deg from +x toward +y): ours -> the truth's, and back.
  double AngleToTruth(double angle_deg) const;
  double AngleFromTruth(double angle_deg) const;
  // A base footprint's angle (its width axis, the front on the side the width axis turns away
  // from): the width axis' direction, turned half a turn by a mirror so the front stays the front.
  // Whether it reverses handedness (an odd number of swaps and flips).
  bool Mirrors() const;
  double RectAngleToTruth(double angle_deg) const;
  double RectAngleFromTruth(double angle_deg) const;
};

// The symmetry found by voting: each crossing we found votes for the symmetries that take its
// label to the label of the nearest true crossing. `truth_crossings_px` is row-major with
// (cols+1) per row. The identity when nothing was found.
BoardSymmetry FindBoardSymmetry(const std::vector<IntersectionFix>& found,
                                const std::vector<cv::Point2d>& truth_crossings_px,
                                const Grid& truth_grid);

// The same with the truth's crossings as truth.json lists them (`grid_intersections_px`).
BoardSymmetry FindBoardSymmetry(const std::vector<IntersectionFix>& found,
                                const nlohmann::json& truth, const Grid& truth_grid);

// The truth's board (terrain squares and feature outlines) expressed in our calibrated frame,
// so the pipeline reads terrain where it is in the image.
Board BoardFromTruth(const Board& truth_board, const BoardSymmetry& symmetry);

// A truth.json stand ({center, angle_deg, corners, ...}, table inches) expressed in our
// calibrated frame; its image keys are kept as they are.
nlohmann::json StandFromTruth(const nlohmann::json& truth_stand, const BoardSymmetry& symmetry);

}  // namespace referee::cli
