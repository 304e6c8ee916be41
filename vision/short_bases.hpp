// Bases found short of their catalogue size made whole: grown to it where the image shows the
// rest, or merged with another piece found of them.
#pragma once

#include <vector>

#include <opencv2/core.hpp>

#include "vision/px_rect.hpp"
#include "vision/stand_detector.hpp"

namespace referee {

// A base found short of its catalogue size: its colour blob stopped at figures or at the front
// stripe, half way across the base. It is grown to a larger catalogue size sharing one of its
// sides when the added part shows the rest of a base's outline: the side colour along its far
// edge and both its flanks, and none just beyond them (past the frame's blur). Two touching
// bases are not one: the grown base may not cover another base found (other than pieces of
// its own side lying mostly inside it, which are this base and are dropped: IsPieceOf), nor a
// seam (the side colour on both sides of where the smaller base ended, two borders side by
// side).
void GrowShortBases(const cv::Mat& top_bgr, const std::vector<cv::Mat>& masks, double mm,
                    const std::vector<BaseSize>& sizes, const StandDetectorOptions& options,
                    double blur_mm, std::vector<std::vector<PxRect>>& rects);

// Two pieces of one side that overlap or touch may be two fits of one base (a blob cut short at
// its figures and a ring fit of its far half, or two ring fits of its halves, crossed or side by
// side); so may two up to the size tolerance apart when neither shows its border on the side
// facing the other (a blob whose colour stops short of the base's middle, where figures break
// its ring; two bases standing that far apart each show a border there). They are taken as one
// catalogue base when the rectangle holding both is one, and that base shows its whole outline
// (the side colour or a step to the mat all round, and no side colour just beyond it past the
// blur) and no seam where it could split into two catalogue bases (two touching bases show two
// borders side by side there).
void MergePieces(const cv::Mat& top_bgr, const std::vector<cv::Mat>& masks, double mm,
                 const std::vector<BaseSize>& sizes, const StandDetectorOptions& options,
                 double blur_mm, std::vector<std::vector<PxRect>>& rects);

}  // namespace referee
