// Where the projectile came to rest: the change between the `before` and `after` top views,
// explained by a shape model. A Q-tip is a long thin change (~75 mm x 2.5-5 mm) with two
// heads; the painted head differs from the white stick and its outer end is the tip. A shell
// is a ~12 mm square with a dark centre dot. Anything else that changed (a hand, an arm, a
// moved stand) refuses the frame with a reason: the referee never guesses.
#pragma once

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <opencv2/core.hpp>

#include "engine/geometry.hpp"
#include "vision/change_mask.hpp"
#include "vision/shell_dot.hpp"
#include "vision/stand_detector.hpp"
#include "vision/top_view.hpp"

namespace referee {

struct ProjectileOptions {
  // Which model may explain the change: "qtip", "shell" or "any". Default "any"; the CLI sets
  // it from --shot (field/horse -> qtip, howitzer/catapult -> shell).
  std::string expect = "any";
  // Smallest per-pixel change counted, 8-bit levels after gain correction. Default 28; raise
  // for noisy cameras or flickering light.
  double min_change = 28.0;
  // Q-tip dimensions, mm (TABLE_KIT): length 75, stick 2.5 thick, heads 5 x 12.
  double qtip_length_mm = 75.0;
  double qtip_head_diameter_mm = 5.0;
  double qtip_head_length_mm = 12.0;
  // Shell: side 12 mm, thickness 5 mm (TABLE_KIT). The dot is on top.
  double shell_side_mm = 12.0;
  double shell_thickness_mm = 5.0;
  // The shells' plasticine colour, BGR (the board file's `shell_colour`; TABLE_KIT: yellow).
  // Tells the frame that holds a shell from the one it was picked up from (taken_away.hpp): a
  // shell of another colour is still found, the test then reads no shell colour in either.
  // And a coloured shell is no white cotton (max_white_share_shell).
  cv::Vec3d shell_bgr{40, 200, 235};
  // A change matched as a shell is refused when at least this share of its middle changed the
  // way white material does (white_change.hpp) while the shells are coloured: a Q-tip's plain
  // head, the rest of it hidden under a crown or lying white on white paper, is a shell's size
  // under blur (`hard` 61 scene 3 and 73 scene 7 were ruled as shells 66 mm from the tip).
  // Default 0.6: such heads read 1.0, shells at rest 0.0 (s25). Not applied when shell_bgr is
  // nearly colourless (saturation under 0.25): white shells change the view as cotton does.
  double max_white_share_shell = 0.6;
  // Diameter of the shell's centre dot, mm. Default 3.
  double shell_dot_diameter_mm = 3.0;
  // Smallest darkening of the dot below the shell's top, as a share of the top's brightness.
  // Default 0.2: a dark dot on yellow plasticine is ~0.5 even blurred to a few pixels; shading
  // and JPEG across a plain top stay under ~0.1. Lower only for a pale dot.
  double min_dot_contrast = 0.2;
  // Where no spot is that much darker: the blurred dot fitted on the top (`vision/shell_dot`).
  ShellDotOptions shell_dot;
  // Smallest share of the shell's top area (side^2) that must have changed. A shell is a solid
  // square, so a sparse change of the right extent (light or JPEG on textured figures) is not
  // one. Default 0.5; the measured change of a real shell is about 1-2x side^2 with its shadow.
  double shell_min_fill = 0.5;
  // Allowed deviation of a measured length from the model, fraction. Default 0.3.
  double size_tolerance = 0.3;
  // Changes smaller than this are noise (dust, JPEG), mm^2. Default 6.
  double ignore_area_mm2 = 6.0;
  // How much larger than the projectile model's change (outline grown by the blur, plus its
  // shadow; MaxProjectileChangeMm2) a region may be before it is taken for a hand or a moved
  // stand. Default 1.5; raise for soft, low-resolution cameras.
  double change_area_margin = 1.5;
  // Base thickness assumed under a projectile lying on a stand, mm. Default 2.5.
  double base_height_mm = 2.5;
  // Height of the figures' tops above the base top, where a Q-tip lying across a base rests,
  // mm. Default 20 (TABLE_KIT: figures up to ~25 mm; the stick rests on the tallest under it).
  // Set it to your miniatures' height.
  double figure_height_mm = 20.0;
};

struct ProjectileObservation {
  std::string kind;          // "qtip" or "shell"
  Vec2 point;                // tip (Q-tip) or dot (shell), table inches, height-corrected
  double height_in = 0;      // height of `point` above the mat used for the correction
  cv::Point2d point_px;      // where it was seen in the top view (mat plane)
  cv::Point2d other_end_px;  // Q-tip: the plain head's outer end seen there; shell: point_px
  Vec2 other_end;            // Q-tip: outer end of the plain head (table inches)
  std::string resting_on;    // stand id when it lies on a base, else empty
  // Q-tip: false when the painted head could not be told from the mat and the tip was put one
  // head length past the end of the white stick (less precise; shown in the evidence).
  bool tip_from_edge = true;
  // Shell: false when its dot could not be seen and `point` is the centre of its silhouette
  // (a clean square of the right size; off by as much as a hand-pressed dot is off centre).
  bool dot_seen = true;
  double change_area_mm2 = 0;
  cv::Rect region_px;  // bounding box of the change in the top view
  // What else was seen and set aside (small changes no model explains); empty when nothing.
  std::string note;
};

struct Refusal {
  std::string reason;
};

using ProjectileResult = std::variant<ProjectileObservation, Refusal>;

// `tall_terrain`: where the board's tall terrain may hide the mat from the camera (top view,
// CV_8U, 255; TallTerrainMask), empty when not known: a Q-tip running on under it is seen short.
// `flat_terrain`: where the board lays flat terrain on the mat (FlatTerrainMask), empty when not
// known: a shell on a road or water felt rests at the mat's height.
ProjectileResult DetectProjectile(const cv::Mat& top_before, const cv::Mat& top_after,
                                  const TopView& view, const std::vector<DetectedStand>& stands,
                                  const ProjectileOptions& options = {},
                                  const cv::Mat& tall_terrain = cv::Mat(),
                                  const cv::Mat& flat_terrain = cv::Mat());

// The largest change a projectile of `options` can make in a top view of `mm_per_px`, mm^2:
// anything larger is a hand, an arm or a moved stand.
double MaxProjectileChangeMm2(const ProjectileOptions& options, double mm_per_px);

}  // namespace referee
