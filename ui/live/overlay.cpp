#include "ui/live/overlay.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

#include "engine/front_edge_facing.hpp"

namespace referee::live {

namespace {

ImVec2 ToIm(cv::Point2d p) { return {static_cast<float>(p.x), static_cast<float>(p.y)}; }

nlohmann::json Px(cv::Point2d p) { return {p.x, p.y}; }

// A table-space segment drawn as a polyline, so lens distortion bends it as the camera does.
void TableLine(ImDrawList* dl, const ViewMapping& map, Vec2 a, Vec2 b, ImU32 col, float thick,
               int samples) {
  std::vector<ImVec2> pts;
  for (int i = 0; i <= samples; ++i) {
    const double t = static_cast<double>(i) / samples;
    pts.push_back(ToIm(map.ScreenFromTable(a + t * (b - a))));
  }
  dl->AddPolyline(pts.data(), static_cast<int>(pts.size()), col, 0, thick);
}

void OutlinedText(ImDrawList* dl, float size, ImVec2 pos, ImU32 col, const std::string& text) {
  ImFont* font = ImGui::GetFont();
  const ImU32 shadow = IM_COL32(0, 0, 0, 220);
  for (int dx = -1; dx <= 1; ++dx) {
    for (int dy = -1; dy <= 1; ++dy) {
      if (dx || dy)
        dl->AddText(font, size,
                    {pos.x + static_cast<float>(dx) * 1.5f, pos.y + static_cast<float>(dy) * 1.5f},
                    shadow, text.c_str());
    }
  }
  dl->AddText(font, size, pos, col, text.c_str());
}

}  // namespace

ImU32 Colour(const std::array<int, 3>& rgb, int alpha) {
  return IM_COL32(rgb[0], rgb[1], rgb[2], alpha);
}

void DrawGridOverlay(ImDrawList* dl, const ViewMapping& map, const Grid& grid,
                     const OverlayStyle& style, nlohmann::json* notes) {
  const ImU32 col = Colour(style.colours.grid_rgb, 200);
  const double s = grid.square_size_in;
  for (int c = 0; c <= grid.cols; ++c) {
    TableLine(dl, map, {c * s, 0}, {c * s, grid.Height()}, col, style.line_px * 0.6f,
              grid.rows * 4);
  }
  for (int r = 0; r <= grid.rows; ++r) {
    TableLine(dl, map, {0, r * s}, {grid.Width(), r * s}, col, style.line_px * 0.6f, grid.cols * 4);
  }
  // Square names along the top and left edges, to call squares from across the table.
  for (int c = 0; c < grid.cols; ++c) {
    const auto p = map.ScreenFromTable({(c + 0.5) * s, -0.45 * s});
    OutlinedText(dl, style.font_px * 0.8f, ToIm(p), col,
                 std::string(1, static_cast<char>('A' + c)));
  }
  for (int r = 0; r < grid.rows; ++r) {
    const auto p = map.ScreenFromTable({-0.45 * s, (r + 0.4) * s});
    OutlinedText(dl, style.font_px * 0.8f, ToIm(p), col, std::to_string(r + 1));
  }
  if (notes) {
    nlohmann::json crossings = nlohmann::json::array();
    for (int c = 0; c <= grid.cols; ++c) {
      for (int r = 0; r <= grid.rows; ++r) {
        crossings.push_back(
            {{"col", c}, {"row", r}, {"px", Px(map.ScreenFromTable({c * s, r * s}))}});
      }
    }
    (*notes)["grid_rgb"] = style.colours.grid_rgb;
    (*notes)["grid_line_px"] = style.line_px * 0.6f;
    (*notes)["grid_crossings"] = crossings;
  }
}

void DrawCalibrationFixes(ImDrawList* dl, const ViewMapping& map,
                          const std::vector<IntersectionFix>& fixes, const OverlayStyle& style) {
  for (const auto& f : fixes) {
    const ImVec2 p = ToIm(map.ScreenFromImage(f.px));
    dl->AddCircle(p, style.line_px * 2.5f, IM_COL32(40, 255, 40, 255), 12, style.line_px * 0.7f);
  }
}

void DrawStandsOverlay(ImDrawList* dl, const ViewMapping& map,
                       const std::vector<ShownStand>& stands,
                       const std::map<std::string, std::array<int, 3>>& side_rgb,
                       const std::optional<VerdictView>& verdict, const std::string& selected,
                       const OverlayStyle& style, nlohmann::json* notes) {
  nlohmann::json noted = nlohmann::json::array();
  for (const auto& s : stands) {
    const auto& fp = s.stand.footprint;
    const auto it = side_rgb.find(s.stand.side);
    const std::array<int, 3> rgb =
        it != side_rgb.end() ? it->second : std::array<int, 3>{255, 255, 255};
    const CandidateView* cand = nullptr;
    if (verdict) {
      for (const auto& c : verdict->candidates) {
        if (c.stand_id == s.stand.id) cand = &c;
      }
    }
    std::array<ImVec2, 4> pts;
    const auto corners = fp.Corners();
    for (int i = 0; i < 4; ++i) pts[i] = ToIm(map.ScreenFromTable(corners[i]));
    const float thick = style.line_px * (s.stand.id == selected ? 2.0f : 1.0f);
    if (s.removed) {
      dl->AddPolyline(pts.data(), 4, IM_COL32(128, 128, 128, 200), ImDrawFlags_Closed, thick);
      continue;
    }
    if (cand && cand->hit) {
      dl->AddConvexPolyFilled(pts.data(), 4, Colour(style.colours.candidate_rgb, 90));
      dl->AddPolyline(pts.data(), 4, Colour(style.colours.candidate_rgb), ImDrawFlags_Closed,
                      thick * 1.6f);
    }
    // Black under the side colour keeps the outline visible on a mat of the same hue.
    dl->AddPolyline(pts.data(), 4, IM_COL32(0, 0, 0, 200), ImDrawFlags_Closed, thick + 2.0f);
    dl->AddPolyline(pts.data(), 4, Colour(rgb), ImDrawFlags_Closed, thick);
    // Other sizes the camera could not rule out: faint, for the players to check.
    for (const OtherOutline& other : s.stand.other_outlines) {
      std::array<ImVec2, 4> opts;
      const auto oc = other.footprint.Corners();
      for (int i = 0; i < 4; ++i) opts[i] = ToIm(map.ScreenFromTable(oc[i]));
      dl->AddPolyline(opts.data(), 4, Colour(rgb, 110), ImDrawFlags_Closed, style.line_px * 0.7f);
    }
    // Facing arrow from the centre out of the front edge (dashed look when facing is a guess).
    const Vec2 tip = fp.center + (fp.depth_in * 0.5 + 0.35) * fp.FacingDir();
    const ImVec2 a = ToIm(map.ScreenFromTable(fp.center));
    const ImVec2 b = ToIm(map.ScreenFromTable(tip));
    const ImU32 arrow =
        s.stand.facing_known ? IM_COL32(255, 255, 255, 255) : IM_COL32(255, 255, 255, 120);
    dl->AddLine(a, b, arrow, style.line_px * 0.8f);
    const Vec2 side = Rotate(fp.FacingDir(), DegToRad(90)) * 0.15;
    const Vec2 back = tip - 0.25 * fp.FacingDir();
    dl->AddTriangleFilled(b, ToIm(map.ScreenFromTable(back + side)),
                          ToIm(map.ScreenFromTable(back - 1.0 * side)), arrow);
    std::string label = s.unit;
    if (s.corrected) label += " *";
    if (s.partly_hidden) label += " (check: partly hidden)";
    if (s.faint_border) label += " (check: faint border)";
    if (!s.stand.other_outlines.empty()) label += " (check: size)";
    const auto lp = map.ScreenFromTable(fp.center + (fp.depth_in * 0.5 + 0.25) * fp.AxisY());
    OutlinedText(dl, style.font_px * 0.75f, ToIm(lp), Colour(rgb), label);
    if (cand) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.2f\"", cand->distance_in);
      const auto dp = map.ScreenFromTable(fp.center);
      OutlinedText(dl, style.font_px, {static_cast<float>(dp.x), static_cast<float>(dp.y)},
                   cand->hit ? Colour(style.colours.candidate_rgb) : IM_COL32(230, 230, 230, 255),
                   buf);
    }
    if (notes) {
      noted.push_back({{"id", s.stand.id},
                       {"side", s.stand.side},
                       {"kind", s.stand.kind},
                       {"kind_source", KindSourceName(s.kind_source)},
                       {"facing", FacingName(FacingOf(fp))},
                       {"facing_known", s.stand.facing_known},
                       {"center_px", Px(map.ScreenFromTable(fp.center))},
                       {"side_rgb", rgb},
                       {"candidate", cand != nullptr && cand->hit},
                       {"partly_hidden", s.partly_hidden},
                       {"faint_border", s.faint_border}});
    }
  }
  if (notes) (*notes)["stands"] = noted;
}

void DrawFiringArc(ImDrawList* dl, const ViewMapping& map, const Grid& grid, const Stand& shooter,
                   const OverlayStyle& style) {
  const auto from = grid.SquareOf(shooter.footprint.center);
  if (!from) return;
  const Facing facing = FacingOf(shooter.footprint);
  const ImU32 fill = Colour(style.colours.arc_rgb, 40);
  const ImU32 text = Colour(style.colours.arc_rgb, 230);
  const double s = grid.square_size_in;
  for (int c = 0; c < grid.cols; ++c) {
    for (int r = 0; r < grid.rows; ++r) {
      const Square sq{c, r};
      if (sq == *from || !InArc(*from, facing, sq)) continue;
      const ImVec2 q[4] = {ToIm(map.ScreenFromTable({c * s, r * s})),
                           ToIm(map.ScreenFromTable({(c + 1) * s, r * s})),
                           ToIm(map.ScreenFromTable({(c + 1) * s, (r + 1) * s})),
                           ToIm(map.ScreenFromTable({c * s, (r + 1) * s}))};
      dl->AddConvexPolyFilled(q, 4, fill);
      char buf[16];
      std::snprintf(buf, sizeof buf, "%g", RangeSquares(*from, sq));
      OutlinedText(dl, style.font_px * 0.7f, ToIm(map.ScreenFromTable({c * s + 0.3, r * s + 0.3})),
                   text, buf);
    }
  }
}

void DrawImpact(ImDrawList* dl, const ViewMapping& map, Vec2 impact_in, double radius_in,
                const OverlayStyle& style, nlohmann::json* notes) {
  const ImU32 col = Colour(style.colours.circle_rgb);
  constexpr int kSamples = 96;
  std::vector<ImVec2> pts;
  nlohmann::json noted = nlohmann::json::array();
  for (int i = 0; i < kSamples; ++i) {
    const double a = 2 * kPi * i / kSamples;
    const auto p = map.ScreenFromTable(impact_in + radius_in * Vec2{std::cos(a), std::sin(a)});
    pts.push_back(ToIm(p));
    if (i % 8 == 0) noted.push_back(Px(p));
  }
  dl->AddPolyline(pts.data(), kSamples, IM_COL32(0, 0, 0, 200), ImDrawFlags_Closed,
                  style.line_px + 2.0f);
  dl->AddPolyline(pts.data(), kSamples, col, ImDrawFlags_Closed, style.line_px);
  const auto c = map.ScreenFromTable(impact_in);
  const float k = style.line_px * 2.5f;
  const ImVec2 cc = ToIm(c);
  dl->AddLine({cc.x - k, cc.y}, {cc.x + k, cc.y}, col, style.line_px * 0.7f);
  dl->AddLine({cc.x, cc.y - k}, {cc.x, cc.y + k}, col, style.line_px * 0.7f);
  if (notes) {
    const auto e = map.ScreenFromTable(impact_in + Vec2{radius_in, 0});
    (*notes)["impact_px"] = Px(c);
    (*notes)["impact_in"] = {impact_in.x, impact_in.y};
    (*notes)["circle_radius_in"] = radius_in;
    (*notes)["circle_radius_px"] = std::hypot(e.x - c.x, e.y - c.y);
    (*notes)["circle_px"] = noted;
    (*notes)["circle_rgb"] = style.colours.circle_rgb;
    (*notes)["circle_line_px"] = style.line_px;
  }
}

std::string CheckLine(const CheckView& check) {
  // A check with no side is not a colour but what the camera cannot measure (the shot's height).
  if (check.side.empty()) return "check: " + check.reason;
  return "check: " + check.side +
         " colour in the circle that no found stand explains - look before accepting";
}

void DrawChecks(ImDrawList* dl, const ViewMapping& map, const std::vector<CheckView>& checks,
                const OverlayStyle& style, nlohmann::json* notes) {
  // A quarter inch: about a base border's width past the point, small beside the 1" circle.
  constexpr double kRingIn = 0.25;
  constexpr int kSamples = 32;
  const ImU32 col = Colour(style.colours.check_rgb);
  nlohmann::json noted = nlohmann::json::array();
  for (const auto& c : checks) {
    std::vector<ImVec2> pts;
    for (int i = 0; i < kSamples; ++i) {
      const double a = 2 * kPi * i / kSamples;
      pts.push_back(
          ToIm(map.ScreenFromTable(c.point_in + kRingIn * Vec2{std::cos(a), std::sin(a)})));
    }
    dl->AddPolyline(pts.data(), kSamples, IM_COL32(0, 0, 0, 200), ImDrawFlags_Closed,
                    style.line_px * 1.5f + 2.0f);
    dl->AddPolyline(pts.data(), kSamples, col, ImDrawFlags_Closed, style.line_px * 1.5f);
    const auto at = map.ScreenFromTable(c.point_in + Vec2{kRingIn, -kRingIn});
    OutlinedText(dl, style.font_px * 0.8f, ToIm(at), col,
                 "check: " + (c.side.empty() ? std::string("height") : c.side));
    noted.push_back({{"side", c.side},
                     {"point_in", {c.point_in.x, c.point_in.y}},
                     {"point_px", Px(map.ScreenFromTable(c.point_in))},
                     {"line", CheckLine(c)}});
  }
  if (notes) {
    (*notes)["checks"] = noted;
    (*notes)["check_rgb"] = style.colours.check_rgb;
  }
}

void DrawTurnOverlay(ImDrawList* dl, const ViewMapping& map, const std::vector<ShownStand>& stands,
                     const TurnMarks& marks, const OverlayStyle& style, nlohmann::json* notes) {
  auto centre_of = [&](const std::vector<std::string>& ids) -> std::optional<Vec2> {
    Vec2 sum{0, 0};
    int n = 0;
    for (const auto& s : stands) {
      if (std::ranges::find(ids, s.stand.id) != ids.end()) {
        sum = sum + s.stand.footprint.center;
        ++n;
      }
    }
    if (n == 0) return std::nullopt;
    return (1.0 / n) * sum;
  };
  const auto from = centre_of(marks.firer_stands);
  const auto to = centre_of(marks.target_stands);
  if (from && to) {
    const ImU32 col = Colour(style.colours.fire_rgb, 230);
    TableLine(dl, map, *from, *to, col, style.line_px * 1.5f, 16);
    const auto tip = map.ScreenFromTable(*to);
    dl->AddCircleFilled(ToIm(tip), style.line_px * 3, col);
    if (notes) (*notes)["fire_line_px"] = {Px(map.ScreenFromTable(*from)), Px(tip)};
  }
  nlohmann::json crosses = nlohmann::json::array();
  const ImU32 red = Colour(style.colours.remove_rgb, 255);
  for (const auto& s : stands) {
    if (std::ranges::find(marks.remove_stands, s.stand.id) == marks.remove_stands.end()) continue;
    const auto c = s.stand.footprint.Corners();
    TableLine(dl, map, c[0], c[2], red, style.line_px * 2, 4);
    TableLine(dl, map, c[1], c[3], red, style.line_px * 2, 4);
    crosses.push_back(
        {{"stand", s.stand.id}, {"center_px", Px(map.ScreenFromTable(s.stand.footprint.center))}});
  }
  if (notes) {
    (*notes)["remove_rgb"] = style.colours.remove_rgb;
    (*notes)["remove_crosses"] = crosses;
  }
}

}  // namespace referee::live
