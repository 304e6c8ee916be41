// Same seed, same bytes: in the library, and through `referee synth` (which renders scenes in
// parallel); a different seed gives a different table.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>

#include "datasets/scenario.hpp"
#include "datasets/shot_sequence.hpp"
#include "datasets/synth_scene.hpp"
#include "engine/data_paths.hpp"

namespace referee {
namespace {

namespace fs = std::filesystem;

fs::path TmpDir(const std::string& name) {
  fs::path dir = fs::path(REFEREE_TEST_TMP) / "synth_determinism" / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// Relative path -> file bytes, for every file under dir.
std::map<std::string, std::string> Files(const fs::path& dir) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (!e.is_regular_file()) continue;
    std::ifstream in(e.path(), std::ios::binary);
    out[fs::relative(e.path(), dir).string()] =
        std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  return out;
}

Scenario Napoleonic() { return LoadScenario(DatasetsDir() / "scenarios" / "napoleonic.json"); }

TEST(SynthDeterminism, SameSeedWritesIdenticalBytes) {
  Scenario sc = Napoleonic();
  sc.difficulty.hand_probability = 1.0;  // include the hand frame
  const SynthOptions opt{42, cv::Size(640, 360), 2, true};
  const fs::path a = TmpDir("a"), b = TmpDir("b"), c = TmpDir("c");
  WriteScene(GenerateScene(sc, opt, 3), a);
  WriteScene(GenerateScene(sc, opt, 3), b);
  const auto fa = Files(a), fb = Files(b);
  ASSERT_EQ(fa.size(), 5u);  // empty.png before.png after.jpg after_hand.jpg truth.json
  EXPECT_EQ(fa, fb);
  // Another seed: another camera, another layout.
  WriteScene(GenerateScene(sc, SynthOptions{43, cv::Size(640, 360), 2, true}, 3), c);
  const auto fc = Files(c);
  EXPECT_NE(fa.at("truth.json"), fc.at("truth.json"));
  EXPECT_NE(fa.at("after.jpg"), fc.at("after.jpg"));
}

TEST(SynthDeterminism, SequenceIsDeterministicAndEndsAtTheSceneTruth) {
  const Scenario sc = Napoleonic();
  const SynthOptions opt{5, cv::Size(320, 240), 1, true};
  SequenceOptions seq;
  seq.fps = 10;
  seq.lead_in_s = 0.2;
  seq.rest_s = 0.3;
  seq.hand_s = 1.0;
  seq.tail_s = 0.2;
  const fs::path a = TmpDir("seq_a"), b = TmpDir("seq_b");
  const int n = WriteShotSequence(sc, opt, 1, seq, a);
  EXPECT_EQ(WriteShotSequence(sc, opt, 1, seq, b), n);
  EXPECT_GT(n, 15);
  EXPECT_EQ(Files(a), Files(b));
  // The still scene of the same (seed, index) has the same truth as the sequence's rest pose.
  const SynthScene s = GenerateScene(sc, opt, 1);
  std::ifstream in(a / "truth.json");
  const std::string seq_truth((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
  EXPECT_EQ(seq_truth, TruthJson(s));
}

int RunSynthCli(const std::string& args) {
  const std::string cmd =
      std::string(REFEREE_BINARY) + " synth " + args + " 2>/dev/null >/dev/null";
  const int rc = std::system(cmd.c_str());
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

TEST(SynthDeterminism, CommandLineRunsAreByteIdentical) {
  const fs::path a = TmpDir("cli_a"), b = TmpDir("cli_b");
  const std::string common = " --seed 9 --count 3 --size 480x270 --scenario " +
                             (DatasetsDir() / "scenarios" / "hard.json").string();
  ASSERT_EQ(RunSynthCli(common + " --out " + a.string()), 0);
  ASSERT_EQ(RunSynthCli(common + " --out " + b.string()), 0);
  const auto fa = Files(a);
  EXPECT_GE(fa.size(), 12u);  // 3 scenes x (4 images at least + truth)
  EXPECT_TRUE(fa.count("scene_0002/truth.json"));
  EXPECT_EQ(fa, Files(b));
}

TEST(SynthDeterminism, CommandLineBadInputExitsTwo) {
  const fs::path out = TmpDir("cli_bad");
  EXPECT_EQ(RunSynthCli("--seed 1 --out " + out.string() + " --size 12x"), 2);
  EXPECT_EQ(RunSynthCli("--seed 1 --out " + out.string() + " --scenario /no/such/file.json"), 2);
  EXPECT_EQ(RunSynthCli("--seed 1"), 2);  // no --out
}

}  // namespace
}  // namespace referee
