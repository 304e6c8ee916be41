#include "ui/report/heat_map_svg.hpp"

#include <cstdio>
#include <functional>
#include <sstream>

#include "ui/report/html_text.hpp"

namespace referee::report {

std::string SideColorHex(const std::string& side) {
  if (side == "red") return "#c0302a";   // TABLE_KIT sRGB 192,48,42
  if (side == "blue") return "#2a4bc0";  // TABLE_KIT sRGB 42,75,192
  static const char* kPalette[] = {"#7b3fa0", "#1f8a70", "#b8860b", "#444444"};
  return kPalette[std::hash<std::string>{}(side) % 4];
}

std::string HeatMapSvg(const BoardExtent& board, const std::vector<ShotRecord>& shots,
                       const std::map<std::string, SnapshotStand>& stands, double px_per_in) {
  const double w = board.width_in, h = board.height_in;
  std::ostringstream s;
  s.precision(4);
  s << "<svg class=\"heatmap\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" << w * px_per_in
    << "\" height=\"" << h * px_per_in << "\" viewBox=\"0 0 " << w << " " << h << "\">\n"
    << "<defs><radialGradient id=\"glow\"><stop offset=\"0\" stop-color=\"#ff8c00\" "
       "stop-opacity=\"0.75\"/><stop offset=\"1\" stop-color=\"#ff8c00\" stop-opacity=\"0\"/>"
       "</radialGradient></defs>\n"
    << "<rect x=\"0\" y=\"0\" width=\"" << w << "\" height=\"" << h << "\" fill=\"#5d7f45\"/>\n";
  for (double x = 0; x <= w + 1e-9; x += board.square_in)
    s << "<line x1=\"" << x << "\" y1=\"0\" x2=\"" << x << "\" y2=\"" << h
      << "\" stroke=\"#222\" stroke-width=\"0.08\"/>\n";
  for (double y = 0; y <= h + 1e-9; y += board.square_in)
    s << "<line x1=\"0\" y1=\"" << y << "\" x2=\"" << w << "\" y2=\"" << y
      << "\" stroke=\"#222\" stroke-width=\"0.08\"/>\n";
  for (const auto& [id, st] : stands) {
    const auto& f = st.footprint;
    s << "<rect class=\"stand\" x=\"" << f.center.x - f.width_in / 2 << "\" y=\""
      << f.center.y - f.depth_in / 2 << "\" width=\"" << f.width_in << "\" height=\"" << f.depth_in
      << "\" transform=\"rotate(" << f.angle_deg << " " << f.center.x << " " << f.center.y
      << ")\" fill=\"" << SideColorHex(st.side) << "\" fill-opacity=\"0.45\"><title>"
      << HtmlEscape(id) << "</title></rect>\n";
  }
  // Glows first, so every impact mark stays visible on top.
  for (const auto& shot : shots)
    if (shot.impact_in)
      s << "<circle class=\"glow\" cx=\"" << shot.impact_in->x << "\" cy=\"" << shot.impact_in->y
        << "\" r=\"3\" fill=\"url(#glow)\"/>\n";
  for (const auto& shot : shots) {
    if (!shot.impact_in) continue;
    const Vec2 p = *shot.impact_in;
    s << "<g class=\"impact " << (shot.Hit() ? "hit" : "miss") << "\"><title>"
      << HtmlEscape(shot.shot_id + " (" + shot.side + ", " + (shot.Hit() ? "hit" : "miss") + ")")
      << "</title><circle cx=\"" << p.x << "\" cy=\"" << p.y << "\" r=\"1\" fill=\"none\" stroke=\""
      << (shot.Hit() ? "#ffd400" : "#f4f4f4") << "\" stroke-width=\"" << (shot.Hit() ? 0.22 : 0.1)
      << "\"/><circle cx=\"" << p.x << "\" cy=\"" << p.y << "\" r=\"0.35\" fill=\""
      << SideColorHex(shot.side) << "\" stroke=\"#000\" stroke-width=\"0.05\"/></g>\n";
  }
  s << "</svg>\n";
  return s.str();
}

}  // namespace referee::report
