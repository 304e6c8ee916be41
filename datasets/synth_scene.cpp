#include "datasets/synth_scene.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>

#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>

#include "datasets/scene_layout.hpp"
#include "datasets/scene_renderer.hpp"
#include "datasets/scene_truth.hpp"
#include "engine/input_error.hpp"
#include "engine/shot_adjudication.hpp"
#include "engine/stand_kind_catalog_loader.hpp"
#include "engine/verdict.hpp"

namespace referee {

namespace {

using Json = nlohmann::ordered_json;

Json J(Vec2 p) { return Json::array({p.x, p.y}); }
Json J(cv::Point2d p) { return Json::array({p.x, p.y}); }

ExpectedVerdict ComputeVerdict(const SynthScene& s, const Scenario& scenario,
                               const StandKindCatalog& catalog, SynthRandom& rng) {
  ExpectedVerdict v;
  if (!s.projectile) return v;
  const ShotOptions options = LoadShotOptions(scenario.ruleset);
  v.ruleset = scenario.ruleset;
  v.hit_radius_in = options.hit_radius_in;
  Shot shot;
  if (s.projectile->kind == "qtip") {
    shot.kind = rng.Chance(0.5) ? ShotKind::kField : ShotKind::kHorse;
  } else {
    shot.kind = scenario.ruleset == "ancient" ? ShotKind::kCatapult : ShotKind::kHowitzer;
  }
  shot.point = s.projectile->point;
  shot.firer_side = scenario.sides[rng.Int(0, 1)].name;
  v.shot_kind = ShotKindName(shot.kind);
  v.firer_side = shot.firer_side;
  const double touch_in = MmToInches(options.equipment_touch_tolerance_mm);
  const double decisive_in = MmToInches(2.0);
  for (const auto& st : s.stands) {
    const StandKind* kind = catalog.Find(st.kind);
    StandMargin m;
    m.stand_id = st.id;
    m.distance_in = TargetDistance(shot.point, st, kind->category, options);
    m.margin_in = v.hit_radius_in - m.distance_in;
    v.margins.push_back(m);
    if (m.margin_in >= 0) v.hit_ids.push_back(st.id);
    if (std::abs(m.margin_in) <= decisive_in) v.decisive = false;
    const bool touch_only = std::find(options.touch_only.begin(), options.touch_only.end(),
                                      kind->category) != options.touch_only.end();
    if (touch_only && std::abs(m.distance_in - touch_in) <= decisive_in) v.decisive = false;
  }
  std::stable_sort(
      v.margins.begin(), v.margins.end(),
      [](const StandMargin& a, const StandMargin& b) { return a.distance_in < b.distance_in; });
  v.over_water = s.board.IsOverWater(shot.point);
  // The engine's own ruling on the true scene: what a perfect referee would say.
  const Verdict verdict = AdjudicateShot(s.board, s.stands, shot, catalog, options);
  v.verdict_json = VerdictToJson(verdict).dump();
  return v;
}

}  // namespace

LaidOutScene LayOutScene(const Scenario& scenario, const SynthOptions& options, int index) {
  if (options.size.width < 64 || options.size.height < 64) {
    throw InputError(scenario.file.string(), "size", "image size too small");
  }
  const StandKindCatalog kinds = LoadStandKinds();
  for (size_t i = 0; i < scenario.kinds.size(); ++i) {
    if (!kinds.Find(scenario.kinds[i])) {
      throw InputError(scenario.file.string(), "kinds[" + std::to_string(i) + "]",
                       "unknown stand kind '" + scenario.kinds[i] + "' (not in stand_kinds.json)");
    }
  }
  SynthRandom rng(options.seed, static_cast<uint64_t>(index));
  LaidOutScene out{SampleLayout(scenario, kinds, options.size, rng), {}, rng};
  if (out.layout.projectile_kind == "shell" && scenario.shell_dot_offset_mm > 0) {
    // A stream of its own: every other draw, and so the rest of the scene, stays as it was.
    SynthRandom dot_rng(options.seed, static_cast<uint64_t>(index) ^ 0xd07d07d07ULL);
    OffsetShellDot(scenario.shell_dot_offset_mm, dot_rng, out.layout.shell);
  }
  const SceneLayout& L = out.layout;
  SynthScene& s = out.truth;
  s.index = index;
  s.seed = options.seed;
  s.scenario_name = scenario.name;
  s.camera = L.camera;
  s.board = L.board;
  s.markers = L.markers;
  s.lamp_in = L.lamp;
  s.shadow_strength = L.shadow_strength;
  s.shadows_on_solids = L.shadows_on_solids;
  s.jpeg_quality = L.photo.jpeg_quality;
  for (const auto& look : L.stands) {
    s.stands.push_back(look.stand);
    s.stand_height_in.push_back(look.elevation_in + look.thickness_in);
  }
  ProjectileTruth p;
  p.kind = L.projectile_kind;
  p.resting_on = L.resting_on;
  if (p.kind == "qtip") {
    p.point = {L.qtip.painted_end.x, L.qtip.painted_end.y};
    p.height_in = -L.qtip.painted_end.z;
    p.axis_height_in = p.height_in;
    p.painted_end = p.point;
    p.plain_end = {L.qtip.plain_end.x, L.qtip.plain_end.y};
    p.angle_deg =
        RadToDeg(std::atan2(p.painted_end.y - p.plain_end.y, p.painted_end.x - p.plain_end.x));
  } else {
    p.point = {L.shell.dot.x, L.shell.dot.y};
    p.height_in = -L.shell.dot.z;
    p.size_in = kShellSizeIn;
    p.angle_deg = L.shell.angle_deg;
  }
  s.projectile = p;
  SynthRandom verdict_rng = rng.Fork();
  s.verdict = ComputeVerdict(s, scenario, kinds, verdict_rng);
  const Grid& g = L.board.grid;
  for (int r = 0; r <= g.rows; ++r) {
    for (int c = 0; c <= g.cols; ++c) {
      s.grid_intersections_px.push_back(
          L.camera.ImageFromTable({c * g.square_size_in, r * g.square_size_in}, 0.0));
    }
  }

  out.rng = rng;
  return out;
}

SynthScene GenerateScene(const Scenario& scenario, const SynthOptions& options, int index) {
  LaidOutScene laid = LayOutScene(scenario, options, index);
  const SceneLayout& L = laid.layout;
  SynthScene& s = laid.truth;
  SynthRandom& rng = laid.rng;
  const ProjectileTruth& p = *s.projectile;
  const SceneRenderer renderer(L, options.supersample);
  SynthRandom photo = rng.Fork();
  std::vector<Solid> solids = StaticSolids(L, false);
  s.empty = renderer.Render(solids, photo);
  solids = StaticSolids(L, true);
  s.before = renderer.Render(solids, photo);
  const auto proj =
      p.kind == "qtip" ? QtipSolids(L.qtip, L.paint_bgr) : ShellSolids(L.shell, L.shell_bgr);
  solids.insert(solids.end(), proj.begin(), proj.end());
  s.after = renderer.Render(solids, photo);
  if (L.hand && options.with_hand_frame) {
    const auto hand = HandSolids(*L.hand);
    solids.insert(solids.end(), hand.begin(), hand.end());
    s.after_hand = renderer.Render(solids, photo);
  }
  return std::move(laid.truth);
}

std::string TruthJson(const SynthScene& s) {
  Json j;
  j["format"] = "referee-synth-truth/1";
  j["scenario"] = s.scenario_name;
  j["seed"] = s.seed;
  j["index"] = s.index;
  j["units"] =
      "table inches; pixels are distorted image pixels with (0,0) the centre of the top-left pixel";
  const CameraModel& c = s.camera;
  Json cam;
  cam["image_size"] = {c.image_size.width, c.image_size.height};
  Json k = Json::array();
  for (int r = 0; r < 3; ++r)
    k.push_back({c.camera_matrix(r, 0), c.camera_matrix(r, 1), c.camera_matrix(r, 2)});
  cam["K"] = k;
  cam["dist"] = {c.distortion[0], c.distortion[1], c.distortion[2], c.distortion[3],
                 c.distortion[4]};
  cam["rvec"] = {c.rvec_cam_from_table[0], c.rvec_cam_from_table[1], c.rvec_cam_from_table[2]};
  cam["tvec"] = {c.tvec_cam_from_table[0], c.tvec_cam_from_table[1], c.tvec_cam_from_table[2]};
  const cv::Vec3d cc = c.CameraCenterTable();
  cam["center_table"] = {cc[0], cc[1], cc[2]};
  j["camera"] = cam;
  j["lighting"] = {{"lamp", {s.lamp_in.x, s.lamp_in.y, s.lamp_in.z}},
                   {"shadow_strength", s.shadow_strength},
                   {"note",
                    "one point lamp (table inches, z = -height); every shadow is cast from "
                    "it onto the mat"}};
  if (s.shadows_on_solids) {  // only when on, so scenes without it keep their bytes
    j["lighting"]["shadows_on_solids"] = true;
    j["lighting"]["note"] =
        "one point lamp (table inches, z = -height); every shadow is cast from it onto the mat "
        "and onto the base tops, figures, roofs and shell above it";
  }

  const Grid& g = s.board.grid;
  Json board;
  board["cols"] = g.cols;
  board["rows"] = g.rows;
  board["square_size"] = g.square_size_in;
  board["markers"] = s.markers;
  if (s.markers) {
    board["marker_dictionary"] = "4x4_50";
    board["marker_size_in"] = 2.0;
    const double W = g.Width(), H = g.Height();
    board["marker_centers"] = {{-1.5, -1.5}, {W + 1.5, -1.5}, {W + 1.5, H + 1.5}, {-1.5, H + 1.5}};
  }
  Json terrain = Json::array();
  for (const auto& [sq, t] : s.board.terrain) {
    terrain.push_back(
        {{"square", {sq.col, sq.row}}, {"name", SquareName(sq)}, {"type", TerrainName(t)}});
  }
  board["terrain"] = terrain;
  Json features = Json::array();
  for (const auto& f : s.board.features) {
    Json outline = Json::array();
    for (const Vec2 v : f.outline.vertices) outline.push_back(J(v));
    features.push_back({{"id", f.id}, {"type", TerrainName(f.type)}, {"outline", outline}});
  }
  board["features"] = features;
  Json corners_px = Json::array();
  for (const Vec2 v :
       std::array<Vec2, 4>{Vec2{0, 0}, {g.Width(), 0}, {g.Width(), g.Height()}, {0, g.Height()}}) {
    corners_px.push_back(J(c.ImageFromTable(v, 0.0)));
  }
  board["grid_corners_px"] = corners_px;
  j["board"] = board;

  Json stands = Json::array();
  for (size_t i = 0; i < s.stands.size(); ++i) {
    const Stand& st = s.stands[i];
    const OrientedRect& fp = st.footprint;
    Json corners = Json::array(), cpx = Json::array();
    for (const Vec2 v : fp.Corners()) {
      corners.push_back(J(v));
      cpx.push_back(J(c.ImageFromTable(v, s.stand_height_in[i])));
    }
    const auto sq = g.SquareOf(fp.center);
    const Facing facing = NearestFacing(fp.angle_deg - 90.0);
    Json sj;
    sj["id"] = st.id;
    sj["side"] = st.side;
    sj["kind"] = st.kind;
    sj["center"] = J(fp.center);
    sj["size"] = {fp.width_in, fp.depth_in};
    sj["angle_deg"] = fp.angle_deg;
    sj["corners"] = corners;
    sj["corners_px"] = cpx;
    sj["center_px"] = J(c.ImageFromTable(fp.center, s.stand_height_in[i]));
    sj["height_in"] = s.stand_height_in[i];
    sj["square"] = sq ? Json::array({sq->col, sq->row}) : Json(nullptr);
    sj["facing"] = FacingName(facing);
    sj["facing_known"] = st.facing_known;
    stands.push_back(sj);
  }
  j["stands"] = stands;

  if (s.projectile) {
    const ProjectileTruth& p = *s.projectile;
    Json pj;
    pj["kind"] = p.kind;
    pj["point"] = J(p.point);
    pj["height_in"] = p.height_in;
    pj["point_px"] = J(c.ImageFromTable(p.point, p.height_in));
    pj["resting_on"] = p.resting_on.empty() ? Json(nullptr) : Json(p.resting_on);
    pj["angle_deg"] = p.angle_deg;
    if (p.kind == "qtip") {
      pj["painted_end"] = J(p.painted_end);
      pj["plain_end"] = J(p.plain_end);
      pj["axis_height_in"] = p.axis_height_in;
      pj["plain_end_px"] = J(c.ImageFromTable(p.plain_end, p.axis_height_in));
    } else {
      pj["size_in"] = p.size_in;
    }
    const auto sq = g.SquareOf(p.point);
    pj["square"] = sq ? Json::array({sq->col, sq->row}) : Json(nullptr);
    j["projectile"] = pj;
  }

  const ExpectedVerdict& v = s.verdict;
  Json vj;
  vj["ruleset"] = v.ruleset;
  vj["shot_kind"] = v.shot_kind;
  vj["firer_side"] = v.firer_side;
  vj["hit_radius_in"] = v.hit_radius_in;
  vj["hit_ids"] = v.hit_ids;
  vj["over_water"] = v.over_water;
  vj["decisive"] = v.decisive;
  Json margins = Json::array();
  for (const auto& m : v.margins) {
    margins.push_back(
        {{"stand_id", m.stand_id}, {"distance_in", m.distance_in}, {"margin_in", m.margin_in}});
  }
  vj["margins"] = margins;
  vj["engine"] = v.verdict_json.empty() ? Json(nullptr) : Json::parse(v.verdict_json);
  j["verdict"] = vj;

  j["grid_intersections_layout"] =
      "row-major, index = row * (cols + 1) + col, line centres at z = 0";
  Json gi = Json::array();
  for (const auto& q : s.grid_intersections_px) gi.push_back(J(q));
  j["grid_intersections_px"] = gi;
  j["images"] = {{"empty", "empty.png"},
                 {"before", "before.png"},
                 {"after", "after.jpg"},
                 {"after_hand", s.after_hand.empty() ? Json(nullptr) : Json("after_hand.jpg")}};
  return j.dump(1) + "\n";
}

void WriteScene(const SynthScene& s, const std::filesystem::path& dir, bool lossless) {
  std::filesystem::create_directories(dir);
  const std::vector<int> png{cv::IMWRITE_PNG_COMPRESSION, 1};
  const std::vector<int> jpg{cv::IMWRITE_JPEG_QUALITY, s.jpeg_quality};
  const auto write = [&](const std::string& name, const cv::Mat& img,
                         const std::vector<int>& params) {
    const auto path = dir / name;
    if (!cv::imwrite(path.string(), img, params)) {
      throw std::runtime_error("cannot write " + path.string());
    }
  };
  write(lossless ? "empty.png" : "empty.jpg", s.empty, lossless ? png : jpg);
  write(lossless ? "before.png" : "before.jpg", s.before, lossless ? png : jpg);
  write("after.jpg", s.after, jpg);
  if (!s.after_hand.empty()) write("after_hand.jpg", s.after_hand, jpg);
  std::ofstream out(dir / "truth.json", std::ios::binary);
  std::string truth = TruthJson(s);
  if (!lossless) {
    for (const char* name : {"empty", "before"}) {
      const std::string from = std::string("\"") + name + ".png\"";
      truth.replace(truth.find(from), from.size(), std::string("\"") + name + ".jpg\"");
    }
  }
  out << truth;
  if (!out) throw std::runtime_error("cannot write " + (dir / "truth.json").string());
}

}  // namespace referee
