// `referee rules ...` as a user runs it: every case file in datasets/rules_cases/ through
// `referee rules melee --json` against the outcome worked out by hand in its "expect", the
// fire command with typed-in dice, the army lists, and one-line errors with exit code 2.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

namespace {

struct CliRun {
  int code = -1;
  std::string out;
};

CliRun Referee(const std::string& args) {
  const std::string cmd = std::string(REFEREE_BINARY) + " " + args + " 2>&1";
  CliRun r;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf{};
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  const int status = pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

const std::filesystem::path kCases =
    std::filesystem::path(REFEREE_SOURCE_DIR) / "datasets" / "rules_cases";

TEST(RulesCli, EveryCaseFileGivesItsExpectedOutcome) {
  int files = 0;
  for (const auto& e : std::filesystem::directory_iterator(kCases)) {
    if (e.path().extension() != ".json") continue;
    ++files;
    std::ifstream in(e.path());
    const auto c = nlohmann::json::parse(in);
    const CliRun r = Referee("rules melee " + e.path().string() + " --json");
    ASSERT_EQ(r.code, 0) << e.path() << "\n" << r.out;
    const auto o = nlohmann::json::parse(r.out);
    const auto& x = c.at("expect");
    SCOPED_TRACE(e.path().filename().string());
    EXPECT_DOUBLE_EQ(o.at("attacker_loss").get<double>(), x.at("attacker_loss").get<double>());
    EXPECT_DOUBLE_EQ(o.at("defender_loss").get<double>(), x.at("defender_loss").get<double>());
    EXPECT_EQ(o.at("retreats"), x.at("retreats"));
    EXPECT_EQ(o.at("destroyed"), x.at("destroyed"));
    EXPECT_EQ(o.at("clause"), x.at("clause"));
  }
  EXPECT_GE(files, 6);
}

TEST(RulesCli, FiveFExampleLosesThreeStandsOnHeads) {
  const CliRun r =
      Referee("rules melee " + (kCases / "napoleonic_5f_example.json").string() + " --json");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto o = nlohmann::json::parse(r.out);
  EXPECT_EQ(o.at("attacker_stands_lost"),
            (nlohmann::json{"line_infantry", "guards_cavalry", "line_infantry"}));
  EXPECT_DOUBLE_EQ(o.at("attacker_points_lost").get<double>(), 4.0);
  ASSERT_EQ(o.at("dice").size(), 1u);
  EXPECT_EQ(o.at("dice")[0].at("kind"), "coin");
}

TEST(RulesCli, FireWithTypedDice) {
  // Guards infantry, 4 stands + guards die + commander = 6 dice at line cavalry (heavy
  // cavalry row) 1.5 squares away: "double 1" -> the pair of ones is one hit.
  const CliRun r = Referee(
      "rules fire --ruleset napoleonic --firer guards_infantry --stands 4 --commander --target "
      "line_cavalry "
      "--range 1.5 --dice 1,1,3,4,5,6 --json");
  ASSERT_EQ(r.code, 0) << r.out;
  const auto o = nlohmann::json::parse(r.out);
  EXPECT_EQ(o.at("dice"), 6);
  EXPECT_EQ(o.at("hits"), 1);
  EXPECT_EQ(o.at("band"), "1.5-2");
  // Wrong number of dice typed in: one line, exit 2.
  const CliRun bad = Referee(
      "rules fire --ruleset napoleonic --firer guards_infantry --stands 4 --target line_cavalry "
      "--range 1 --dice 1,2");
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.out.find("--dice"), std::string::npos) << bad.out;
  // Canister: 3 dice per field gun shot, kill as musketry at range 1.
  const CliRun can = Referee(
      "rules fire --ruleset napoleonic --canister field_gun --shots 2 --target light_infantry "
      "--range 1 --dice 1,2,3,4,5,6 --json");
  ASSERT_EQ(can.code, 0) << can.out;
  EXPECT_EQ(nlohmann::json::parse(can.out).at("hits"), 3);
}

TEST(RulesCli, ArmyListsAndPoints) {
  const CliRun list = Referee("rules army");
  ASSERT_EQ(list.code, 0) << list.out;
  for (const char* a : {"division", "egyptian", "assyrian", "macedonian", "indian", "roman",
                        "carthaginian", "generic"})
    EXPECT_NE(list.out.find(a), std::string::npos) << a;
  const CliRun indian = Referee("rules army indian --json");
  ASSERT_EQ(indian.code, 0) << indian.out;
  // ancient.json's one reading: 205 (the text prints 201; see its "contradictions").
  const auto ij = nlohmann::json::parse(indian.out);
  EXPECT_DOUBLE_EQ(ij.at("points").get<double>(), 205);
  EXPECT_DOUBLE_EQ(ij.at("printed_points").get<double>(), 201);
  const CliRun div = Referee("rules army division --json");
  EXPECT_DOUBLE_EQ(nlohmann::json::parse(div.out).at("points").get<double>(), 180);
  const CliRun none = Referee("rules army atlantean");
  EXPECT_EQ(none.code, 2);
}

TEST(RulesCli, BadCaseIsOneLineNamingTheField) {
  const auto dir = std::filesystem::path(REFEREE_TEST_TMP) / "rules_cli";
  std::filesystem::create_directories(dir);
  const auto p = dir / "bad.json";
  std::ofstream(p)
      << R"({"ruleset": "napoleonic", "attacker": {"strength": 4, "mdi": "hedgehog"}, "defender": {"strength": 3, "mdi": "line"}})";
  const CliRun r = Referee("rules melee " + p.string());
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("attacker.mdi"), std::string::npos) << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
}

// Wrong types and sizes anywhere in a case are the case file's one-line error naming the field.
// Before the fix these gave nlohmann's bare "type must be ..." / "cannot use value() with ...",
// a filesystem error, or (a count of a billion) an allocation the machine could not make.
TEST(RulesCli, WrongTypesInACaseNameTheFileAndField) {
  const auto dir = std::filesystem::path(REFEREE_TEST_TMP) / "rules_cli_types";
  std::filesystem::create_directories(dir);
  const std::string line = R"("defender": {"strength": 3, "mdi": "line"})";
  const std::pair<std::string, std::string> cases[] = {
      {R"({"ruleset": "napoleonic", "attacker": {"strength": 4, "mdi": 7}, )" + line + "}",
       "attacker.mdi"},
      {R"({"ruleset": "napoleonic", "attacker": {"strength": "4", "mdi": "line"}, )" + line + "}",
       "attacker.strength"},
      {R"({"ruleset": "napoleonic", "attacker": {"mdi": "line", "units": [3]}, )" + line + "}",
       "attacker.units[0]"},
      {R"({"ruleset": "napoleonic", "attacker": {"mdi": "line", "units": {"a": 1}}, )" + line + "}",
       "attacker.units"},
      {R"({"ruleset": "napoleonic", "attacker": {"mdi": "line", "units": [{"id": 4, "stands": {"line_infantry": 2}}]}, )" +
           line + "}",
       "attacker.units[0].id"},
      {R"({"ruleset": "napoleonic", "attacker": {"mdi": "line", "units": [{"stands": {"line_infantry": 1000000000}}]}, )" +
           line + "}",
       "attacker.units[0].stands.line_infantry"},
      {R"({"ruleset": "napoleonic", "protected_contact": [], "attacker": {"strength": 4, "mdi": "line"}, )" +
           line + "}",
       "protected_contact"},
      {R"({"ruleset": "napoleonic", "coins": 1, "attacker": {"strength": 4, "mdi": "line"}, )" +
           line + "}",
       "coins"},
      {R"({"ruleset": ")" + std::string(5000, 'a') +
           R"(", "attacker": {"strength": 4, "mdi": "line"}, )" + line + "}",
       "ruleset"},
      {"[1, 2]", "expected an object"},
  };
  int n = 0;
  for (const auto& [body, field] : cases) {
    const auto p = dir / ("case" + std::to_string(n++) + ".json");
    std::ofstream(p) << body;
    const CliRun r = Referee("rules melee " + p.string());
    SCOPED_TRACE(body.substr(0, 160));
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_EQ(r.out.rfind("referee rules: " + p.string() + ": " + field, 0), 0u) << r.out;
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
  }
}

}  // namespace
