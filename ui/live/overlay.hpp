// The overlay on the camera picture, drawn with ImGui draw lists in screen pixels mapped from
// table inches (ViewMapping). Each function may also note where it drew things (screen px) in a
// JSON object, which --screenshot-dir saves beside the PNGs so tests can check the pixels.
#pragma once

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <imgui.h>
#include <nlohmann/json_fwd.hpp>

#include "engine/grid.hpp"
#include "ui/live/live_session.hpp"
#include "ui/live/view_mapping.hpp"

namespace referee::live {

// Overlay colours: chosen to stand out against green/tan/grey mats and the side colours.
struct OverlayColours {
  std::array<int, 3> grid_rgb{0, 255, 255};       // cyan grid lines
  std::array<int, 3> circle_rgb{255, 0, 255};     // magenta hit circle
  std::array<int, 3> candidate_rgb{255, 200, 0};  // amber candidates
  std::array<int, 3> arc_rgb{255, 255, 255};      // white firing arc
  std::array<int, 3> remove_rgb{255, 40, 40};     // red cross: take this stand off
  std::array<int, 3> fire_rgb{255, 140, 0};       // orange line: firer to target
  std::array<int, 3> check_rgb{255, 0, 255};      // magenta ring: look here (unfound base)
};
ImU32 Colour(const std::array<int, 3>& rgb, int alpha = 255);

struct OverlayStyle {
  OverlayColours colours;
  float line_px = 3.0f;  // overlay line thickness at scale 1; scaled with the UI
  float font_px = 20.0f;
};

void DrawGridOverlay(ImDrawList* dl, const ViewMapping& map, const Grid& grid,
                     const OverlayStyle& style, nlohmann::json* notes);

// Crossings found by the calibration (green) and predicted but missing (red), for the wizard.
void DrawCalibrationFixes(ImDrawList* dl, const ViewMapping& map,
                          const std::vector<IntersectionFix>& fixes, const OverlayStyle& style);

// Every stand outlined in its side colour with unit label and facing arrow; candidates of the
// verdict highlighted with their distance; the selected one thicker.
void DrawStandsOverlay(ImDrawList* dl, const ViewMapping& map,
                       const std::vector<ShownStand>& stands,
                       const std::map<std::string, std::array<int, 3>>& side_rgb,
                       const std::optional<VerdictView>& verdict, const std::string& selected,
                       const OverlayStyle& style, nlohmann::json* notes);

// The +/-45 degree arc of `shooter` with the range in squares (engine RangeSquares) in each
// square of the arc.
void DrawFiringArc(ImDrawList* dl, const ViewMapping& map, const Grid& grid, const Stand& shooter,
                   const OverlayStyle& style);

// The turn flow on the table: a line from the firing unit's stands to its target's, and a
// red cross over every stand the players must take off (turn_flow table changes).
struct TurnMarks {
  std::vector<std::string> firer_stands;
  std::vector<std::string> target_stands;
  std::vector<std::string> remove_stands;
};
void DrawTurnOverlay(ImDrawList* dl, const ViewMapping& map, const std::vector<ShownStand>& stands,
                     const TurnMarks& marks, const OverlayStyle& style, nlohmann::json* notes);

// The impact point and its hit circle (radius_in around it on the mat, drawn through the
// camera so it is an ellipse when the camera looks obliquely).
void DrawImpact(ImDrawList* dl, const ViewMapping& map, Vec2 impact_in, double radius_in,
                const OverlayStyle& style, nlohmann::json* notes);

// The verdict's unfound-base checks: a ring where a side's colour no found stand explains lies
// (a base the camera may have missed), labelled so the players look before accepting.
void DrawChecks(ImDrawList* dl, const ViewMapping& map, const std::vector<CheckView>& checks,
                const OverlayStyle& style, nlohmann::json* notes);

// "check: <side> colour in the circle that no found stand explains - look before accepting".
std::string CheckLine(const CheckView& check);

}  // namespace referee::live
