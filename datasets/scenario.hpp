// A synthetic-data scenario: which board, terrain, armies and projectiles to lay out and how hard
// the camera makes it. Loaded from datasets/scenarios/*.json; every field has a default so a
// scenario file only states what differs. Ranges are [min, max] pairs sampled uniformly per
// scene.
#pragma once

#include <array>
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "engine/board.hpp"
#include "engine/grid.hpp"

namespace referee {

using Range = std::pair<double, double>;  // [min, max], sampled uniformly
using Rgb = std::array<int, 3>;           // sRGB 0..255

struct SideSpec {
  std::string name;  // "red", "blue" or any configured side name
  Rgb colour{192, 48, 42};
};

struct ScenarioDifficulty {
  Range tilt_deg{0.0, 15.0};  // camera off vertical; TABLE_KIT allows up to 25
  // Camera roll about its axis, relative to the board's long side running across the image (a
  // 180 degree flip is added at random). [-180, 180] is any yaw.
  Range yaw_deg{-180.0, 180.0};
  Range k1{-0.20, 0.02};               // radial distortion k1 (normalised image coords)
  Range k2{-0.02, 0.05};               // radial distortion k2
  Range tangential{-0.002, 0.002};     // p1, p2
  Range hfov_deg{55.0, 75.0};          // horizontal field of view of the lens
  Range fill{0.80, 0.95};              // fraction of the frame the board (with markers) spans
  Range defocus_px{0.0, 1.2};          // Gaussian sigma at 1080p, scaled with image width
  Range motion_blur_px{0.0, 2.0};      // motion blur length at 1080p
  Range noise_sigma{1.0, 4.0};         // sensor noise, 8-bit levels
  Range light_unevenness{0.05, 0.30};  // brightness drop across the table (fraction)
  Range vignetting{0.05, 0.35};        // brightness drop at the image corners (fraction)
  Range exposure{0.85, 1.10};          // global gain
  double hand_probability = 0.5;       // chance a scene also gets an after_hand frame
  double grid_hidden_fraction = 0.0;   // fraction of grid squares covered by opaque terrain art
  int jpeg_quality = 90;               // fixed so output is byte-identical per seed
  Range lamp_height_in{55.0, 90.0};    // the one lamp above the mat (a low lamp: long shadows)
  // The lamp's shadows also fall on base tops, figures, roofs and the shell, not only the mat.
  // Off by default so existing scenarios keep their bytes.
  bool shadows_on_solids = false;
};

struct Scenario {
  std::string name;
  std::filesystem::path file;  // where it was loaded from (for error messages)

  std::string ruleset = "napoleonic";  // shot rules for the expected verdict ("ancient")
  Grid grid;                           // cols, rows, square_size (inches)
  Range grid_line_mm{1.5, 3.0};        // width of the dark grid lines, including the border
  std::vector<Rgb> mat_colours{{74, 110, 58}, {176, 152, 108}, {128, 128, 122}, {110, 88, 62}};
  bool markers = true;              // ArUco 4x4_50 ids 0-3 outside the corners
  double marker_probability = 1.0;  // chance markers are present when `markers` is on

  // Terrain: counts of randomly chosen squares per type, plus explicitly placed squares.
  std::map<Terrain, int> terrain_counts;
  std::map<Square, Terrain> terrain_squares;

  std::vector<SideSpec> sides{{"red", {192, 48, 42}}, {"blue", {42, 75, 192}}};
  int stands_per_side = 6;
  std::vector<std::string> kinds{"line_infantry", "line_cavalry", "field_gun"};
  Range base_thickness_mm{2.0, 3.0};
  Range border_mm{3.0, 5.0};              // side-colour border on the base top
  double front_stripe_probability = 0.5;  // white stripe along the front edge (per scene)
  double figure_probability = 0.9;        // a stand carries figures
  Range figure_height_mm{8.0, 25.0};

  // Projectile: "qtip", "shell" or "mixed" (either, 50/50).
  std::string projectile = "qtip";
  Rgb qtip_paint{20, 20, 20};             // painted head colour
  Rgb shell_colour{235, 200, 40};         // plasticine colour
  double shell_dot_offset_mm = 0.0;       // the dot up to this far from the shell's centre
  double near_stand_probability = 0.7;    // impact point placed within ~2" of a stand
  double across_base_probability = 0.15;  // Q-tip lies across a base / shell lands on one

  ScenarioDifficulty difficulty;
};

// Throws InputError(file, field, what) on an unreadable file, bad JSON or a bad field.
Scenario LoadScenario(const std::filesystem::path& file);
// The same from JSON text (file is only used in error messages).
Scenario ParseScenario(const std::string& json_text, const std::filesystem::path& file);

}  // namespace referee
