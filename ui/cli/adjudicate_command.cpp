// `referee adjudicate --calibration CAL.yml --board BOARD --before B.jpg --after A.jpg
//  [--ruleset napoleonic|ancient] [--shot field|horse|howitzer|catapult] --out OUT.json
//  [--evidence OUT.png]`: one shot from two camera frames. Finds the stands in `before` and
// the projectile in the change to `after`, and asks the engine for the ruling. Anything it
// cannot explain (no projectile, a hand, mismatched inputs) is written as rejected with the
// reason, never guessed.
#include <boost/program_options.hpp>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>

#include "calibration/calibration_file.hpp"
#include "engine/board_file.hpp"
#include "engine/input_error.hpp"
#include "engine/kind_resolution.hpp"
#include "engine/scene.hpp"
#include "engine/shot_adjudication.hpp"
#include "engine/stand_kind_catalog_loader.hpp"
#include "engine/verdict.hpp"
#include "ui/cli/command_line.hpp"
#include "ui/cli/commands.hpp"
#include "vision/shot_analysis.hpp"
#include "vision/shot_evidence.hpp"

namespace referee::cli {

namespace {

namespace po = boost::program_options;

struct AdjudicateOptions {
  std::string calibration, board, before, after, out, evidence;
  std::string ruleset = "napoleonic";
  std::string shot;   // empty: from the projectile (qtip -> field, shell -> howitzer/catapult)
  std::string firer;  // side of the firing gun, optional
  // Height of the figures' tops above their base, mm: where a Q-tip lying across a base rests.
  // Unset: the board file's `figure_height_mm` (default 20).
  double figure_height_mm = ProjectileOptions{}.figure_height_mm;

  void Check() const {
    for (const auto& [value, name] : {std::pair{calibration, "--calibration"},
                                      {board, "--board"},
                                      {before, "--before"},
                                      {after, "--after"},
                                      {out, "--out"}}) {
      if (value.empty()) throw InputError("command line", name, "missing");
    }
    if (ruleset != "napoleonic" && ruleset != "ancient") {
      throw InputError("command line", "--ruleset",
                       "unknown ruleset '" + ruleset + "' (napoleonic, ancient)");
    }
    if (!shot.empty() && !ParseShotKind(shot)) {
      throw InputError("command line", "--shot", "expected field, horse, howitzer or catapult");
    }
    if (!(figure_height_mm >= 0.0 && figure_height_mm <= 100.0)) {
      throw InputError("command line", "--figure-height-mm", "expected 0 to 100 (mm)");
    }
  }
};

nlohmann::json Pt(Vec2 p) { return nlohmann::json::array({p.x, p.y}); }

nlohmann::json StandJson(const DetectedStand& d) {
  const Stand& s = d.stand;
  nlohmann::json corners = nlohmann::json::array();
  for (const Vec2& c : s.footprint.Corners()) corners.push_back(Pt(c));
  nlohmann::json j = {{"id", s.id},
                      {"side", s.side},
                      {"kind", s.kind},
                      {"center", Pt(s.footprint.center)},
                      {"size", nlohmann::json::array({s.footprint.width_in, s.footprint.depth_in})},
                      {"angle_deg", s.footprint.angle_deg},
                      {"corners", corners},
                      {"facing_known", s.facing_known},
                      {"partly_hidden", d.partly_hidden},
                      {"completed_under_terrain", d.completed_under_terrain}};
  j["square"] = d.square ? nlohmann::json::array({d.square->col, d.square->row}) : nlohmann::json();
  // Other base sizes the camera could not rule out (the verdict asks when they decide a hit).
  j["size_uncertain"] = !s.other_outlines.empty();
  nlohmann::json others = nlohmann::json::array();
  for (const OtherOutline& o : s.other_outlines) {
    nlohmann::json oc = nlohmann::json::array();
    for (const Vec2& c : o.footprint.Corners()) oc.push_back(Pt(c));
    others.push_back({{"kind", o.kind},
                      {"center", Pt(o.footprint.center)},
                      {"size", nlohmann::json::array({o.footprint.width_in, o.footprint.depth_in})},
                      {"angle_deg", o.footprint.angle_deg},
                      {"corners", oc}});
  }
  j["other_outlines"] = others;
  return j;
}

int Write(const AdjudicateOptions& opt, const nlohmann::json& j) {
  std::ofstream f(opt.out);
  if (!f) throw InputError(opt.out, "", "cannot write the output file");
  f << j.dump(2) << "\n";
  if (j.value("rejected", false)) {
    std::cerr << "referee adjudicate: rejected: " << j.value("reason", std::string()) << "\n";
    return 1;
  }
  return 0;
}

nlohmann::json Rejected(const std::string& reason) {
  return {{"rejected", true},
          {"reason", reason},
          {"stands", nlohmann::json::array()},
          {"projectile", nullptr},
          {"candidates", nlohmann::json::array()},
          {"check", nlohmann::json::array()},
          {"verdict", nullptr}};
}

}  // namespace

int RunAdjudicate(const std::vector<std::string>& args) {
  AdjudicateOptions opt;
  po::options_description desc(
      "usage: referee adjudicate --calibration CAL.yml --board BOARD --before B.jpg --after A.jpg "
      "[--ruleset napoleonic|ancient] [--shot field|horse|howitzer|catapult] --out OUT.json "
      "[--evidence OUT.png]");
  desc.add_options()("help,h", "show this help")("calibration", po::value(&opt.calibration),
                                                 "CAL.yml from `referee calibrate`")(
      "board", po::value(&opt.board), "BOARD.json (grid, terrain, side colours)")(
      "before", po::value(&opt.before), "camera frame before the shot")(
      "after", po::value(&opt.after), "camera frame with the projectile at rest")(
      "ruleset", po::value(&opt.ruleset), "napoleonic (default) | ancient")(
      "shot", po::value(&opt.shot),
      "field | horse | howitzer | catapult (default: from the projectile)")(
      "firer", po::value(&opt.firer), "side of the firing gun (friendly-fire and screening rules)")(
      "figure-height-mm", po::value(&opt.figure_height_mm),
      "height of your figures above their base, mm (default: the board file's figure_height_mm, "
      "else 20): a Q-tip lying across a base rests on them")(
      "out", po::value(&opt.out), "OUT.json")("evidence", po::value(&opt.evidence),
                                              "OUT.png: the impact region with the hit circle");
  po::variables_map vm;
  if (!ParseCommandLine(args, desc, vm)) return 0;  // --help was printed
  opt.Check();

  const TableCalibration cal = LoadCalibration(opt.calibration);
  const BoardFile board = LoadBoardFile(opt.board);
  const StandKindCatalog catalog = LoadStandKinds();
  const Grid& g = board.board.grid;
  if (g.cols != cal.board.cols || g.rows != cal.board.rows ||
      std::abs(g.square_size_in - cal.board.square_size_in) > 1e-6) {
    return Write(
        opt, Rejected("calibration is for another board (" + std::to_string(cal.board.cols) + "x" +
                      std::to_string(cal.board.rows) + " squares, board file has " +
                      std::to_string(g.cols) + "x" + std::to_string(g.rows) + ")"));
  }
  const cv::Mat before = cv::imread(opt.before, cv::IMREAD_COLOR);
  const cv::Mat after = cv::imread(opt.after, cv::IMREAD_COLOR);
  if (before.empty()) return Write(opt, Rejected(opt.before + ": unreadable image"));
  if (after.empty()) return Write(opt, Rejected(opt.after + ": unreadable image"));
  for (const auto& [img, name] : {std::pair{&before, opt.before}, {&after, opt.after}}) {
    if (img->size() != cal.camera.image_size) {
      return Write(opt, Rejected(name + ": image is " + std::to_string(img->cols) + "x" +
                                 std::to_string(img->rows) + " but the calibration is for " +
                                 std::to_string(cal.camera.image_size.width) + "x" +
                                 std::to_string(cal.camera.image_size.height)));
    }
  }

  SideColorModel colors;
  for (const auto& [name, rgb] : board.side_colors_srgb) {
    colors.AddSideFromSrgb(name, cv::Vec3b(static_cast<uchar>(rgb[0]), static_cast<uchar>(rgb[1]),
                                           static_cast<uchar>(rgb[2])));
  }
  StandDetectorOptions stand_opt;
  stand_opt.kind_preference = KindPreference(opt.ruleset);
  ProjectileOptions proj_opt;
  ApplyKitHeights(board, stand_opt, proj_opt);
  if (vm.count("figure-height-mm")) proj_opt.figure_height_mm = opt.figure_height_mm;
  if (!opt.shot.empty()) proj_opt.expect = IsQtipShot(*ParseShotKind(opt.shot)) ? "qtip" : "shell";
  const TopView view(cal);
  ShotAnalysis a =
      AnalyseShot(view, before, after, colors, catalog, &board.board, stand_opt, proj_opt);
  // Kinds one base size cannot tell apart, read as the ruleset's unit organisations.
  const KindResolution kinds = ResolveKindsByOrganisation(g, StandsOf(a.stands), catalog,
                                                          opt.ruleset, stand_opt.kind_preference);
  nlohmann::json j;
  j["stands"] = nlohmann::json::array();
  for (size_t i = 0; i < a.stands.stands.size(); ++i) {
    a.stands.stands[i].stand.kind = kinds.stands[i].kind;
    j["stands"].push_back(StandJson(a.stands.stands[i]));
    j["stands"].back()["kind_source"] = KindSourceName(kinds.sources[i]);
  }
  j["candidates"] = nlohmann::json::array();
  j["check"] = nlohmann::json::array();
  j["verdict"] = nullptr;
  if (!a.projectile) {
    j["projectile"] = nullptr;
    j["rejected"] = true;
    j["reason"] = a.refusal;
    return Write(opt, j);
  }
  const ProjectileObservation& p = *a.projectile;
  j["projectile"] = {{"kind", p.kind},
                     {"point", Pt(p.point)},
                     {"height_in", p.height_in},
                     {"resting_on", p.resting_on}};
  // Small changes set aside beside the projectile (noise, a shadow), said so the user can look.
  if (!p.note.empty()) j["projectile"]["note"] = p.note;
  Shot shot;
  shot.kind = !opt.shot.empty()          ? *ParseShotKind(opt.shot)
              : p.kind == "qtip"         ? ShotKind::kField
              : opt.ruleset == "ancient" ? ShotKind::kCatapult
                                         : ShotKind::kHowitzer;
  shot.point = p.point;
  shot.firer_side = opt.firer;
  const Verdict v =
      AdjudicateShot(board.board, StandsOf(a.stands), shot, catalog, LoadShotOptions(opt.ruleset));
  j["verdict"] = VerdictToJson(v);
  j["candidates"] = v.candidates;
  // The ruling stands, but a base the stand search missed may lie under the circle: say where
  // to look rather than call a miss with a confidence nobody has.
  a.unfound = FindUnfoundBases(view, a.stands, v.point, v.hit_radius_in, &board.board);
  for (const UnfoundBaseCheck& c : a.unfound) {
    j["check"].push_back({{"reason", c.reason},
                          {"side", c.side},
                          {"point", Pt(c.point)},
                          {"area_mm2", c.area_mm2},
                          {"length_mm", c.length_mm}});
  }
  j["rejected"] = false;
  j["reason"] = "";
  if (!opt.evidence.empty()) {
    const cv::Mat ev = DrawShotEvidence(view, a, v);
    if (!cv::imwrite(opt.evidence, ev))
      throw InputError(opt.evidence, "", "cannot write the evidence image");
  }
  std::cout << VerdictToText(v);
  for (const UnfoundBaseCheck& c : a.unfound) {
    char at[64];
    std::snprintf(at, sizeof at, "(%.2f\", %.2f\")", c.point.x, c.point.y);
    std::cout << "CHECK: " << c.reason << " at " << at
              << ": look there before accepting the ruling\n";
  }
  return Write(opt, j);
}

}  // namespace referee::cli
