// Everything about one synthetic scene before it is rendered: the camera, the flat art painted
// on the table plane, the solids standing on it (with their real heights), the projectile, the
// hand, the lamp and the photographic effects. The layout is sampled once per scene; every image
// of the scene (empty, before, after, after_hand, sequence frames) is rendered from it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "calibration/camera_model.hpp"
#include "datasets/scenario.hpp"
#include "datasets/synth_random.hpp"
#include "engine/board.hpp"
#include "engine/stand.hpp"

namespace referee {

// A convex solid given by points on its surface (table inches, z = -height): the renderer fills
// the convex hull of their projections with `side_bgr`, then draws each top face over it.
struct Solid {
  std::vector<cv::Point3d> points;
  cv::Scalar side_bgr;
  struct Face {
    std::vector<cv::Point3d> polygon;  // planar, drawn in order after the hull
    cv::Scalar bgr;
  };
  std::vector<Face> faces;
  // Convex overlays drawn over the hull before the faces (e.g. the paint on a Q-tip head).
  struct Overlay {
    std::vector<cv::Point3d> points;
    cv::Scalar bgr;
  };
  std::vector<Overlay> overlays;
  bool casts_shadow = true;
  // No faces but thin (a Q-tip's stick and heads): with shadows on solids, the shadows falling
  // on it are taken on its mid-height plane over its footprint.
  bool receives_on_midplane = false;
  double sort_bias_in = 0.0;  // added to the painter's depth (negative: drawn later)
};

// A region painted flat on the table plane (mat, felt, paper, water...).
struct FlatShape {
  std::vector<Vec2> polygon;
  cv::Scalar bgr;
};

struct StandLook {
  Stand stand;
  double thickness_in = 0.1;
  double elevation_in = 0.0;  // bottom above the mat: a stand crossing a bridge rests on its deck
  double border_in = 0.15;
  cv::Scalar side_bgr;
  cv::Scalar interior_bgr;
  bool front_stripe = false;
  double stripe_in = 0.1;
  struct Figure {
    std::vector<Vec2> footprint;  // convex, inside the base's interior
    double height_in = 0.5;       // top above the base top
    cv::Scalar bgr;
  };
  std::vector<Figure> figures;
};

// A Q-tip as a 3D segment: the axis from the plain end to the painted end.
struct QtipPose {
  cv::Point3d plain_end;    // outer end of the plain head (table inches, z = -height)
  cv::Point3d painted_end;  // outer end of the painted head (the tip)
};

struct ShellPose {
  cv::Point3d dot;  // the dot on the top face, z = -height of the top
  double angle_deg = 0.0;
  double tilt_deg = 0.0;  // roll while flying (0 at rest)
  // The dot from the top face's centre along the slab's own axes, inches: a dot pressed in by
  // hand is rarely centred (Scenario::shell_dot_offset_mm).
  cv::Point2d dot_offset_in{0.0, 0.0};
};

struct HandPose {
  // Arm as a chain of joints from outside the image edge to the palm, heights in table z.
  cv::Point3d shoulder, wrist, palm;
  cv::Scalar skin_bgr;
  cv::Scalar sleeve_bgr;
  double finger_spread = 0.3;
};

struct PhotoParams {
  double defocus_sigma_px = 0.0;  // at output size
  double motion_px = 0.0;
  double motion_angle_deg = 0.0;
  double noise_sigma = 2.0;
  double unevenness = 0.1;
  Vec2 bright_dir{1, 0};
  double vignetting = 0.2;
  double exposure = 1.0;
  double warmth = 0.0;  // colour cast of the room light (-: blue, +: yellow)
  int jpeg_quality = 90;
};

struct SceneLayout {
  CameraModel camera;
  Board board;
  bool markers = false;
  double grid_line_in = 0.08;
  cv::Scalar line_bgr;
  cv::Scalar mat_bgr;
  double mat_margin_in = 4.0;   // mat beyond the grid's outer border
  double table_margin_in = 12;  // table beyond the mat
  cv::Scalar table_bgr;
  cv::Scalar floor_bgr;
  std::vector<FlatShape> flat_art;    // terrain, papers, clutter: painted in order
  std::vector<Solid> terrain_solids;  // trees, houses, rocks, bridge rails, room clutter
  std::vector<StandLook> stands;
  // The projectile at rest (kind "qtip" or "shell").
  std::string projectile_kind = "qtip";
  QtipPose qtip;
  ShellPose shell;
  cv::Scalar paint_bgr;  // Q-tip painted head
  cv::Scalar shell_bgr;
  std::string resting_on;  // stand id under the projectile, empty on the mat
  std::optional<HandPose> hand;
  uint64_t texture_seed = 0;  // mat/table/floor grain
  cv::Point3d lamp;           // point light, table inches (z negative: above)
  double shadow_strength = 0.45;
  bool shadows_on_solids = false;  // the lamp's shadows fall on solids' faces too, not only the mat
  PhotoParams photo;
};

// Samples the whole layout for scene `index` of a scenario.
SceneLayout SampleLayout(const Scenario& scenario, const StandKindCatalog& kinds,
                         cv::Size image_size, SynthRandom& rng);

// Moves the resting shell's dot up to `max_offset_mm` from its top's centre, in a direction and
// by a distance drawn from `rng`; the slab stays where it lies.
void OffsetShellDot(double max_offset_mm, SynthRandom& rng, ShellPose& shell);

// A hand reaching toward `target` (table inches) from the nearest side of the table.
HandPose SampleHand(const SceneLayout& layout, Vec2 target, SynthRandom& rng);

// Q-tip dimensions (TABLE_KIT): ~75 mm long, stick 2.5 mm, heads ~5 x 12 mm.
constexpr double kQtipLengthIn = 75.0 / 25.4;
constexpr double kQtipStickDiaIn = 2.5 / 25.4;
constexpr double kQtipHeadDiaIn = 5.0 / 25.4;
constexpr double kQtipHeadLenIn = 12.0 / 25.4;
// Plasticine shell: ~12 mm square, ~5 mm thick, dark centre dot.
constexpr double kShellSizeIn = 12.0 / 25.4;
constexpr double kShellThickIn = 5.0 / 25.4;
constexpr double kShellDotDiaIn = 3.0 / 25.4;

// Solids of the projectile and the hand at a pose (shared by stills and sequences).
std::vector<Solid> QtipSolids(const QtipPose& pose, const cv::Scalar& paint_bgr);
std::vector<Solid> ShellSolids(const ShellPose& pose, const cv::Scalar& shell_bgr);
std::vector<Solid> HandSolids(const HandPose& hand);
std::vector<Solid> StandSolids(const StandLook& look);

}  // namespace referee
