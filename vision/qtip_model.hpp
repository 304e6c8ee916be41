// The Q-tip shape model fitted to a change region in the rectified top view: a straight white
// stick with a head at each end, one head painted. The fit works on profiles sampled along the
// stick's axis, so it does not depend on how the change mask happened to be cut:
//  - where the object is: change that is not a shadow (a shadow darkens all channels alike);
//  - where white material is: the brightness gained over the mat, summed across the axis, which
//    is about twice as large over a 5 mm head as over the 2.5 mm stick;
//  - which head is painted: the one whose colour differs from the stick's, or, when the paint
//    is invisible against the mat (black paint on a dark grid line), the end where the white
//    material stops with the thin stick instead of a wide head; refused when the head so chosen
//    is the one white head as wide as a plain head (the colour of a blurred end is mostly what
//    lies under it, so a plain head over another ground than the stick's middle can pass for
//    paint);
//  - the tip: the outer end of the painted head, where the change falls to half of the head's
//    plateau (sub-pixel), or, when the head cannot be told from the mat, one head length past
//    the end of the white stick.
#pragma once

#include <string>
#include <variant>
#include <vector>

#include <opencv2/core.hpp>

namespace referee {

struct QtipModelOptions {
  // Q-tip dimensions, mm (TABLE_KIT): length 75, stick 2.5 thick, heads 5 x 12. Change them
  // for other cotton buds.
  double length_mm = 75.0;
  double stick_diameter_mm = 2.5;
  double head_diameter_mm = 5.0;
  double head_length_mm = 12.0;
  // Allowed deviation of the measured length from length_mm, fraction. Default 0.3.
  double size_tolerance = 0.3;
  // Smallest colour difference between the painted head and the stick that tells them apart,
  // 8-bit levels. Default 20; lower only for a pale paint on a very clean camera.
  double min_paint_contrast = 20.0;
  // Smallest head contrast over the mat, in units of the background noise, for the head's
  // outer edge to be measured directly. Default 4.
  double min_edge_snr = 4.0;
  // The pixels are a matched model (MatchQtipTemplate) whose ends are the object's ends: used
  // for faint Q-tips, where the change's own runs break up in noise. Default false.
  bool extent_from_pixels = false;
  // Where the board's tall terrain (a tree crown, a house) may hide the mat from the camera,
  // top view (CV_8U, 255; TallTerrainMask); empty when none is known. A stick whose plain end
  // runs on under it is seen short: it is taken at the model's length only when all of the
  // missing part lies there (see FitQtip).
  cv::Mat tall_terrain;
  // Shortest share of length_mm that must be seen, painted head included, of a stick running
  // out of the view or on under tall terrain. Default 0.4: the visible part gives the axis.
  double min_seen_share = 0.4;
  // Widest white material at a stick's visible end, as a share of the stick's own, for that
  // end to be the stick going on unseen rather than a head. Default 1.2. A weak guard only:
  // under `hard`'s blur whole Q-tips' plain heads measured 0.3-2.4x (most 1.5-2.4x); what
  // places the tip is its paint, and the hidden part is bounded by the board's terrain.
  double max_hidden_end_width = 1.2;
  // A wider seen end is still the stick going on unseen when at most this share of what the
  // `before` view shows along the missing part is the mat (the rest a crown or a roof). Default
  // 0.25: grid lines and the crown's blurred edge make up the rest.
  double max_mat_share_hidden = 0.25;
  // Length past the seen end left out of that test, mm: the blur there mixes crown and mat.
  double hidden_end_skip_mm = 2.0;
  // A stick seen short is also taken at the model's length when at least this share of what
  // `before` shows along the missing part is white ground (paper): colourless and brighter
  // than the mat beside the stick in every channel by min_white_ground_lift levels. White
  // cotton lying there changes the view too little to be seen. Defaults 0.8 (the blur at the
  // paper's edge takes some) and 40.
  double min_white_ground_share = 0.8;
  double min_white_ground_lift = 40.0;
};

struct QtipFit {
  cv::Point2d tip_px;        // outer end of the painted head, top-view px (mat plane)
  cv::Point2d plain_end_px;  // outer end of the plain head, top-view px
  double length_mm = 0;      // measured tip to plain end (0 when the plain end is cut off)
  // The stick runs out of the view: plain_end_px is where it leaves it.
  bool plain_end_cut = false;
  bool tip_from_edge = true;  // false: placed one head length past the stick's end
  std::string painted_by;     // which cue decided the painted head: "colour" or "width"
  // The plain end runs on under tall terrain: plain_end_px is put at the model's length from
  // the tip along the seen stick, and length_mm is 0 (as for a plain end cut off).
  bool plain_end_hidden = false;
  // ... because the missing part lies on white ground (paper), not under tall terrain.
  bool plain_end_on_white = false;
};

struct QtipRefusal {
  std::string reason;
};

// `change`: per-pixel change (CV_32F, same size as the views); `object_change`: the same with
// shadows removed.
// `pixels`: the changed pixels of the candidate region. `cut_off`: the region runs out of
// the view, so the plain end may be missing; where the stick leaves the view then stands for
// it (QtipFit::plain_end_cut), and at least options.min_seen_share of the length must lie in
// view from the tip.
std::variant<QtipFit, QtipRefusal> FitQtip(const cv::Mat& top_before, const cv::Mat& top_after,
                                           const cv::Mat& change, const cv::Mat& object_change,
                                           const std::vector<cv::Point>& pixels, double mm_per_px,
                                           bool cut_off, const QtipModelOptions& options = {});

}  // namespace referee
