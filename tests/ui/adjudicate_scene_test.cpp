// `referee adjudicate-scene` end to end: the bundled scenes give the rulings their descriptions
// promise, the printed distances agree with a brute-force minimisation to 1e-9 inch, and bad
// input gives exit code 2 and one line naming the file and the field.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct ProcessResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

ProcessResult Referee(const std::string& args) {
  const fs::path dir = fs::path(REFEREE_TEST_TMP) / "adjudicate_scene_test";
  fs::create_directories(dir);
  const fs::path err_path = dir / "stderr.txt";
  const std::string cmd =
      std::string(REFEREE_BINARY) + " adjudicate-scene " + args + " 2>" + err_path.string();
  ProcessResult r;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (pipe == nullptr) return r;
  std::array<char, 4096> buf{};
  size_t n = 0;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) r.out.append(buf.data(), n);
  const int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream in(err_path);
  r.err.assign(std::istreambuf_iterator<char>(in), {});
  return r;
}

fs::path ScenesDir() { return fs::path(REFEREE_SOURCE_DIR) / "datasets" / "scenes"; }

json ReadJson(const fs::path& p) {
  std::ifstream in(p);
  return json::parse(in);
}

struct P {
  double x, y;
};

// Distance from p to segment ab by minimising over the parameter (ternary search on a convex
// function), not by the projection formula the engine uses.
double BruteSegment(P p, P a, P b) {
  auto f = [&](double t) {
    return std::hypot(a.x + t * (b.x - a.x) - p.x, a.y + t * (b.y - a.y) - p.y);
  };
  double lo = 0.0, hi = 1.0;
  for (int i = 0; i < 200; ++i) {
    const double m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
    if (f(m1) < f(m2)) {
      hi = m2;
    } else {
      lo = m1;
    }
  }
  return std::min({f(0.0), f(1.0), f(0.5 * (lo + hi))});
}

// The stand's corners front-left, front-right, rear-right, rear-left from centre, size and angle
// (TABLE_KIT/geometry.hpp convention: the front is the -depth side).
std::array<P, 4> Corners(P c, double w, double d, double angle_deg) {
  const double a = angle_deg * M_PI / 180.0;
  const P ax{std::cos(a), std::sin(a)}, ay{-std::sin(a), std::cos(a)};
  auto at = [&](double u, double v) {
    return P{c.x + u * ax.x + v * ay.x, c.y + u * ax.y + v * ay.y};
  };
  return {at(-w / 2, -d / 2), at(w / 2, -d / 2), at(w / 2, d / 2), at(-w / 2, d / 2)};
}

double BruteRect(P p, const std::array<P, 4>& c) {
  bool pos = false, neg = false;
  double best = 1e300;
  for (int i = 0; i < 4; ++i) {
    const P a = c[i], b = c[(i + 1) % 4];
    const double cross = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x);
    pos |= cross > 0;
    neg |= cross < 0;
    best = std::min(best, BruteSegment(p, a, b));
  }
  return (pos && neg) ? best : 0.0;
}

// Brute-force rule distances for every stand of a scene, by the ruleset's reference
// (Ancient: chariots, elephants and catapults are measured to the front edge).
std::map<std::string, double> BruteDistances(const json& scene, const std::string& ruleset) {
  const json kinds =
      ReadJson(fs::path(REFEREE_SOURCE_DIR) / "engine" / "rulesets" / "stand_kinds.json")["kinds"];
  const P tip{scene["shot"]["point"][0].get<double>(), scene["shot"]["point"][1].get<double>()};
  std::map<std::string, double> out;
  for (const auto& s : scene["stands"]) {
    const auto& kind = kinds[s["kind"].get<std::string>()];
    double w = kind["base_mm"][0].get<double>() / 25.4, d = kind["base_mm"][1].get<double>() / 25.4;
    if (s.contains("size")) {
      w = s["size"][0].get<double>();
      d = s["size"][1].get<double>();
    }
    const auto c = Corners({s["center"][0].get<double>(), s["center"][1].get<double>()}, w, d,
                           s.value("angle_deg", 0.0));
    const std::string cat = kind["category"].get<std::string>();
    const bool front =
        ruleset == "ancient" && (cat == "chariot" || cat == "elephant" || cat == "catapult");
    out[s["id"].get<std::string>()] = front ? BruteSegment(tip, c[0], c[1]) : BruteRect(tip, c);
  }
  return out;
}

json Verdict(const std::string& scene, const std::string& extra = "");

TEST(AdjudicateScene, BundledScenesPrintDistancesThatAgreeWithBruteForce) {
  int scenes = 0, compared = 0;
  double max_deviation_in = 0.0;
  for (const auto& e : fs::directory_iterator(ScenesDir())) {
    if (e.path().extension() != ".json") continue;
    SCOPED_TRACE(e.path().string());
    const json verdict = Verdict(e.path().stem().string());
    const json scene = ReadJson(e.path());
    const auto brute = BruteDistances(scene, verdict["ruleset"].get<std::string>());
    for (const auto& [id, d] : brute) {
      const bool listed = verdict["distances"].contains(id);
      if (std::abs(d - 1.5) > 1e-6) {
        EXPECT_EQ(listed, d <= 1.5) << id << " at " << d;
      }
      if (listed) {
        EXPECT_NEAR(verdict["distances"][id].get<double>(), d, 1e-9) << id;
        max_deviation_in =
            std::max(max_deviation_in, std::abs(verdict["distances"][id].get<double>() - d));
        ++compared;
      }
    }
    ++scenes;
  }
  EXPECT_GE(scenes, 11);
  EXPECT_GE(compared, 20);
  std::cout << "adjudicate-scene: " << scenes << " scenes, " << compared
            << " distances, max |engine - brute force| = " << max_deviation_in << " in\n";
}

std::set<std::string> Ids(const json& arr) {
  std::set<std::string> s;
  for (const auto& v : arr) s.insert(v.get<std::string>());
  return s;
}

// The referee links OpenCV and GL, so each start costs; run every scene/option pair once.
json Verdict(const std::string& scene, const std::string& extra) {
  static std::map<std::string, json> cache;
  const std::string key = scene + " " + extra;
  if (const auto it = cache.find(key); it != cache.end()) return it->second;
  const ProcessResult r = Referee((ScenesDir() / (scene + ".json")).string() + " --json " + extra);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return cache[key] = json::parse(r.out);
}

TEST(AdjudicateScene, BundledScenesRuleAsTheirDescriptionsSay) {
  EXPECT_EQ(Ids(Verdict("clear_hit")["candidates"]), (std::set<std::string>{"r1", "r2"}));
  EXPECT_EQ(Ids(Verdict("graze_inside")["candidates"]), (std::set<std::string>{"r1"}));
  EXPECT_TRUE(Verdict("miss_outside")["candidates"].empty());
  const json touched = Verdict("gun_touched");
  EXPECT_EQ(Ids(touched["destroyed_equipment"]), (std::set<std::string>{"b_g1"}));
  EXPECT_EQ(Ids(touched["destroyed_crew"]), (std::set<std::string>{"b_c1"}));
  const json untouched = Verdict("gun_not_touched");
  EXPECT_TRUE(untouched["destroyed_equipment"].empty());
  EXPECT_TRUE(untouched["candidates"].empty());
  const json water = Verdict("over_water");
  EXPECT_TRUE(water["over_water"].get<bool>());
  EXPECT_TRUE(water["candidates"].empty());
  EXPECT_EQ(Ids(Verdict("protected_square")["candidates"]), (std::set<std::string>{"b2"}));
  const json woods = Verdict("inflammable_woods");
  EXPECT_TRUE(woods["fire_roll"].get<bool>());
  EXPECT_EQ(Ids(woods["candidates"]), (std::set<std::string>{"b1"}));
  EXPECT_TRUE(Verdict("house_fire")["fire_roll"].get<bool>());
  EXPECT_EQ(Ids(Verdict("friendly_fire")["candidates"]), (std::set<std::string>{"b1", "r1"}));
  const json screened = Verdict("field_gun_screened");
  EXPECT_EQ(screened["screening"], "screened");
  EXPECT_TRUE(screened["candidates"].empty());
  EXPECT_EQ(Verdict("field_gun_clear")["screening"], "clear");
  const json how = Verdict("howitzer_not_screened");
  EXPECT_EQ(how["screening"], "not_applicable");
  EXPECT_EQ(Ids(how["candidates"]), (std::set<std::string>{"r1"}));
  const json anc = Verdict("ancient_catapult");
  EXPECT_EQ(anc["ruleset"], "ancient");
  EXPECT_EQ(Ids(anc["candidates"]), (std::set<std::string>{"r_inf"}));
  // The reading option.
  EXPECT_EQ(Verdict("clear_hit", "--reading every")["casualties_required"], 2);
  EXPECT_EQ(Verdict("clear_hit")["casualties_required"], 1);
}

TEST(AdjudicateScene, TextVerdictIsReadable) {
  const ProcessResult r = Referee((ScenesDir() / "gun_touched.json").string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("destroyed equipment: b_g1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Napoleonic 2F"), std::string::npos);
  EXPECT_NE(r.out.find("DESTROYED"), std::string::npos);
}

// Writes `text` as a scene and checks exit 2 and one stderr line naming the file and field.
void ExpectBadInput(const std::string& name, const std::string& text, const std::string& field,
                    const std::string& extra = "") {
  SCOPED_TRACE(name);
  const fs::path dir = fs::path(REFEREE_TEST_TMP) / "adjudicate_scene_test";
  fs::create_directories(dir);
  const fs::path p = dir / name;
  std::ofstream(p) << text;
  const ProcessResult r = Referee(p.string() + " " + extra);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(r.out.empty()) << r.out;
  ASSERT_FALSE(r.err.empty());
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "one line: " << r.err;
  EXPECT_NE(r.err.find(p.string()), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(": " + field + ": "), std::string::npos) << r.err;
}

const std::string kBoard = R"("board": {"cols": 12, "rows": 8, "square_size": 4})";
const std::string kShot = R"("shot": {"kind": "field", "point": [10, 11], "firer_side": "blue"})";
std::string Scene(const std::string& stands, const std::string& shot = kShot) {
  return "{" + kBoard + R"(, "stands": [)" + stands + "], " + shot + "}";
}
const std::string kStand =
    R"({"id": "r1", "side": "red", "kind": "line_infantry", "center": [10, 10]})";

TEST(AdjudicateScene, BadInputExitsTwoWithOneLineNamingFileAndField) {
  ExpectBadInput("missing_board.json", "{" + kShot + "}", "board");
  ExpectBadInput("missing_center.json",
                 Scene(R"({"id": "r1", "side": "red", "kind": "line_infantry"})"),
                 "stands[0].center");
  ExpectBadInput("wrong_type.json",
                 Scene(R"({"id": "r1", "side": "red", "kind": "line_infantry", "center": "A1"})"),
                 "stands[0].center");
  ExpectBadInput("infinite.json", Scene(R"({"id": "r1", "side": "red", "kind": "line_infantry",
                          "center": [1e999, 10]})"),
                 "stands[0].center[0]");
  ExpectBadInput("nan.json", Scene(kStand, R"("shot": {"kind": "field", "point": [NaN, 1],
                                             "firer_side": "blue"})"),
                 "shot.point[0]");
  ExpectBadInput(
      "unknown_kind.json",
      Scene(R"({"id": "r1", "side": "red", "kind": "hussar_of_mars", "center": [10, 10]})"),
      "stands[0].kind");
  ExpectBadInput(
      "outside.json",
      Scene(R"({"id": "r1", "side": "red", "kind": "line_infantry", "center": [10, 40]})"),
      "stands[0].center");
  ExpectBadInput("duplicate.json",
                 Scene(kStand + R"(, {"id": "r1", "side": "red", "kind": "line_infantry",
                                     "center": [30, 10]})"),
                 "stands[1].id");
  ExpectBadInput("overlap.json",
                 Scene(kStand + R"(, {"id": "r2", "side": "red", "kind": "line_infantry",
                                     "center": [10.2, 10.1]})"),
                 "stands[1]");
  ExpectBadInput("no_shot.json", "{" + kBoard + R"(, "stands": [])" + "}", "shot");
  ExpectBadInput("field_in_ancient.json", Scene(kStand), "shot.kind", "--ruleset ancient");
  ExpectBadInput("bad_ruleset.json", "{\"ruleset\": \"wells\", " + kBoard + ", " + kShot + "}",
                 "ruleset");
}

TEST(AdjudicateScene, UsageErrorsExitTwo) {
  EXPECT_EQ(Referee("").exit_code, 2);
  EXPECT_EQ(Referee((ScenesDir() / "clear_hit.json").string() + " --ruleset cordery").exit_code, 2);
  EXPECT_EQ(Referee((ScenesDir() / "clear_hit.json").string() + " --bogus").exit_code, 2);
  const ProcessResult missing = Referee("/nonexistent/scene.json");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("/nonexistent/scene.json"), std::string::npos);
  EXPECT_EQ(Referee("--help").exit_code, 0);
}

}  // namespace
