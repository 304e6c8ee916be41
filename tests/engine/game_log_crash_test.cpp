// A crash at any moment loses at most the event being written: a writer appends events and is
// killed with SIGKILL at random moments (mostly after its first acknowledged event, some during
// its start-up and resume); after each kill the log is resumed and every acknowledged event
// must be there exactly once, nothing duplicated. Every third writer is the real `referee log
// write-test` process, the others the same writer code in a fork of this process: each start
// of the binary maps some 250 shared libraries (about 0.3 s, most of the test's time when every
// writer was the binary). Seed: REFEREE_SEED (default 8); a failure prints it.
// REFEREE_CRASH_FORK=1 forks every writer (for a machine where exec is very slow).
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <map>
#include <random>
#include <set>
#include <string>
#include <thread>

#include "engine/game_log.hpp"
#include "game_log_test_util.hpp"

namespace referee {
namespace {

struct Trial {
  std::vector<int64_t> acked;  // seqs the writer printed before it died
  bool exited_by_kill = false;
};

// What `referee log write-test` does, in a forked copy of this process: resume the log and
// append events, writing each acknowledged seq to `out_fd` as soon as it is acknowledged.
[[noreturn]] void WriteUntilKilled(const std::filesystem::path& log, long payload_bytes,
                                   int out_fd) {
  GameLogWriter writer(log);
  const std::string pad(static_cast<size_t>(payload_bytes), 'x');
  for (;;) {
    const int64_t expect = writer.next_seq();
    const int64_t seq =
        writer.Append(FirerChoice{"", "red", "write_test", {{"expect_seq", expect}, {"pad", pad}}});
    const std::string line = std::to_string(seq) + "\n";
    if (::write(out_fd, line.data(), line.size()) < 0) ::_exit(1);
  }
}

// Starts a writer (the real `referee` binary when `exec_binary`, else a fork of this process
// running the same writer code), lets it run for `run_us` (counted from its first acknowledged
// event when `from_first_ack`, else from its start), kills it with SIGKILL, and collects what
// it acknowledged.
Trial RunAndKill(const std::filesystem::path& log, long payload_bytes, long run_us,
                 bool exec_binary, bool from_first_ack) {
  int fds[2];
  if (::pipe(fds) != 0) ADD_FAILURE() << "pipe failed";
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(fds[0]);
    if (!exec_binary) {
      try {
        WriteUntilKilled(log, payload_bytes, fds[1]);
      } catch (...) {
        ::_exit(1);
      }
    }
    ::dup2(fds[1], STDOUT_FILENO);
    ::close(fds[1]);
    const std::string pad = std::to_string(payload_bytes);
    ::execl(REFEREE_BINARY, REFEREE_BINARY, "log", "write-test", log.c_str(), "--events", "1000000",
            "--payload-bytes", pad.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::close(fds[1]);
  std::string out;
  char buf[4096];
  if (exec_binary && from_first_ack) {
    // The binary's start-up time varies with the machine's load: start the clock at its first
    // acknowledged event.
    const ssize_t n = ::read(fds[0], buf, sizeof buf);
    if (n > 0) out.append(buf, static_cast<size_t>(n));
  }
  std::this_thread::sleep_for(std::chrono::microseconds(run_us));
  ::kill(pid, SIGKILL);
  for (;;) {
    const ssize_t n = ::read(fds[0], buf, sizeof buf);
    if (n > 0) {
      out.append(buf, static_cast<size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    break;
  }
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  Trial t;
  t.exited_by_kill = WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
  // Only whole lines count: a seq is acknowledged once its line (with '\n') was printed.
  size_t pos = 0;
  for (size_t end; (end = out.find('\n', pos)) != std::string::npos; pos = end + 1)
    t.acked.push_back(std::stoll(out.substr(pos, end - pos)));
  return t;
}

TEST(GameLogCrash, SigkillAtRandomMomentsLosesNoAcknowledgedEvent) {
  const char* env_seed = std::getenv("REFEREE_SEED");
  const unsigned seed = env_seed ? static_cast<unsigned>(std::atoi(env_seed)) : 8u;
  SCOPED_TRACE("seed " + std::to_string(seed) + " (set REFEREE_SEED to replay)");
  std::mt19937 rng(seed);
  const auto dir = testing::FreshDir("game_log_crash");
  const bool fork_only = std::getenv("REFEREE_CRASH_FORK") != nullptr;
  const auto start = std::chrono::steady_clock::now();

  // 11 games of 20 kills each: a fresh log per game keeps each resume's read short.
  constexpr int kTrials = 220, kTrialsPerGame = 20;
  std::filesystem::path log;
  std::set<int64_t> all_acked;
  int kills = 0, torn_lines = 0, total_acked = 0, total_torn = 0, execs = 0;
  for (int trial = 0; trial < kTrials; ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    if (trial % kTrialsPerGame == 0) {
      log = dir / ("game" + std::to_string(trial / kTrialsPerGame) + ".jsonl");
      total_acked += static_cast<int>(all_acked.size());
      total_torn += torn_lines;
      all_acked.clear();
      torn_lines = 0;
    }
    // Mostly small events; every fourth trial writes 24 kB lines (6 pages) so that a kill can
    // tear a write in the middle.
    const long payload = trial % 4 == 3 ? 24 * 1024 : 150;
    const long run_us = std::uniform_int_distribution<long>(0, 50000)(rng);
    // Every fifth kill lands at a random moment after the start, so also during the writer's
    // start-up and resume (ending a torn line); the others after it acknowledged an event.
    const bool from_first_ack = trial % 5 != 4;
    // Every third trial runs the binary: 3 is prime to the 4 and 5 above, so the binary also
    // writes the long lines and is killed during its start-up.
    const bool exec_binary = !fork_only && trial % 3 == 0;
    const Trial t = RunAndKill(log, payload, run_us, exec_binary, from_first_ack);
    execs += exec_binary;
    kills += t.exited_by_kill;
    if (std::getenv("CRASH_DEBUG"))
      std::printf("trial %d run %ld us payload %ld acked %zu size %ld\n", trial, run_us, payload,
                  t.acked.size(),
                  std::filesystem::exists(log) ? (long)std::filesystem::file_size(log) : -1L);
    ASSERT_TRUE(t.exited_by_kill || t.acked.empty()) << "writer ended on its own";
    for (size_t i = 1; i < t.acked.size(); ++i) ASSERT_EQ(t.acked[i], t.acked[i - 1] + 1);
    for (int64_t s : t.acked)
      ASSERT_TRUE(all_acked.insert(s).second) << "seq " << s << " acked twice";

    if (!std::filesystem::exists(log)) {
      ASSERT_TRUE(all_acked.empty());
      continue;
    }
    const GameLog read = ReadGameLog(log);
    // Seqs are 1..last with no gap: the writer numbers from complete events only.
    for (size_t i = 0; i < read.events.size(); ++i) {
      ASSERT_EQ(read.events[i].seq, static_cast<int64_t>(i + 1));
      const auto* e = read.events[i].As<FirerChoice>();
      ASSERT_NE(e, nullptr);
      ASSERT_EQ(e->details.at("expect_seq").get<int64_t>(), read.events[i].seq);
    }
    // The only bad lines allowed are torn writes, one per kill at most; never a duplicate.
    for (const auto& p : read.problems)
      ASSERT_EQ(p.what.find("seq"), std::string::npos) << "line " << p.line << ": " << p.what;
    torn_lines = static_cast<int>(read.problems.size());
    ASSERT_LE(torn_lines, trial % kTrialsPerGame + 1);
    // Every acknowledged event is there, exactly once (seqs are unique and contiguous).
    for (int64_t s : all_acked) ASSERT_LE(s, read.last_seq) << "acknowledged seq " << s << " lost";
  }
  total_acked += static_cast<int>(all_acked.size());
  total_torn += torn_lines;
  EXPECT_GE(kills, kTrials * 9 / 10);
  EXPECT_GT(total_acked, 200) << "the writer hardly ran: the test proved little";

  // After all that, the game resumes and further appends work.
  auto resumed = ResumeGameLog(log);
  const int64_t next = resumed.writer.next_seq();
  EXPECT_EQ(resumed.writer.Append(TurnChange{2, "blue", "movement"}), next);
  const GameLog final_log = ReadGameLog(log);
  ASSERT_FALSE(final_log.events.empty());
  EXPECT_EQ(final_log.events.back().seq, next);
  EXPECT_EQ(final_log.events.back().type(), "turn_change");
  std::printf(
      "crash test: %d trials, %d kills, %d acknowledged events all kept once, %d torn "
      "lines reported and skipped (seed %u); %d writers the real `referee log write-test`, "
      "the others forked, %.1f s\n",
      kTrials, kills, total_acked, total_torn, seed, execs,
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
}

}  // namespace
}  // namespace referee
