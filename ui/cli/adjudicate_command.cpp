// `referee adjudicate --calibration CAL.yml --board BOARD --before B.jpg --after A.jpg
//  [--ruleset napoleonic|ancient] [--shot field|horse|howitzer|catapult] --out OUT.json
//  [--evidence OUT.png] [--empty E.jpg] [--stand-facing ID=N|E|S|W ...]
//  [--stand-kind ID=KIND ...]`: one shot from two camera frames. Finds the stands in `before`
// (dropping any where nothing changed since `--empty`, the table before deployment) and the
// projectile in the change to `after`, and asks the engine for the ruling. Anything it
// cannot explain (no projectile, a hand, mismatched inputs) is written as rejected with the
// reason, never guessed.
#include <algorithm>
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
#include "engine/front_edge_facing.hpp"
#include "engine/input_error.hpp"
#include "engine/kind_resolution.hpp"
#include "engine/scene.hpp"
#include "engine/shot_adjudication.hpp"
#include "engine/stand_kind_catalog_loader.hpp"
#include "engine/verdict.hpp"
#include "ui/cli/command_line.hpp"
#include "ui/cli/commands.hpp"
#include "vision/close_call_check.hpp"
#include "vision/image_file.hpp"
#include "vision/rest_height_check.hpp"
#include "vision/shot_analysis.hpp"
#include "vision/shot_evidence.hpp"

namespace referee::cli {

namespace {

namespace po = boost::program_options;

struct AdjudicateOptions {
  std::string calibration, board, before, after, out, evidence;
  std::string empty;  // optional: the table before the armies were deployed
  std::string ruleset = "napoleonic";
  std::string shot;   // empty: from the projectile (qtip -> field, shell -> howitzer/catapult)
  std::string firer;  // side of the firing gun, optional
  // Height of the figures' tops above their base, mm: where a Q-tip lying across a base rests.
  // Unset: the board file's `figure_height_mm` (default 20).
  double figure_height_mm = ProjectileOptions{}.figure_height_mm;
  // The players' answers to what the camera could not tell, "ID=VALUE" each (ids as a run
  // without them reports): CONFIRM FACING (--stand-facing blue-7=N) and CONFIRM SIZE or a kind
  // of one base size (--stand-kind blue-3=line_cavalry).
  std::vector<std::string> stand_facing, stand_kind;

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
    for (const auto& f : stand_facing) {
      const auto eq = f.find('=');
      if (eq == std::string::npos || eq == 0 || !ParseFacing(f.substr(eq + 1)))
        throw InputError("command line", "--stand-facing",
                         "expected ID=N|NE|E|SE|S|SW|W|NW, got '" + f + "'");
    }
    for (const auto& k : stand_kind) {
      const auto eq = k.find('=');
      if (eq == std::string::npos || eq == 0 || eq + 1 == k.size())
        throw InputError("command line", "--stand-kind", "expected ID=KIND, got '" + k + "'");
    }
  }
};

std::string Joined(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : ", ") + s;
  return out;
}

DetectedStand& StandNamed(std::vector<DetectedStand>& stands, const std::string& id,
                          const char* option) {
  for (auto& d : stands) {
    if (d.stand.id == id) return d;
  }
  std::vector<std::string> ids;
  ids.reserve(stands.size());
  for (const auto& d : stands) ids.push_back(d.stand.id);
  throw InputError("command line", option,
                   "no stand '" + id + "' in the before frame (found: " + Joined(ids) + ")");
}

// The players' answers applied to the stands found: a kind of the base's size or of a size the
// camera could not rule out (the base takes that outline), then a facing its base may present.
// Returns the ids whose facing the players gave.
std::vector<std::string> ApplyPlayersAnswers(const AdjudicateOptions& opt,
                                             std::vector<DetectedStand>& stands,
                                             std::vector<KindSource>& sources,
                                             const StandKindCatalog& catalog) {
  for (const auto& k : opt.stand_kind) {
    const auto eq = k.find('=');
    const std::string id = k.substr(0, eq), kind = k.substr(eq + 1);
    DetectedStand& d = StandNamed(stands, id, "--stand-kind");
    if (!catalog.Find(kind))
      throw InputError("command line", "--stand-kind", "unknown stand kind '" + kind + "'");
    if (!SameBase(catalog, kind, d.stand.kind) && !AdoptOutlineOf(d.stand, kind, catalog)) {
      std::vector<std::string> sizes{d.stand.kind};
      for (const auto& o : d.stand.other_outlines) sizes.push_back(o.kind);
      std::string why = id;
      why += " cannot be a ";
      why += kind;
      why += ": its base is the size of ";
      why += Joined(sizes);
      throw InputError("command line", "--stand-kind", why);
    }
    d.stand.kind = kind;
    sources[static_cast<size_t>(&d - stands.data())] = KindSource::kUser;
  }
  std::vector<std::string> told;
  for (const auto& f : opt.stand_facing) {
    const auto eq = f.find('=');
    const std::string id = f.substr(0, eq);
    DetectedStand& d = StandNamed(stands, id, "--stand-facing");
    const StandKind* kind = catalog.Find(d.stand.kind);
    const std::optional<Stand> turned = TurnedToFace(d.stand, kind, *ParseFacing(f.substr(eq + 1)));
    if (!turned) {
      std::vector<std::string> may;
      for (Facing m : FacingsItMayPresent(d.stand, kind)) may.push_back(FacingName(m));
      throw InputError(
          "command line", "--stand-facing",
          id + " cannot face " + f.substr(eq + 1) + ": its base may face " + Joined(may));
    }
    d.stand = *turned;
    told.push_back(id);
  }
  return told;
}

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
                      {"completed_under_terrain", d.completed_under_terrain},
                      {"faint_border", d.faint_border}};
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
      "[--evidence OUT.png] [--empty E.jpg]");
  desc.add_options()("help,h", "show this help")("calibration", po::value(&opt.calibration),
                                                 "CAL.yml from `referee calibrate`")(
      "board", po::value(&opt.board), "BOARD.json (grid, terrain, side colours)")(
      "before", po::value(&opt.before), "camera frame before the shot")(
      "after", po::value(&opt.after), "camera frame with the projectile at rest")(
      "empty", po::value(&opt.empty),
      "camera frame of the table with its terrain and no stands, taken before the armies were "
      "deployed: a base found where nothing changed since (paper, a roof) is dropped")(
      "ruleset", po::value(&opt.ruleset), "napoleonic (default) | ancient")(
      "shot", po::value(&opt.shot),
      "field | horse | howitzer | catapult (default: from the projectile)")(
      "firer", po::value(&opt.firer), "side of the firing gun (friendly-fire and screening rules)")(
      "figure-height-mm", po::value(&opt.figure_height_mm),
      "height of your figures above their base, mm (default: the board file's figure_height_mm, "
      "else 20): a Q-tip lying across a base rests on them")(
      "out", po::value(&opt.out), "OUT.json")("evidence", po::value(&opt.evidence),
                                              "OUT.png: the impact region with the hit circle")(
      "stand-facing", po::value(&opt.stand_facing)->composing(),
      "ID=N|E|S|W: the players' answer to CONFIRM FACING (repeatable)")(
      "stand-kind", po::value(&opt.stand_kind)->composing(),
      "ID=KIND: what a base is, the players' answer to CONFIRM SIZE (repeatable)");
  po::variables_map vm;
  if (!ParseCommandLine(args, desc, vm)) return 0;  // --help was printed
  opt.Check();

  const TableCalibration cal = LoadCalibration(opt.calibration);
  const BoardFile board = LoadBoardFile(opt.board);
  if (const std::string note = IgnoredKeysNote(board, opt.board); !note.empty())
    std::cerr << "referee adjudicate: " << note << "\n";
  const StandKindCatalog catalog = LoadStandKinds();
  const Grid& g = board.board.grid;
  if (g.cols != cal.board.cols || g.rows != cal.board.rows ||
      std::abs(g.square_size_in - cal.board.square_size_in) > 1e-6) {
    return Write(
        opt, Rejected("calibration is for another board (" + std::to_string(cal.board.cols) + "x" +
                      std::to_string(cal.board.rows) + " squares, board file has " +
                      std::to_string(g.cols) + "x" + std::to_string(g.rows) + ")"));
  }
  // "unreadable image" names what is wrong after it (a file cut short decodes with grey rows,
  // which were ruled a hand over the table).
  const ImageFile before_file = ReadImageFile(opt.before);
  const ImageFile after_file = ReadImageFile(opt.after);
  const ImageFile empty_file = opt.empty.empty() ? ImageFile{} : ReadImageFile(opt.empty);
  for (const auto& [file, name] :
       {std::pair{&before_file, opt.before}, {&after_file, opt.after}, {&empty_file, opt.empty}}) {
    if (!file->problem.empty()) {
      return Write(opt, Rejected(name + ": unreadable image: " + file->problem));
    }
  }
  const cv::Mat& before = before_file.image;
  const cv::Mat& after = after_file.image;
  const cv::Mat& empty = empty_file.image;
  for (const auto& [img, name] :
       {std::pair{&before, opt.before}, {&after, opt.after}, {&empty, opt.empty}}) {
    if (img == &empty && opt.empty.empty()) continue;
    if (img->size() != cal.camera.image_size) {
      return Write(opt, Rejected(name + ": image is " + std::to_string(img->cols) + "x" +
                                 std::to_string(img->rows) + " but the calibration is for " +
                                 std::to_string(cal.camera.image_size.width) + "x" +
                                 std::to_string(cal.camera.image_size.height)));
    }
    if (const std::string blank = ImageBlank(*img); !blank.empty()) {
      return Write(opt, Rejected(std::string(name).append(": ").append(blank)));
    }
  }

  SideColorModel colors;
  colors.AddSidesFromSrgb(board.side_colors_srgb);
  StandDetectorOptions stand_opt;
  stand_opt.kind_preference = KindPreference(opt.ruleset);
  ProjectileOptions proj_opt;
  ApplyBoardKit(board, stand_opt, proj_opt);
  if (vm.count("figure-height-mm")) proj_opt.figure_height_mm = opt.figure_height_mm;
  if (!opt.shot.empty()) proj_opt.expect = IsQtipShot(*ParseShotKind(opt.shot)) ? "qtip" : "shell";
  const TopView view(cal);
  ShotAnalysis a =
      AnalyseShot(view, before, after, colors, catalog, &board.board, stand_opt, proj_opt, empty);
  // Kinds one base size cannot tell apart, read as the ruleset's unit organisations.
  const KindResolution kinds = ResolveKindsByOrganisation(g, StandsOf(a.stands), catalog,
                                                          opt.ruleset, stand_opt.kind_preference);
  std::vector<KindSource> sources = kinds.sources;
  for (size_t i = 0; i < a.stands.stands.size(); ++i)
    a.stands.stands[i].stand.kind = kinds.stands[i].kind;
  const std::vector<std::string> facing_told =
      ApplyPlayersAnswers(opt, a.stands.stands, sources, catalog);
  nlohmann::json j;
  j["stands"] = nlohmann::json::array();
  for (size_t i = 0; i < a.stands.stands.size(); ++i) {
    j["stands"].push_back(StandJson(a.stands.stands[i]));
    j["stands"].back()["kind_source"] = KindSourceName(sources[i]);
    const bool told =
        std::ranges::find(facing_told, a.stands.stands[i].stand.id) != facing_told.end();
    j["stands"].back()["facing_source"] = told                                    ? "players"
                                          : a.stands.stands[i].stand.facing_known ? "front stripe"
                                                                                  : "unseen";
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
  // A shell placed at its square's centre, its dot unseen, is a looser fix than one on its dot.
  if (p.kind == "shell") j["projectile"]["dot_seen"] = p.dot_seen;
  Shot shot;
  shot.kind = !opt.shot.empty()          ? *ParseShotKind(opt.shot)
              : p.kind == "qtip"         ? ShotKind::kField
              : opt.ruleset == "ancient" ? ShotKind::kCatapult
                                         : ShotKind::kHowitzer;
  shot.point = p.point;
  shot.firer_side = opt.firer;
  const std::vector<Stand> stands = StandsOf(a.stands);
  const ShotOptions rules = LoadShotOptions(opt.ruleset);
  const Verdict v = AdjudicateShot(board.board, stands, shot, catalog, rules);
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
                          {"length_mm", c.length_mm},
                          {"ground", c.ground}});
  }
  // One camera does not measure how high a shot on a stand lies: where a height it could lie at
  // changes who is hit, say at which height, for the players to measure.
  a.height_check = CheckRulingHeight(p, view, board.board, stands, shot, catalog, rules,
                                     RestHeightCheckOptionsFor(proj_opt));
  if (const auto& height_check = a.height_check) {
    j["check"].push_back({{"reason", height_check->reason},
                          {"side", ""},
                          {"point", Pt(height_check->point_there)},
                          {"stand", height_check->stand_id},
                          {"height_mm", height_check->ruled_height_mm},
                          {"decides_height_mm", height_check->decides_height_mm},
                          {"decides_within_mm", height_check->decides_within_mm},
                          {"hit_stand_ids_there", height_check->hit_there},
                          {"if_base_of", height_check->outline_stand_id},
                          {"if_base", height_check->outline}});
  }
  // The camera puts the impact to about a pixel and the bases' edges to about a pixel and a
  // share of the frame's blur: a stand nearer the circle's edge than that is measured by the
  // players, not called.
  a.close_call = CheckRulingCloseCall(p, view, board.board, stands, shot, catalog, rules,
                                      a.stands.blur_mm, CloseCallOptionsFor(board));
  if (const auto& close_call = a.close_call) {
    std::vector<std::string> ids;
    for (const CloseStand& s : close_call->stands) ids.push_back(s.id);
    j["check"].push_back({{"reason", close_call->reason},
                          {"side", ""},
                          {"point", Pt(close_call->point_there)},
                          {"stand", ids.front()},
                          {"close_call_stands", ids},
                          {"changes_mm", close_call->stands.front().changes_mm},
                          {"error_mm", close_call->error_mm},
                          {"unseen_point_mm", close_call->unseen_mm},
                          {"stand_edge_mm", close_call->edge_mm},
                          {"hit_stand_ids_there", close_call->hit_there}});
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
  if (a.height_check) std::cout << "CHECK: " << a.height_check->reason << "\n";
  if (a.close_call) std::cout << "CHECK: " << a.close_call->reason << "\n";
  return Write(opt, j);
}

}  // namespace referee::cli
