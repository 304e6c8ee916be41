// `referee log check LOG`: validate a game log, print every bad line with its number.
// `referee log write-test LOG --events N`: (hidden, for the crash test) resume LOG and append
// events, printing each acknowledged seq on its own line as soon as it is acknowledged.
#include <boost/program_options.hpp>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "engine/game_log.hpp"
#include "engine/input_error.hpp"
#include "ui/cli/command_line.hpp"
#include "ui/cli/commands.hpp"

namespace referee::cli {

namespace {

namespace po = boost::program_options;

struct LogCheckOptions {
  std::string log_path;
  void Check() const {
    if (log_path.empty()) throw InputError("command line", "LOG", "missing game log file");
  }
};

struct LogWriteTestOptions {
  std::string log_path;
  long events = 100;         // how many events to append; the crash test kills us long before
  long payload_bytes = 200;  // padding per event; large values make torn writes likely
  void Check() const {
    if (log_path.empty()) throw InputError("command line", "LOG", "missing game log file");
    if (events < 0) throw InputError("command line", "--events", "must be >= 0");
    if (payload_bytes < 0 || payload_bytes > (64 << 20))
      throw InputError("command line", "--payload-bytes", "must be in [0, 64 MiB]");
  }
};

int RunLogCheck(const std::vector<std::string>& args) {
  LogCheckOptions opt;
  po::options_description desc("usage: referee log check LOG.jsonl");
  desc.add_options()("help,h", "show this help")("log", po::value(&opt.log_path), "LOG.jsonl");
  po::positional_options_description pos;
  pos.add("log", 1);
  po::variables_map vm;
  if (!ParseCommandLine(args, desc, pos, vm)) return 0;  // --help was printed
  opt.Check();
  const GameLog log = ReadGameLog(opt.log_path);
  std::map<std::string, int> by_type;
  for (const auto& e : log.events) ++by_type[e.type()];
  const GameState state = FoldGameLog(log.events);
  std::cout << opt.log_path << ": " << log.events.size() << " events";
  if (!log.events.empty())
    std::cout << " (seq " << log.events.front().seq << ".." << log.last_seq << ")";
  std::cout << ", " << log.problems.size() << " bad line" << (log.problems.size() == 1 ? "" : "s")
            << ", " << state.undone_seqs.size() << " undone\n";
  for (const auto& [type, n] : by_type) std::cout << "  " << type << ": " << n << "\n";
  for (const auto& p : log.problems)
    std::cout << opt.log_path << ":" << p.line << ": " << p.what << "\n";
  if (!log.problems.empty())
    std::cout << "every complete event before and after the bad lines is kept; the game can "
                 "resume\n";
  return log.problems.empty() ? 0 : 1;
}

int RunLogWriteTest(const std::vector<std::string>& args) {
  LogWriteTestOptions opt;
  po::options_description desc("usage: referee log write-test LOG.jsonl --events N");
  desc.add_options()("help,h", "show this help")("log", po::value(&opt.log_path), "LOG.jsonl")(
      "events", po::value(&opt.events), "events to append (default 100)")(
      "payload-bytes", po::value(&opt.payload_bytes), "padding per event (default 200)");
  po::positional_options_description pos;
  pos.add("log", 1);
  po::variables_map vm;
  if (!ParseCommandLine(args, desc, pos, vm)) return 0;  // --help was printed
  opt.Check();
  GameLogWriter writer(opt.log_path);
  const std::string pad(static_cast<size_t>(opt.payload_bytes), 'x');
  for (long i = 0; i < opt.events; ++i) {
    // The event names the seq it expects, so a reader can tell a misplaced event.
    const int64_t expect = writer.next_seq();
    const int64_t seq =
        writer.Append(FirerChoice{"", "red", "write_test", {{"expect_seq", expect}, {"pad", pad}}});
    std::cout << seq << std::endl;  // flushed: the parent only counts what it has read
  }
  return 0;
}

}  // namespace

int RunLog(const std::vector<std::string>& args) {
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    (args.empty() ? std::cerr : std::cout)
        << "usage: referee log check LOG.jsonl   validate a game log, print bad lines with their "
           "line numbers\n";
    return args.empty() ? 2 : 0;
  }
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  if (args[0] == "check") return RunLogCheck(rest);
  if (args[0] == "write-test") return RunLogWriteTest(rest);  // hidden: the crash test's writer
  throw InputError("command line", "", "unknown log subcommand '" + args[0] + "' (check)");
}

}  // namespace referee::cli
