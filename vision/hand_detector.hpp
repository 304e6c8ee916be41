// Is a hand or an arm reaching over the table? Judged on the CAMERA frame, not the rectified top
// view: a hand over the board often shows only its fingertips inside the board (a few hundred
// mm^2), while the arm that carries it lies outside the board's edge, where the top view does
// not look. An arm always comes in from outside: a hand is a connected region that changed
// since the last settled frame, large enough, reaching from outside the board's outline (or
// from beyond the edge of the picture) to inside it. A Q-tip or a shell landing, a stand moved
// after the hand has gone, a shadow or the camera's auto exposure do not do that.
//
// The frame is shrunk by an integer factor to about work_width pixels (cheap: one block
// average) and compared cell by cell (vision/change_meter's ChangedCells: the lighting change
// divided out, shadows ignored). Each cell knows where it lies on the table (signed distance
// from the board's outline, inches) and how much table it covers (mm^2), from the calibrated
// camera, so the thresholds are in table units whatever the camera's resolution and tilt.
#pragma once

#include <opencv2/core.hpp>

#include "calibration/table_calibration.hpp"
#include "vision/hand_outline.hpp"
#include "vision/hand_tremor.hpp"

namespace referee {

struct HandOptions {
  // Width the camera frame is shrunk to, px (rounded to an integer factor of the frame).
  // Default 320: cells of ~4 mm on a 1080p view of a 48" board, fingertips are dozens of
  // cells. Raise for a camera that sees far more than the board; lower to save time.
  int work_width = 320;
  // Change counted, 8-bit levels in the channel that changed most after the lighting
  // correction. Default 14: JPEG and sensor noise averaged over a cell (16-36 pixels) stay well
  // below it, and dark skin over a brown mat (often only ~15 levels apart in one channel) is
  // still seen. Raise for noisy cameras in dim light or flicker the lighting correction cannot
  // follow.
  double level = 14.0;
  // A region seen at `level` grows through the cells next to it that changed by at least this
  // much, 8-bit levels (hysteresis, as in Canny), except where either picture is bright.
  // Default 14 (= level: off). Lower to 5 when the players' arms are nearly the colour of the
  // table and the mat (a dark arm over a brown mat changes only 5-12 levels while its
  // fingertips over the grid lines change more) AND the camera's exposure is locked: under
  // auto exposure, cells half white marker clip in part and grow into false hands.
  double grow_level = 14.0;
  // A region must cover at least this much table to be a hand, mm^2 (on the mat plane). Default
  // 1500: a hand seen from above is ~15000, the arm just over the board's edge a few thousand
  // (2100 for the demo's hand leaving the picture); a Q-tip is ~400, a shell ~150, a Q-tip in
  // flight with its blur and shadow up to ~1600 with grow_level 5 (raise this to 2000 then).
  // Lower if hands at the very edge of the picture are missed.
  double min_area_mm2 = 1500.0;
  // How far outside the board's outline is watched, inches. Default 6 (the arm that carries a
  // hand); players and their shadows further out are not looked at. Raise for a wide mat
  // margin between the players and the board.
  double band_out_in = 6.0;
  // The region must reach at least this far outside the outline (or touch the picture's edge
  // outside it), inches. Default 1.0: more than a stand or a projectile overhanging the edge.
  double reach_out_in = 1.0;
  // ...and at least this far inside the outline, inches; negative: to within that distance
  // outside it. Default -6 (= band_out_in): a hand anywhere over the watched band, on its way
  // in or out or reaching for a projectile at the edge, is a hand too (the demo's hand frames
  // entering and leaving stop 2.8" and 4.5" short of the board). Raise (e.g. 0.1) if players'
  // arms resting on the mat's margin keep pausing the referee.
  double reach_in_in = -6.0;
  // Consecutive frames whose largest connected change is below this are still, mm^2. Default
  // 60 (noise stays below it; a moving hand does not).
  double still_area_mm2 = 60.0;
  // Stillness with no hand (and nothing large come in from outside) before the picture becomes
  // the new reference, seconds. Default 0.3. Raise if slowly moving hands are missed.
  double settle_s = 0.3;
  // Something large come in from outside that has not moved for this long is taken for
  // something put down (a rule book, a removed stand, a drink) and becomes part of the
  // reference, seconds. Default 3. Only for what stays away from the board (below).
  double scenery_after_s = 3.0;
  // Something come in from outside that reaches to within this distance of the board's
  // outline (inches; negative: outside it) is an arm or a hand. Default -1.5, as close as a
  // hand reaching for a projectile at the board's edge. Put drinks and books further away.
  double held_reach_in_in = -1.5;
  // ...and a hand however still it is held: it stays a hand until it leaves (the picture
  // returns to the reference taken when the table was last clear), or until it has not moved
  // at all for this long (an object really left lying across the board's edge, a moved lamp),
  // seconds. Default 30: a hand held over a table for half a minute without moving a few mm
  // is not seen in play. The user can also say the table is clear (Reset) at any time.
  double held_scenery_after_s = 30.0;
  // Until a picture of the table is known to be clear (the first frames after calibration),
  // a picture is not taken for the reference while the board's border line is hidden over at
  // least this length, inches (vision/hand_outline): a hand already over the table when the
  // referee starts is a hand, not the table. Default 2: the generator's hands reaching over
  // the board hide 2.25-3.75" of it, stands and figures at the edge of a clear table 0-1.75"
  // (15 napoleonic and ancient start-up scenes). Terrain over the edge hides it too (3.75-11"
  // in the hard scenario): such a picture is taken for the table once nothing in the watched
  // area has moved for scenery_after_s (3 s), so a table with terrain across its edge starts
  // 3 s late; the user can say the table is clear at once (Reset). 0 turns the check off (the
  // first picture is the table; a hand in it is then missed, and its ghost flagged once it
  // has left, until held_scenery_after_s).
  double border_hidden_in = 2.0;
  // A cell's edge contrast (vision/hand_texture: mean gradient over brightness) changed by at
  // least this much counts as changed too, even when its colour did not: a hand or sleeve of
  // the mat's own colour hides the grid lines and the grain under it and draws its outline.
  // Default 0.1 (camera noise moves it by ~0.03; a grid line is 1-2). Raise for very noisy
  // cameras; 0 turns the texture test off.
  double texture_level = 0.1;
  // A region counted with its texture-changed cells must cover at least this much table to be
  // a hand, mm^2 (its colour-changed cells alone: min_area_mm2). Default 3500: a hand of the
  // mat's colour changes the texture of 4000-25000, a Q-tip lying across the board's edge (its
  // outline and heads) up to ~2400. Lower with care: small things across the edge come next.
  double texture_min_area_mm2 = 3500.0;
  // A hand held "still" is never perfectly still: it trembles and sways by a fraction of a mm
  // to a few mm, far below `level` over whole cells, while terrain, a card or a ruler lying
  // across the edge changes only by the camera's noise (vision/hand_tremor: each small block
  // round the thing has its shift since it came to rest fitted from its gradients). Something
  // across the board's edge at start-up, or come in from outside and not moving, counts as
  // still (towards scenery_after_s and held_scenery_after_s) only while fewer than
  // tremor_blocks blocks within 4" of it shifted by more than tremor_significance (chi^2 of
  // the shift against the block's own noise). Defaults 3 and 20: a rendered hand swaying
  // 0.75 mm at 720p shifts 7-15 blocks a frame (0.5 mm: at most 2, not seen); sensor noise,
  // JPEG, cards and rulers across the edge at most 1 (`hard` seed 11 start-ups). Raise
  // tremor_blocks if terrain at the edge under flickering light never starts; 0 turns the
  // test off (a hand held perfectly still for 3 s at start-up then becomes the table).
  int tremor_blocks = 3;
  double tremor_significance = 20.0;
};

struct HandReport {
  bool hand = false;  // a hand or arm reaches over the board (or over the band around it)
  // Seconds the region flagged as a hand has not moved (0 while it moves): a still hand over
  // the board stays a hand until held_scenery_after_s.
  double still_s = 0;
  bool moving = false;  // something in the watched area changed since the previous frame
  // The largest region come in from outside (hand or not): its table area, how far it
  // reaches outside and inside the board's outline (inches; in_in < 0: it stops that far
  // short of the board), and its box in camera pixels.
  double area_mm2 = 0;
  double out_in = 0, in_in = 0;
  cv::Rect box_px;
};

class HandDetector {
 public:
  HandDetector() = default;
  // Precomputes each cell's place on the table (a few ms at any resolution).
  explicit HandDetector(const TableCalibration& cal, HandOptions options = {});

  // One camera frame (BGR, the calibration's size) at source time t_s (seconds, increasing).
  HandReport Update(const cv::Mat& frame_bgr, double t_s);
  // Forget the reference: the next frame becomes it, whatever lies across the board's edge
  // (after a camera bump or a re-calibration, or when the user says the table is clear and
  // what the referee takes for a hand is not).
  void Reset();

  const HandOptions& options() const { return options_; }
  int factor() const { return factor_; }  // camera pixels per cell, each way

 private:
  struct Crossing;
  // Whether the picture round what came to rest shifted since (a hand trembling).
  bool Trembles(const cv::Mat& frame_bgr) const;
  // Starts watching for a tremor round `box_px` (camera pixels) from this picture on.
  void AnchorTremor(const cv::Mat& frame_bgr, const cv::Rect& box_px);
  // The largest region of `changed`; its area counts only the cells of `colour` (all when
  // empty), its texture area those of `textured` (none when empty).
  Crossing Largest(const cv::Mat& changed, const cv::Mat& colour = cv::Mat(),
                   const cv::Mat& textured = cv::Mat()) const;

  HandOptions options_;
  cv::Size image_size_;
  int factor_ = 1;
  cv::Size cells_;
  cv::Mat outside_in_;  // CV_32F: signed distance from the board's outline, inches (+ outside)
  cv::Mat area_mm2_;    // CV_32F: table area each cell covers, mm^2
  cv::Mat watched_;     // CV_8U: cells within band_out_in of the board (255)
  cv::Mat border_;      // CV_8U: watched cells outside the board at the picture's edge
  BorderLineWatch border_line_;
  bool clear_seen_ = false;  // a picture was taken for the clear table (or the user said so)
  cv::Mat reference_, previous_;
  cv::Mat reference_texture_;  // CV_32F: the reference's edge contrast per cell
  double last_motion_t_ = 0;
  double candidate_still_since_ = -1;  // something come in from outside and not moving since
  double cell_in_ = 0.2;  // a cell's side on the table over the board, inches (typical)
  TremorWatch tremor_;    // the picture round it when it came to rest
};

}  // namespace referee
