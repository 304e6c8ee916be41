#include "ui/report/report_html.hpp"

#include <cstdio>
#include <sstream>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "engine/logged_json.hpp"
#include "ui/report/heat_map_svg.hpp"
#include "ui/report/html_text.hpp"
#include "ui/report/report_model.hpp"
#include "vision/frame_store.hpp"

namespace referee::report {
namespace {

const char* kCss = R"(
body{font-family:system-ui,-apple-system,"DejaVu Sans",sans-serif;margin:24px;color:#1d1d1d;background:#fafaf7}
h1{margin:0 0 4px}h2{border-bottom:2px solid #5d7f45;padding-bottom:4px;margin-top:32px}
table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid #ccc;padding:3px 8px;text-align:left}
th{background:#eef2e8}td.num{text-align:right}.side{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:4px}
.shot{border:1px solid #ccc;background:#fff;padding:8px 12px;margin:12px 0;border-radius:6px}
.shot figure{display:inline-block;margin:4px 8px 4px 0;vertical-align:top}.shot figcaption{font-size:12px;color:#555}
.shot img{max-width:100%;border:1px solid #999}.hitmark{color:#8a6d00;font-weight:bold}.missmark{color:#666}
.undone{color:#999;text-decoration:line-through}.problem{color:#a00}.small{font-size:12px;color:#555}
ol.events{margin:4px 0 12px;padding-left:28px}ol.events li{margin:1px 0}.seq{color:#888;font-size:12px}
)";

std::string Num(double v, int decimals = 2) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

// hh:mm:ss of an ISO 8601 time ("2026-11-28T10:14:29.579Z"); any other text as it is.
std::string ClockTime(const std::string& time_utc) {
  constexpr size_t kClockAt = 11, kClockLength = 8;
  return time_utc.size() >= kClockAt + kClockLength && time_utc[kClockAt - 1] == 'T'
             ? time_utc.substr(kClockAt, kClockLength)
             : time_utc;
}

std::string SideTag(const std::string& side) {
  return "<span class=\"side\" style=\"background:" + SideColorHex(side) + "\"></span>" +
         HtmlEscape(side);
}

// A stored frame as a data URI, scaled to max width; "" when missing or damaged.
std::string FrameUri(const FrameStore& store, const std::string& name, const ReportOptions& opt) {
  if (name.empty()) return "";
  const auto bytes = store.ReadVerified(name);
  if (!bytes) return "";
  const bool png = name.size() > 4 && name.substr(name.size() - 4) == ".png";
  cv::Mat img = cv::imdecode(*bytes, cv::IMREAD_COLOR);
  if (img.empty()) return "";
  if (img.cols <= opt.max_frame_width_px) return DataUri(png ? "image/png" : "image/jpeg", *bytes);
  cv::Mat small;
  const double f = static_cast<double>(opt.max_frame_width_px) / img.cols;
  cv::resize(img, small, {}, f, f, cv::INTER_AREA);
  std::vector<unsigned char> out;
  if (png)
    cv::imencode(".png", small, out);
  else
    cv::imencode(".jpg", small, out, {cv::IMWRITE_JPEG_QUALITY, opt.jpeg_quality});
  return DataUri(png ? "image/png" : "image/jpeg", out);
}

void Figure(std::ostream& o, const std::string& cls, const std::string& uri,
            const std::string& caption, const std::string& name) {
  o << "<figure>";
  if (uri.empty())
    o << "<div class=\"problem\">" << HtmlEscape(caption) << ": frame "
      << HtmlEscape(name.empty() ? "not recorded" : name + " missing or damaged") << "</div>";
  else
    o << "<img class=\"" << cls << "\" src=\"" << uri << "\" alt=\"" << HtmlEscape(caption)
      << "\">";
  o << "<figcaption>" << HtmlEscape(caption) << "</figcaption></figure>";
}

void VerdictTable(std::ostream& o, const nlohmann::json& v) {
  const std::vector<LoggedStandNear> near = LoggedStandsNear(v);
  if (near.empty()) return;
  o << "<table class=\"verdict\"><tr><th>stand</th><th>side</th><th>distance</th>"
       "<th>margin to 1\" circle</th><th>ruling</th></tr>";
  for (const LoggedStandNear& s : near) {
    const std::string ruling = s.destroyed       ? "destroyed"
                               : s.candidate     ? "casualty candidate"
                               : s.inside_circle ? "in circle"
                                                 : "outside";
    o << "<tr><td>" << HtmlEscape(s.id) << "</td><td>" << SideTag(s.side)
      << "</td><td class=\"num\">" << Num(s.distance_mm, 1) << " mm / " << Num(s.distance_in, 2)
      << "\"</td><td class=\"num\">" << (s.margin_in >= 0 ? "+" : "") << Num(s.margin_in, 2)
      << "\"</td><td>" << HtmlEscape(ruling) << "</td></tr>";
  }
  o << "</table>";
  if (const auto ex = v.find("explanation"); ex != v.end() && ex->is_array()) {
    o << "<ul class=\"small\">";
    for (const auto& line : *ex)
      if (line.is_string()) o << "<li>" << HtmlEscape(line.get<std::string>()) << "</li>";
    o << "</ul>";
  }
}

void Summary(std::ostream& o, const GameLog& log, const ReportModel& m) {
  const GameStart& g = m.state.start;
  o << "<header><h1>Game report" << (g.game_id.empty() ? "" : ": " + HtmlEscape(g.game_id))
    << "</h1><div class=\"small\">" << HtmlEscape(log.path.filename().string()) << " &middot; "
    << log.events.size() << " events";
  if (!log.events.empty())
    o << " &middot; " << HtmlEscape(log.events.front().time_utc) << " to "
      << HtmlEscape(log.events.back().time_utc);
  o << (g.ruleset.empty() ? "" : " &middot; " + HtmlEscape(g.ruleset)) << "</div></header>\n";
  o << "<section id=\"result\"><h2>Result</h2><p>";
  if (m.state.end)
    o << (m.state.end->winner.empty() ? "Draw" : SideTag(m.state.end->winner) + " wins")
      << (m.state.end->reason.empty() ? "" : " (" + HtmlEscape(m.state.end->reason) + ")");
  else
    o << "Game not finished (last turn " << m.state.turn << ")";
  o << "</p><table class=\"players\"><tr><th>player</th><th>side</th><th>army</th>"
       "<th>points scored</th></tr>";
  for (const auto& p : g.players) {
    const auto it = m.state.points_by_side.find(p.side);
    o << "<tr><td>" << HtmlEscape(p.name) << "</td><td>" << SideTag(p.side) << "</td><td>"
      << HtmlEscape(p.army) << "</td><td class=\"num\">"
      << Num(it == m.state.points_by_side.end() ? 0.0 : it->second, 1) << "</td></tr>";
  }
  o << "</table></section>\n";
  if (!log.problems.empty()) {
    o << "<section id=\"problems\"><h2>Damaged log lines</h2><p>Every complete event before "
         "and after these lines is included.</p><ul>";
    for (const auto& p : log.problems)
      o << "<li class=\"problem\">line " << p.line << ": " << HtmlEscape(p.what) << "</li>";
    o << "</ul></section>\n";
  }
}

void Accuracy(std::ostream& o, const ReportModel& m) {
  o << "<section id=\"accuracy\"><h2>Artillery accuracy</h2><table class=\"accuracy\"><tr>"
       "<th>player</th><th>side</th><th>shots</th><th>judged</th><th>hits</th><th>hit rate</th>"
       "</tr>";
  for (const auto& a : m.accuracy)
    o << "<tr class=\"player\"><td>" << HtmlEscape(a.player.empty() ? "(unnamed)" : a.player)
      << "</td><td>" << SideTag(a.side) << "</td><td class=\"num\">" << a.shots
      << "</td><td class=\"num\">" << a.judged << "</td><td class=\"num\">" << a.hits
      << "</td><td class=\"num\">" << (a.judged ? Num(100.0 * a.HitRate(), 0) + "%" : "-")
      << "</td></tr>";
  o << "</table><p class=\"small\">A hit is a judged shot whose 1\" circle took a stand, after "
       "human corrections; undone shots are not counted.</p></section>\n";
}

void Casualties(std::ostream& o, const ReportModel& m) {
  o << "<section id=\"casualties\"><h2>Casualties and points</h2>"
       "<table class=\"losses\"><tr><th>side</th><th>unit</th><th>stands lost</th>"
       "<th>points lost</th></tr>";
  std::map<std::string, std::pair<int, double>> totals;
  for (const auto& l : m.losses) {
    o << "<tr class=\"unit-loss\"><td>" << SideTag(l.side) << "</td><td>" << HtmlEscape(l.unit)
      << "</td><td class=\"num\">" << l.stands << "</td><td class=\"num\">" << Num(l.points, 1)
      << "</td></tr>";
    totals[l.side].first += l.stands;
    totals[l.side].second += l.points;
  }
  for (const auto& [side, t] : totals)
    o << "<tr class=\"side-total\"><th>" << SideTag(side) << "</th><th>total</th><th class=\"num\">"
      << t.first << "</th><th class=\"num\">" << Num(t.second, 1) << "</th></tr>";
  o << "</table></section>\n";
}

void Shots(std::ostream& o, const ReportModel& m, const FrameStore& store,
           const ReportOptions& opt) {
  o << "<section id=\"shots\"><h2>Shots (" << m.state.shots.size() << ")</h2>";
  for (const auto& shot : m.state.shots) {
    o << "<div class=\"shot\" id=\"shot-" << HtmlEscape(shot.shot_id) << "\"><h3>Shot "
      << HtmlEscape(shot.shot_id) << " &middot; " << SideTag(shot.side) << " "
      << HtmlEscape(shot.player) << " &middot; " << HtmlEscape(shot.weapon) << " "
      << HtmlEscape(shot.stand_id) << " &middot; turn " << shot.turn << " "
      << HtmlEscape(shot.phase) << "</h3><p>";
    if (shot.verdict_seq == 0 && !shot.corrected)
      o << "no verdict";
    else if (!shot.impact_in)
      o << "no projectile found";
    else
      o << "impact at (" << Num(shot.impact_in->x) << "\", " << Num(shot.impact_in->y) << "\"): "
        << (shot.Hit() ? "<span class=\"hitmark\">hit</span> "
                       : "<span class=\"missmark\">miss</span>");
    for (const auto& id : shot.hit_stand_ids) o << HtmlEscape(id) << " ";
    if (shot.corrected) o << " (corrected by the players)";
    for (const auto& c : shot.firer_choices) o << " &middot; firer chose " << HtmlEscape(c);
    o << "</p>";
    if (!shot.evidence.empty()) {
      Figure(o, "evidence", FrameUri(store, shot.evidence, {1600, opt.jpeg_quality}), "evidence",
             shot.evidence);
    } else {
      Figure(o, "frame before", FrameUri(store, shot.before_frame, opt), "before",
             shot.before_frame);
      Figure(o, "frame after", FrameUri(store, shot.after_frame, opt), "after", shot.after_frame);
    }
    VerdictTable(o, shot.verdict);
    o << "</div>\n";
  }
  o << "</section>\n";
}

void Timeline(std::ostream& o, const ReportModel& m) {
  o << "<section id=\"timeline\"><h2>Timeline</h2>";
  for (const auto& g : m.timeline) {
    o << "<div class=\"phase\"><h3>"
      << (g.turn == 0 ? std::string("Set-up")
                      : "Turn " + std::to_string(g.turn) + " &middot; " + SideTag(g.side) + " " +
                            HtmlEscape(g.phase))
      << "</h3><ol class=\"events\">";
    for (const auto& e : g.entries) {
      o << "<li class=\"event " << HtmlEscape(e.type) << (e.undone_by ? " undone" : "")
        << "\"><span class=\"seq\">#" << e.seq << " " << HtmlEscape(ClockTime(e.time_utc))
        << "</span> " << HtmlEscape(e.summary);
      if (e.undone_by > 0) o << " <span class=\"small\">(undone by #" << e.undone_by << ")</span>";
      o << "</li>";
    }
    o << "</ol></div>\n";
  }
  o << "</section>\n";
}

}  // namespace

std::string RenderReportHtml(const GameLog& log, const ReportOptions& options) {
  const ReportModel m = BuildReportModel(log);
  const FrameStore store = FrameStore::ForLog(log.path);
  std::ostringstream o;
  o << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Game report "
    << HtmlEscape(m.state.start.game_id) << "</title><style>" << kCss << "</style></head><body>\n";
  Summary(o, log, m);
  o << "<section id=\"heatmap\"><h2>Impacts on the table</h2>"
    << HeatMapSvg(m.board, m.state.shots, m.state.stands)
    << "<p class=\"small\">Dot: impact, in the firer's colour; ring: the 1\" circle, yellow "
       "when it took a stand; glow: where shells gathered. Board "
    << Num(m.board.width_in, 0) << "\" x " << Num(m.board.height_in, 0) << "\".</p></section>\n";
  Accuracy(o, m);
  Casualties(o, m);
  Shots(o, m, store, options);
  Timeline(o, m);
  o << "</body></html>\n";
  return o.str();
}

}  // namespace referee::report
