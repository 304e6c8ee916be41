// Whether the object a projectile model explained is in the `after` view or was in `before`:
// a Q-tip or shell picked up between the frames changes the same pixels as one come to rest,
// and its models, which read the change, can take it for one (a Q-tip lifted off the mat was
// ruled 74-88 mm from where it lay, its plain end taken for the tip). The frame that holds the
// object shows it unlike its own surroundings; the other shows what lies under it, as the
// surroundings do when that is the mat.
#pragma once

#include <opencv2/core.hpp>

#include "vision/white_change.hpp"

namespace referee {

struct TakenAwayOptions {
  // The object is taken to be in `before`, not `after`, when its footprint stands out of its
  // surroundings in `before` by more than this many times as much as in `after`. Default 2.5:
  // a Q-tip or shell at rest stood out of its surroundings at least 0.55 times as much as what
  // lies under it did (1.81 at the most on 160 landings of 8 sets); picked up, 3-50 times.
  double min_before_ratio = 2.5;
  // ... and it stands out in `after` by less than this, 8-bit levels (the colour distance of
  // the footprint's median pixel from its surroundings' median). Default 30: a white stick
  // or a yellow shell stands out of any mat by more; the mat's own texture and blur by less.
  double max_after_contrast = 80.0;
  // A Q-tip's stick is white cotton: in the frame that holds it, it is at least as white as
  // whatever it lies on. It is taken to be in `before` when its middle is whiter there by more
  // than this, levels of the darkest channel. Default 15: on 40 napoleonic landings the stick
  // came out 38-119 whiter in `after`; picked up, 42-84 whiter in `before`.
  double min_whiteness_lost = 15.0;
  // A Q-tip is also taken to be in `before` when what its model matched stands out of its
  // surroundings in `after` by under this many levels (and min_before_ratio times as much in
  // `before`): a stick at rest shows on whatever it lies on, while the mat left bare where a
  // stick and its shadow lay shows nothing. Default 15: on 168 Q-tip landings (s53: napoleonic
  // 5, 7, 223 and 331, lamp 5 and 331, `hard` 5 and 331 as rendered; napoleonic 5, lamp 5 and
  // `hard` 5 through a webcam that washes colour) the matched stick stood out by at least 10.4
  // levels, and by under 25 only on white paper, where `before` stood out at most 1.85 times as
  // much; of 90 taken-away matches, 79 stood out by 1.7-13.9 levels, 6.8-89 times as much in
  // `before` (the rest stand out more; the other tests refuse them). Kept low so that a
  // stick across figures, which stand out of their stand more than it does (42 levels in
  // `after`, 148 in `before`: `hard` 89 scene 9), is not taken for one picked up.
  double max_after_contrast_stick = 15.0;
  // A shell is taken to be in `before` when at least this share of its middle shows the
  // shell's colour there and at most max_shell_share_after in `after`. Defaults 0.15 and 0.1:
  // picked up, 0.18-0.87 of it showed the colour in `before` and none in `after`; at rest, 0.57-1.0
  // in `after`, so a shell showing none there is not at rest in it, and the colour seen in
  // `before` need only say the shell was there (0.3 until s42: `hard` 229 scene 11, a shell
  // picked up from a base's edge under heavy blur, was matched 4.7 mm off the one that left,
  // in the base's dark interior taken for its dot, its colour 0.18 of that disc in `before`).
  double min_shell_share_before = 0.15;
  double max_shell_share_after = 0.1;
  // A Q-tip is taken to be in `before` when at least this share of its stick's changed pixels
  // read as white cotton there over the coloured ground `after` shows (CountWhiteWay), and
  // min_white_way_ratio times as many as read as cotton come into `after`. Defaults 0.1 and 3:
  // on 20 `hard` landings none read so (0 pixels); on 14 picked up 0.22-0.98 did, 4.2-300 times
  // as many as the other way.
  // At least min_white_way_px of them (a few flecks of noise are no stick).
  double min_white_way_share = 0.1;
  double min_white_way_ratio = 3.0;
  int min_white_way_px = 8;
  // A shell is shown in `after` when its dot is seen there, when at least this much more of
  // its middle shows its colour there than in `before`, or when it stands out of its
  // surroundings there at least as much as in `before`. Default 0.3: at rest 0.61-1.0 more.
  double min_shell_share_gain = 0.3;
  // A shell is taken to be in `before` when at least this much more of its middle shows its
  // hue there than in `after` (MeasureShellHueShare). Default 0.5: on 168 landings (ancient 5
  // and 223 and `hard` shells as rendered, with 35 % or half of the saturation lost and
  // through a webcam that washes colour) at most 0.01 more in `before`; picked up, 0.25-1.0
  // more where the shell keeps half its hue's departure (with half the saturation lost, shells
  // keep less and show in neither frame at the kit's bar: see shell_hue_bar_share).
  double min_shell_hue_loss = 0.5;
  // The hue share is read a second time with a bar the camera sets (ShellHueBar): this share
  // of the median departure of the middle in the frame where it departs more, when that is
  // under the kit's bar, but never under min_shell_hue_bar. Defaults 0.5 and 0.2: a camera that
  // washes colour moves the shell and the mat toward grey alike, and half the shell's own
  // departure keeps the kit's tan and brown mats (0.38 and 0.44 of the shell's) out as half
  // the kit's did. Under 0.2 a pixel's noise departs as far. The frame whose middle departs
  // more has half its pixels past half its median, so a shell at rest keeps about half its
  // middle in its hue and the pair is not refused for it (ancient 5 and 40 `hard` shell
  // landings, as rendered, through a washing webcam and with 35 % or half the saturation lost:
  // no shell at rest refused).
  double shell_hue_bar_share = 0.5;
  double min_shell_hue_bar = 0.2;
};

struct ObjectContrast {
  double before = 0;  // footprint against its surroundings in `before`, levels
  double after = 0;   // ... in `after`
  bool measured = false;
};

// The footprint: pixels within `half_width_px` of the segment a-b (a shell: a == b, its half
// side); the surroundings: a band `ring_from_px`..`ring_to_px` from it. `after` should have
// the lighting change divided out. Top views, BGR 8-bit, same size.
ObjectContrast MeasureObjectContrast(const cv::Mat& before, const cv::Mat& after, cv::Point2d a,
                                     cv::Point2d b, double half_width_px, double ring_from_px,
                                     double ring_to_px);

bool TakenAway(const ObjectContrast& c, const TakenAwayOptions& options = {});
// The same for a Q-tip's stick, under its own bar (max_after_contrast_stick).
bool StickTakenAway(const ObjectContrast& c, const TakenAwayOptions& options = {});

// How white a Q-tip's stick from `a` (its tip) to `b` is in each frame where the two differ by at
// least `min_change` levels (past the painted head; a crown or a roof over part of it shows the
// same in both), and its surroundings there (a band `ring_from_px`..`ring_to_px` off the axis):
// medians of the darkest channel (white cotton raises all three) over pixels within
// `half_width_px` of the axis. `after` should have the lighting change divided out.
struct StickWhiteness {
  double before = 0, after = 0, around_before = 0, around_after = 0;
  bool measured = false;
};
// Taken away: whiter in `before` than in `after` and than its surroundings there, each by more
// than min_whiteness_lost (a pale mat under a white stick at rest is as white as the stick),
// while `after` shows it standing out of its surroundings less than half as much as `before`
// does (a stick at rest on white-coated figures whiter than its cotton still stands out of the
// mat around them about as much as they did).
bool TakenAway(const StickWhiteness& w, const TakenAwayOptions& options = {});
StickWhiteness MeasureStickWhiteness(const cv::Mat& before, const cv::Mat& after, cv::Point2d a,
                                     cv::Point2d b, double half_width_px, double ring_from_px,
                                     double ring_to_px, double min_change = 15.0);

// Taken away: the stick's change reads as white cotton leaving a coloured ground (from
// `before` to `after`) and not as cotton arriving. Unlike the whiteness against the stick's
// surroundings this holds where those surroundings are white paper and a coloured road alike.
bool TakenAway(const WhiteWayCounts& c, const TakenAwayOptions& options = {});

// Share of the pixels within `radius_px` of `centre` (top-view px) whose chromaticity (r, g
// shares of R+G+B) lies within `tolerance` of `shell_bgr`'s, in each frame: the frame that
// holds a shell shows its plasticine there.
struct ShellColourShare {
  double before = 0, after = 0;
  bool measured = false;
};
ShellColourShare MeasureShellColourShare(const cv::Mat& before, const cv::Mat& after,
                                         cv::Point2d centre, double radius_px,
                                         const cv::Vec3d& shell_bgr, double tolerance);
bool TakenAway(const ShellColourShare& c, const TakenAwayOptions& options = {});

// The same share, of pixels in the shell's hue: departing from grey toward `shell_bgr`'s
// chromaticity by at least `min_departure` of its distance, and off that line by at most
// `cone` times as far as along it. A camera that washes colour out moves a shell off the
// kit's chromaticity but keeps its hue.
ShellColourShare MeasureShellHueShare(const cv::Mat& before, const cv::Mat& after,
                                      cv::Point2d centre, double radius_px,
                                      const cv::Vec3d& shell_bgr, double min_departure,
                                      double cone);
// How far the middle departs from grey toward the shell's hue in each frame: the median of its
// pixels' departure along the line from grey to `shell_bgr`'s chromaticity (1 = the kit's
// colour). The frame that holds the shell shows how far this camera leaves its colour.
struct ShellHueDeparture {
  double before = 0, after = 0;
  bool measured = false;
};
ShellHueDeparture MeasureShellHueDeparture(const cv::Mat& before, const cv::Mat& after,
                                           cv::Point2d centre, double radius_px,
                                           const cv::Vec3d& shell_bgr);
// The min_departure for a second MeasureShellHueShare on this pair, at most kit_bar
// (TakenAwayOptions::shell_hue_bar_share); kit_bar when the departure was not measured.
double ShellHueBar(const ShellHueDeparture& departure, double kit_bar,
                   const TakenAwayOptions& options = {});

// Taken away: the shell's hue shows over much more of its middle in `before` than in `after`.
bool HueTakenAway(const ShellColourShare& hue, const TakenAwayOptions& options = {});

// Whether anything shows a shell in `after` rather than in `before`: its dot (found in `after`),
// its colour come in, or its outline standing out there at least as much. A shell on a road or
// figures of its own colour, its dot blurred away, may show none of these: then which frame
// holds it cannot be told (`hard` 71 scene 8 played the other way round: the colour's share 1.0
// in both, contrast 22 levels in `before` and 10 in `after`).
bool ShownInAfter(bool dot_seen, const ShellColourShare& share, const ObjectContrast& contrast,
                  const TakenAwayOptions& options = {});

}  // namespace referee
