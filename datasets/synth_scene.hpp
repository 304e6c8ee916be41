// The synthetic overhead-camera generator: lays out a table per TABLE_KIT (board, terrain,
// stands, a projectile at rest) and renders it through a real CameraModel (projective + lens
// distortion, 3D parallax for everything with height, shadows, lighting, blur, noise, JPEG),
// keeping the exact ground truth beside the images.
//
// Typical use (tests of calibration and vision):
//   const Scenario sc = LoadScenario(DatasetsDir() / "scenarios" / "napoleonic.json");
//   const SynthScene s = GenerateScene(sc, SynthOptions{.seed = 7}, 0);
//   // s.camera, s.board, s.stands, s.projectile are the truth; s.after is the BGR image.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "calibration/camera_model.hpp"
#include "datasets/scenario.hpp"
#include "engine/board.hpp"
#include "engine/geometry.hpp"
#include "engine/stand.hpp"

namespace referee {

struct SynthOptions {
  uint64_t seed = 1;  // every image and truth value is a function of (scenario, seed, index)
  cv::Size size{1920, 1080};    // output image size, pixels
  int supersample = 2;          // render at this factor then area-downsample (antialiasing)
  bool with_hand_frame = true;  // render after_hand when the scenario's hand_probability fires
};

// The projectile at rest, in table inches.
struct ProjectileTruth {
  std::string kind;        // "qtip" or "shell"
  Vec2 point;              // Q-tip: outer end of the painted head; shell: its centre dot
  double height_in = 0.0;  // height of `point` above the mat (larger when resting on a base)
  // Q-tip only: outer ends of the painted and the plain head (table inches, at their heights).
  Vec2 painted_end;
  Vec2 plain_end;
  double axis_height_in = 0.0;  // height of the stick's axis above the mat
  double angle_deg = 0.0;       // direction from the plain end to the painted end (x toward y)
  std::string resting_on;       // id of the stand it lies on/across, empty when on the mat
  // Shell only: side length (inches) and rotation.
  double size_in = 0.0;
};

// The engine's expected verdict for the projectile at rest.
struct StandMargin {
  std::string stand_id;
  // From the impact point to what the ruleset measures (the footprint, or the front edge for
  // Ancient chariots/elephants/catapults); 0 when inside.
  double distance_in = 0.0;
  double margin_in = 0.0;  // hit radius - distance_in (engine convention): > 0 inside the circle
};

struct ExpectedVerdict {
  std::string ruleset = "napoleonic";
  std::string shot_kind;  // engine ShotKind name: field | horse | howitzer | catapult
  std::string firer_side;
  double hit_radius_in = 1.0;        // "a 1\" radius circle ... centred on the tip"
  std::vector<StandMargin> margins;  // every stand, nearest first
  std::vector<std::string> hit_ids;  // stands inside the circle (margin >= 0)
  bool over_water = false;
  // Every |margin| > 2 mm (and, for touch-only equipment, the tip is > 2 mm from the touch
  // tolerance): a referee within 2 mm of the truth must agree with this verdict.
  bool decisive = true;
  std::string verdict_json;  // the engine's VerdictToJson(AdjudicateShot(...)) on the truth
};

struct SynthScene {
  int index = 0;
  uint64_t seed = 0;
  std::string scenario_name;
  CameraModel camera;
  Board board;
  std::vector<Stand> stands;
  std::vector<double>
      stand_height_in;  // base top above the mat per stand (the top the camera sees)
  std::optional<ProjectileTruth> projectile;
  ExpectedVerdict verdict;
  bool markers = false;
  // The one point light every shadow is cast from (table inches, z = -height) and how much its
  // shadows darken the mat (0..1).
  cv::Point3d lamp_in;
  double shadow_strength = 0.0;
  bool shadows_on_solids = false;  // shadows fall on base tops, figures and roofs too
  int jpeg_quality = 90;           // used by WriteScene for after.jpg / after_hand.jpg
  // Pixel position (distorted) of every grid-line intersection (col 0..cols, row 0..rows),
  // row-major: index = row * (cols + 1) + col.
  std::vector<cv::Point2d> grid_intersections_px;
  // BGR 8-bit images as the webcam delivers them. empty: terrain only; before: with stands;
  // after: with the projectile at rest; after_hand: `after` with a hand/arm in frame (may be
  // empty when the scenario's hand_probability did not fire).
  cv::Mat empty, before, after, after_hand;
};

SynthScene GenerateScene(const Scenario& scenario, const SynthOptions& options, int index);

// Writes empty.png, before.png, after.jpg, after_hand.jpg (if any) and truth.json into dir
// (created if missing). Byte-identical for identical scenes.
// lossless=false writes every image as JPEG (empty.jpg, before.jpg) for small samples.
void WriteScene(const SynthScene& scene, const std::filesystem::path& dir, bool lossless = true);

// truth.json text for a scene (what WriteScene writes).
std::string TruthJson(const SynthScene& scene);

}  // namespace referee
